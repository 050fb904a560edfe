/**
 * Anthropic messages <-> `ChatMessage`.
 *
 * Lossless for text, thinking (text and signature), redacted thinking, images, tool calls and
 * tool results with text content. Not carried to `ChatMessage` (each dropped with a loss
 * record): documents, search results and other block types, server tool blocks, `is_error`,
 * tool result content other than text. A system message's text blocks are joined. Consecutive
 * tool messages become one user message of `tool_result` blocks; an assistant message always
 * gets block content.
 *
 * @module
 */
import {
  readChat,
  assistantContent,
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
import { readAnthropic } from './read.ts';
import type { AnthropicContentBlock, AnthropicMessage } from './wire.ts';

const blockAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

function userBlock(block: JsonObject, at: string, out: ChatBuilder): TextBlock | ImageBlock | undefined {
  if (block['type'] === 'text') {
    if (block['text'] !== '') return { type: 'text', text: block['text'] as string };
    out.lose(at, 'an empty text block');
    return undefined;
  }
  const source = block['source'];
  if (block['type'] === 'image' && isJsonObject(source)) {
    if (source['type'] === 'url' && typeof source['url'] === 'string' && source['url'] !== '')
      return { type: 'image', source: { type: 'url', url: source['url'] } };
    if (source['type'] === 'base64' && typeof source['data'] === 'string' && typeof source['media_type'] === 'string')
      return {
        type: 'image',
        source: { type: 'inline', base64_data: source['data'] },
        media_type: source['media_type'],
      };
  }
  out.lose(at, `a ${String(block['type'])} block (ChatMessage has no ${String(block['type'])} block)`);
  return undefined;
}

/** Anthropic messages as `ChatMessage`s (input already read as Anthropic messages). */
export function anthropicToChat(messages: readonly unknown[]): { messages: ChatMessage[]; losses: ConversionLoss[] } {
  readAnthropic(messages);
  const out = new ChatBuilder();
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as JsonObject;
    const content = message['content'];
    const role = message['role'];
    if (role === 'system') {
      const blocks = (content ?? []) as string | JsonObject[];
      if (typeof blocks !== 'string')
        blocks.forEach((b, j) => {
          if (b['type'] !== 'text') out.lose(blockAt(i, j), `a ${String(b['type'])} block of a system message`);
        });
      const text =
        typeof blocks === 'string'
          ? blocks
          : blocks
              .filter((b) => b['type'] === 'text')
              .map((b) => b['text'])
              .join('\n');
      if (text !== '') out.messages.push({ role: 'system', content: text });
      else out.lose(`messages[${i}]`, 'an empty system message');
    } else if (role === 'user') {
      if (typeof content === 'string') {
        if (content !== '') out.messages.push({ role: 'user', content });
        else out.lose(`messages[${i}]`, 'an empty user message');
        continue;
      }
      let run: (TextBlock | ImageBlock)[] = [];
      const flush = () => {
        const [first, ...rest] = run;
        if (first !== undefined) out.messages.push({ role: 'user', content: [first, ...rest] });
        run = [];
      };
      (content as JsonObject[]).forEach((block, j) => {
        if (block['type'] !== 'tool_result') {
          const converted = userBlock(block, blockAt(i, j), out);
          if (converted !== undefined) run.push(converted);
          return;
        }
        flush();
        const inner = block['content'];
        if (block['is_error'] === true)
          out.lose(`${blockAt(i, j)}.is_error`, 'the is_error flag (a tool message has none)');
        if (inner !== undefined && typeof inner !== 'string')
          out.lose(`${blockAt(i, j)}.content`, 'tool result blocks, kept as their text');
        out.messages.push({
          role: 'tool',
          tool_call_id: block['tool_use_id'] as string,
          content: resultText(inner ?? ''),
        });
      });
      flush();
    } else {
      if (typeof content === 'string') {
        out.assistant(content, [], `messages[${i}]`);
        continue;
      }
      const blocks: AssistantContentBlock[] = [];
      const calls: ToolCall[] = [];
      (content as JsonObject[]).forEach((block, j) => {
        const type = block['type'];
        if (type === 'text' && block['text'] !== '') blocks.push({ type: 'text', text: block['text'] as string });
        else if (type === 'thinking' && block['thinking'] !== '') {
          const signature = block['signature'];
          blocks.push(
            typeof signature === 'string'
              ? { type: 'thinking', text: block['thinking'] as string, signature }
              : { type: 'thinking', text: block['thinking'] as string },
          );
        } else if (type === 'redacted_thinking' && block['data'] !== '')
          blocks.push({ type: 'redacted_thinking', data: block['data'] as string });
        else if (type === 'tool_use') {
          const input = block['input'];
          if (!isJsonObject(input) && input !== undefined && input !== null)
            out.lose(`${blockAt(i, j)}.input`, 'tool input that is not an object');
          calls.push({
            id: block['id'] as string,
            name: block['name'] as string,
            arguments: isJsonObject(input) ? { ...input } : null,
          });
        } else out.lose(blockAt(i, j), `a ${String(type)} block (ChatMessage has no ${String(type)} block)`);
      });
      out.assistant(assistantContent(blocks, calls.length > 0), calls, `messages[${i}]`);
    }
  }
  return out;
}

/** `ChatMessage`s as Anthropic messages (input already read as chat messages). */
export function chatToAnthropic(messages: readonly unknown[]): {
  messages: AnthropicMessage[];
  losses: ConversionLoss[];
} {
  readChat(messages);
  const out: AnthropicMessage[] = [];
  const losses: ConversionLoss[] = [];
  const chat = messages as readonly ChatMessage[];
  for (const item of withToolRuns(chat)) {
    if ('tools' in item) {
      out.push({
        role: 'user',
        content: item.tools.map((t) => toolResult(t.tool_call_id, t.content)),
      });
      continue;
    }
    const { index: i, message } = item;
    if (message.role === 'system')
      // The Messages API refuses role "system" in messages: `convertTranscript` gives the prompt
      // as the result's `system` (the request's top-level `system`).
      losses.push({
        at: `messages[${i}]`,
        what: "a system message (Anthropic takes it in the request's top-level system)",
      });
    else if (message.role === 'user') {
      if (typeof message.content === 'string') out.push({ role: 'user', content: message.content });
      else
        out.push({
          role: 'user',
          content: message.content.map((block, j): AnthropicContentBlock => {
            if (block.type === 'text') {
              if (block.signature !== undefined)
                losses.push({
                  at: `${blockAt(i, j)}.signature`,
                  what: 'a text signature (Anthropic text blocks have none)',
                });
              return { type: 'text', text: block.text };
            }
            if (block.detail !== undefined)
              losses.push({ at: `${blockAt(i, j)}.detail`, what: 'the image detail (Anthropic images have none)' });
            return block.source.type === 'url'
              ? ({ type: 'image', source: { type: 'url', url: block.source.url } } as AnthropicContentBlock)
              : ({
                  type: 'image',
                  source: { type: 'base64', media_type: block.media_type, data: block.source.base64_data },
                } as AnthropicContentBlock);
          }),
        });
    } else if (message.role === 'assistant') {
      const blocks: AnthropicContentBlock[] = [];
      const content = message.content ?? '';
      if (typeof content === 'string') {
        if (content !== '') blocks.push({ type: 'text', text: content });
      } else
        content.forEach((block, j) => {
          if (block.type === 'text') {
            if (block.signature !== undefined)
              losses.push({
                at: `${blockAt(i, j)}.signature`,
                what: 'a text signature (Anthropic text blocks have none)',
              });
            blocks.push({ type: 'text', text: block.text });
          } else if (block.type === 'thinking')
            blocks.push({ type: 'thinking', thinking: block.text, signature: block.signature ?? '' });
          else blocks.push({ type: 'redacted_thinking', data: block.data } as AnthropicContentBlock);
        });
      (message.tool_calls ?? []).forEach((call, k) => {
        if (call.signature !== undefined)
          losses.push({ at: `messages[${i}].tool_calls[${k}].signature`, what: 'a tool call signature' });
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments ?? {} });
      });
      out.push({ role: 'assistant', content: blocks });
    }
  }
  return { messages: out, losses };
}

/**
 * A `tool_result` block answering the `tool_use` `toolUseId`: the one way this format writes a
 * tool result (conversion from `ChatMessage`, repair's synthesized results, the Anthropic
 * adapter's answers). Internal.
 *
 * @param toolUseId - The id of the `tool_use` it answers.
 * @param content - The result text.
 * @param isError - Whether the tool failed (`is_error: true`).
 */
export function toolResult(
  toolUseId: string,
  content: string,
  isError = false,
): { type: 'tool_result'; tool_use_id: string; content: string; is_error?: true } {
  return { type: 'tool_result', tool_use_id: toolUseId, content, ...(isError && { is_error: true as const }) };
}
