/**
 * The Chat Completions message shape and limits that three formats share: `openai-chat`, `mistral`
 * (the same `tool_calls` and tool messages) and `chat` (turngate's `ChatMessage` keeps its call
 * ids unchanged on the way to every provider, so Chat Completions' limits hold for it too). Their
 * one home, below the format folders. Internal.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from './input.ts';
import { SCHEMA, type TranscriptRuleInfo } from './rule-info.ts';
import { MAX_TOOL_CALL_ID, MAX_TOOL_CALLS } from './tool-runs.ts';

/** Renames the tool call at `slot` of an assistant message's `tool_calls` (function or custom call). */
export function renameToolCall(message: JsonObject, slot: number, id: string): JsonObject {
  const calls = [...(message['tool_calls'] as readonly JsonObject[])];
  calls[slot] = { ...(calls[slot] as JsonObject), id };
  return { ...message, tool_calls: calls };
}

/** The text a tool message carries: its string content, or the text of its text parts joined by newlines. */
export function toolMessageText(message: JsonObject): string {
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (isJsonObject(part) && part['type'] === 'text' && typeof part['text'] === 'string') texts.push(part['text']);
  }
  return texts.join('\n');
}

/** Chat Completions' limit on one assistant message's tool calls (the `openai-chat.too_many_tool_calls` rule). */
export const TOO_MANY_TOOL_CALLS = {
  class: SCHEMA,
  summary: `assistant message with more than ${MAX_TOOL_CALLS} tool calls`,
  fix: `Split the calls over assistant messages of at most ${MAX_TOOL_CALLS} calls, each followed by the tool messages of its calls.`,
  source: 'https://github.com/openai/openai-dotnet/issues/317',
  providerError:
    "Invalid 'messages[N].tool_calls': array too long. Expected an array with maximum length 128, but got an array with length … instead.",
  repairable: false,
  kind: 'observed',
} as const satisfies TranscriptRuleInfo;

/** Chat Completions' limit on a tool call id's length (the `openai-chat.tool_call_id_too_long` rule). */
export const TOOL_CALL_ID_TOO_LONG = {
  class: SCHEMA,
  summary: `tool call id longer than ${MAX_TOOL_CALL_ID} characters`,
  fix: `Give the tool call an id of at most ${MAX_TOOL_CALL_ID} characters, and its tool message the same id.`,
  source:
    'https://github.com/vercel/ai/issues/8132; https://github.com/anomalyco/opencode/issues/12653; https://github.com/Portkey-AI/gateway/issues/1062',
  providerError:
    "Invalid 'messages[N].tool_calls[K].id': string too long. Expected a string with maximum length 40, but got a string with length … instead.",
  repairable: true,
  kind: 'observed',
} as const satisfies TranscriptRuleInfo;
