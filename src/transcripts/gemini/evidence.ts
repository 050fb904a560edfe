/**
 * The evidence reader of `gemini`: the client calls of each model content with the response
 * answering each, paired as the check pairs them (`pairing.ts`); a call without an id is named
 * `name#k` (`callIds`). Internal.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { text, type Turns } from '../core/turns.ts';
import { answersOf, callIds } from './pairing.ts';
import { readGemini } from './read.ts';

/** The turns of gemini `contents`, by model content index. */
export function readGeminiTurns(contents: readonly unknown[]): Turns {
  const read = readGemini(contents);
  const answers = answersOf(read);
  const ids = callIds(read);
  const part = (m: number, s: number) => ((contents[m] as JsonObject)['parts'] as JsonObject[])[s] as JsonObject;
  const turns: Turns = new Map();
  for (let k = 0; k < read.calls.length; k++) {
    const call = read.calls[k];
    if (call === undefined) continue;
    const response = answers[k];
    const payload =
      response === undefined
        ? undefined
        : ((part(response.content, response.slot)['functionResponse'] as JsonObject)['response'] ?? null);
    const error = isJsonObject(payload) && payload['error'] !== undefined ? text(payload['error']) : undefined;
    const list = turns.get(call.message) ?? [];
    list.push({
      id: ids[k] as string,
      name: call.name,
      input: (part(call.message, call.slot)['functionCall'] as JsonObject)['args'] ?? null,
      result: response === undefined ? undefined : { payload, error },
    });
    turns.set(call.message, list);
  }
  return turns;
}
