/**
 * The AI SDK rules over `ModelMessage[]`: the SDK's own (`MissingToolResultsError`: a client call
 * settled before the next user or system message; the `ModelMessage` schema; the approval
 * errors) and those of the providers the messages are converted for (orphans, order, duplicates,
 * inputs that are no object, a client result for a provider-executed call, Gemini's names).
 *
 * A client call is settled by a `tool-result` in a tool message after it, or by an approval
 * response to its approval request in the final message (the SDK runs an approved call, or
 * writes the denial, before it calls the model). An approval response before the final message
 * no longer makes the SDK act: the call then needs the result the SDK wrote back then.
 * Provider-executed calls need no tool message.
 *
 * @module
 */
import { CallTable, type CallSite, reportUnanswered } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import { FailureSink } from '../core/report.ts';
import { type AISDKRead, type ApprovalSite, issueAt, partAt, readAISDK, type ResponseSite } from './read.ts';
import { AISDK_RULES, isGeminiModel } from './rules.ts';

export { type AISDKRead, readAISDK } from './read.ts';

const at = (i: number) => `messages[${i}]`;

/** Checks `ModelMessage[]` against every AI SDK rule. */
export function checkAISDK(messages: readonly unknown[], context: CheckContext): CheckOutcome {
  return analyzeAISDK(messages, context).outcome;
}

/** The check with what the reader collected (for repair). */
export function analyzeAISDK(
  messages: readonly unknown[],
  context: CheckContext,
): { readonly outcome: CheckOutcome; readonly read: AISDKRead } {
  const read = readAISDK(messages);
  const sink = new FailureSink(AISDK_RULES);
  for (const issue of read.issues) sink.fail(issue.rule, issue.ids, issueAt(issue), issue.message, issue.slot);
  const last = messages.length - 1;
  const { segment } = read;
  const table = new CallTable();
  for (const call of read.calls) {
    if (!table.add(call))
      sink.fail('aisdk.duplicate_tool_call_id', [call.key], partAt(call.message, call.slot), call.message, call.slot);
  }

  const names = isGeminiModel(context.model);
  for (const result of read.results) {
    const { key, message, slot } = result;
    const where = partAt(message, slot);
    const call = table.get(key);
    if (call === undefined) sink.fail('aisdk.tool_result_orphan', [key], where, message, slot);
    else if (call.server && !result.inAssistant && !result.denied)
      sink.fail('aisdk.provider_executed_call_answered_by_client', [key], where, message, slot);
    else if (!call.server && result.inAssistant)
      sink.fail('aisdk.tool_result_in_assistant_message', [key], where, message, slot);
    else if (call.seq > result.seq) sink.fail('aisdk.tool_result_before_call', [key], where, message, slot);
    else if (!table.claim(call)) sink.fail('aisdk.duplicate_tool_result', [key], where, message, slot);
    else {
      if (names && result.name !== undefined && result.name !== call.name)
        sink.fail('aisdk.tool_result_name_mismatch', [key], where, message, slot);
      if (segment[call.message] !== segment[message])
        sink.fail('aisdk.tool_result_separated', [key], where, message, slot);
      else call.answered = true;
    }
  }

  // Approvals: a request names a call; a response answers an earlier request. A response in the
  // final message settles the call: the SDK runs it (or records the denial) before the model call.
  const requests = new Map<string, ApprovalSite>();
  for (const request of read.requests) {
    if (table.get(request.toolCallId) === undefined) {
      sink.fail(
        'aisdk.approval_request_unknown_call',
        [request.toolCallId],
        partAt(request.message, request.slot),
        request.message,
        request.slot,
      );
    }
    if (!requests.has(request.key)) requests.set(request.key, request);
  }
  let decided: Map<CallSite, ResponseSite> | undefined;
  for (const response of read.responses) {
    const request = requests.get(response.key);
    // In the prompt the SDK hands its model, a provider-executed call's approval response stays and
    // its request is gone (the SDK removes every request): there a response without one is expected.
    if (request === undefined && context.stage === 'prompt') continue;
    if (request === undefined || request.seq > response.seq) {
      sink.fail(
        'aisdk.approval_response_unknown',
        [response.key],
        partAt(response.message, response.slot),
        response.message,
        response.slot,
      );
      continue;
    }
    const call = table.get(request.toolCallId);
    if (call === undefined || call.seq > response.seq || segment[call.message] !== segment[response.message]) continue;
    if (response.message === last) call.answered = true;
    else if (!call.server) {
      decided ??= new Map();
      if (!decided.has(call)) decided.set(call, response);
    }
  }
  // A decision before the final message: the SDK acted on it back then, and wrote a result the
  // history must keep (the call's tool output, or `execution-denied`).
  if (decided !== undefined)
    for (const [call, response] of decided) {
      if (call.answered) continue;
      call.answered = true;
      sink.fail(
        response.approved ? 'aisdk.approved_call_without_result' : 'aisdk.denied_call_without_result',
        [call.key],
        partAt(response.message, response.slot),
        response.message,
        response.slot,
      );
    }

  const openToolCalls = reportUnanswered(read.calls, sink, 'aisdk.tool_call_unanswered', {
    open: (call) => context.expect === 'received' && call.message === last,
    callAt: (call) => partAt(call.message, call.slot),
    messageAt: at,
  });
  return { outcome: { failures: sink.sorted(), openToolCalls, located: sink.located }, read };
}
