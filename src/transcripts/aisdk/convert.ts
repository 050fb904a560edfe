/**
 * AI SDK `ModelMessage[]` <-> `ChatMessage`.
 *
 * Lossless for text, reasoning text (as thinking blocks), images given as URL or base64 with a
 * media type, tool calls with object inputs, and `text` tool outputs; consecutive tool messages
 * become one tool message of results, assistant messages always get part arrays. Not carried to
 * `ChatMessage` (each with a loss record): files, provider-executed calls and their results,
 * approval parts, `json` / `error-*` / `content` / `execution-denied` outputs (kept as text, the
 * type lost), provider options.
 *
 * @module
 */
import {
  readChat,
  assistantContent,
  callNames,
  ChatBuilder,
  resultText,
  withToolRuns,
  type AssistantContentBlock,
  type ChatMessage,
  type ImageBlock,
  type TextBlock,
  type ToolCall,
} from '../chat/index.ts';
import type { ConversionLoss } from '../core/convert.ts';
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { readAISDK } from './read.ts';
import { carriedText, outputProblem } from './shape.ts';
import type { AISDKMessage, AISDKOtherPart, AISDKToolResultPart } from './wire.ts';

const partAt = (i: number, j: number) => `messages[${i}].content[${j}]`;
const URL_LIKE = /^(https?:|data:)/;

/** AI SDK messages as `ChatMessage`s. */
export function aisdkToChat(messages: readonly unknown[]): { messages: ChatMessage[]; losses: ConversionLoss[] } {
  readAISDK(messages);
  const out = new ChatBuilder();
  messages.forEach((value, i) => {
    const message = value as JsonObject;
    const content = message['content'];
    const at = `messages[${i}]`;
    if (message['role'] === 'system') {
      if (typeof content !== 'string') out.lose(`${at}.content`, 'system content that is no string');
      else if (content !== '') out.messages.push({ role: 'system', content });
      else out.lose(at, 'an empty system message');
    } else if (message['role'] === 'user') {
      if (typeof content === 'string') {
        if (content !== '') out.messages.push({ role: 'user', content });
        else out.lose(at, 'an empty user message');
        return;
      }
      const blocks: (TextBlock | ImageBlock)[] = [];
      (content as JsonObject[]).forEach((part, j) => {
        const image = part['image'];
        if (part['type'] === 'text' && typeof part['text'] === 'string' && part['text'] !== '')
          blocks.push({ type: 'text', text: part['text'] });
        else if (part['type'] === 'image' && typeof image === 'string' && URL_LIKE.test(image))
          blocks.push({ type: 'image', source: { type: 'url', url: image } });
        else if (part['type'] === 'image' && typeof image === 'string' && typeof part['mediaType'] === 'string')
          blocks.push({ type: 'image', source: { type: 'inline', base64_data: image }, media_type: part['mediaType'] });
        else out.lose(partAt(i, j), `a ${String(part['type'])} part (ChatMessage has no such block)`);
      });
      const [first, ...rest] = blocks;
      if (first !== undefined) out.messages.push({ role: 'user', content: [first, ...rest] });
    } else if (message['role'] === 'assistant') {
      if (typeof content === 'string') {
        out.assistant(content, [], at);
        return;
      }
      const blocks: AssistantContentBlock[] = [];
      const calls: ToolCall[] = [];
      (content as JsonObject[]).forEach((part, j) => {
        const type = part['type'];
        if (type === 'text' && typeof part['text'] === 'string' && part['text'] !== '')
          blocks.push({ type: 'text', text: part['text'] });
        else if (type === 'reasoning' && typeof part['text'] === 'string' && part['text'] !== '')
          blocks.push({ type: 'thinking', text: part['text'] });
        else if (type === 'tool-call' && part['providerExecuted'] !== true) {
          const input = part['input'];
          if (!isJsonObject(input) && input !== undefined && input !== null)
            out.lose(`${partAt(i, j)}.input`, 'tool input that is not an object');
          calls.push({
            id: part['toolCallId'] as string,
            name: part['toolName'] as string,
            arguments: isJsonObject(input) ? { ...input } : null,
          });
        } else
          out.lose(
            partAt(i, j),
            `a ${String(type)}${part['providerExecuted'] === true ? ' (provider-executed)' : ''} part`,
          );
      });
      out.assistant(assistantContent(blocks, calls.length > 0), calls, at);
    } else {
      if (typeof content === 'string') {
        out.lose(`${at}.content`, 'tool message content that is no list of parts');
        return;
      }
      (content as JsonObject[]).forEach((part, j) => {
        if (part['type'] !== 'tool-result') {
          out.lose(partAt(i, j), `a ${String(part['type'])} part`);
          return;
        }
        const output = part['output'];
        const type = isJsonObject(output) ? output['type'] : undefined;
        if (type !== 'text')
          out.lose(
            `${partAt(i, j)}.output`,
            `the ${typeof type === 'string' ? type : 'unknown'} output type (kept as text)`,
          );
        out.messages.push({
          role: 'tool',
          tool_call_id: part['toolCallId'] as string,
          content:
            outputProblem(output) === undefined
              ? resultText((output as JsonObject)['value'] ?? (output as JsonObject)['reason'] ?? '')
              : (carriedText(part) ?? ''),
        });
      });
    }
  });
  return out;
}

/** `ChatMessage`s as AI SDK messages. */
export function chatToAISDK(messages: readonly unknown[]): { messages: AISDKMessage[]; losses: ConversionLoss[] } {
  readChat(messages);
  const chat = messages as readonly ChatMessage[];
  const names = callNames(chat);
  const losses: ConversionLoss[] = [];
  const out: AISDKMessage[] = [];
  for (const item of withToolRuns(chat)) {
    if ('tools' in item) {
      const results = item.tools.map(
        (t): AISDKToolResultPart =>
          toolResult(t.tool_call_id, names.get(t.tool_call_id) ?? 'unknown', { type: 'text', value: t.content }),
      );
      out.push({ role: 'tool', content: results });
      continue;
    }
    const { index: i, message } = item;
    if (message.role === 'system') out.push(message);
    else if (message.role === 'user') {
      if (typeof message.content === 'string') out.push(message);
      else
        out.push({
          role: 'user',
          content: message.content.map(
            (block): AISDKOtherPart =>
              block.type === 'text'
                ? ({ type: 'text', text: block.text } as AISDKOtherPart)
                : block.source.type === 'url'
                  ? ({ type: 'image', image: block.source.url } as AISDKOtherPart)
                  : ({ type: 'image', image: block.source.base64_data, mediaType: block.media_type } as AISDKOtherPart),
          ),
        });
    } else if (message.role === 'assistant') {
      const parts: AISDKOtherPart[] = [];
      const content = message.content ?? '';
      if (typeof content === 'string') {
        if (content !== '') parts.push({ type: 'text', text: content } as AISDKOtherPart);
      } else
        content.forEach((block, j) => {
          if (block.type === 'text') parts.push({ type: 'text', text: block.text } as AISDKOtherPart);
          else if (block.type === 'thinking') parts.push({ type: 'reasoning', text: block.text } as AISDKOtherPart);
          else
            losses.push({
              at: `messages[${i}].content[${j}]`,
              what: 'a redacted thinking block (the AI SDK has none)',
            });
        });
      for (const call of message.tool_calls ?? [])
        parts.push({
          type: 'tool-call',
          toolCallId: call.id,
          toolName: call.name,
          input: call.arguments ?? {},
        } as AISDKOtherPart);
      out.push({ role: 'assistant', content: parts });
    }
  }
  return { messages: out, losses };
}

/**
 * A `tool-result` part answering the tool call `toolCallId`: the one way this format writes a
 * tool result (conversion from `ChatMessage`, repair's synthesized results, the AI SDK adapter's
 * answers). Internal.
 *
 * @param toolCallId - The id of the call it answers.
 * @param toolName - The tool's name.
 * @param output - `{ type: 'text' | 'json' | 'error-text', value }`, or `{ type: 'execution-denied', reason? }` (a denied approval).
 */
export function toolResult<
  TOutput extends
    | { readonly type: 'text' | 'json' | 'error-text'; readonly value: unknown }
    | { readonly type: 'execution-denied'; readonly reason?: string },
>(
  toolCallId: string,
  toolName: string,
  output: TOutput,
): { type: 'tool-result'; toolCallId: string; toolName: string; output: TOutput } {
  return { type: 'tool-result', toolCallId, toolName, output };
}
