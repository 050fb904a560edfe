/**
 * The reader of AI SDK `ModelMessage[]`: one pass that collects the tool-call, tool-result and
 * approval parts (with their positions) and the shape problems of the parts it can still read
 * (an input that is no object, an AI SDK 4 field, an output that is no `ToolResultOutput`, a part
 * its role does not hold). Input that is not `ModelMessage[]` at all raises a
 * `TranscriptInputError`: a message that is no object or has no known role, content that is
 * neither a string nor an array, a part that is no object with a string `type`, or a tool part
 * without the ids it is paired by. Internal.
 *
 * @module
 */
import type { AISDKRule } from './rules.ts';
import type { CallSite } from '../core/calls.ts';
import { invalid, isJsonObject, type JsonObject } from '../core/input.ts';
import { inputProblem, outputProblem } from './shape.ts';

/** A part with an id, as read. */
export interface PartSite {
  readonly key: string;
  readonly message: number;
  readonly slot: number;
  readonly seq: number;
}

/** A tool-result: where, and the part itself (its toolName and output, read when a rule needs them). */
export interface ResultSite extends PartSite {
  readonly inAssistant: boolean;
  readonly part: JsonObject;
}

/** An approval request: its approval id and the call it names. */
export interface ApprovalSite extends PartSite {
  readonly toolCallId: string;
}

/** An approval response: its approval id and the decision. */
export interface ResponseSite extends PartSite {
  readonly approved: boolean;
}

/** A shape problem found while reading: the rule, the ids, the message and slot (-1: the message's content). */
export interface ShapeIssue {
  readonly rule: AISDKRule;
  readonly ids: readonly string[];
  readonly message: number;
  readonly slot: number;
}

/** What the reader collects. */
export interface AISDKRead {
  readonly roles: readonly string[];
  /** Per message: the number of user and system messages up to it (a call and its result share it). */
  readonly segment: Int32Array;
  readonly calls: readonly CallSite[];
  readonly results: readonly ResultSite[];
  readonly requests: readonly ApprovalSite[];
  readonly responses: readonly ResponseSite[];
  /** Shape problems, in input order. */
  readonly issues: readonly ShapeIssue[];
}

const NO_IDS: readonly string[] = [];

/** The path of part `j` of message `i`. */
export const partAt = (i: number, j: number): string => `messages[${i}].content[${j}]`;
/** The path of a shape issue. */
export const issueAt = (issue: ShapeIssue): string =>
  issue.slot < 0 ? `messages[${issue.message}].content` : partAt(issue.message, issue.slot);

/** Raises the input error for a field that is not a string. */
function notString(i: number, j: number, key: string): never {
  return invalid(`${partAt(i, j)}.${key}`, 'a string');
}

/** Reads `ModelMessage[]`: raises a `TranscriptInputError` for input that is not AI SDK messages. */
export function readAISDK(messages: readonly unknown[]): AISDKRead {
  const n = messages.length;
  const roles: string[] = new Array(n);
  const segment = new Int32Array(n);
  const calls: CallSite[] = [];
  const results: ResultSite[] = [];
  const requests: ApprovalSite[] = [];
  const responses: ResponseSite[] = [];
  const issues: ShapeIssue[] = [];
  let seq = 0;
  let seen = 0;
  // A part its role does not hold (the system message's own content is reported once, as a whole).
  const misplaced = (i: number, j: number, key: string | undefined) => {
    if (roles[i] !== 'system')
      issues.push({
        rule: 'aisdk.content_not_allowed_for_role',
        ids: key === undefined ? NO_IDS : [key],
        message: i,
        slot: j,
      });
  };
  for (let i = 0; i < n; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) invalid(`messages[${i}]`, 'a message object');
    const role = message['role'];
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool')
      invalid(`messages[${i}].role`, "'system', 'user', 'assistant' or 'tool'");
    roles[i] = role;
    if (role === 'system' || role === 'user') seen++;
    segment[i] = seen;
    const content = message['content'];
    if (typeof content === 'string') {
      if (role === 'tool')
        issues.push({ rule: 'aisdk.content_not_allowed_for_role', ids: NO_IDS, message: i, slot: -1 });
      continue;
    }
    if (!Array.isArray(content)) invalid(`messages[${i}].content`, 'a string or an array of parts');
    if (role === 'system')
      issues.push({ rule: 'aisdk.content_not_allowed_for_role', ids: NO_IDS, message: i, slot: -1 });
    for (let j = 0; j < content.length; j++) {
      const part: unknown = content[j];
      if (!isJsonObject(part)) invalid(partAt(i, j), 'a part object');
      const type = part['type'];
      if (typeof type !== 'string') invalid(`${partAt(i, j)}.type`, 'a string');
      // A part its role does not hold is reported and left out of the pairing: a tool message holds
      // only results and approval responses, a user message no tool or reasoning parts, an assistant
      // message no approval responses (a system message's parts are reported once, as its content).
      if (type === 'tool-call') {
        const key = part['toolCallId'];
        if (typeof key !== 'string') notString(i, j, 'toolCallId');
        const name = part['toolName'];
        if (typeof name !== 'string') notString(i, j, 'toolName');
        const executed = part['providerExecuted'];
        if (executed !== undefined && typeof executed !== 'boolean')
          invalid(`${partAt(i, j)}.providerExecuted`, 'a boolean');
        if (role !== 'assistant') misplaced(i, j, key);
        else {
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
          let input = part['input'];
          if (input === undefined && part['args'] !== undefined) {
            issues.push({ rule: 'aisdk.tool_call_legacy_args', ids: [key], message: i, slot: j });
            input = part['args'];
          }
          const problem = inputProblem(input);
          if (problem !== undefined)
            issues.push({
              rule:
                problem === 'json-string' ? 'aisdk.tool_call_input_json_string' : 'aisdk.tool_call_input_not_object',
              ids: [key],
              message: i,
              slot: j,
            });
        }
      } else if (type === 'tool-result') {
        const key = part['toolCallId'];
        if (typeof key !== 'string') notString(i, j, 'toolCallId');
        if (role !== 'tool' && role !== 'assistant') misplaced(i, j, key);
        else {
          const name = part['toolName'];
          if (typeof name !== 'string')
            issues.push({ rule: 'aisdk.tool_result_name_missing', ids: [key], message: i, slot: j });
          const output = part['output'];
          if (output === undefined && part['result'] !== undefined)
            issues.push({ rule: 'aisdk.tool_result_legacy_result', ids: [key], message: i, slot: j });
          else {
            const problem = outputProblem(output);
            if (problem !== undefined)
              issues.push({
                rule:
                  problem === 'malformed'
                    ? 'aisdk.tool_result_output_malformed'
                    : 'aisdk.tool_result_content_part_invalid',
                ids: [key],
                message: i,
                slot: j,
              });
          }
          results.push({
            key,
            message: i,
            slot: j,
            seq: seq++,
            inAssistant: role === 'assistant',
            part,
          });
        }
      } else if (type === 'tool-approval-request') {
        const key = part['approvalId'];
        if (typeof key !== 'string') notString(i, j, 'approvalId');
        const toolCallId = part['toolCallId'];
        if (typeof toolCallId !== 'string') notString(i, j, 'toolCallId');
        if (role !== 'assistant') misplaced(i, j, toolCallId);
        else requests.push({ key, toolCallId, message: i, slot: j, seq: seq++ });
      } else if (type === 'tool-approval-response') {
        const key = part['approvalId'];
        if (typeof key !== 'string') notString(i, j, 'approvalId');
        const approved = part['approved'];
        if (typeof approved !== 'boolean') invalid(`${partAt(i, j)}.approved`, 'a boolean');
        if (role !== 'tool') misplaced(i, j, undefined);
        else responses.push({ key, approved, message: i, slot: j, seq: seq++ });
      } else if (role === 'tool' || (role === 'user' && type === 'reasoning')) misplaced(i, j, undefined);
    }
  }
  return { roles, segment, calls, results, requests, responses, issues };
}
