/**
 * The Gemini rules over `contents`. `functionCall` parts stand in `model` contents, their
 * `functionResponse` parts in the `user` content right after (pairing: `pairing.ts`). A call
 * without an id is reported by its function name.
 *
 * @module
 */
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import type { Extension } from '../core/driver.ts';
import { FailureSink, type OpenToolCall } from '../core/report.ts';
import { type GeminiPairing, pairGemini, VERDICT } from './pairing.ts';
import { CONTENT, type GeminiCallSite, type GeminiRead, type GeminiResponseSite, readGemini, SHAPE } from './read.ts';
import { GEMINI_RULES, type GeminiRule } from './rules.ts';
import { validatesThoughtSignatures } from './thought-signatures.ts';

export { type GeminiRead, readGemini };

const at = (i: number) => `contents[${i}]`;
const partAt = (i: number, j: number) => `contents[${i}].parts[${j}]`;

/** Checks `contents` against every Gemini rule. */
export function checkGemini(contents: readonly unknown[], context: CheckContext): CheckOutcome<GeminiRule> {
  const analysis = analyzeGemini(contents, context);
  return { ...analysis.outcome, analysis };
}

/** The check with what the reader collected and how it paired (for repair). */
export function analyzeGemini(
  contents: readonly unknown[],
  context: CheckContext,
): { readonly outcome: CheckOutcome<GeminiRule>; readonly read: GeminiRead; readonly pairing: GeminiPairing } {
  const read = readGemini(contents);
  const pairing = pairGemini(read);
  const sink = new FailureSink(GEMINI_RULES);
  for (const i of read.empty) sink.fail('gemini.content_without_parts', [], at(i), i);
  for (const i of read.functionRoles) sink.fail('gemini.function_role_unsupported', [], `${at(i)}.role`, i);
  // A single content may leave its role out (the API reads it as the user's); a conversation may not.
  if (contents.length > 1)
    for (const { content } of read.roleless)
      sink.fail('gemini.content_role_missing', [], `${at(content)}.role`, content);
  const openToolCalls = checkCalls(read, pairing, sink, context, contents.length - 1);
  checkResponses(read, pairing, sink);
  return { outcome: { failures: sink.sorted(), openToolCalls, located: sink.located }, read, pairing };
}

/** The rules of the calls, one content at a time: its position, its role, its signature, its answers. */
function checkCalls(
  read: GeminiRead,
  pairing: GeminiPairing,
  sink: FailureSink,
  context: CheckContext,
  last: number,
): OpenToolCall[] {
  const { calls, flags } = read;
  const signatures = validatesThoughtSignatures(context.model);
  const openToolCalls: OpenToolCall[] = [];
  for (let start = 0; start < calls.length; ) {
    const first = calls[start] as GeminiCallSite;
    const c = first.message;
    let end = start + 1;
    while (end < calls.length && (calls[end] as GeminiCallSite).message === c) end++;
    const model = ((flags[c] as number) & CONTENT.model) !== 0;
    if (model && (c === 0 || ((flags[c - 1] as number) & CONTENT.model) !== 0))
      sink.fail('gemini.function_call_turn_misplaced', keys(calls, start, end), at(c), c);
    if (!model)
      for (let k = start; k < end; k++) {
        const call = calls[k] as GeminiCallSite;
        sink.fail('gemini.function_call_in_user_content', [call.key], partAt(c, call.slot), c, call.slot);
      }
    // The current turn: the model contents after the last user content that is a turn of its own.
    if (model && signatures && c > read.lastUserTurn && !first.signed)
      sink.fail('gemini.function_call_missing_thought_signature', [first.key], partAt(c, first.slot), c, first.slot);
    let unanswered: string[] | undefined;
    for (let k = start; k < end; k++) {
      if ((pairing.answer[k] as number) >= 0) continue;
      const call = calls[k] as GeminiCallSite;
      if (context.expect === 'received' && c === last)
        openToolCalls.push({ id: call.key, name: call.name, at: partAt(c, call.slot), messageIndex: c });
      else if (unanswered === undefined) unanswered = [call.key];
      else unanswered.push(call.key);
    }
    if (unanswered !== undefined) sink.fail('gemini.function_call_unanswered', unanswered, at(c), c);
    start = end;
  }
  return openToolCalls;
}

function keys(calls: readonly GeminiCallSite[], start: number, end: number): string[] {
  const out: string[] = [];
  for (let k = start; k < end; k++) out.push((calls[k] as GeminiCallSite).key);
  return out;
}

/** The rules of the responses: their shape, their role, and what pairing made of them. */
function checkResponses(read: GeminiRead, pairing: GeminiPairing, sink: FailureSink): void {
  const { calls, responses, flags } = read;
  for (let i = 0; i < responses.length; i++) {
    const r = responses[i] as GeminiResponseSite;
    if ((r.shape & SHAPE.nameMissing) !== 0) fail(sink, 'gemini.function_response_missing_name', r);
    if ((r.shape & (SHAPE.responseMissing | SHAPE.responseNotObject)) !== 0)
      fail(sink, 'gemini.function_response_not_object', r);
    if (((flags[r.content] as number) & CONTENT.model) !== 0)
      fail(sink, 'gemini.function_response_in_model_content', r);
    const verdict = pairing.verdict[i];
    if (verdict === VERDICT.answers || verdict === VERDICT.split || verdict === VERDICT.mixed) {
      if (verdict === VERDICT.split) fail(sink, 'gemini.function_responses_split', r);
      const call = calls[pairing.call[i] as number] as GeminiCallSite;
      if (r.name !== undefined && call.name !== r.name) fail(sink, 'gemini.function_response_name_mismatch', r);
    } else if (verdict === VERDICT.duplicate) fail(sink, 'gemini.duplicate_function_response', r);
    else if (verdict === VERDICT.orphan) fail(sink, 'gemini.function_response_orphan', r);
    else if (verdict === VERDICT.misplaced) fail(sink, 'gemini.function_response_not_after_call', r);
  }
}

/** Fails `rule` at a response, named by its id (or, without one, its function name). */
function fail(sink: FailureSink, rule: GeminiRule, r: GeminiResponseSite): void {
  const named = r.id ?? r.name;
  sink.fail(rule, named === undefined ? [] : [named], partAt(r.content, r.slot), r.content, r.slot);
}

/** The contents standing for a history's last content, by its role (text only: no rule fails them). */
const LEAD_USER: readonly unknown[] = Object.freeze([
  Object.freeze({ role: 'user', parts: Object.freeze([Object.freeze({ text: '.' })]) }),
]);
const LEAD_MODEL: readonly unknown[] = Object.freeze([
  Object.freeze({ role: 'model', parts: Object.freeze([Object.freeze({ text: '.' })]) }),
]);

/**
 * What a checked Gemini history carries for its extension by a tail read alone
 * (`FormatDriver.extendable`), or `undefined` when a tail's own check does not decide the whole
 * history: a content without its role (the rule counts the whole conversation's contents).
 * Pairing is positional: a response answers a call of its own content, of the content before it,
 * or of the call turn its run of user contents follows; a tail response whose call stands in the
 * history pairs with nothing in the tail's check (an orphan or misplaced: checked whole), and
 * one that pairs in the tail pairs the same in the whole history (an accepted history leaves no
 * call unanswered, and claims no later call by id). A call turn must follow a user content: the
 * tail's check reads a text content of the history's last role before the tail (`lead`). The
 * thought-signature rule reads the calls after the last user turn: a tail's calls are after it
 * in both checks, and a history's calls leave the current turn when a tail brings a user turn,
 * which only waives the rule. No key is carried: Gemini has no rule over repeated call ids.
 */
export function geminiExtendable(analysis: unknown): Extension | undefined {
  const { read } = analysis as { readonly read: GeminiRead };
  if (read.roleless.length > 0) return undefined;
  const n = read.flags.length;
  if (n === 0) return { calls: [] };
  return { calls: [], lead: ((read.flags[n - 1] as number) & CONTENT.model) !== 0 ? LEAD_MODEL : LEAD_USER };
}
