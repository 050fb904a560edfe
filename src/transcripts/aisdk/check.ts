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
import type { ExtendedCall, Extension } from '../core/driver.ts';
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { FailureSink } from '../core/report.ts';
import { type AISDKRead, type ApprovalSite, issueAt, partAt, readAISDK, type ResponseSite } from './read.ts';
import { AISDK_RULES, isGeminiModel, type AISDKRule } from './rules.ts';

export { type AISDKRead, readAISDK } from './read.ts';

const at = (i: number) => `messages[${i}]`;

/** Whether a tool-result records a denied approval (`output: { type: 'execution-denied' }`). */
const denied = (part: JsonObject): boolean => {
  const output = part['output'];
  return isJsonObject(output) && output['type'] === 'execution-denied';
};

/** Checks `ModelMessage[]` against every AI SDK rule. */
export function checkAISDK(messages: readonly unknown[], context: CheckContext): CheckOutcome<AISDKRule> {
  const analysis = analyzeAISDK(messages, context);
  return { ...analysis.outcome, analysis };
}

/** The check with what the reader collected (for repair). */
export function analyzeAISDK(
  messages: readonly unknown[],
  context: CheckContext,
): { readonly outcome: CheckOutcome<AISDKRule>; readonly read: AISDKRead } {
  const read = readAISDK(messages);
  const sink = new FailureSink(AISDK_RULES);
  for (const issue of read.issues) sink.fail(issue.rule, issue.ids, issueAt(issue), issue.message, issue.slot);
  const last = messages.length - 1;
  const { calls } = read;
  const table = CallTable.of(calls, (call) =>
    sink.fail('aisdk.duplicate_tool_call_id', [call.key], partAt(call.message, call.slot), call.message, call.slot),
  );

  pairResults(read, table, isGeminiModel(context.model), sink);
  checkApprovals(read, table, context, last, sink);

  const openToolCalls = reportUnanswered(calls, sink, 'aisdk.tool_call_unanswered', {
    open: (call) => context.expect === 'received' && call.message === last,
    callAt: (call) => partAt(call.message, call.slot),
    messageAt: at,
  });
  return { outcome: { failures: sink.sorted(), openToolCalls, located: sink.located }, read };
}

/**
 * Each tool-result against the call it answers: orphans, results before their call or in the
 * wrong message, second results, results separated from their call, and (`names`: a Gemini
 * model) results naming another tool.
 */
function pairResults(read: AISDKRead, table: CallTable, names: boolean, sink: FailureSink): void {
  const { calls, segment } = read;
  // A result mostly answers a call of the last message with calls before it: with no repeated
  // call id, that message's calls are looked at first, the table only when none matches.
  const recent = !table.hasRepeats;
  let next = 0;
  let from = 0;
  let callMessage = -1;
  for (const result of read.results) {
    const { key, message, slot } = result;
    let call: CallSite | undefined;
    if (recent) {
      for (; next < calls.length && (calls[next] as CallSite).seq < result.seq; next++) {
        const before = calls[next] as CallSite;
        if (before.message !== callMessage) {
          callMessage = before.message;
          from = next;
        }
      }
      for (let k = from; k < next; k++) {
        const candidate = calls[k] as CallSite;
        if (candidate.key === key) {
          call = candidate;
          break;
        }
      }
    }
    call ??= table.get(key);
    let rule: AISDKRule | undefined;
    if (call === undefined) rule = 'aisdk.tool_result_orphan';
    else if (call.server && !result.inAssistant && !denied(result.part))
      rule = 'aisdk.provider_executed_call_answered_by_client';
    else if (!call.server && result.inAssistant) rule = 'aisdk.tool_result_in_assistant_message';
    else if (call.seq > result.seq) rule = 'aisdk.tool_result_before_call';
    else if (!table.claim(call)) rule = 'aisdk.duplicate_tool_result';
    else {
      if (names && typeof result.part['toolName'] === 'string' && result.part['toolName'] !== call.name)
        sink.fail('aisdk.tool_result_name_mismatch', [key], partAt(message, slot), message, slot);
      if (segment[call.message] !== segment[message]) rule = 'aisdk.tool_result_separated';
      else call.answered = true;
    }
    if (rule !== undefined) sink.fail(rule, [key], partAt(message, slot), message, slot);
  }
}

/**
 * Approvals: a request names a call; a response answers an earlier request. A response in the
 * final message of a history settles the call: the SDK runs it (or records the denial) before
 * the model call. In the prompt (`stage: 'prompt'`) it does not: the SDK has already acted, and a
 * client call approved there without its result was never executed.
 */
function checkApprovals(
  read: AISDKRead,
  table: CallTable,
  context: CheckContext,
  last: number,
  sink: FailureSink,
): void {
  const { segment } = read;
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
    // In the history, a decision in the final message is acted on by the SDK before it calls the
    // model. In the prompt the SDK hands its model, that moment has passed: an approved client call
    // still without its result was never executed, and the provider would get a dangling call.
    if (response.message === last && (context.stage !== 'prompt' || call.server)) call.answered = true;
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
}

/** Keys of approval ids among the carried keys: apart from call ids (a clash only sends a tail to the full check). */
const APPROVAL_KEY = '\u0000approval:';

/**
 * The keys of a checked `ModelMessage[]` history for its extension by a tail read alone
 * (`FormatDriver.extendable`), or `undefined` when a tail's own check does not decide the whole
 * history. Calls and results pair by id over the whole history (a tail's result for a history's
 * call is an orphan in the tail's own check), and approval requests by approval id: the keys are
 * the call ids and the approval ids of the requests (the first request of an id is the one a
 * response answers). A call and its result share a segment (the user and system messages before
 * them), which a tail's own check counts the same. What reads the history's end: an approval
 * response in the final message settles its call, and no longer does once a tail follows it (the
 * result the SDK wrote back is then required): such a history is checked whole with its tail. In
 * the prompt the SDK hands its model (`stage: 'prompt'`) a response may stand without its request
 * (the SDK removes the requests), which a tail's own check cannot tell from one whose request is
 * in the history: a tail with approval responses after a history with requests is checked whole
 * (the state carried: whether the history holds a request).
 */
export function aisdkExtendable(analysis: unknown, context: CheckContext, before: unknown): Extension | undefined {
  const { read } = analysis as { readonly read: AISDKRead };
  const requests = before === true || read.requests.length > 0;
  if (context.stage === 'prompt' && before === true && read.responses.length > 0) return undefined;
  const last = read.roles.length - 1;
  for (const response of read.responses) if (response.message === last) return undefined;
  if (read.requests.length === 0) return { calls: read.calls, state: requests };
  const calls: ExtendedCall[] = [...read.calls];
  for (const request of read.requests) calls.push({ key: APPROVAL_KEY + request.key, message: request.message });
  return { calls, state: requests };
}
