/**
 * The evidence reader of LangChain histories: the tool calls of each AIMessage with the
 * ToolMessage answering each (its content, and for `status: 'error'` its text as the error).
 * Internal.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { group, parsed, text, type Turns } from '../core/turns.ts';
import { callList, fieldsOf, readLangChain } from './check.ts';

/** The turns of a LangChain history. */
export function langChainTurns(messages: readonly unknown[]): Turns {
  const read = readLangChain(messages);
  return group(
    read.calls,
    read.toolMessages.map((t) => ({
      key: t.key,
      seq: t.seq,
      value: () => {
        const fields = fieldsOf(messages[t.message] as JsonObject);
        const content = fields['content'] ?? null;
        return { payload: content, error: fields['status'] === 'error' ? text(content) : undefined };
      },
    })),
    (call) => {
      const { list, raw } = callList(fieldsOf(messages[call.message] as JsonObject));
      const spec = list[call.slot] as JsonObject;
      return raw ? parsed((spec['function'] as JsonObject)['arguments']) : (spec['args'] ?? null);
    },
  );
}
