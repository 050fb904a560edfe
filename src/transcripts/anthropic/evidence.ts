/**
 * The evidence reader of `anthropic`: the client calls of each model message with the result
 * answering each. A model message is an assistant message; a result is the first `tool_result` with its id after the call. Internal.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { group, text, type Turns } from '../core/turns.ts';
import { readAnthropic } from './check.ts';

/** The turns of anthropic `messages`, by model message index. */
export function readAnthropicTurns(messages: readonly unknown[]): Turns {
  const read = readAnthropic(messages);
  const block = (m: number, s: number) => ((messages[m] as JsonObject)['content'] as JsonObject[])[s] as JsonObject;
  return group(
    read.calls,
    read.results.map((r) => ({
      key: r.key,
      seq: r.seq,
      value: () => {
        const b = block(r.message, r.slot);
        return { payload: b['content'] ?? null, error: b['is_error'] === true ? text(b['content']) : undefined };
      },
    })),
    (call) => block(call.message, call.slot)['input'],
  );
}
