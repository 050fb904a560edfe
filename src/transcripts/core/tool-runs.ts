/**
 * The rules of formats where each tool result is a message of its own (`role: 'tool'`) that
 * must stand in the run of tool messages directly after the assistant message that made its
 * call: OpenAI Chat Completions and turngate's `ChatMessage`. The format readers collect calls,
 * tool messages and the failures of their own shape rules in one pass; this decides pairing,
 * position, uniqueness and the limits both formats share (call id length, calls per message).
 * Internal.
 *
 * @module
 */
import type { RuleId } from './rule-info.ts';
import type { ToolCallIdGrammar } from './ids.ts';
import { CallTable, type CallSite, reportUnanswered } from './calls.ts';
import type { CheckContext, CheckOutcome } from './context.ts';
import { FailureSink, type LocatedFailure, type RuleTable } from './report.ts';

/**
 * A tool message as read: the id it answers (absent when it has none), whether it is complete,
 * and the run of tool messages it stands in (`owner`, with that message's calls).
 */
export interface ToolMessageSite {
  readonly key: string | undefined;
  readonly message: number;
  readonly seq: number;
  /** The message lacks a field the provider needs (tool_call_id, content). */
  readonly incomplete: boolean;
  /**
   * The message the run of tool messages holding this one follows: an assistant message's
   * index, {@link CARRIED} (the run at the start, answering calls carried in), or
   * {@link NO_OWNER} (the run follows a message of another role).
   */
  readonly owner: number;
  /** The calls of `owner`: indexes `from` (inclusive) to `to` (exclusive) into `calls`. */
  readonly from: number;
  readonly to: number;
}

/** The rule ids of one format (`R`: its own ids). */
export interface ToolRunRules<R extends RuleId = RuleId> {
  /** The format's rule table. */
  readonly table: RuleTable<R>;
  readonly unanswered: R;
  readonly orphan: R;
  readonly notAdjacent: R;
  readonly beforeCall: R;
  readonly duplicateResult: R;
  readonly duplicateCall: R;
  readonly missingField?: R;
  /** A tool call id longer than {@link MAX_TOOL_CALL_ID} characters. */
  readonly idTooLong?: R;
  /** More than {@link MAX_TOOL_CALLS} tool calls in one assistant message. */
  readonly tooManyCalls?: R;
  /**
   * A format whose tool call ids follow a grammar (Mistral: exactly 9 of `a-z A-Z 0-9`): the
   * rule a call id outside it breaks, and the grammar (`accepts`, and `mint` for repair's fresh
   * ids, repeated ids included).
   */
  readonly idGrammar?: { readonly rule: R; readonly grammar: ToolCallIdGrammar };
}

/**
 * What a reader collects: calls in input order, tool messages, the owner of the run of tool
 * messages that ends the input, and `shape`: the failures of the format's own shape rules, as
 * the reader found them (`R`: the format's rule ids).
 */
export interface ToolRunRead<R extends RuleId = RuleId> {
  /**
   * The message the trailing run of tool messages follows, as {@link ToolMessageSite.owner}
   * says: the last message when it is an assistant message, the assistant message before the
   * tool messages that end the input, {@link CARRIED} when every message is a tool message, or
   * {@link NO_OWNER}.
   */
  readonly lastOwner: number;
  readonly calls: readonly CallSite[];
  readonly toolMessages: readonly ToolMessageSite[];
  readonly shape: readonly LocatedFailure<R>[];
}

/** The message index of calls carried in from an earlier turn (`openToolCalls` of `chat`). */
export const CARRIED = -1;

/** The owner of a run of tool messages that follows no assistant message. */
export const NO_OWNER = -2;

/**
 * The longest tool call id Chat Completions takes, in characters. Observed: "Invalid
 * 'messages[N].tool_calls[K].id': string too long. Expected a string with maximum length 40"
 * (https://github.com/vercel/ai/issues/8132, https://github.com/anomalyco/opencode/issues/12653).
 */
export const MAX_TOOL_CALL_ID = 40;

/**
 * The most tool calls one assistant message may hold. Observed: "Invalid
 * 'messages[N].tool_calls': array too long. Expected an array with maximum length 128"
 * (https://github.com/openai/openai-dotnet/issues/317).
 */
export const MAX_TOOL_CALLS = 128;

/**
 * Pairs each tool message with a call of the assistant message its run follows, when every
 * one does, once, and no call id repeats: the common case, with no table of ids. The number of
 * calls paired, or -1 when some tool message needs the full classification.
 */
function pairInPlace(calls: readonly CallSite[], tools: readonly ToolMessageSite[]): number {
  for (let t = 0; t < tools.length; t++) {
    const tool = tools[t] as ToolMessageSite;
    if (tool.incomplete) return -1;
    const key = tool.key;
    let found = false;
    for (let c = tool.from; c < tool.to; c++) {
      const call = calls[c] as CallSite;
      if (call.key !== key) continue;
      if (call.claimed) return -1;
      call.claimed = true;
      call.answered = true;
      found = true;
      break;
    }
    if (!found) return -1;
  }
  return tools.length;
}

/** Each tool message classified once: incomplete, orphan, before its call, a second result, out of its call's run, or in place. */
function classify(read: ToolRunRead, rules: ToolRunRules, sink: FailureSink, callAt: (call: CallSite) => string): void {
  const table = new CallTable();
  for (const call of read.calls) {
    if (!table.add(call)) sink.fail(rules.duplicateCall, [call.key], callAt(call), call.message, call.slot);
  }
  for (const tool of read.toolMessages) {
    const where = `messages[${tool.message}]`;
    if (tool.incomplete && rules.missingField !== undefined) {
      sink.fail(rules.missingField, tool.key === undefined ? [] : [tool.key], where, tool.message);
    }
    if (tool.key === undefined) continue;
    const call = table.get(tool.key);
    if (call === undefined) sink.fail(rules.orphan, [tool.key], where, tool.message);
    else if (call.seq > tool.seq) sink.fail(rules.beforeCall, [tool.key], where, tool.message);
    else if (!table.claim(call)) sink.fail(rules.duplicateResult, [tool.key], where, tool.message);
    else if (call.message !== tool.owner) sink.fail(rules.notAdjacent, [tool.key], where, tool.message);
    else call.answered = true;
  }
}

/** What {@link readCalls} found: whether an id repeats, and the calls whose ids break a limit. */
interface CallFindings {
  readonly repeated: boolean;
  readonly long: readonly CallSite[] | undefined;
  readonly malformed: readonly CallSite[] | undefined;
}

/**
 * One pass over the calls: repeated ids, ids over the limit (rare: judged once pairing says
 * which calls are open), ids outside the format's grammar, and the calls of each message
 * against the limit (failed here).
 */
function readCalls(calls: readonly CallSite[], rules: ToolRunRules, sink: FailureSink): CallFindings {
  const ids = new Set<string>();
  let repeated = false;
  let long: CallSite[] | undefined;
  let malformed: CallSite[] | undefined;
  const grammar = rules.idGrammar?.grammar;
  let from = 0;
  for (let c = 0; c < calls.length; c++) {
    const call = calls[c] as CallSite;
    const size = ids.size;
    ids.add(call.key);
    if (ids.size === size) repeated = true;
    if (call.key.length > MAX_TOOL_CALL_ID && call.message !== CARRIED) {
      long ??= [];
      long.push(call);
    }
    if (grammar !== undefined && call.message !== CARRIED && !grammar.accepts(call.key)) {
      malformed ??= [];
      malformed.push(call);
    }
    const next = calls[c + 1];
    if (next === undefined || next.message !== call.message) {
      if (c + 1 - from > MAX_TOOL_CALLS && rules.tooManyCalls !== undefined && call.message !== CARRIED) {
        sink.fail(rules.tooManyCalls, [], `messages[${call.message}].tool_calls`, call.message);
      }
      from = c + 1;
    }
  }
  return { repeated, long, malformed };
}

/** Fails the grammar rule for each tool message whose id is outside the grammar and names no call. */
function orphanIds(read: ToolRunRead, idGrammar: NonNullable<ToolRunRules['idGrammar']>, sink: FailureSink): void {
  let callIds: Set<string> | undefined;
  for (const tool of read.toolMessages) {
    const key = tool.key;
    if (key === undefined || idGrammar.grammar.accepts(key)) continue;
    callIds ??= new Set(read.calls.map((call) => call.key));
    if (!callIds.has(key)) sink.fail(idGrammar.rule, [key], `messages[${tool.message}].tool_call_id`, tool.message);
  }
}

/**
 * Runs the tool-run rules, after the reader's shape failures. Calls with `message === CARRIED`
 * stand before the first message (carried open from a suspended turn): the tool messages at
 * the start answer them. Linear: one pass over the calls (a set of ids), one over the tool
 * messages; the table of ids and the full classification only when something is out of place.
 * The outcome's `analysis` is `read`, for the format's repair.
 */
export function checkToolRuns<R extends RuleId>(
  read: ToolRunRead<R>,
  rules: ToolRunRules<R>,
  context: CheckContext,
  callAt: (call: CallSite) => string,
): CheckOutcome<R> {
  const { calls, shape, lastOwner } = read;
  const sink = new FailureSink<R>(rules.table);
  for (let s = 0; s < shape.length; s++) {
    const f = shape[s] as LocatedFailure<R>;
    sink.fail(f.rule, f.ids, f.at, f.message, f.slot);
  }

  const { repeated, long, malformed } = readCalls(calls, rules, sink);

  const paired = repeated ? -1 : pairInPlace(calls, read.toolMessages);
  if (paired < 0) {
    for (let c = 0; c < calls.length; c++) {
      const call = calls[c] as CallSite;
      call.answered = false;
      call.claimed = false;
    }
    classify(read, rules, sink, callAt);
  }

  // A call still open may wait for its result when nothing but its own tool run follows it.
  const received = context.expect === 'received';
  // Every call paired in place: none is open or unanswered.
  const openToolCalls =
    paired === calls.length
      ? []
      : reportUnanswered(calls, sink, rules.unanswered, {
          open: (call) => received && call.message === lastOwner,
          callAt,
          messageAt: (message) => (message === CARRIED ? 'openToolCalls' : `messages[${message}]`),
        });

  // Ids over the limit, except calls still open (their results are yet to come with the same
  // id; the rule holds when the history is sent).
  if (long !== undefined && rules.idTooLong !== undefined) {
    for (const call of long) {
      if (received && call.message === lastOwner && !call.answered) continue;
      sink.fail(rules.idTooLong, [call.key], `${callAt(call)}.id`, call.message, call.slot);
    }
  }
  // Ids outside the format's grammar: the history is refused as a whole, open calls included
  // (their results would carry the same id).
  if (malformed !== undefined && rules.idGrammar !== undefined) {
    for (const call of malformed) {
      sink.fail(rules.idGrammar.rule, [call.key], `${callAt(call)}.id`, call.message, call.slot);
    }
  }
  // A tool message carrying an id outside the grammar that no call has: its id fails too, besides
  // its pairing (a message's every failure is reported; a call's id is reported at the call).
  if (rules.idGrammar !== undefined) orphanIds(read, rules.idGrammar, sink);
  return { failures: sink.sorted(), openToolCalls, located: sink.located, analysis: read };
}

/**
 * The calls of a tool-run format's check (its `analysis`, a {@link ToolRunRead}), for extending
 * a checked history by its tail (`FormatDriver.extendable`). Every rule of these formats reads
 * one message, or pairs calls and tool messages by id and by the run each stands in: after an
 * accepted history, a tail whose own check accepts it and whose call ids the history does not
 * hold is accepted with it (a tool message opening the tail is an orphan in the tail's own
 * check, so such a tail is checked whole).
 */
export function toolRunCalls(analysis: unknown): readonly CallSite[] {
  return (analysis as ToolRunRead).calls;
}
