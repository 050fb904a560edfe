/**
 * The evidence reader of `openai-responses`: the client calls of each model message with the result
 * answering each. A turn is one model response, named by its first item. Internal.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { group, parsed, type Turns } from '../core/turns.ts';
import { ITEM, readResponses } from './check.ts';

/** The turns of openai-responses `items`, by model message index. */
export function readResponsesTurns(items: readonly unknown[]): Turns {
  const read = readResponses(items);
  // A turn is one model response: the run of model and reasoning items, named by its first item.
  const start = new Int32Array(items.length);
  for (let i = 0; i < items.length; i++) {
    start[i] = i > 0 && read.kinds[i] !== ITEM.input && read.kinds[i - 1] !== ITEM.input ? (start[i - 1] as number) : i;
  }
  return group(
    read.calls.map((call) => ({ ...call, message: start[call.message] as number, slot: call.message })),
    read.outputs.map((o) => ({
      key: o.key,
      seq: o.seq,
      value: () => ({ payload: (items[o.item] as JsonObject)['output'] ?? null, error: undefined }),
    })),
    (call) => {
      const item = items[call.slot] as JsonObject;
      return item['type'] === 'function_call' ? parsed(item['arguments']) : (item['input'] ?? item['action'] ?? null);
    },
  );
}
