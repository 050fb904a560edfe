/**
 * The rules of formats where each tool result is a message of its own (`role: 'tool'`) that
 * must stand in the run of tool messages directly after the assistant message that made its
 * call: OpenAI Chat Completions and turngate's `ChatMessage`. The format readers collect calls
 * and tool messages; this decides pairing, position and uniqueness. Internal.
 *
 * @module
 */
import type { TranscriptRule } from '../rules.ts';
import { CallTable, type CallSite, reportUnanswered } from './calls.ts';
import type { CheckContext, CheckOutcome } from './context.ts';
import { FailureSink, type RuleTable } from './report.ts';

/** A tool message as read: the id it answers (absent when it has none) and whether it is complete. */
export interface ToolMessageSite {
  readonly key: string | undefined;
  readonly message: number;
  readonly seq: number;
  /** The message lacks a field the provider needs (tool_call_id, content). */
  readonly incomplete: boolean;
}

/** The rule ids of one format. */
export interface ToolRunRules {
  /** The format's rule table. */
  readonly table: RuleTable;
  readonly unanswered: TranscriptRule;
  readonly orphan: TranscriptRule;
  readonly notAdjacent: TranscriptRule;
  readonly beforeCall: TranscriptRule;
  readonly duplicateResult: TranscriptRule;
  readonly duplicateCall: TranscriptRule;
  readonly missingField?: TranscriptRule;
}

/** What a reader collects. `roles[i]` is message i's role; calls in input order. */
export interface ToolRunRead {
  readonly roles: readonly string[];
  readonly calls: readonly CallSite[];
  readonly toolMessages: readonly ToolMessageSite[];
}

/** The message index of calls carried in from an earlier turn (`openToolCalls` of `chat`). */
export const CARRIED = -1;

/**
 * Runs the tool-run rules. Calls with `message === CARRIED` stand before the first message
 * (carried open from a suspended turn): the tool messages at the start answer them.
 */
export function checkToolRuns(
  read: ToolRunRead,
  rules: ToolRunRules,
  context: CheckContext,
  callAt: (call: CallSite) => string,
): CheckOutcome {
  const { roles } = read;
  const n = roles.length;
  const sink = new FailureSink(rules.table);
  const table = new CallTable();
  for (const call of read.calls) {
    if (!table.add(call)) sink.fail(rules.duplicateCall, [call.key], callAt(call), call.message, call.slot);
  }
  // Each tool message is classified once: incomplete, orphan, before its call, a second result
  // for its id, out of its call's run, or in place.

  // owner[i]: the message the tool run holding message i follows (CARRIED before message 0), or -2.
  const owner = new Int32Array(n);
  let runOwner = CARRIED;
  for (let i = 0; i < n; i++) {
    if (roles[i] === 'tool') owner[i] = runOwner;
    else runOwner = roles[i] === 'assistant' ? i : -2;
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
    else if (call.message !== owner[tool.message]) sink.fail(rules.notAdjacent, [tool.key], where, tool.message);
    else call.answered = true;
  }

  // A call still open may wait for its result when nothing but its own tool run follows it.
  let tail = n;
  while (tail > 0 && roles[tail - 1] === 'tool') tail--;
  const lastOwner = tail === 0 ? CARRIED : roles[tail - 1] === 'assistant' ? tail - 1 : -2;
  const openToolCalls = reportUnanswered(read.calls, sink, rules.unanswered, {
    open: (call) => context.expect === 'received' && call.message === lastOwner,
    callAt,
    messageAt: (message) => (message === CARRIED ? 'openToolCalls' : `messages[${message}]`),
  });
  return { failures: sink.sorted(), openToolCalls, located: sink.located };
}
