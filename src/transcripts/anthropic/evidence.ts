/**
 * The evidence reader of `anthropic`: the client calls of each assistant message with the
 * result answering each (the first `tool_result` with its id after the call). Internal.
 *
 * @module
 */
import { blockTurns, text, type Turns } from '../core/turns.ts';
import { readAnthropic } from './check.ts';

/** The turns of anthropic `messages`, by model message index. */
export function readAnthropicTurns(messages: readonly unknown[]): Turns {
  const read = readAnthropic(messages);
  return blockTurns(
    messages,
    read.calls,
    read.results,
    (block) => ({
      payload: block['content'] ?? null,
      error: block['is_error'] === true ? text(block['content']) : undefined,
    }),
    (block) => block['input'],
  );
}
