/**
 * The `chat` format: turngate's own `ChatMessage` (llm-provider §3), checked with Chat
 * Completions' position rules, so a history the chat harness saves is one a provider accepts.
 *
 * The reader accepts exactly what `ChatMessageSchema` accepts (a property test holds the two
 * together); it is written out so the check stays linear and allocation-free on long
 * histories. Tool calls carried open from a suspended turn (`openToolCalls`) stand before the
 * first message: the tool messages at the start of the list answer them.
 *
 * @module
 */
import type { CallSite } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import { invalid, isJsonObject, type JsonObject } from '../core/input.ts';
import {
  CARRIED,
  checkToolRuns,
  type ToolMessageSite,
  type ToolRunRead,
  type ToolRunRules,
} from '../core/tool-runs.ts';

import { CHAT_RULES } from './rules.ts';

const at = (i: number) => `messages[${i}]`;

/** Refuses a field the role does not have (as `strictObject` does: every enumerable key counts). */
function keys(object: JsonObject, role: string, path: string): void {
  for (const key in object) {
    if (key === 'role' || key === 'content') continue;
    if ((role === 'assistant' && key === 'tool_calls') || (role === 'tool' && key === 'tool_call_id')) continue;
    const fields =
      role === 'assistant'
        ? 'role, content, tool_calls'
        : role === 'tool'
          ? 'role, tool_call_id, content'
          : 'role, content';
    invalid(`${path}.${key}`, `no such field (a ${role} message has ${fields})`);
  }
}

function nonEmpty(value: unknown, path: string): void {
  if (typeof value !== 'string') invalid(path, 'a string');
  if (value === '') invalid(path, 'a non-empty string');
}

function optionalString(value: unknown, path: string): void {
  if (value !== undefined && typeof value !== 'string') invalid(path, 'a string');
}

function block(value: unknown, path: string, allowed: readonly string[]): void {
  if (!isJsonObject(value)) invalid(path, 'a content block object');
  const type = value['type'];
  if (typeof type !== 'string' || !allowed.includes(type))
    invalid(`${path}.type`, allowed.map((t) => `'${t}'`).join(' or '));
  if (type === 'text' || type === 'thinking') {
    nonEmpty(value['text'], `${path}.text`);
    optionalString(value['signature'], `${path}.signature`);
  } else if (type === 'redacted_thinking') {
    nonEmpty(value['data'], `${path}.data`);
  } else {
    const source = value['source'];
    if (!isJsonObject(source)) invalid(`${path}.source`, 'an image source object');
    const kind = source['type'];
    if (kind === 'url') nonEmpty(source['url'], `${path}.source.url`);
    else if (kind === 'inline') nonEmpty(source['base64_data'], `${path}.source.base64_data`);
    else invalid(`${path}.source.type`, "'url' or 'inline'");
    const mediaType = value['media_type'];
    if (mediaType !== undefined) nonEmpty(mediaType, `${path}.media_type`);
    else if (kind === 'inline') invalid(`${path}.media_type`, 'a media type (an inline image needs media_type)');
    const detail = value['detail'];
    if (detail !== undefined && detail !== 'auto' && detail !== 'low' && detail !== 'high')
      invalid(`${path}.detail`, "'auto', 'low' or 'high'");
  }
}

function blocks(value: unknown, path: string, allowed: readonly string[]): number {
  if (!Array.isArray(value)) invalid(path, 'a string or an array of content blocks');
  for (let k = 0; k < value.length; k++) block(value[k], `${path}[${k}]`, allowed);
  return value.length;
}

const USER_BLOCKS = ['text', 'image'];
const ASSISTANT_BLOCKS = ['text', 'thinking', 'redacted_thinking'];

/**
 * Reads `ChatMessage`s (raising a `TranscriptInputError` for anything `ChatMessageSchema`
 * refuses) and collects calls and tool messages; `carried` are calls left open by an earlier turn.
 */
export function readChat(messages: readonly unknown[], carried: readonly unknown[] = []): ToolRunRead {
  const roles: string[] = new Array(messages.length);
  const calls: CallSite[] = [];
  const toolMessages: ToolMessageSite[] = [];
  let seq = 0;
  for (let k = 0; k < carried.length; k++) calls.push(readCall(carried[k], `openToolCalls[${k}]`, CARRIED, k, seq++));
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    const path = at(i);
    if (!isJsonObject(message)) invalid(path, 'a message object');
    const role = message['role'];
    roles[i] = role as string;
    const content = message['content'];
    if (role === 'system') {
      keys(message, role, path);
      nonEmpty(content, `${path}.content`);
    } else if (role === 'user') {
      keys(message, role, path);
      if (typeof content === 'string') nonEmpty(content, `${path}.content`);
      else if (blocks(content, `${path}.content`, USER_BLOCKS) === 0)
        invalid(`${path}.content`, 'at least one content block');
    } else if (role === 'assistant') {
      keys(message, role, path);
      let hasContent = false;
      if (typeof content === 'string') hasContent = content !== '';
      else if (content !== undefined) hasContent = blocks(content, `${path}.content`, ASSISTANT_BLOCKS) > 0;
      const list = message['tool_calls'];
      let count = 0;
      if (list !== undefined) {
        if (!Array.isArray(list)) invalid(`${path}.tool_calls`, 'an array of tool calls');
        const first = calls.length;
        for (let k = 0; k < list.length; k++) calls.push(readCall(list[k], `${path}.tool_calls[${k}]`, i, k, seq++));
        for (let k = first + 1; k < calls.length; k++) {
          for (let m = first; m < k; m++) {
            if ((calls[m] as CallSite).key === (calls[k] as CallSite).key)
              invalid(`${path}.tool_calls`, `tool calls with distinct ids (${(calls[k] as CallSite).key} is repeated)`);
          }
        }
        count = list.length;
      }
      if (count === 0 && !hasContent)
        invalid(`${path}.content`, 'non-empty content (an assistant message without tool_calls)');
    } else if (role === 'tool') {
      keys(message, role, path);
      const id = message['tool_call_id'];
      nonEmpty(id, `${path}.tool_call_id`);
      if (typeof content !== 'string') invalid(`${path}.content`, 'a string');
      toolMessages.push({ key: id as string, message: i, seq: seq++, incomplete: false });
    } else {
      invalid(`${path}.role`, "'system', 'user', 'assistant' or 'tool'");
    }
  }
  return { roles, calls, toolMessages };
}

function readCall(value: unknown, path: string, message: number, slot: number, seq: number): CallSite {
  if (!isJsonObject(value)) invalid(path, 'a tool call object');
  nonEmpty(value['id'], `${path}.id`);
  nonEmpty(value['name'], `${path}.name`);
  const args = value['arguments'];
  if (args === undefined || (args !== null && typeof args !== 'object'))
    invalid(`${path}.arguments`, 'an object or null');
  optionalString(value['signature'], `${path}.signature`);
  return {
    key: value['id'] as string,
    name: value['name'] as string,
    message,
    slot,
    seq,
    server: false,
    answered: false,
    claimed: false,
  };
}

/** The `chat` rules, as the tool-run rules name them. */
export const CHAT_TOOL_RUNS: ToolRunRules = {
  table: CHAT_RULES,
  unanswered: 'chat.tool_call_unanswered',
  orphan: 'chat.tool_result_orphan',
  notAdjacent: 'chat.tool_result_not_adjacent',
  beforeCall: 'chat.tool_result_before_call',
  duplicateResult: 'chat.duplicate_tool_result',
  duplicateCall: 'chat.duplicate_tool_call_id',
};

/** Where a `chat` tool call stands: in a message, or among the carried open calls. */
export const chatCallAt = (call: CallSite): string =>
  call.message === CARRIED ? `openToolCalls[${call.slot}]` : `${at(call.message)}.tool_calls[${call.slot}]`;

/** Checks `ChatMessage`s (and calls carried open from a suspension) against the `chat` rules. */
export function checkChat(
  messages: readonly unknown[],
  context: CheckContext,
  carried: readonly unknown[] = [],
): CheckOutcome {
  return checkToolRuns(readChat(messages, carried), CHAT_TOOL_RUNS, context, chatCallAt);
}
