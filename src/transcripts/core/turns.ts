/**
 * What a format's evidence reader returns, and the steps they share: the client calls of each
 * model message with the result answering each. `toEvidence` turns one of these turns into
 * join-check evidence. Internal.
 *
 * @module
 */
import type { CallSite } from './calls.ts';
import { isJsonObject, type JsonObject } from './input.ts';
import type { ToolMessageSite } from './tool-runs.ts';

/** A call with its input, and the result answering it (if any). */
export interface TurnCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly result: { readonly payload: unknown; readonly error: string | undefined } | undefined;
}

/** The calls of every model message with client calls, by message index. */
export type Turns = Map<number, TurnCall[]>;

/** A result's text: a string as it is, text parts joined by newlines, any other value as its JSON text. */
export const text = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.map((part) => (isJsonObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('\n')
      : JSON.stringify(value ?? null);

/** A call's arguments given as JSON text, parsed; the text itself when it is not JSON, any other value as it is. */
export function parsed(argumentsText: unknown): unknown {
  if (typeof argumentsText !== 'string') return argumentsText;
  try {
    return JSON.parse(argumentsText);
  } catch {
    return argumentsText;
  }
}

/** Groups calls by message with the first result standing after each (by key). */
export function group(
  calls: readonly CallSite[],
  results: readonly {
    readonly key: string | undefined;
    readonly seq: number;
    readonly value: () => TurnCall['result'];
  }[],
  input: (call: CallSite) => unknown,
): Turns {
  const firstAfter = new Map<string, (typeof results)[number][]>();
  for (const result of results) {
    if (result.key === undefined) continue;
    const list = firstAfter.get(result.key) ?? [];
    list.push(result);
    firstAfter.set(result.key, list);
  }
  const turns: Turns = new Map();
  const seen = new Set<string>();
  for (const call of calls) {
    if (call.server || seen.has(call.key)) continue;
    seen.add(call.key);
    const result = firstAfter.get(call.key)?.find((r) => r.seq > call.seq);
    const list = turns.get(call.message) ?? [];
    list.push({ id: call.key, name: call.name, input: input(call), result: result?.value() });
    turns.set(call.message, list);
  }
  return turns;
}

/** A block (part) that stands in a message's list of blocks: its message and its slot. */
interface BlockSite {
  readonly key: string;
  readonly message: number;
  readonly slot: number;
  readonly seq: number;
}

/**
 * The turns of a format whose calls and results are blocks of a message's `content`
 * (`anthropic`, `aisdk`): `result` reads a result block's payload and error, `input` a call
 * block's input.
 */
export function blockTurns(
  messages: readonly unknown[],
  calls: readonly CallSite[],
  results: readonly BlockSite[],
  result: (block: JsonObject) => TurnCall['result'],
  input: (block: JsonObject) => unknown,
): Turns {
  const block = (m: number, s: number) => ((messages[m] as JsonObject)['content'] as JsonObject[])[s] as JsonObject;
  return group(
    calls,
    results.map((r) => ({ key: r.key, seq: r.seq, value: () => result(block(r.message, r.slot)) })),
    (call) => input(block(call.message, call.slot)),
  );
}

/** The turns of a format whose results are tool messages (`openai-chat`, `chat`). */
export function toolRunTurns(
  messages: readonly unknown[],
  read: { readonly calls: readonly CallSite[]; readonly toolMessages: readonly ToolMessageSite[] },
): Turns {
  return group(
    read.calls,
    read.toolMessages.map((t) => ({
      key: t.key,
      seq: t.seq,
      value: () => ({ payload: (messages[t.message] as JsonObject)['content'] ?? null, error: undefined }),
    })),
    (call) => {
      const spec = ((messages[call.message] as JsonObject)['tool_calls'] as JsonObject[])[call.slot] as JsonObject;
      const fn = spec['function'];
      if (isJsonObject(fn)) return parsed(fn['arguments']);
      const custom = spec['custom'];
      return isJsonObject(custom) ? custom['input'] : (spec['arguments'] ?? null);
    },
  );
}
