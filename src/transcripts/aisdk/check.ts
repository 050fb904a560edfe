/**
 * The AI SDK rules over `ModelMessage[]`: the SDK's own (`MissingToolResultsError`: a client
 * call settled before the next user or system message) and those of the providers the
 * messages are converted for (orphans, order, duplicates).
 *
 * A client call is settled by a `tool-result` in a tool message after it, or by an approval
 * response to its approval request in the final message (the SDK runs an approved call, or
 * writes the denial, before it calls the model). Provider-executed calls need no tool message.
 *
 * @module
 */
import { CallTable, type CallSite, reportUnanswered } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import { invalid, isJsonObject, type JsonObject } from '../core/input.ts';
import { AISDK_RULES } from './rules.ts';
import { FailureSink } from '../core/report.ts';

/** A part with an id, as read. */
interface PartSite {
  readonly key: string;
  readonly message: number;
  readonly slot: number;
  readonly seq: number;
}

/** An approval request: its approval id and the call it names. */
interface ApprovalSite extends PartSite {
  readonly toolCallId: string;
}

/** What the reader collects. */
export interface AISDKRead {
  readonly roles: readonly string[];
  /** Per message: the number of user and system messages up to it (a call and its result share it). */
  readonly segment: Int32Array;
  readonly calls: readonly CallSite[];
  readonly results: readonly (PartSite & { readonly inAssistant: boolean })[];
  readonly requests: readonly ApprovalSite[];
  readonly responses: readonly PartSite[];
}

const at = (i: number) => `messages[${i}]`;
const partAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

function string(part: JsonObject, key: string, i: number, j: number): string {
  const value = part[key];
  if (typeof value !== 'string') invalid(`${partAt(i, j)}.${key}`, 'a string');
  return value;
}

/** Reads `ModelMessage[]`: raises a `TranscriptInputError` for input that is not AI SDK messages. */
export function readAISDK(messages: readonly unknown[]): AISDKRead {
  const n = messages.length;
  const roles: string[] = new Array(n);
  const segment = new Int32Array(n);
  const calls: CallSite[] = [];
  const results: (PartSite & { inAssistant: boolean })[] = [];
  const requests: ApprovalSite[] = [];
  const responses: PartSite[] = [];
  let seq = 0;
  let seen = 0;
  for (let i = 0; i < n; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) invalid(at(i), 'a message object');
    const role = message['role'];
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool')
      invalid(`${at(i)}.role`, "'system', 'user', 'assistant' or 'tool'");
    roles[i] = role;
    if (role === 'system' || role === 'user') seen++;
    segment[i] = seen;
    const content = message['content'];
    if (typeof content === 'string') {
      if (role === 'tool') invalid(`${at(i)}.content`, 'an array of tool-result and tool-approval-response parts');
      continue;
    }
    if (role === 'system') invalid(`${at(i)}.content`, 'a string');
    if (!Array.isArray(content)) invalid(`${at(i)}.content`, 'a string or an array of parts');
    for (let j = 0; j < content.length; j++) {
      const part: unknown = content[j];
      if (!isJsonObject(part)) invalid(partAt(i, j), 'a part object');
      const type = part['type'];
      if (typeof type !== 'string') invalid(`${partAt(i, j)}.type`, 'a string');
      const allowed =
        role === 'tool'
          ? type === 'tool-result' || type === 'tool-approval-response'
          : role === 'assistant'
            ? type !== 'tool-approval-response'
            : type !== 'tool-call' &&
              type !== 'tool-result' &&
              type !== 'tool-approval-request' &&
              type !== 'tool-approval-response';
      if (!allowed) invalid(`${partAt(i, j)}.type`, `a part a ${role} message holds (not ${type})`);
      if (type === 'tool-call') {
        const key = string(part, 'toolCallId', i, j);
        const name = string(part, 'toolName', i, j);
        const executed = part['providerExecuted'];
        if (executed !== undefined && typeof executed !== 'boolean')
          invalid(`${partAt(i, j)}.providerExecuted`, 'a boolean');
        calls.push({
          key,
          name,
          message: i,
          slot: j,
          seq: seq++,
          server: executed === true,
          answered: false,
          claimed: false,
        });
      } else if (type === 'tool-result') {
        const key = string(part, 'toolCallId', i, j);
        string(part, 'toolName', i, j);
        const output = part['output'];
        if (!isJsonObject(output)) invalid(`${partAt(i, j)}.output`, 'an object { type, value }');
        if (typeof output['type'] !== 'string') invalid(`${partAt(i, j)}.output.type`, 'a string');
        results.push({ key, message: i, slot: j, seq: seq++, inAssistant: role === 'assistant' });
      } else if (type === 'tool-approval-request') {
        const key = string(part, 'approvalId', i, j);
        requests.push({ key, toolCallId: string(part, 'toolCallId', i, j), message: i, slot: j, seq: seq++ });
      } else if (type === 'tool-approval-response') {
        const key = string(part, 'approvalId', i, j);
        if (typeof part['approved'] !== 'boolean') invalid(`${partAt(i, j)}.approved`, 'a boolean');
        responses.push({ key, message: i, slot: j, seq: seq++ });
      }
    }
  }
  return { roles, segment, calls, results, requests, responses };
}

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
  const last = messages.length - 1;
  const table = new CallTable();
  for (const call of read.calls) {
    if (!table.add(call))
      sink.fail('aisdk.duplicate_tool_call_id', [call.key], partAt(call.message, call.slot), call.message, call.slot);
  }

  for (const result of read.results) {
    const where = partAt(result.message, result.slot);
    const call = table.get(result.key);
    if (call === undefined) sink.fail('aisdk.tool_result_orphan', [result.key], where, result.message, result.slot);
    else if (call.seq > result.seq)
      sink.fail('aisdk.tool_result_before_call', [result.key], where, result.message, result.slot);
    else if (!table.claim(call))
      sink.fail('aisdk.duplicate_tool_result', [result.key], where, result.message, result.slot);
    else if (read.segment[call.message] !== read.segment[result.message])
      sink.fail('aisdk.tool_result_separated', [result.key], where, result.message, result.slot);
    else call.answered = true;
  }

  // Approvals: a request names a call; a response answers an earlier request. A response in the
  // final message settles the call: the SDK runs it (or records the denial) before the model call.
  const requests = new Map<string, (typeof read.requests)[number]>();
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
    } else if (response.message === last) {
      const call = table.get(request.toolCallId);
      if (
        call !== undefined &&
        call.seq < response.seq &&
        read.segment[call.message] === read.segment[response.message]
      )
        call.answered = true;
    }
  }

  const openToolCalls = reportUnanswered(read.calls, sink, 'aisdk.tool_call_unanswered', {
    open: (call) => context.expect === 'received' && call.message === last,
    callAt: (call) => partAt(call.message, call.slot),
    messageAt: at,
  });
  return { outcome: { failures: sink.sorted(), openToolCalls, located: sink.located }, read };
}
