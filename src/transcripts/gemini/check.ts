/**
 * The Gemini rules over `contents`. `functionCall` parts stand in `model` contents, their
 * `functionResponse` parts in the `user` content right after. Calls and responses with `id` pair
 * by id; without one, within a call turn the k-th response named `n` answers the k-th call
 * named `n`. A call without an id is reported by its function name.
 *
 * @module
 */
import { CallTable, type CallSite } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import { invalid, isJsonObject } from '../core/input.ts';
import { GEMINI_RULES } from './rules.ts';
import { FailureSink, type OpenToolCall } from '../core/report.ts';

/** A `functionResponse` part as read. */
interface ResponseSite {
  readonly id: string | undefined;
  readonly name: string | undefined;
  readonly content: number;
  readonly slot: number;
  readonly seq: number;
  readonly incomplete: boolean;
}

/** What the reader collects. */
export interface GeminiRead {
  readonly roles: readonly string[];
  /** Calls in order; `key` is the id, or the name for calls without one. */
  readonly calls: readonly (CallSite & { readonly hasId: boolean })[];
  readonly responses: readonly ResponseSite[];
}

const at = (i: number) => `contents[${i}]`;
const partAt = (i: number, j: number) => `contents[${i}].parts[${j}]`;

/** Reads `contents`: raises a `TranscriptInputError` for input that is not Gemini contents. */
export function readGemini(contents: readonly unknown[]): GeminiRead {
  const roles: string[] = new Array(contents.length);
  const calls: (CallSite & { hasId: boolean })[] = [];
  const responses: ResponseSite[] = [];
  let seq = 0;
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i];
    if (!isJsonObject(content)) invalid(at(i), 'a content object');
    const role = content['role'];
    if (role !== 'user' && role !== 'model') invalid(`${at(i)}.role`, "'user' or 'model'");
    roles[i] = role;
    const parts = content['parts'];
    if (!Array.isArray(parts)) invalid(`${at(i)}.parts`, 'an array of parts');
    for (let j = 0; j < parts.length; j++) {
      const part: unknown = parts[j];
      if (!isJsonObject(part)) invalid(partAt(i, j), 'a part object');
      const call = part['functionCall'];
      const response = part['functionResponse'];
      if (call !== undefined) {
        if (role !== 'model')
          invalid(`${partAt(i, j)}.functionCall`, 'no functionCall (it belongs in a model content)');
        if (!isJsonObject(call)) invalid(`${partAt(i, j)}.functionCall`, 'an object');
        const name = call['name'];
        if (typeof name !== 'string') invalid(`${partAt(i, j)}.functionCall.name`, 'a string');
        const id = call['id'];
        if (id !== undefined && typeof id !== 'string') invalid(`${partAt(i, j)}.functionCall.id`, 'a string');
        const hasId = typeof id === 'string';
        calls.push({
          key: hasId ? id : name,
          name,
          message: i,
          slot: j,
          seq: seq++,
          server: false,
          answered: false,
          claimed: false,
          hasId,
        });
      }
      if (response !== undefined) {
        if (role !== 'user')
          invalid(`${partAt(i, j)}.functionResponse`, 'no functionResponse (it belongs in a user content)');
        if (!isJsonObject(response)) invalid(`${partAt(i, j)}.functionResponse`, 'an object');
        const id = response['id'];
        if (id !== undefined && typeof id !== 'string') invalid(`${partAt(i, j)}.functionResponse.id`, 'a string');
        const name = typeof response['name'] === 'string' ? response['name'] : undefined;
        const incomplete = name === undefined || !isJsonObject(response['response']);
        responses.push({ id: id as string | undefined, name, content: i, slot: j, seq: seq++, incomplete });
      }
    }
  }
  return { roles, calls, responses };
}

/** Checks `contents` against every Gemini rule. */
export function checkGemini(contents: readonly unknown[], context: CheckContext): CheckOutcome {
  return analyzeGemini(contents, context).outcome;
}

/** The check with what the reader collected (for repair). */
export function analyzeGemini(
  contents: readonly unknown[],
  context: CheckContext,
): { readonly outcome: CheckOutcome; readonly read: GeminiRead } {
  const read = readGemini(contents);
  const sink = new FailureSink(GEMINI_RULES);
  const last = contents.length - 1;
  const byId = new CallTable();
  const names = new Set<string>();
  const turns = new Map<number, (CallSite & { hasId: boolean })[]>();
  for (const call of read.calls) {
    if (call.hasId) byId.add(call);
    names.add(call.name);
    const turn = turns.get(call.message);
    if (turn === undefined) turns.set(call.message, [call]);
    else turn.push(call);
  }

  for (const [content, calls] of turns) {
    if (content === 0 || read.roles[content - 1] !== 'user') {
      sink.fail(
        'gemini.function_call_turn_misplaced',
        calls.map((c) => c.key),
        at(content),
        content,
      );
    }
  }

  for (const response of read.responses) {
    const where = partAt(response.content, response.slot);
    if (response.incomplete) {
      const named = response.id ?? response.name;
      sink.fail(
        'gemini.function_response_missing_name',
        named === undefined ? [] : [named],
        where,
        response.content,
        response.slot,
      );
    }
    const byIdCall = response.id === undefined ? undefined : byId.get(response.id);
    if (response.id !== undefined && byIdCall !== undefined) {
      if (!byId.claim(byIdCall))
        sink.fail('gemini.duplicate_function_response', [response.id], where, response.content, response.slot);
      else if (byIdCall.message !== response.content - 1)
        sink.fail('gemini.function_response_not_after_call', [response.id], where, response.content, response.slot);
      else byIdCall.answered = true;
      continue;
    }
    const name = response.name;
    if (name === undefined) continue;
    if (response.id !== undefined || !names.has(name)) {
      sink.fail('gemini.function_response_orphan', [response.id ?? name], where, response.content, response.slot);
      continue;
    }
    // Without an id: the first unanswered call of that name in the turn right before.
    const turn = turns.get(response.content - 1)?.filter((c) => c.name === name);
    if (turn === undefined || turn.length === 0) {
      sink.fail('gemini.function_response_not_after_call', [name], where, response.content, response.slot);
      continue;
    }
    const call = turn.find((c) => !c.answered);
    if (call === undefined)
      sink.fail('gemini.duplicate_function_response', [name], where, response.content, response.slot);
    else call.answered = true;
  }

  const openToolCalls: OpenToolCall[] = [];
  for (const [content, calls] of turns) {
    const open = calls.filter((c) => !c.answered);
    if (open.length === 0) continue;
    if (context.expect === 'received' && content === last) {
      for (const call of open) {
        openToolCalls.push({
          id: call.key,
          name: call.name,
          at: partAt(call.message, call.slot),
          messageIndex: content,
        });
      }
    } else {
      sink.fail(
        'gemini.function_call_unanswered',
        open.map((c) => c.key),
        at(content),
        content,
      );
    }
  }
  return { outcome: { failures: sink.sorted(), openToolCalls, located: sink.located }, read };
}
