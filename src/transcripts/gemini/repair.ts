/**
 * Repair of Gemini `contents`, driven by the check's pairing and located failures:
 * - a `functionResponse` is kept, rewritten in place (the name of the call it answers, a result
 *   value wrapped as `{ output }`), moved into the user content right after its call (split off,
 *   misplaced, or standing in a model content), or removed (a repeat; an orphan or a response
 *   without a name, whose words stay as user text through `orphanedResultText`);
 * - a call nobody answered gets a synthesized response (`response: { error }`, text starting
 *   `[turngate:synthesized]`) there;
 * - the first call of a step that lacks its thought signature gets the placeholder signature the
 *   provider documents for calls it did not produce (`skip_thought_signature_validator`);
 * - a content without parts is removed; a function call turn that would not follow a user
 *   content gets one (a marked text) before it.
 * A function call in a user content is left as it stands (no safe repair).
 *
 * @module
 */
import type { GeminiRule } from './rules.ts';
import type { JsonObject } from '../core/input.ts';
import {
  FailureIndex,
  orphanedResultText,
  SYNTHESIZED_RESULT_MARK,
  slotKey,
  synthesizedText,
  type TranscriptRepair,
} from '../core/repair.ts';
import type { CheckOutcome } from '../core/context.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import type { analyzeGemini } from './check.ts';
import { responseText, toolResult } from './convert.ts';
import { type GeminiPairing, VERDICT } from './pairing.ts';
import { CONTENT, type GeminiCallSite, type GeminiRead, type GeminiResponseSite, SHAPE } from './read.ts';
import { SKIP_THOUGHT_SIGNATURE } from './thought-signatures.ts';

type Rule = GeminiRule;
const partAt = (i: number, j: number) => `contents[${i}].parts[${j}]`;

/** The edits repair makes, by part (`slotKey`) and by content. */
interface Plan {
  /** Parts removed. */
  readonly drop: Set<string>;
  /** Parts rewritten in place. */
  readonly replace: Map<string, JsonObject>;
  /** Removed responses whose words stay: the user text part standing for each. */
  readonly keep: Map<string, JsonObject>;
  /** Per call content: the responses for the user content right after it, and the rule of the first. */
  readonly extra: Map<number, { readonly parts: JsonObject[]; readonly rule: Rule }>;
  /** Per call: whether a response answers it after repair. */
  readonly answered: Uint8Array;
  /** Per content: whether any of its parts is removed or rewritten. */
  readonly touched: Uint8Array;
  readonly repairs: TranscriptRepair[];
}

/**
 * Gives each content with the legacy role `function` the role `user`, and each content without a
 * role the role it was read as (`model` for one holding a call, else `user`); parts unchanged.
 */
function repairFunctionRoles(contents: readonly unknown[], read: GeminiRead): NonNullable<FormatRepair['repaired']> {
  const out = [...contents];
  const repairs: TranscriptRepair[] = [];
  for (const { content: i, role } of read.roleless) {
    const before = contents[i] as JsonObject;
    out[i] = { ...before, role };
    repairs.push({
      action: 'rewrote_field',
      rule: 'gemini.content_role_missing',
      ids: [],
      at: `contents[${i}].role`,
      detail: `set the role of the content without one to '${role}' (${role === 'model' ? 'it holds a functionCall' : 'it holds no functionCall'})`,
      removed: before,
    });
  }
  for (const i of read.functionRoles) {
    const before = contents[i] as JsonObject;
    out[i] = { ...before, role: 'user' };
    repairs.push({
      action: 'rewrote_field',
      rule: 'gemini.function_role_unsupported',
      ids: [],
      at: `contents[${i}].role`,
      detail: "set the role of the content to 'user' (it had the legacy role 'function')",
      removed: before,
    });
  }
  return { messages: out, repairs };
}

/** Checks and, when rejected, repairs Gemini `contents`. */
export function repairGemini(
  contents: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome<GeminiRule>,
): FormatRepair {
  const { outcome, read, pairing } = analysisOf<ReturnType<typeof analyzeGemini>>(checked);
  if (outcome.failures.length === 0) return { outcome };
  // The legacy role first, in a pass of its own: the other rules then read those contents as user contents.
  if (read.functionRoles.length > 0 || (read.roleless.length > 0 && contents.length > 1))
    return { outcome, repaired: repairFunctionRoles(contents, read) };
  const failures = new FailureIndex(outcome.located);
  const plan: Plan = {
    drop: new Set(),
    replace: new Map(),
    keep: new Map(),
    extra: new Map(),
    answered: Uint8Array.from(pairing.answer, (i) => (i >= 0 ? 1 : 0)),
    touched: new Uint8Array(contents.length),
    repairs: [],
  };
  const part = (i: number, j: number) =>
    ((contents[i] as JsonObject)['parts'] as readonly JsonObject[])[j] as JsonObject;
  planResponses(read, pairing, failures, plan, part, context);
  const open = new Set(outcome.openToolCalls.map((call) => call.at));
  read.calls.forEach((call, k) => {
    if (plan.answered[k] !== 0 || (open.size > 0 && open.has(partAt(call.message, call.slot)))) return;
    const response = { error: synthesizedText(call.name, context.readOnlyTools) };
    append(
      plan,
      call.message,
      toolResult(call.hasId ? call.key : undefined, call.name, response),
      'gemini.function_call_unanswered',
    );
    plan.repairs.push({
      action: 'synthesized_result',
      rule: 'gemini.function_call_unanswered',
      ids: [call.key],
      at: partAt(call.message, call.slot),
      detail: `wrote an error functionResponse for the call ${call.key}: it had none`,
    });
  });
  for (const failure of failures.of('gemini.function_call_missing_thought_signature')) {
    const before = part(failure.message, failure.slot);
    plan.replace.set(slotKey(failure.message, failure.slot), { ...before, thoughtSignature: SKIP_THOUGHT_SIGNATURE });
    plan.touched[failure.message] = 1;
    plan.repairs.push({
      action: 'rewrote_field',
      rule: failure.rule,
      ids: failure.ids,
      at: failure.at,
      detail: `set the thoughtSignature "${SKIP_THOUGHT_SIGNATURE}" the provider documents for calls it did not produce: the call's own signature is lost, so the model continues without its reasoning`,
      removed: before,
    });
  }
  return { outcome, repaired: { messages: write(contents, read, plan), repairs: plan.repairs } };
}

/** Appends a response to the user content after call content `c`. */
function append(plan: Plan, c: number, response: JsonObject, rule: Rule): void {
  const entry = plan.extra.get(c);
  if (entry === undefined) plan.extra.set(c, { parts: [response], rule });
  else entry.parts.push(response);
}

/** A removal: its rule, its detail, and whether the response's words stay as user text. */
type Removal = readonly [rule: Rule, detail: string, words: boolean];

/** The responses removed by their verdict alone. */
const REMOVED_BY_VERDICT: ReadonlyMap<number, Removal> = new Map<number, Removal>([
  [
    VERDICT.orphan,
    [
      'gemini.function_response_orphan',
      'removed the functionResponse: no functionCall in the contents matches it',
      true,
    ],
  ],
  [
    VERDICT.unnamed,
    [
      'gemini.function_response_missing_name',
      'removed the functionResponse: it has neither id nor name to pair by',
      true,
    ],
  ],
  [
    VERDICT.duplicate,
    ['gemini.duplicate_function_response', 'removed the functionResponse: its call already has a response', false],
  ],
]);

/** A misplaced response whose call has a response already (or no call left to answer). */
const MISPLACED_ANSWERED: Removal = [
  'gemini.function_response_not_after_call',
  'removed the misplaced functionResponse: its call already has a response',
  false,
];

/** What each response becomes: kept, rewritten, moved, or removed (keeping the words of one that answers nothing). */
function planResponses(
  read: GeminiRead,
  pairing: GeminiPairing,
  failures: FailureIndex<GeminiRule>,
  plan: Plan,
  part: (i: number, j: number) => JsonObject,
  context: RepairContext,
): void {
  for (let i = 0; i < read.responses.length; i++) {
    const r = read.responses[i] as GeminiResponseSite;
    const verdict = pairing.verdict[i] as number;
    const k = pairing.call[i] as number;
    const key = slotKey(r.content, r.slot);
    const before = part(r.content, r.slot);
    const removal =
      verdict === VERDICT.misplaced && (k < 0 || plan.answered[k] !== 0)
        ? MISPLACED_ANSWERED
        : REMOVED_BY_VERDICT.get(verdict);
    if (removal !== undefined) {
      removeResponse(plan, r, before, ...removal);
      continue;
    }
    const call = read.calls[k] as GeminiCallSite;
    const fixed = rewrite(r, before, call, failures, plan, context);
    const inModel = ((read.flags[r.content] as number) & CONTENT.model) !== 0;
    if (verdict !== VERDICT.split && verdict !== VERDICT.misplaced && !inModel) {
      if (fixed !== before) {
        plan.replace.set(key, fixed);
        plan.touched[r.content] = 1;
      }
      continue;
    }
    const rule: Rule =
      verdict === VERDICT.split
        ? 'gemini.function_responses_split'
        : verdict === VERDICT.misplaced
          ? 'gemini.function_response_not_after_call'
          : 'gemini.function_response_in_model_content';
    plan.drop.add(key);
    plan.touched[r.content] = 1;
    plan.answered[k] = 1;
    append(plan, call.message, fixed, rule);
    plan.repairs.push({
      action: 'moved_result',
      rule,
      ids: [call.key],
      at: partAt(r.content, r.slot),
      detail: `moved the functionResponse into the user content after contents[${call.message}]`,
    });
  }
}

/** Removes a response, keeping its words as user text when `words` and it has any. */
function removeResponse(
  plan: Plan,
  r: GeminiResponseSite,
  before: JsonObject,
  rule: Rule,
  detail: string,
  words: boolean,
): void {
  const key = slotKey(r.content, r.slot);
  const text = words
    ? orphanedResultText(responseText((before['functionResponse'] as JsonObject)['response']))
    : undefined;
  if (text === undefined) plan.drop.add(key);
  else plan.keep.set(key, { text });
  plan.touched[r.content] = 1;
  plan.repairs.push({
    action: 'removed',
    rule,
    ids: r.id === undefined ? (r.name === undefined ? [] : [r.name]) : [r.id],
    at: partAt(r.content, r.slot),
    detail: text === undefined ? detail : `${detail}; its text stays as user text`,
    removed: before,
  });
}

/** The response part with the located shape failures fixed: its call's name, its value as an object. */
function rewrite(
  r: GeminiResponseSite,
  before: JsonObject,
  call: GeminiCallSite,
  failures: FailureIndex<GeminiRule>,
  plan: Plan,
  context: RepairContext,
): JsonObject {
  let response = before['functionResponse'] as JsonObject;
  const record = (action: TranscriptRepair['action'], rule: Rule, detail: string) =>
    plan.repairs.push({ action, rule, ids: [call.key], at: partAt(r.content, r.slot), detail, removed: before });
  const located = (rule: Rule) => failures.find(r.content, r.slot, [rule]) !== undefined;
  if (located('gemini.function_response_missing_name') || located('gemini.function_response_name_mismatch')) {
    response = { ...response, name: call.name };
    const rule: Rule =
      r.name === undefined ? 'gemini.function_response_missing_name' : 'gemini.function_response_name_mismatch';
    record(
      'rewrote_field',
      rule,
      `set the functionResponse's name to ${call.name}, the function of the call it answers`,
    );
  }
  if (located('gemini.function_response_not_object')) {
    if ((r.shape & SHAPE.responseMissing) !== 0) {
      response = { ...response, response: { error: synthesizedText(call.name, context.readOnlyTools) } };
      record(
        'synthesized_result',
        'gemini.function_response_not_object',
        'wrote an error response into the functionResponse: it had none',
      );
    } else {
      response = { ...response, response: { output: response['response'] } };
      record(
        'rewrote_field',
        'gemini.function_response_not_object',
        'wrapped the functionResponse value as { output: … }, the JSON object the provider requires',
      );
    }
  }
  return response === before['functionResponse'] ? before : { ...before, functionResponse: response };
}

/** The repaired contents: unchanged contents are the same objects. */
function write(contents: readonly unknown[], read: GeminiRead, plan: Plan): unknown[] {
  const { flags, firstCall } = read;
  const n = contents.length;
  const empty = new Set(read.empty);
  const isUser = (i: number) => i < n && ((flags[i] as number) & CONTENT.model) === 0;
  const out: JsonObject[] = [];
  let carried: JsonObject[] = []; // kept words of a model content, for after the user content that follows it
  for (let i = 0; i < n; i++) {
    const content = contents[i] as JsonObject;
    const model = ((flags[i] as number) & CONTENT.model) !== 0;
    if (model && (firstCall[i] as number) >= 0 && (out.length === 0 || out[out.length - 1]?.['role'] === 'model')) {
      out.push({
        role: 'user',
        parts: [{ text: `${SYNTHESIZED_RESULT_MARK} (a user turn inserted before a function call turn)` }],
      });
      plan.repairs.push({
        action: 'inserted_message',
        rule: 'gemini.function_call_turn_misplaced',
        ids: [],
        at: `contents[${i}]`,
        detail: `inserted a user content before contents[${i}]: a function call turn follows a user content`,
      });
    }
    const parts = (content['parts'] as readonly JsonObject[] | undefined) ?? [];
    const answers = !model && i > 0 ? plan.extra.get(i - 1) : undefined;
    const own = plan.extra.get(i);
    if (plan.touched[i] === 0 && answers === undefined && !empty.has(i) && carried.length === 0) {
      // Nothing of it changes: the same object.
      out.push(content);
      if (own !== undefined && !isUser(i + 1)) insertResponses(out, plan, own, i);
      continue;
    }
    const next: JsonObject[] = [];
    const words: JsonObject[] = [];
    let changed = empty.has(i);
    let holdsResponse = false;
    for (let j = 0; j < parts.length; j++) {
      const key = slotKey(i, j);
      const text = plan.keep.get(key);
      if (text !== undefined || plan.drop.has(key)) {
        changed = true;
        if (text !== undefined) words.push(text);
        if (text !== undefined && !model) next.push(text);
        continue;
      }
      const replaced = plan.replace.get(key);
      const kept = replaced ?? (parts[j] as JsonObject);
      if (replaced !== undefined) changed = true;
      if (kept['functionResponse'] !== undefined) holdsResponse = true;
      next.push(kept);
    }
    if (answers !== undefined) {
      next.push(...answers.parts);
      changed = true;
      holdsResponse = true;
    }
    // Kept words stand in place in a user content without responses; else in a user content after.
    const inPlace = !model && !holdsResponse;
    const body = inPlace || words.length === 0 ? next : next.filter((p) => !words.includes(p));
    if (!changed) out.push(content);
    else if (body.length > 0) out.push({ ...content, parts: body });
    else if (empty.has(i))
      plan.repairs.push({
        action: 'removed',
        rule: 'gemini.content_without_parts',
        ids: [],
        at: `contents[${i}]`,
        detail: `removed contents[${i}]: it has no parts`,
        removed: content,
      });
    if (own !== undefined && !isUser(i + 1)) insertResponses(out, plan, own, i);
    const after = [...carried, ...(inPlace ? [] : words)];
    carried = [];
    if (model && isUser(i + 1)) carried = after;
    else if (after.length > 0) out.push({ role: 'user', parts: after });
  }
  if (carried.length > 0) out.push({ role: 'user', parts: carried });
  return out;
}

/** Inserts a user content with the responses for call content `i` right after it. */
function insertResponses(
  out: JsonObject[],
  plan: Plan,
  own: { readonly parts: JsonObject[]; readonly rule: Rule },
  i: number,
): void {
  out.push({ role: 'user', parts: own.parts });
  plan.repairs.push({
    action: 'inserted_message',
    rule: own.rule,
    ids: own.parts.map((p) => {
      const response = p['functionResponse'] as JsonObject;
      return (response['id'] ?? response['name']) as string;
    }),
    at: `contents[${i}]`,
    detail: `inserted a user content with the function responses right after contents[${i}]`,
  });
}
