/**
 * The OpenAI Chat Completions rules over `messages`. The reader validates what
 * `OpenAIChatMessageSchema` validates, collects calls and tool messages, and finds the shape
 * failures of tool calls and tool messages (an empty `tool_calls`, `arguments` that are not a
 * string, a tool message with an image, ...) in the same pass; the tool-run rules decide the
 * rest. Paths are written only for failures, so the pass allocates little beyond what it
 * collects.
 *
 * @module
 */
import type { CallSite } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import { contentParts, invalid, isJsonObject, type JsonObject } from '../core/input.ts';
import { isToolName } from '../core/names.ts';
import { type LocatedFailure, locate } from '../core/report.ts';
import {
  CARRIED,
  checkToolRuns,
  NO_OWNER,
  type ToolMessageSite,
  type ToolRunRead,
  type ToolRunRules,
} from '../core/tool-runs.ts';
import { type DialectChecks, dialectChecks } from './dialects.ts';
import { OPENAI_CHAT_RULES, type OpenAIChatRule } from './rules.ts';

const at = (i: number) => `messages[${i}]`;
const callPath = (i: number, k: number) => `messages[${i}].tool_calls[${k}]`;

type Rule = OpenAIChatRule;

const fail = locate<Rule>;

function readCall(call: unknown, i: number, k: number, seq: number, shape: LocatedFailure<OpenAIChatRule>[]): CallSite {
  if (!isJsonObject(call)) invalid(callPath(i, k), 'a tool call object');
  const id = call['id'];
  if (typeof id !== 'string') invalid(`${callPath(i, k)}.id`, 'a string');
  const type = call['type'];
  let name: unknown;
  if (type === 'custom') {
    const custom = call['custom'];
    if (!isJsonObject(custom)) invalid(`${callPath(i, k)}.custom`, 'an object with name and input');
    name = custom['name'];
    if (typeof name !== 'string') invalid(`${callPath(i, k)}.custom.name`, 'a string');
    if (typeof custom['input'] !== 'string') invalid(`${callPath(i, k)}.custom.input`, 'a string');
  } else {
    const fn = call['function'];
    if (!isJsonObject(fn)) {
      if (type === 'function') invalid(`${callPath(i, k)}.function`, 'an object with name and arguments');
      invalid(`${callPath(i, k)}.type`, "'function' or 'custom'");
    }
    // A call holding a `function` object is a function call whatever its `type` says.
    if (type !== 'function') fail(shape, 'openai-chat.tool_call_type_invalid', [id], `${callPath(i, k)}.type`, i, k);
    name = fn['name'];
    if (typeof name !== 'string') invalid(`${callPath(i, k)}.function.name`, 'a string');
    if (!isToolName(name)) {
      fail(shape, 'openai-chat.function_name_invalid', [id], `${callPath(i, k)}.function.name`, i, k);
    }
    if (typeof fn['arguments'] !== 'string') {
      fail(shape, 'openai-chat.tool_call_arguments_not_string', [id], `${callPath(i, k)}.function.arguments`, i, k);
    }
  }
  return { key: id, name, message: i, slot: k, seq, server: false, answered: false, claimed: false };
}

/**
 * The shape failures of a tool message's content that is not a string: content parts other
 * than text, or a value that is no list of content parts at all.
 */
function toolContent(
  content: unknown,
  i: number,
  ids: readonly string[],
  shape: LocatedFailure<OpenAIChatRule>[],
): void {
  if (Array.isArray(content)) {
    let typed = true;
    for (let p = 0; p < content.length && typed; p++) {
      const part: unknown = content[p];
      typed = isJsonObject(part) && typeof part['type'] === 'string';
    }
    if (typed) {
      for (let p = 0; p < content.length; p++) {
        if ((content[p] as JsonObject)['type'] !== 'text') {
          fail(shape, 'openai-chat.tool_message_non_text_part', ids, `${at(i)}.content[${p}]`, i, p);
        }
      }
      return;
    }
  }
  fail(shape, 'openai-chat.tool_message_content_not_text', ids, `${at(i)}.content`, i);
}

/** Whether an assistant message without tool calls still says something the API takes in place of content. */
function speaksWithoutContent(message: JsonObject): boolean {
  const functionCall = message['function_call'];
  const audio = message['audio'];
  return (
    (functionCall !== undefined && functionCall !== null) ||
    typeof message['refusal'] === 'string' ||
    (audio !== undefined && audio !== null)
  );
}

/**
 * Reads `messages`: raises a `TranscriptInputError` for input that is not Chat Completions
 * messages. `dialect`: the checks of a provider dialect, run in the same pass.
 */
export function readOpenAIChat(messages: readonly unknown[], dialect?: DialectChecks): ToolRunRead<OpenAIChatRule> {
  const n = messages.length;
  const calls: CallSite[] = [];
  const toolMessages: ToolMessageSite[] = [];
  const shape: LocatedFailure<OpenAIChatRule>[] = [];
  let seq = 0;
  // The run of tool messages being read: the message it follows, and that message's calls.
  let owner = CARRIED;
  let from = 0;
  let to = 0;
  for (let i = 0; i < n; i++) {
    const message = messages[i];
    if (!isJsonObject(message)) invalid(at(i), 'a message object');
    const role = message['role'];
    const content = message['content'];
    if (role === 'tool') {
      const id = message['tool_call_id'];
      if (id !== undefined && id !== null && typeof id !== 'string') invalid(`${at(i)}.tool_call_id`, 'a string');
      const key = typeof id === 'string' ? id : undefined;
      const hasContent = content !== undefined && content !== null;
      if (hasContent && typeof content !== 'string') toolContent(content, i, key === undefined ? [] : [key], shape);
      dialect?.other?.(message, i, shape);
      toolMessages.push({
        key,
        message: i,
        seq: seq++,
        incomplete: key === undefined || !hasContent,
        owner,
        from,
        to,
      });
      continue;
    }
    if (role === 'assistant') {
      if (content !== undefined && content !== null && typeof content !== 'string') {
        contentParts(content, `${at(i)}.content`, false);
      }
      const list = message['tool_calls'];
      const first = calls.length;
      let count = 0;
      if (list !== undefined && list !== null) {
        if (!Array.isArray(list)) invalid(`${at(i)}.tool_calls`, 'an array of tool calls');
        count = list.length;
        if (count === 0) fail(shape, 'openai-chat.tool_calls_empty', [], `${at(i)}.tool_calls`, i);
        for (let k = 0; k < count; k++) calls.push(readCall(list[k], i, k, seq++, shape));
        const functionCall = message['function_call'];
        if (count > 0 && functionCall !== undefined && functionCall !== null) {
          fail(shape, 'openai-chat.function_call_with_tool_calls', [], `${at(i)}.function_call`, i);
        }
      }
      if (count === 0 && (content === undefined || content === null) && !speaksWithoutContent(message)) {
        fail(shape, 'openai-chat.assistant_message_empty', [], `${at(i)}.content`, i);
      }
      dialect?.assistant?.(message, i, count, shape);
      owner = i;
      from = first;
      to = calls.length;
      continue;
    }
    owner = NO_OWNER;
    from = 0;
    to = 0;
    dialect?.other?.(message, i, shape);
    if (role === 'system' || role === 'developer' || role === 'user') {
      if (typeof content !== 'string') contentParts(content, `${at(i)}.content`, true);
    } else if (role === 'function') {
      if (typeof message['name'] !== 'string') {
        const name = message['name'];
        if (name !== undefined && name !== null) invalid(`${at(i)}.name`, 'a string');
        fail(shape, 'openai-chat.function_message_name_missing', [], `${at(i)}.name`, i);
      }
      if (content !== null && typeof content !== 'string') invalid(`${at(i)}.content`, 'a string or null');
    } else {
      invalid(`${at(i)}.role`, "'system', 'developer', 'user', 'assistant', 'tool' or 'function'");
    }
  }
  return { lastOwner: owner, calls, toolMessages, shape };
}

/** The Chat Completions rules, as the tool-run rules name them. */
export const OPENAI_CHAT_TOOL_RUNS: ToolRunRules<OpenAIChatRule> = {
  table: OPENAI_CHAT_RULES,
  unanswered: 'openai-chat.tool_call_unanswered',
  orphan: 'openai-chat.tool_message_orphan',
  notAdjacent: 'openai-chat.tool_message_not_adjacent',
  beforeCall: 'openai-chat.tool_message_before_call',
  duplicateResult: 'openai-chat.duplicate_tool_message',
  duplicateCall: 'openai-chat.duplicate_tool_call_id',
  missingField: 'openai-chat.tool_message_missing_field',
  idTooLong: 'openai-chat.tool_call_id_too_long',
  tooManyCalls: 'openai-chat.too_many_tool_calls',
};

/** Where a Chat Completions tool call stands. */
export const openAIChatCallAt = (call: CallSite): string => callPath(call.message, call.slot);

/**
 * Checks Chat Completions `messages` against every OpenAI Chat Completions rule, and the rules of
 * `context.dialect` when one is given.
 */
export function checkOpenAIChat(messages: readonly unknown[], context: CheckContext): CheckOutcome<OpenAIChatRule> {
  return checkToolRuns(
    readOpenAIChat(messages, dialectChecks(context)),
    OPENAI_CHAT_TOOL_RUNS,
    context,
    openAIChatCallAt,
  );
}
