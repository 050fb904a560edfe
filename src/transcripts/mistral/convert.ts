/**
 * Mistral messages <-> `ChatMessage`.
 *
 * Lossless for text, images (`image_url` chunks: URLs, and inline bytes as `data:` URLs),
 * thinking chunks (their text), tool calls (`arguments` as an object, or JSON text parsed to
 * one; written back as JSON text) and tool messages with text. Not carried to `ChatMessage`
 * (each with a loss record): `prefix` on a message that is not the last, a tool message's `name`, chunks other than text, image
 * and thinking (documents, references, audio), arguments that are no JSON object.
 *
 * `fromChat` writes what Mistral's order rules need: after a tool message, only an assistant or
 * tool message may come, so a user (or system) message that follows tool messages gets a bridge
 * assistant message before it ({@link bridgeMessage}); a system message after the conversation
 * started becomes a user message (loss record); a history that ends with an assistant message
 * without calls marks it `prefix: true` (the only way Mistral takes a closing assistant message:
 * it continues it; `toChat` takes a final prefix message back as the closing one). Ids are kept as
 * they are: mapping them into Mistral's grammar is the conversion's (`toolCallIds`).
 *
 * @module
 */
import {
  readChat,
  assistantContent,
  ChatBuilder,
  imageFromUrl,
  imageUrl,
  resultText,
  type AssistantContentBlock,
  type ChatMessage,
  type ImageBlock,
  type TextBlock,
  type ToolCall,
} from '../chat/index.ts';
import type { ConversionLoss } from '../core/convert.ts';
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { SYNTHESIZED_RESULT_MARK } from '../core/repair.ts';
import { readMistral } from './check.ts';
import type { MistralContentChunk, MistralMessage } from './wire.ts';

/**
 * The assistant message that stands between tool messages and a user message the model did not
 * answer (Mistral refuses a user message right after a tool message): the one home of its text,
 * marked as written by turngate, not by the model. Internal.
 */
export function bridgeMessage(): { role: 'assistant'; content: string } {
  return {
    role: 'assistant',
    content: `${SYNTHESIZED_RESULT_MARK} No reply was recorded here: the user wrote before the model answered the tool results.`,
  };
}

/**
 * A `tool` message answering the tool call `toolCallId`: the one way this format writes a tool
 * result (repair's synthesized results). Internal.
 */
export function toolResult(
  toolCallId: string,
  content: string,
): { role: 'tool'; tool_call_id: string; content: string } {
  return { role: 'tool', tool_call_id: toolCallId, content };
}

function imageBlock(value: unknown): ImageBlock | undefined {
  const url = typeof value === 'string' ? value : isJsonObject(value) ? value['url'] : undefined;
  if (typeof url !== 'string') return undefined;
  return imageFromUrl(url, isJsonObject(value) ? value['detail'] : undefined);
}

/** The text of a thinking chunk (its `thinking` text chunks joined). */
function thinkingText(chunk: JsonObject): string {
  const parts = chunk['thinking'];
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return '';
  return parts
    .filter((part): part is JsonObject => isJsonObject(part) && typeof part['text'] === 'string')
    .map((part) => part['text'] as string)
    .join('');
}

function userBlocks(chunks: readonly JsonObject[], at: string, out: ChatBuilder): (TextBlock | ImageBlock)[] {
  const blocks: (TextBlock | ImageBlock)[] = [];
  chunks.forEach((chunk, k) => {
    const image = chunk['type'] === 'image_url' ? imageBlock(chunk['image_url']) : undefined;
    if (chunk['type'] === 'text' && typeof chunk['text'] === 'string' && chunk['text'] !== '')
      blocks.push({ type: 'text', text: chunk['text'] });
    else if (image !== undefined) blocks.push(image);
    else out.lose(`${at}[${k}]`, `a ${String(chunk['type'])} chunk (ChatMessage has no such block)`);
  });
  return blocks;
}

function assistantBlocks(content: unknown, at: string, out: ChatBuilder): AssistantContentBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: AssistantContentBlock[] = [];
  ((content as JsonObject[] | null | undefined) ?? []).forEach((chunk, k) => {
    if (chunk['type'] === 'text' && typeof chunk['text'] === 'string' && chunk['text'] !== '')
      blocks.push({ type: 'text', text: chunk['text'] });
    else if (chunk['type'] === 'thinking' && thinkingText(chunk) !== '')
      blocks.push({ type: 'thinking', text: thinkingText(chunk) });
    else out.lose(`${at}[${k}]`, `a ${String(chunk['type'])} chunk`);
  });
  return blocks;
}

function toolCall(call: JsonObject, at: string, out: ChatBuilder): ToolCall {
  const fn = call['function'] as JsonObject;
  return {
    id: call['id'] as string,
    name: fn['name'] as string,
    arguments: out.callArguments(fn['arguments'], `${at}.function.arguments`),
  };
}

/** Mistral messages as `ChatMessage`s. */
export function mistralToChat(messages: readonly unknown[]): { messages: ChatMessage[]; losses: ConversionLoss[] } {
  readMistral(messages);
  const out = new ChatBuilder();
  messages.forEach((value, i) => {
    const message = value as JsonObject;
    const at = `messages[${i}]`;
    const content = message['content'];
    switch (message['role']) {
      case 'system': {
        const text = resultText(content);
        if (text !== '') out.messages.push({ role: 'system', content: text });
        else out.lose(at, 'an empty system message');
        return;
      }
      case 'user': {
        if (typeof content === 'string' || content === null || content === undefined) {
          if (typeof content === 'string' && content !== '') out.messages.push({ role: 'user', content });
          else out.lose(at, 'an empty user message');
          return;
        }
        const [first, ...rest] = userBlocks(content as JsonObject[], `${at}.content`, out);
        if (first !== undefined) out.messages.push({ role: 'user', content: [first, ...rest] });
        return;
      }
      case 'assistant': {
        // A final prefix message comes back as one (fromChat marks a closing assistant message so);
        // anywhere else `prefix` has no ChatMessage counterpart.
        if (message['prefix'] === true && i !== messages.length - 1)
          out.lose(`${at}.prefix`, 'prefix: true (ChatMessage has no prefix message)');
        const blocks = assistantBlocks(content, `${at}.content`, out);
        const calls = ((message['tool_calls'] as JsonObject[] | null | undefined) ?? []).map((call, k) =>
          toolCall(call, `${at}.tool_calls[${k}]`, out),
        );
        out.assistant(assistantContent(blocks, calls.length > 0), calls, at);
        return;
      }
      default: {
        const id = message['tool_call_id'];
        if (typeof id !== 'string') {
          out.lose(at, 'a tool message without tool_call_id');
          return;
        }
        if (typeof message['name'] === 'string')
          out.lose(`${at}.name`, "the tool message's name (ChatMessage tool messages have none)");
        if (Array.isArray(content)) out.lose(`${at}.content`, 'content chunks, kept as their text');
        out.messages.push({ role: 'tool', tool_call_id: id, content: resultText(content ?? '') });
      }
    }
  });
  return out;
}

function userChunks(content: readonly (TextBlock | ImageBlock)[]): MistralContentChunk[] {
  return content.map((block): MistralContentChunk => {
    if (block.type === 'text') return { type: 'text', text: block.text } as MistralContentChunk;
    const url = imageUrl(block);
    return {
      type: 'image_url',
      image_url: block.detail === undefined ? { url } : { url, detail: block.detail },
    } as MistralContentChunk;
  });
}

/** An assistant message's content: one text as a string, text and thinking as chunks, `null` for none. */
function assistantChunks(message: Extract<ChatMessage, { role: 'assistant' }>, i: number, losses: ConversionLoss[]) {
  const content = message.content ?? '';
  if (typeof content === 'string') return content === '' ? null : content;
  const chunks: MistralContentChunk[] = [];
  const texts: string[] = [];
  content.forEach((block, j) => {
    if (block.type === 'text') texts.push(block.text);
    if (block.type === 'text') chunks.push({ type: 'text', text: block.text } as MistralContentChunk);
    else if (block.type === 'thinking')
      chunks.push({ type: 'thinking', thinking: [{ type: 'text', text: block.text }] } as MistralContentChunk);
    else losses.push({ at: `messages[${i}].content[${j}]`, what: 'a redacted_thinking block (Mistral has none)' });
    if (block.type !== 'redacted_thinking' && block.signature !== undefined)
      losses.push({ at: `messages[${i}].content[${j}].signature`, what: 'a signature (Mistral has none)' });
  });
  const [only] = texts;
  if (chunks.length === 1 && only !== undefined) return only;
  return chunks.length === 0 ? null : chunks;
}

/** `ChatMessage`s as Mistral messages, in the order Mistral takes (see the module comment). */
export function chatToMistral(messages: readonly unknown[]): { messages: MistralMessage[]; losses: ConversionLoss[] } {
  readChat(messages);
  const losses: ConversionLoss[] = [];
  const out: MistralMessage[] = [];
  const chat = messages as readonly ChatMessage[];
  let previous: string | undefined;
  chat.forEach((message, i) => {
    let role: string = message.role;
    if (message.role === 'system' && (previous === 'assistant' || previous === 'tool')) {
      losses.push({
        at: `messages[${i}].role`,
        what: 'a system message after the conversation started (becomes user)',
      });
      role = 'user';
    }
    if (role === 'user' && previous === 'tool') out.push(bridgeMessage());
    if (message.role === 'tool') out.push(toolResult(message.tool_call_id, message.content));
    else if (message.role === 'system') out.push({ role: role as 'system' | 'user', content: message.content });
    else if (message.role === 'user')
      out.push({
        role: 'user',
        content: typeof message.content === 'string' ? message.content : userChunks(message.content),
      });
    else {
      const content = assistantChunks(message, i, losses);
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) {
        const last = i === chat.length - 1;
        out.push(
          last
            ? { role: 'assistant', content: content ?? '', prefix: true }
            : { role: 'assistant', content: content ?? '' },
        );
      } else
        out.push({
          role: 'assistant',
          content,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
          })),
        });
    }
    previous = role;
  });
  return { messages: out, losses };
}
