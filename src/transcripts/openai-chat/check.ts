/**
 * The OpenAI Chat Completions rules over `messages`. The reader validates what
 * `OpenAIChatMessageSchema` validates and collects calls and tool messages; the tool-run rules
 * decide the rest.
 *
 * @module
 */
import type { CallSite } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import { contentParts, invalid, isJsonObject, type JsonObject } from '../core/input.ts';
import { OPENAI_CHAT_RULES } from './rules.ts';
import { checkToolRuns, type ToolMessageSite, type ToolRunRead, type ToolRunRules } from '../core/tool-runs.ts';

const at = (i: number) => `messages[${i}]`;

function readCall(call: unknown, i: number, k: number, seq: number): CallSite {
  const path = `${at(i)}.tool_calls[${k}]`;
  if (!isJsonObject(call)) invalid(path, 'a tool call object');
  const id = call['id'];
  if (typeof id !== 'string') invalid(`${path}.id`, 'a string');
  const type = call['type'];
  let name: unknown;
  if (type === 'function') {
    const fn = call['function'];
    if (!isJsonObject(fn)) invalid(`${path}.function`, 'an object with name and arguments');
    name = fn['name'];
    if (typeof name !== 'string') invalid(`${path}.function.name`, 'a string');
    if (typeof fn['arguments'] !== 'string') invalid(`${path}.function.arguments`, 'a JSON string');
  } else if (type === 'custom') {
    const custom = call['custom'];
    if (!isJsonObject(custom)) invalid(`${path}.custom`, 'an object with name and input');
    name = custom['name'];
    if (typeof name !== 'string') invalid(`${path}.custom.name`, 'a string');
    if (typeof custom['input'] !== 'string') invalid(`${path}.custom.input`, 'a string');
  } else {
    invalid(`${path}.type`, "'function' or 'custom'");
  }
  return { key: id, name, message: i, slot: k, seq, server: false, answered: false, claimed: false };
}

/** Reads `messages`: raises a `TranscriptInputError` for input that is not Chat Completions messages. */
export function readOpenAIChat(messages: readonly unknown[]): ToolRunRead {
  const roles: string[] = new Array(messages.length);
  const calls: CallSite[] = [];
  const toolMessages: ToolMessageSite[] = [];
  let seq = 0;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) invalid(at(i), 'a message object');
    const role = message['role'];
    roles[i] = role as string;
    if (role === 'system' || role === 'developer' || role === 'user') {
      contentParts(message['content'], `${at(i)}.content`, true);
    } else if (role === 'assistant') {
      contentParts(message['content'], `${at(i)}.content`, false);
      const list = message['tool_calls'];
      if (list !== undefined && list !== null) {
        if (!Array.isArray(list)) invalid(`${at(i)}.tool_calls`, 'an array of tool calls');
        for (let k = 0; k < list.length; k++) calls.push(readCall(list[k], i, k, seq++));
      }
    } else if (role === 'tool') {
      const m = message as JsonObject;
      const id = m['tool_call_id'];
      if (id !== undefined && id !== null && typeof id !== 'string') invalid(`${at(i)}.tool_call_id`, 'a string');
      const hasContent = contentParts(m['content'], `${at(i)}.content`, false);
      const key = typeof id === 'string' ? id : undefined;
      toolMessages.push({ key, message: i, seq: seq++, incomplete: key === undefined || !hasContent });
    } else if (role === 'function') {
      if (typeof message['name'] !== 'string') invalid(`${at(i)}.name`, 'a string');
      const content = message['content'];
      if (content !== null && typeof content !== 'string') invalid(`${at(i)}.content`, 'a string or null');
    } else {
      invalid(`${at(i)}.role`, "'system', 'developer', 'user', 'assistant', 'tool' or 'function'");
    }
  }
  return { roles, calls, toolMessages };
}

/** The Chat Completions rules, as the tool-run rules name them. */
export const OPENAI_CHAT_TOOL_RUNS: ToolRunRules = {
  table: OPENAI_CHAT_RULES,
  unanswered: 'openai-chat.tool_call_unanswered',
  orphan: 'openai-chat.tool_message_orphan',
  notAdjacent: 'openai-chat.tool_message_not_adjacent',
  beforeCall: 'openai-chat.tool_message_before_call',
  duplicateResult: 'openai-chat.duplicate_tool_message',
  duplicateCall: 'openai-chat.duplicate_tool_call_id',
  missingField: 'openai-chat.tool_message_missing_field',
};

/** Checks Chat Completions `messages` against every OpenAI Chat Completions rule. */
export function checkOpenAIChat(messages: readonly unknown[], context: CheckContext): CheckOutcome {
  return checkToolRuns(
    readOpenAIChat(messages),
    OPENAI_CHAT_TOOL_RUNS,
    context,
    (call) => `${at(call.message)}.tool_calls[${call.slot}]`,
  );
}
