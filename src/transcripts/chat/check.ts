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
  NO_OWNER,
  type ToolMessageSite,
  type ToolRunRead,
  type ToolRunRules,
} from '../core/tool-runs.ts';

import { CHAT_RULES, type ChatRule } from './rules.ts';

const at = (i: number) => `messages[${i}]`;

/** Refuses a field the role does not have (as `strictObject` does: every enumerable key counts). */
function keys(object: JsonObject, role: string, i: number): void {
  for (const key in object) {
    if (key === 'role' || key === 'content') continue;
    if ((role === 'assistant' && key === 'tool_calls') || (role === 'tool' && key === 'tool_call_id')) continue;
    const fields =
      role === 'assistant'
        ? 'role, content, tool_calls'
        : role === 'tool'
          ? 'role, tool_call_id, content'
          : 'role, content';
    invalid(`${at(i)}.${key}`, `no such field (a ${role} message has ${fields})`);
  }
}

/** Whether `value` is a non-empty string. */
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Raises for a value that is not a non-empty string (callers test {@link isText} first, so paths are written only for failures). */
function notText(value: unknown, path: string): never {
  invalid(path, typeof value === 'string' ? 'a non-empty string' : 'a string');
}

function block(value: unknown, path: string, allowed: readonly string[]): void {
  if (!isJsonObject(value)) invalid(path, 'a content block object');
  const type = value['type'];
  if (typeof type !== 'string' || !allowed.includes(type))
    invalid(`${path}.type`, allowed.map((t) => `'${t}'`).join(' or '));
  if (type === 'text' || type === 'thinking') {
    if (!isText(value['text'])) notText(value['text'], `${path}.text`);
    const signature = value['signature'];
    if (signature !== undefined && typeof signature !== 'string') invalid(`${path}.signature`, 'a string');
  } else if (type === 'redacted_thinking') {
    if (!isText(value['data'])) notText(value['data'], `${path}.data`);
  } else {
    const source = value['source'];
    if (!isJsonObject(source)) invalid(`${path}.source`, 'an image source object');
    const kind = source['type'];
    if (kind === 'url') {
      if (!isText(source['url'])) notText(source['url'], `${path}.source.url`);
    } else if (kind === 'inline') {
      if (!isText(source['base64_data'])) notText(source['base64_data'], `${path}.source.base64_data`);
    } else invalid(`${path}.source.type`, "'url' or 'inline'");
    const mediaType = value['media_type'];
    if (mediaType !== undefined) {
      if (!isText(mediaType)) notText(mediaType, `${path}.media_type`);
    } else if (kind === 'inline') invalid(`${path}.media_type`, 'a media type (an inline image needs media_type)');
    const detail = value['detail'];
    if (detail !== undefined && detail !== 'auto' && detail !== 'low' && detail !== 'high')
      invalid(`${path}.detail`, "'auto', 'low' or 'high'");
  }
}

function blocks(value: unknown, i: number, allowed: readonly string[]): number {
  if (!Array.isArray(value)) invalid(`${at(i)}.content`, 'a string or an array of content blocks');
  for (let k = 0; k < value.length; k++) block(value[k], `${at(i)}.content[${k}]`, allowed);
  return value.length;
}

const USER_BLOCKS = ['text', 'image'];
const ASSISTANT_BLOCKS = ['text', 'thinking', 'redacted_thinking'];

/**
 * Reads `ChatMessage`s (raising a `TranscriptInputError` for anything `ChatMessageSchema`
 * refuses) and collects calls and tool messages; `carried` are calls left open by an earlier
 * turn. Paths are written only for failures.
 */
export function readChat(messages: readonly unknown[], carried: readonly unknown[] = []): ToolRunRead<ChatRule> {
  const n = messages.length;
  const calls: CallSite[] = [];
  const toolMessages: ToolMessageSite[] = [];
  let seq = 0;
  for (let k = 0; k < carried.length; k++) {
    calls.push(readCall(carried[k], CARRIED, k, seq++));
  }
  // The run of tool messages being read: the message it follows, and that message's calls.
  let owner = CARRIED;
  let from = 0;
  let to = calls.length;
  for (let i = 0; i < n; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) invalid(at(i), 'a message object');
    const role = message['role'];
    const content = message['content'];
    if (role === 'tool') {
      keys(message, role, i);
      const id = message['tool_call_id'];
      if (!isText(id)) notText(id, `${at(i)}.tool_call_id`);
      if (typeof content !== 'string') invalid(`${at(i)}.content`, 'a string');
      toolMessages.push({ key: id as string, message: i, seq: seq++, incomplete: false, owner, from, to });
      continue;
    }
    if (role === 'assistant') {
      keys(message, role, i);
      let hasContent = false;
      if (typeof content === 'string') hasContent = content !== '';
      else if (content !== undefined) hasContent = blocks(content, i, ASSISTANT_BLOCKS) > 0;
      const list = message['tool_calls'];
      const first = calls.length;
      let count = 0;
      if (list !== undefined) {
        if (!Array.isArray(list)) invalid(`${at(i)}.tool_calls`, 'an array of tool calls');
        count = list.length;
        for (let k = 0; k < count; k++) {
          calls.push(readCall(list[k], i, k, seq++));
        }
        for (let k = first + 1; k < calls.length; k++) {
          for (let m = first; m < k; m++) {
            if ((calls[m] as CallSite).key === (calls[k] as CallSite).key)
              invalid(
                `${at(i)}.tool_calls`,
                `tool calls with distinct ids (${(calls[k] as CallSite).key} is repeated)`,
              );
          }
        }
      }
      if (count === 0 && !hasContent)
        invalid(`${at(i)}.content`, 'non-empty content (an assistant message without tool_calls)');
      owner = i;
      from = first;
      to = calls.length;
      continue;
    }
    owner = NO_OWNER;
    from = 0;
    to = 0;
    if (role === 'system') {
      keys(message, role, i);
      if (!isText(content)) notText(content, `${at(i)}.content`);
    } else if (role === 'user') {
      keys(message, role, i);
      if (typeof content === 'string') {
        if (content === '') notText(content, `${at(i)}.content`);
      } else if (blocks(content, i, USER_BLOCKS) === 0) invalid(`${at(i)}.content`, 'at least one content block');
    } else {
      invalid(`${at(i)}.role`, "'system', 'user', 'assistant' or 'tool'");
    }
  }
  return { lastOwner: owner, calls, toolMessages, shape: [] };
}

/** Where call `slot` of message `message` stands (carried calls: in `openToolCalls`). */
const callPath = (message: number, slot: number): string =>
  message === CARRIED ? `openToolCalls[${slot}]` : `${at(message)}.tool_calls[${slot}]`;

function readCall(value: unknown, message: number, slot: number, seq: number): CallSite {
  if (!isJsonObject(value)) invalid(callPath(message, slot), 'a tool call object');
  const id = value['id'];
  const name = value['name'];
  if (!isText(id)) notText(id, `${callPath(message, slot)}.id`);
  if (!isText(name)) notText(name, `${callPath(message, slot)}.name`);
  const args = value['arguments'];
  if (args === undefined || (args !== null && typeof args !== 'object'))
    invalid(`${callPath(message, slot)}.arguments`, 'an object or null');
  const signature = value['signature'];
  if (signature !== undefined && typeof signature !== 'string')
    invalid(`${callPath(message, slot)}.signature`, 'a string');
  return { key: id, name, message, slot, seq, server: false, answered: false, claimed: false };
}

/** The `chat` rules, as the tool-run rules name them. */
export const CHAT_TOOL_RUNS: ToolRunRules<ChatRule> = {
  table: CHAT_RULES,
  unanswered: 'chat.tool_call_unanswered',
  orphan: 'chat.tool_result_orphan',
  notAdjacent: 'chat.tool_result_not_adjacent',
  beforeCall: 'chat.tool_result_before_call',
  duplicateResult: 'chat.duplicate_tool_result',
  duplicateCall: 'chat.duplicate_tool_call_id',
  idTooLong: 'chat.tool_call_id_too_long',
  tooManyCalls: 'chat.too_many_tool_calls',
};

/** Where a `chat` tool call stands: in a message, or among the carried open calls. */
export const chatCallAt = (call: CallSite): string => callPath(call.message, call.slot);

/** Checks `ChatMessage`s (and calls carried open from a suspension) against the `chat` rules. */
export function checkChat(
  messages: readonly unknown[],
  context: CheckContext,
  carried: readonly unknown[] = [],
): CheckOutcome<ChatRule> {
  return checkToolRuns(readChat(messages, carried), CHAT_TOOL_RUNS, context, chatCallAt);
}
