/**
 * Chat Completions messages <-> `ChatMessage`.
 *
 * Lossless for text, images (URLs, and inline bytes as `data:` URLs), function tool calls
 * (`arguments` parsed to an object and written back with `JSON.stringify`, so the argument
 * text's spacing is not kept) and tool messages with text. Not carried to `ChatMessage` (each
 * with a loss record): the `developer` role (becomes `system`), refusals, audio and file parts,
 * custom tool calls, the legacy `function` role, tool call arguments that are not a JSON
 * object. Thinking blocks have no place in Chat Completions.
 *
 * @module
 */
import {
  readChat,
  assistantContent,
  assistantTexts,
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
import { readOpenAIChat } from './check.ts';
import type { OpenAIChatContentPart, OpenAIChatMessage } from './wire.ts';

function userParts(parts: readonly JsonObject[], at: string, out: ChatBuilder): (TextBlock | ImageBlock)[] {
  const blocks: (TextBlock | ImageBlock)[] = [];
  parts.forEach((part, k) => {
    const image = part['image_url'];
    if (part['type'] === 'text' && typeof part['text'] === 'string' && part['text'] !== '')
      blocks.push({ type: 'text', text: part['text'] });
    else if (part['type'] === 'image_url' && isJsonObject(image) && typeof image['url'] === 'string') {
      blocks.push(imageFromUrl(image['url'], image['detail']));
    } else out.lose(`${at}[${k}]`, `a ${String(part['type'])} part (ChatMessage has no such block)`);
  });
  return blocks;
}

/** Chat Completions messages as `ChatMessage`s. */
export function openAIChatToChat(messages: readonly unknown[]): { messages: ChatMessage[]; losses: ConversionLoss[] } {
  readOpenAIChat(messages);
  const out = new ChatBuilder();
  messages.forEach((value, i) => {
    const message = value as JsonObject;
    const at = `messages[${i}]`;
    const content = message['content'];
    switch (message['role']) {
      case 'system':
      case 'developer': {
        if (message['role'] === 'developer') out.lose(`${at}.role`, 'the developer role (becomes system)');
        const text = resultText(content);
        if (text !== '') out.messages.push({ role: 'system', content: text });
        else out.lose(at, 'an empty system message');
        return;
      }
      case 'user': {
        if (typeof content === 'string') {
          if (content !== '') out.messages.push({ role: 'user', content });
          else out.lose(at, 'an empty user message');
          return;
        }
        const [first, ...rest] = userParts(content as JsonObject[], `${at}.content`, out);
        if (first !== undefined) out.messages.push({ role: 'user', content: [first, ...rest] });
        return;
      }
      case 'assistant': {
        if (typeof message['refusal'] === 'string') out.lose(`${at}.refusal`, 'a refusal');
        const blocks: AssistantContentBlock[] = [];
        if (typeof content === 'string' && content !== '') blocks.push({ type: 'text', text: content });
        else if (Array.isArray(content))
          (content as JsonObject[]).forEach((part, k) => {
            if (part['type'] === 'text' && typeof part['text'] === 'string' && part['text'] !== '')
              blocks.push({ type: 'text', text: part['text'] });
            else out.lose(`${at}.content[${k}]`, `a ${String(part['type'])} part`);
          });
        const calls: ToolCall[] = [];
        ((message['tool_calls'] as JsonObject[] | null | undefined) ?? []).forEach((call, k) => {
          const fn = call['function'];
          if (call['type'] === 'custom' || !isJsonObject(fn)) {
            out.lose(`${at}.tool_calls[${k}]`, 'a custom tool call (ChatMessage tool calls take argument objects)');
            return;
          }
          // The arguments' JSON text; arguments written as an object (a shape the check reports) are taken as they are.
          calls.push({
            id: call['id'] as string,
            name: fn['name'] as string,
            arguments: out.callArguments(fn['arguments'], `${at}.tool_calls[${k}].function.arguments`),
          });
        });
        out.assistant(assistantContent(blocks, calls.length > 0), calls, at);
        return;
      }
      case 'tool': {
        const id = message['tool_call_id'];
        if (typeof id !== 'string') {
          out.lose(at, 'a tool message without tool_call_id');
          return;
        }
        if (Array.isArray(content)) out.lose(`${at}.content`, 'content parts, kept as their text');
        out.messages.push({ role: 'tool', tool_call_id: id, content: resultText(content ?? '') });
        return;
      }
      default:
        out.lose(at, 'a message of the legacy function role');
    }
  });
  return out;
}

/** `ChatMessage`s as Chat Completions messages. */
export function chatToOpenAIChat(messages: readonly unknown[]): {
  messages: OpenAIChatMessage[];
  losses: ConversionLoss[];
} {
  readChat(messages);
  const losses: ConversionLoss[] = [];
  const out = (messages as readonly ChatMessage[]).map((message, i): OpenAIChatMessage => {
    if (message.role === 'system' || message.role === 'tool') return message;
    if (message.role === 'user') {
      if (typeof message.content === 'string') return message;
      return {
        role: 'user',
        content: message.content.map((block): OpenAIChatContentPart => {
          if (block.type === 'text') return { type: 'text', text: block.text } as OpenAIChatContentPart;
          const url = imageUrl(block);
          return {
            type: 'image_url',
            image_url: block.detail === undefined ? { url } : { url, detail: block.detail },
          } as OpenAIChatContentPart;
        }),
      };
    }
    const texts = assistantTexts(message, i, losses, 'Chat Completions has none');
    const text =
      texts.length === 0
        ? null
        : texts.length === 1
          ? (texts[0] as string)
          : texts.map((t) => ({ type: 'text', text: t }) as OpenAIChatContentPart);
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) return { role: 'assistant', content: text ?? '' };
    return {
      role: 'assistant',
      content: text,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
      })),
    };
  });
  return { messages: out, losses };
}

/**
 * A `tool` message answering the tool call `toolCallId`: the one way this format writes a tool
 * result (repair's synthesized results, the Chat Completions adapter's answers; Chat Completions
 * has no error flag, so a failure is told in the text). Internal.
 *
 * @param toolCallId - The id of the call it answers.
 * @param content - The result text.
 */
export function toolResult(
  toolCallId: string,
  content: string,
): { role: 'tool'; tool_call_id: string; content: string } {
  return { role: 'tool', tool_call_id: toolCallId, content };
}
