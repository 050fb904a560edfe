/**
 * Repair of Chat Completions `messages`: the shape fixes of this format (each written from the
 * check's located failures, the same meaning in the form the API takes), then the tool-run
 * repair.
 *
 * @module
 */
import type { OpenAIChatRule } from './rules.ts';
import { renameToolCall, toolMessageText } from '../core/chat-completions.ts';
import type { JsonObject } from '../core/input.ts';
import { FailureIndex, synthesizedText, type TranscriptRepair } from '../core/repair.ts';
import type { LocatedFailure } from '../core/report.ts';
import type { ToolRunRead } from '../core/tool-runs.ts';
import type { CheckOutcome } from '../core/context.ts';
import { repairToolRuns, type ToolRunWriter } from '../core/tool-runs-repair.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import { OPENAI_CHAT_TOOL_RUNS, openAIChatCallAt } from './check.ts';
import { toolResult } from './convert.ts';
import { fieldPath } from './dialects.ts';

/** The rules whose failures the shape fixes repair (the others of the format's shape rules have no safe repair). */
const SHAPE_FIXES: ReadonlySet<string> = new Set<OpenAIChatRule>([
  'openai-chat.tool_calls_empty',
  'openai-chat.function_call_with_tool_calls',
  'openai-chat.assistant_message_empty',
  'openai-chat.tool_call_type_invalid',
  'openai-chat.tool_call_arguments_not_string',
  'openai-chat.tool_message_content_not_text',
  'openai-chat.groq_message_name_unsupported',
  'openai-chat.groq_message_property_unsupported',
  'openai-chat.xai_assistant_content_missing',
]);

/** The JSON text of a call's arguments: `'{}'` for none (absent or `null`), else the value as JSON. */
function argumentsText(value: unknown): string {
  return value === undefined || value === null ? '{}' : (JSON.stringify(value) ?? '{}');
}

/**
 * One message with its shape failures fixed, each fix recorded: a removal with the removed
 * value, a rewrite with the call (or message) as it was before, as `rewrote_field` records do.
 */
function fixMessage(
  message: JsonObject,
  list: readonly LocatedFailure<OpenAIChatRule>[],
  repairs: TranscriptRepair[],
): JsonObject {
  const next: Record<string, unknown> = { ...message };
  let calls: JsonObject[] | undefined;
  const call = (slot: number): JsonObject => {
    calls ??= [...(message['tool_calls'] as readonly JsonObject[])];
    return calls[slot] as JsonObject;
  };
  for (const failure of list) {
    const { rule, ids, at } = failure;
    const record = (action: TranscriptRepair['action'], detail: string, removed: unknown) =>
      repairs.push({ action, rule, ids, at, detail, removed });
    switch (rule) {
      case 'openai-chat.tool_calls_empty':
        delete next['tool_calls'];
        record('removed', 'removed the empty tool_calls list', message['tool_calls']);
        break;
      case 'openai-chat.function_call_with_tool_calls':
        delete next['function_call'];
        record('removed', 'removed the legacy function_call: tool_calls holds the calls', message['function_call']);
        break;
      case 'openai-chat.assistant_message_empty':
        next['content'] = '';
        record('rewrote_field', "wrote content: '' in the assistant message that had no content", message);
        break;
      case 'openai-chat.groq_message_name_unsupported':
        delete next['name'];
        record('removed', 'removed the name Groq does not take', message['name']);
        break;
      case 'openai-chat.groq_message_property_unsupported': {
        const key = Object.keys(message).find((name) => fieldPath(failure.message, name) === at);
        if (key === undefined) break;
        delete next[key];
        record('removed', `removed the ${key} Groq does not take`, message[key]);
        break;
      }
      case 'openai-chat.xai_assistant_content_missing':
        next['content'] = '';
        record(
          'rewrote_field',
          "wrote content: '' in the assistant message with tool calls that had no content",
          message,
        );
        break;
      case 'openai-chat.tool_message_content_not_text':
        next['content'] = JSON.stringify(message['content']);
        record('rewrote_field', 'wrote the tool message content as its JSON text', message);
        break;
      case 'openai-chat.tool_call_type_invalid': {
        const old = call(failure.slot);
        (calls as JsonObject[])[failure.slot] = { ...old, type: 'function' };
        record('rewrote_field', "set the tool call's type to 'function' (it holds a function)", old);
        break;
      }
      case 'openai-chat.tool_call_arguments_not_string': {
        const old = call(failure.slot);
        const fn = old['function'] as JsonObject;
        (calls as JsonObject[])[failure.slot] = {
          ...old,
          function: { ...fn, arguments: argumentsText(fn['arguments']) },
        };
        record('rewrote_field', 'wrote the arguments as their JSON text', old);
        break;
      }
    }
  }
  if (calls !== undefined) next['tool_calls'] = calls;
  return next;
}

/**
 * The shape fixes: a copy of `messages` where each message with a fixable shape failure is a
 * fixed copy and every other message is the same object (byte-stable before the first change).
 */
function repairShape(
  messages: readonly unknown[],
  located: readonly LocatedFailure<OpenAIChatRule>[],
): { messages: readonly unknown[]; repairs: TranscriptRepair[] } {
  const byMessage = new Map<number, LocatedFailure<OpenAIChatRule>[]>();
  for (const failure of located) {
    if (!SHAPE_FIXES.has(failure.rule)) continue;
    const list = byMessage.get(failure.message);
    if (list === undefined) byMessage.set(failure.message, [failure]);
    else list.push(failure);
  }
  if (byMessage.size === 0) return { messages, repairs: [] };
  const out = messages.slice();
  const repairs: TranscriptRepair[] = [];
  for (const [i, list] of byMessage) out[i] = fixMessage(messages[i] as JsonObject, list, repairs);
  return { messages: out, repairs };
}

/**
 * Repairs Chat Completions `messages` the check rejected, on the check's own outcome and
 * analysis (`checked.analysis`: what `readOpenAIChat` collected).
 */
export function repairOpenAIChat(
  messages: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome<OpenAIChatRule>,
): FormatRepair {
  if (checked.failures.length === 0) return { outcome: checked };
  const read = analysisOf<ToolRunRead<OpenAIChatRule>>(checked);
  const shape = repairShape(messages, checked.located);
  const writer: ToolRunWriter = {
    renameCall: renameToolCall,
    synthesize: (id, name) => toolResult(id, synthesizedText(name, context.readOnlyTools)),
    callAt: openAIChatCallAt,
    resultText: toolMessageText,
    userText: (text) => ({ role: 'user', content: text }),
  };
  const runs = repairToolRuns(shape.messages, read, checked, OPENAI_CHAT_TOOL_RUNS, writer, {
    failures: new FailureIndex(checked.located),
    original: messages,
  });
  return { outcome: checked, repaired: { messages: runs.messages, repairs: [...shape.repairs, ...runs.repairs] } };
}
