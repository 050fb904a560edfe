/**
 * The evidence reader of `bedrock-converse`: the client calls of each assistant message with the
 * result answering each (the first `toolResult` with its id after the call). Internal.
 *
 * @module
 */
import type { JsonObject } from '../core/input.ts';
import { blockTurns, type Turns } from '../core/turns.ts';
import { toolResultText } from './convert.ts';
import { readBedrock } from './read.ts';

/** The turns of Converse `messages`, by assistant message index. */
export function readBedrockTurns(messages: readonly unknown[]): Turns {
  const read = readBedrock(messages);
  return blockTurns(
    messages,
    read.calls,
    read.results,
    (block) => {
      const result = block['toolResult'] as JsonObject;
      const content = result['content'] ?? null;
      return { payload: content, error: result['status'] === 'error' ? toolResultText(content) : undefined };
    },
    (block) => (block['toolUse'] as JsonObject)['input'],
  );
}
