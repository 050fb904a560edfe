/**
 * Closure-checked history: the tool calls and tool replies of a turn's new messages, checked by
 * the join check before anything is saved.
 *
 * @module
 */
import { joinCheck } from '../check/check.ts';
import type { FailureClass } from '../failures/index.ts';
import { own } from '../internal/own-field.ts';
import type { ChatMessage, ToolCall } from './messages.ts';

/**
 * The outcome of a closure check over a turn.
 *
 * @example
 * ```ts
 * import { checkClosure, type ClosureCheck } from 'turngate/chat';
 * const check: ClosureCheck = checkClosure([], [{ role: 'tool', tool_call_id: 'call_9', content: 'late' }], false);
 * check.ok ? [] : check.ids; //=> ['call_9']
 * ```
 */
export type ClosureCheck =
  | { readonly ok: true; readonly openToolCalls: readonly ToolCall[] }
  | {
      readonly ok: false;
      readonly failureClass: FailureClass;
      readonly detail: string;
      /** The tool call ids that caused it, sorted. */
      readonly ids: readonly string[];
    };

const CALL_SPEC = {
  callId: 'turngate.chat',
  modelRef: 'chat',
  actionMode: 'code',
  executionPattern: 'single',
  normalizerId: 'turngate.chat.v1',
  mutationPolicyDigest: 'turngate.chat',
  governancePolicyDigest: 'turngate.chat',
  toolRenderProtocolDigest: 'turngate.chat',
  reminderQueuePolicyDigest: 'turngate.chat',
  stateViewPolicyDigest: 'turngate.chat',
  decompositionPolicyDigest: 'turngate.chat',
};

/**
 * Checks that a turn leaves the history closed: every assistant tool call (open ones carried in
 * from a suspended turn included) has exactly one tool-role reply, no tool reply answers an
 * unknown call, no id is used twice. Tool calls are the join check's requests, tool replies its
 * results (each `observed`), so the rules are the join check's own.
 *
 * @param open - Tool calls still awaiting replies from earlier (a suspended turn).
 * @param tail - The turn's new messages, the inbound message included.
 * @param allowOpen - `true` for a suspending turn, which may leave calls open.
 * @returns The calls still open, or the first failure class with its detail and the ids.
 *
 * @example
 * ```ts
 * import { checkClosure } from 'turngate/chat';
 * const check = checkClosure([], [{ role: 'assistant', content: [], tool_calls: [{ id: 'c1', name: 'search', arguments: {} }] }], false);
 * check.ok; //=> false (tool.result_missing)
 * ```
 */
export function checkClosure(
  open: readonly ToolCall[],
  tail: readonly ChatMessage[],
  allowOpen: boolean,
): ClosureCheck {
  const calls: ToolCall[] = [...open];
  const replies: { toolCallId: string; content: string }[] = [];
  for (const message of tail) {
    if (message.role === 'assistant') calls.push(...(own(message, 'tool_calls') ?? []));
    else if (message.role === 'tool') replies.push({ toolCallId: message.tool_call_id, content: message.content });
  }
  const seen = new Set<string>();
  for (const call of calls) {
    if (seen.has(call.id))
      return {
        ok: false,
        failureClass: 'tool.schema_invalid',
        detail: `tool call id ${call.id} is used twice`,
        ids: [call.id],
      };
    seen.add(call.id);
  }
  const answered = new Set<string>();
  for (const reply of replies) {
    if (answered.has(reply.toolCallId))
      return {
        ok: false,
        failureClass: 'tool.schema_invalid',
        detail: `tool call ${reply.toolCallId} has more than one tool reply`,
        ids: [reply.toolCallId],
      };
    answered.add(reply.toolCallId);
  }
  if (calls.length === 0 && replies.length === 0) return { ok: true, openToolCalls: [] };
  const outcome = joinCheck({
    evidence: {
      callSpec: CALL_SPEC,
      toolRequests: calls.map((call) => ({ toolCallId: call.id, toolName: call.name })),
      toolResults: replies.map((reply) => ({ toolCallId: reply.toolCallId, status: 'ok', payload: reply.content })),
      toolUse: replies.map((reply) => ({ toolCallId: reply.toolCallId, disposition: 'observed' })),
      protocolState: { stopReason: 'end_turn', continuationAllowed: false },
    },
  });
  if (!outcome.ok) return { ok: false, failureClass: 'tool.schema_invalid', detail: outcome.error.message, ids: [] };
  const { report } = outcome;
  const orphan = report.normalized.joinState.orphanResultCallIds ?? [];
  if (orphan.length > 0)
    return {
      ok: false,
      failureClass: 'tool.result_orphan',
      detail: `tool replies answer no open tool call: ${orphan.join(', ')}`,
      ids: orphan,
    };
  const missing = report.normalized.joinState.missingResultCallIds ?? [];
  if (missing.length > 0 && !allowOpen) {
    return {
      ok: false,
      failureClass: 'tool.result_missing',
      detail: `tool calls have no tool reply: ${missing.join(', ')}`,
      ids: missing,
    };
  }
  const missingSet = new Set(missing);
  return { ok: true, openToolCalls: calls.filter((call) => missingSet.has(call.id)) };
}
