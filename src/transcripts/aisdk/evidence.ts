/**
 * The evidence reader of `aisdk`: the client calls of each assistant message with the result
 * answering each; `error-text`, `error-json` and `execution-denied` outputs are error results.
 * Internal.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { blockTurns, text, type Turns } from '../core/turns.ts';
import { readAISDK } from './check.ts';

/** The turns of aisdk `messages`, by model message index. */
export function readAISDKTurns(messages: readonly unknown[]): Turns {
  const read = readAISDK(messages);
  return blockTurns(
    messages,
    read.calls,
    read.results,
    (part) => {
      const output = part['output'] as JsonObject;
      const kind = output['type'];
      const failed = kind === 'error-text' || kind === 'error-json' || kind === 'execution-denied';
      return {
        payload: output['value'] ?? output['reason'] ?? null,
        error: failed
          ? kind === 'execution-denied'
            ? `execution denied${output['reason'] === undefined ? '' : `: ${text(output['reason'])}`}`
            : text(output['value'])
          : undefined,
      };
    },
    (part) => part['input'] ?? null,
  );
}
