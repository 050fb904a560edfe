/**
 * The evidence reader of `gemini`: the client calls of each model message with the result
 * answering each. Calls without ids pair by position and name in the content right after; they get ids `name#k`. Internal.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { text, type TurnCall, type Turns } from '../core/turns.ts';
import { readGemini } from './check.ts';

/** The turns of gemini `contents`, by model message index. */
export function readGeminiTurns(contents: readonly unknown[]): Turns {
  const read = readGemini(contents);
  const part = (m: number, s: number) => ((contents[m] as JsonObject)['parts'] as JsonObject[])[s] as JsonObject;
  // Calls without ids pair by position and name in the content right after; they get ids `name#k`.
  const turns: Turns = new Map();
  const byMessage = new Map<number, typeof read.calls>();
  for (const call of read.calls) byMessage.set(call.message, [...(byMessage.get(call.message) ?? []), call]);
  for (const [message, calls] of byMessage) {
    const responses = read.responses.filter((r) => r.content === message + 1);
    const taken = new Set<(typeof responses)[number]>();
    const counts = new Map<string, number>();
    const list: TurnCall[] = [];
    for (const call of calls) {
      const response = responses.find(
        (r) => !taken.has(r) && (call.hasId ? r.id === call.key : r.id === undefined && r.name === call.name),
      );
      if (response !== undefined) taken.add(response);
      const k = (counts.get(call.name) ?? 0) + 1;
      counts.set(call.name, k);
      const payload =
        response === undefined
          ? undefined
          : ((part(response.content, response.slot)['functionResponse'] as JsonObject)['response'] ?? null);
      const error = isJsonObject(payload) && payload['error'] !== undefined ? text(payload['error']) : undefined;
      list.push({
        id: call.hasId ? call.key : `${call.name}#${k}`,
        name: call.name,
        input: (part(call.message, call.slot)['functionCall'] as JsonObject)['args'] ?? null,
        result: response === undefined ? undefined : { payload, error },
      });
    }
    turns.set(message, list);
  }
  return turns;
}
