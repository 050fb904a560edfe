/**
 * Repair of AI SDK `ModelMessage[]`, driven by the check's classification: each `tool-result`
 * is kept, renamed with a repeated call, moved into the tool message right after its call, or
 * removed (an orphan's words stay, as user text in its turn); approval parts that
 * point at nothing are removed; a part in an old or loose shape is rewritten (a JSON-text input
 * parsed, `args` / `result` renamed to `input` / `output`, a bare output wrapped, a result's
 * toolName set from its call); a call approved or denied before the last message gets the result
 * the SDK would have written (an error result saying the outcome is unknown, or
 * `execution-denied`); each client call without a result gets a synthesized one
 * (`output: { type: 'error-text' }`, text starting `[turngate:synthesized]`) in the tool message
 * right after its assistant message.
 *
 * @module
 */
import type { AISDKRule } from './rules.ts';
import type { JsonObject } from '../core/input.ts';
import {
  applyBlockEdits,
  BlockRepairs,
  FailureIndex,
  FreshIds,
  orphanedResultText,
  renamedCall,
  slotKey,
  synthesizedText,
} from '../core/repair.ts';
import type { LocatedFailure } from '../core/report.ts';
import type { CheckOutcome } from '../core/context.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import type { analyzeAISDK } from './check.ts';
import { toolResult } from './convert.ts';
import { type AISDKRead, partAt, type ResultSite } from './read.ts';
import { carriedText, RESHAPE_DETAIL, reshape } from './shape.ts';

/** The rules that place a tool-result (one per result at most). */
const PAIRING: readonly AISDKRule[] = [
  'aisdk.tool_result_orphan',
  'aisdk.provider_executed_call_answered_by_client',
  'aisdk.tool_result_in_assistant_message',
  'aisdk.tool_result_before_call',
  'aisdk.duplicate_tool_result',
  'aisdk.tool_result_separated',
];
const MOVED: ReadonlySet<AISDKRule> = new Set([
  'aisdk.tool_result_before_call',
  'aisdk.tool_result_separated',
  'aisdk.tool_result_in_assistant_message',
]);

const REMOVE_DETAIL: Partial<Record<AISDKRule, string>> = {
  'aisdk.tool_result_orphan': 'removed the tool-result: no tool-call in the messages has its toolCallId',
  'aisdk.duplicate_tool_result': 'removed the tool-result: its call already has a result',
  'aisdk.provider_executed_call_answered_by_client':
    'removed the tool-result: the provider answers a providerExecuted call itself',
  'aisdk.approval_response_unknown': 'removed the approval response: no earlier approval request has its approvalId',
  'aisdk.approval_request_unknown_call':
    'removed the approval request: no tool-call in the messages has its toolCallId',
};

/**
 * Where the words of an orphan removed from message `i` go: after the last message of its turn
 * (before the next user or system message), so no call is cut off from its results and the
 * messages before stay as they were. When that is the final message and the final turn must stay
 * last (it holds an approval response the SDK acts on, or, under `received`, calls that may stay
 * open), after the message that opens the turn instead (`-1`: before the first message).
 */
function wordsAfter(read: AISDKRead, i: number, expect: RepairContext['expect']): number {
  const { segment, roles } = read;
  let end = i;
  while (end + 1 < roles.length && segment[end + 1] === segment[i]) end++;
  if (end < roles.length - 1) return end;
  const finalTurnStays =
    expect === 'received' || read.responses.some((response) => segment[response.message] === segment[i]);
  if (!finalTurnStays) return end;
  let start = i;
  while (start > 0 && segment[start - 1] === segment[i]) start--;
  return roles[start] === 'user' || roles[start] === 'system' ? start : -1;
}

type CallSite = AISDKRead['calls'][number];

/** A repeated call renamed apart, and whether a duplicate result was given to it. */
interface Repeat {
  readonly key: string;
  readonly id: string;
  readonly seq: number;
  readonly segment: number;
  taken: boolean;
}

/** What every step of one repair shares. */
interface Pass {
  readonly messages: readonly unknown[];
  readonly read: AISDKRead;
  readonly failures: FailureIndex<AISDKRule>;
  readonly edits: BlockRepairs;
  readonly context: RepairContext;
  /** The block as edited so far. */
  readonly current: (i: number, j: number) => JsonObject;
  /** The text of a synthesized error result for a call of tool `name`. */
  readonly unknownOutcome: (name: string) => string;
  /** The first call of each id, repeats renamed apart left out. */
  readonly first: Map<string, CallSite>;
  /** The call ids with a result. */
  readonly answered: Set<string>;
  /** Results moved or synthesized, by the assistant message whose calls they answer. */
  readonly extra: Map<number, JsonObject[]>;
  /** Parts put at the end of a message. */
  readonly appendTo: Map<number, JsonObject[]>;
}

/** Checks and, when rejected, repairs AI SDK messages. */
export function repairAISDK(
  messages: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome<AISDKRule>,
): FormatRepair {
  const { outcome, read } = analysisOf<ReturnType<typeof analyzeAISDK>>(checked);
  if (outcome.failures.length === 0) return { outcome };
  const failures = new FailureIndex(outcome.located);
  const edits = new BlockRepairs(messages, 'messages', 'content');
  const current = (i: number, j: number) => edits.replace.get(slotKey(i, j)) ?? edits.block(i, j);
  const { repeats, outId } = renameRepeats(read, failures, edits, current);
  const first = new Map<string, CallSite>();
  for (const call of read.calls)
    if (!outId.has(slotKey(call.message, call.slot)) && !first.has(call.key)) first.set(call.key, call);
  const pass: Pass = {
    messages,
    read,
    failures,
    edits,
    context,
    current,
    unknownOutcome: (name) => synthesizedText(name, context.readOnlyTools),
    first,
    answered: new Set(),
    extra: new Map(),
    appendTo: new Map(),
  };
  const { pending, kept } = sortResults(pass, repeats);
  const moves = movesOf(pass, pending);
  removeApprovals(pass);
  reshapeParts(pass);
  applyMoves(pass, moves);
  answerDecisions(pass);
  synthesizeUnanswered(pass, outId, new Set(outcome.openToolCalls.map((call) => call.id)));
  placeExtra(pass);
  return { outcome, repaired: { messages: writeOut(pass, kept), repairs: edits.repairs } };
}

/** Gives each repeated toolCallId a fresh id. Returns the repeats and the new id by call slot. */
function renameRepeats(
  read: AISDKRead,
  failures: FailureIndex<AISDKRule>,
  edits: BlockRepairs,
  current: (i: number, j: number) => JsonObject,
): { repeats: Repeat[]; outId: Map<string, string> } {
  const fresh = new FreshIds(read.calls.map((call) => call.key));
  const repeats: Repeat[] = [];
  const outId = new Map<string, string>();
  for (const call of read.calls) {
    if (failures.find(call.message, call.slot, ['aisdk.duplicate_tool_call_id']) === undefined) continue;
    const id = fresh.next(call.key);
    outId.set(slotKey(call.message, call.slot), id);
    repeats.push({ key: call.key, id, seq: call.seq, segment: read.segment[call.message] ?? 0, taken: false });
    edits.replace.set(slotKey(call.message, call.slot), { ...current(call.message, call.slot), toolCallId: id });
    edits.repairs.push(
      renamedCall(
        'aisdk.duplicate_tool_call_id',
        partAt(call.message, call.slot),
        call.key,
        id,
        `gave the repeated toolCallId ${call.key} the fresh id ${id}`,
      ),
    );
  }
  return { repeats, outId };
}

/**
 * Each result: answering its call, given to a repeated call, left to move, or removed (a client
 * orphan's words kept). Returns the results to move and the kept words, by the message they go
 * after (the end of their turn).
 */
function sortResults(
  { read, failures, edits, context, current, answered }: Pass,
  repeats: Repeat[],
): { pending: ResultSite[]; kept: Map<number, { ids: string[]; texts: string[] }> } {
  const pending: ResultSite[] = [];
  const kept = new Map<number, { ids: string[]; texts: string[] }>();
  const keepWords = (result: ResultSite) => {
    const text = carriedText(edits.block(result.message, result.slot));
    const words = text === undefined ? undefined : orphanedResultText(text);
    if (words === undefined) return;
    const after = wordsAfter(read, result.message, context.expect);
    const entry = kept.get(after) ?? { ids: [], texts: [] };
    entry.ids.push(result.key);
    entry.texts.push(words);
    kept.set(after, entry);
  };
  for (const result of read.results) {
    const problem = failures.find(result.message, result.slot, PAIRING);
    if (problem === undefined) {
      answered.add(result.key);
      continue;
    }
    if (problem.rule === 'aisdk.duplicate_tool_result') {
      const repeat = repeats.find(
        (r) => r.key === result.key && !r.taken && r.seq < result.seq && r.segment === read.segment[result.message],
      );
      if (repeat !== undefined) {
        repeat.taken = true;
        answered.add(repeat.id);
        edits.replace.set(slotKey(result.message, result.slot), {
          ...current(result.message, result.slot),
          toolCallId: repeat.id,
        });
        continue;
      }
    }
    if (MOVED.has(problem.rule)) pending.push(result);
    else {
      edits.remove(
        result.message,
        result.slot,
        problem.rule,
        [result.key],
        REMOVE_DETAIL[problem.rule] ?? 'removed the tool-result',
      );
      // The words of a client result are the tool's or the user's (an ask-user tool): they stay.
      if (problem.rule === 'aisdk.tool_result_orphan' && !result.inAssistant) keepWords(result);
    }
  }
  return { pending, kept };
}

/** Where each misplaced result moves (its call's turn), or its removal when its call has a result. */
function movesOf(
  { failures, edits, first, answered }: Pass,
  pending: readonly ResultSite[],
): { result: ResultSite; rule: AISDKRule; assistant: number }[] {
  const moves: { result: ResultSite; rule: AISDKRule; assistant: number }[] = [];
  for (const result of pending) {
    const rule = (failures.find(result.message, result.slot, PAIRING) as LocatedFailure<AISDKRule>).rule;
    const call = first.get(result.key);
    if (call === undefined || answered.has(result.key)) {
      edits.remove(
        result.message,
        result.slot,
        rule,
        [result.key],
        'removed the misplaced tool-result: its call already has a result',
      );
      continue;
    }
    answered.add(result.key);
    moves.push({ result, rule, assistant: call.message });
  }
  return moves;
}

/** Removes approval parts that answer or ask about nothing; a removed request takes its responses along. */
function removeApprovals({ read, failures, edits }: Pass): void {
  for (const failure of [
    ...failures.of('aisdk.approval_response_unknown'),
    ...failures.of('aisdk.approval_request_unknown_call'),
  ]) {
    edits.remove(failure.message, failure.slot, failure.rule, failure.ids, REMOVE_DETAIL[failure.rule] as string);
  }
  for (const failure of failures.of('aisdk.approval_request_unknown_call')) {
    const approvalId = edits.block(failure.message, failure.slot)['approvalId'];
    for (const response of read.responses) {
      if (response.key !== approvalId || edits.drop.has(slotKey(response.message, response.slot))) continue;
      edits.remove(
        response.message,
        response.slot,
        failure.rule,
        failure.ids,
        'removed the approval response to a removed approval request',
      );
    }
  }
}

/** Parts in an old or loose shape, rewritten in place (or where they move to). */
function reshapeParts({ failures, edits, current, unknownOutcome, first }: Pass): void {
  for (const failure of failures.all) {
    const detail = RESHAPE_DETAIL[failure.rule];
    const key = slotKey(failure.message, failure.slot);
    if (detail === undefined || edits.drop.has(key)) continue;
    const before = current(failure.message, failure.slot);
    const id = failure.ids[0] ?? '';
    const call = first.get(id)?.name;
    const after = reshape(before, failure.rule, call, () =>
      unknownOutcome(call ?? (typeof before['toolName'] === 'string' ? before['toolName'] : '')),
    );
    if (after === undefined) continue;
    edits.replace.set(key, after);
    edits.repairs.push({
      action: 'rewrote_field',
      rule: failure.rule,
      ids: failure.ids,
      at: failure.at,
      detail,
      removed: before,
    });
  }
}

/** Moves each misplaced result into the tool message after its call. */
function applyMoves(
  { edits, current, extra }: Pass,
  moves: readonly { result: ResultSite; rule: AISDKRule; assistant: number }[],
): void {
  for (const { result, rule, assistant } of moves) {
    edits.drop.add(slotKey(result.message, result.slot));
    extra.set(assistant, [...(extra.get(assistant) ?? []), current(result.message, result.slot)]);
    edits.repairs.push({
      action: 'moved_result',
      rule,
      ids: [result.key],
      at: partAt(result.message, result.slot),
      detail: `moved the tool-result into the tool message after messages[${assistant}]`,
    });
  }
}

/** A decision before the last message: the result the SDK wrote for it, after the response. */
function answerDecisions({ failures, edits, unknownOutcome, first, answered, appendTo }: Pass): void {
  for (const failure of [
    ...failures.of('aisdk.approved_call_without_result'),
    ...failures.of('aisdk.denied_call_without_result'),
  ]) {
    const id = failure.ids[0] ?? '';
    const call = first.get(id);
    if (call === undefined || answered.has(id)) continue;
    answered.add(id);
    const reason = edits.block(failure.message, failure.slot)['reason'];
    const approved = failure.rule === 'aisdk.approved_call_without_result';
    const part = approved
      ? toolResult(id, call.name, { type: 'error-text', value: unknownOutcome(call.name) })
      : toolResult(id, call.name, { type: 'execution-denied', ...(typeof reason === 'string' ? { reason } : {}) });
    appendTo.set(failure.message, [...(appendTo.get(failure.message) ?? []), part]);
    edits.repairs.push({
      action: 'synthesized_result',
      rule: failure.rule,
      ids: [id],
      at: failure.at,
      detail: approved
        ? `wrote an error tool-result for the approved tool call ${id}: its result was not kept`
        : `wrote the execution-denied tool-result for the denied tool call ${id}`,
    });
  }
}

/** Calls still unsettled (a tool-result kept, or an approval response in the final message) get an error result. */
function synthesizeUnanswered(
  { read, edits, unknownOutcome, first, answered, extra }: Pass,
  outId: ReadonlyMap<string, string>,
  open: ReadonlySet<string>,
): void {
  const settled = new Set([...first.values()].filter((call) => call.answered).map((call) => call.key));
  for (const call of read.calls) {
    if (call.server) continue;
    const id = outId.get(slotKey(call.message, call.slot)) ?? call.key;
    const repeat = id !== call.key;
    if (answered.has(id) || open.has(id) || (!repeat && settled.has(id))) continue;
    answered.add(id);
    extra.set(call.message, [
      ...(extra.get(call.message) ?? []),
      toolResult(id, call.name, { type: 'error-text', value: unknownOutcome(call.name) }),
    ]);
    edits.repairs.push({
      action: 'synthesized_result',
      rule: 'aisdk.tool_call_unanswered',
      ids: [id],
      at: partAt(call.message, call.slot),
      detail: `wrote an error tool-result for tool call ${id}: it had none`,
    });
  }
}

/** The moved and synthesized results: into the next tool message when it holds parts, else a new one. */
function placeExtra({ messages, read, edits, extra, appendTo }: Pass): void {
  for (const [assistant, parts] of extra) {
    // The next tool message takes them when it holds parts (a string content is a rule of its own).
    if (read.roles[assistant + 1] === 'tool' && Array.isArray((messages[assistant + 1] as JsonObject)['content']))
      appendTo.set(assistant + 1, [...parts, ...(appendTo.get(assistant + 1) ?? [])]);
    else {
      const ids = parts.map((part) => part['toolCallId'] as string);
      edits.insert(
        assistant,
        { role: 'tool', content: parts },
        'aisdk.tool_call_unanswered',
        ids,
        'a tool message with the tool results',
      );
    }
  }
}

/**
 * The repaired messages: every edit applied, and the kept words as user text, after the message
 * a synthesized tool message goes after, if any.
 */
function writeOut(
  { messages, edits, appendTo }: Pass,
  kept: ReadonlyMap<number, { ids: string[]; texts: string[] }>,
): unknown[] {
  const insertAfter = new Map<number, JsonObject>(edits.insertAfter);
  const expand = new Map<JsonObject, JsonObject[]>();
  let leading: JsonObject | undefined;
  for (const [after, { ids, texts }] of kept) {
    const user: JsonObject = { role: 'user', content: texts.map((text) => ({ type: 'text', text })) };
    edits.repairs.push({
      action: 'inserted_message',
      rule: 'aisdk.tool_result_orphan',
      ids,
      at: after < 0 ? 'messages[0]' : `messages[${after}]`,
      detail: `inserted a user message ${after < 0 ? 'before the first message' : `right after messages[${after}]`} with the words of the removed orphaned tool-result`,
    });
    const before = insertAfter.get(after);
    if (after < 0) leading = user;
    else if (before === undefined) insertAfter.set(after, user);
    else {
      const both: JsonObject = {};
      expand.set(both, [before, user]);
      insertAfter.set(after, both);
    }
  }
  let out = applyBlockEdits(messages, 'content', {
    drop: edits.drop,
    replace: edits.replace,
    append: appendTo,
    insertAfter,
  });
  if (expand.size > 0) out = out.flatMap((m) => expand.get(m as JsonObject) ?? [m]);
  if (leading !== undefined) out = [leading, ...out];
  return out;
}
