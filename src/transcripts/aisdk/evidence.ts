/**
 * The evidence reader of `aisdk`: the client calls of each model message with the result
 * answering each. A model message is an assistant message; `error-text`, `error-json` and `execution-denied` outputs are error results. Internal.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { group, text, type Turns } from '../core/turns.ts';
import { readAISDK } from './check.ts';

/** The turns of aisdk `messages`, by model message index. */
export function readAISDKTurns(messages: readonly unknown[]): Turns {
  const read = readAISDK(messages);
  const part = (m: number, s: number) => ((messages[m] as JsonObject)['content'] as JsonObject[])[s] as JsonObject;
  return group(
    read.calls,
    read.results.map((r) => ({
      key: r.key,
      seq: r.seq,
      value: () => {
        const output = part(r.message, r.slot)['output'] as JsonObject;
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
    })),
    (call) => part(call.message, call.slot)['input'] ?? null,
  );
}
