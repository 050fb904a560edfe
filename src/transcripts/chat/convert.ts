/**
 * Shared pieces of the conversions between the wire formats and `ChatMessage`, on the hub's
 * side: the builder that collects converted messages and losses, how a tool result's content
 * becomes chat text, and the readers of a `ChatMessage` list each format's writer uses. Reached
 * by the format folders through the hub's face (`chat/index.ts`). Internal.
 *
 * @module
 */
import type { ConversionLoss } from '../core/convert.ts';
import { isJsonObject, type JsonObject } from '../core/input.ts';
import type {
  AssistantContentBlock,
  AssistantMessage,
  ChatMessage,
  ImageBlock,
  ToolCall,
  ToolMessage,
} from './message.ts';

/** Collects converted messages and losses. */
export class ChatBuilder {
  readonly messages: ChatMessage[] = [];
  readonly losses: ConversionLoss[] = [];

  lose(at: string, what: string): void {
    this.losses.push({ at, what });
  }

  /**
   * A tool call's arguments as `ChatMessage` takes them: JSON text is parsed, an object is taken
   * as it is (a copy); anything else, text that is not JSON, or JSON that is not an object is
   * `null`, with a loss recorded at `at` (`what`, default "arguments that are not a JSON object").
   * The one home of this rule for every format whose calls carry arguments as text.
   */
  callArguments(value: unknown, at: string, what = 'arguments that are not a JSON object'): JsonObject | null {
    let args = value;
    if (typeof value === 'string') {
      try {
        args = JSON.parse(value);
      } catch {
        args = undefined;
      }
    }
    if (isJsonObject(args)) return { ...args };
    this.lose(at, what);
    return null;
  }

  /** Adds an assistant message, or records it as lost when nothing of it is left. */
  assistant(content: string | AssistantContentBlock[], calls: ToolCall[], at: string): void {
    const [first, ...rest] = calls;
    if (first !== undefined) {
      this.messages.push({ role: 'assistant', content, tool_calls: [first, ...rest] });
      return;
    }
    const [block, ...more] = typeof content === 'string' ? [] : content;
    if (typeof content === 'string' && content !== '') this.messages.push({ role: 'assistant', content });
    else if (block !== undefined) this.messages.push({ role: 'assistant', content: [block, ...more] });
    else this.lose(at, 'an assistant message with nothing ChatMessage can hold');
  }
}

/** The chat text of a tool result's content: a string as it is, text parts joined, other JSON as JSON text. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((part) => isJsonObject(part) && typeof part['text'] === 'string')) {
    return content.map((part) => (part as JsonObject)['text'] as string).join('\n');
  }
  return JSON.stringify(content ?? null);
}

/** Whether a tool result's content is text `resultText` keeps exactly (a string, or one text part). */
export function isPlainText(content: unknown): boolean {
  return typeof content === 'string';
}

/** The assistant content of text and thinking blocks: one text block becomes a string. */
export function assistantContent(blocks: AssistantContentBlock[], hasCalls: boolean): string | AssistantContentBlock[] {
  if (blocks.length === 0) return hasCalls ? '' : [];
  const [only] = blocks;
  if (blocks.length === 1 && only?.type === 'text' && only.signature === undefined) return only.text;
  return blocks;
}

/** A chat message, or a run of consecutive tool messages, with the index of its first message. */
export type ChatRunItem =
  | { readonly index: number; readonly message: Exclude<ChatMessage, ToolMessage> }
  | { readonly index: number; readonly tools: readonly ToolMessage[] };

/** The chat messages with each run of consecutive tool messages as one item (formats that group results). */
export function withToolRuns(chat: readonly ChatMessage[]): ChatRunItem[] {
  const items: ChatRunItem[] = [];
  for (let i = 0; i < chat.length; i++) {
    const message = chat[i] as ChatMessage;
    if (message.role !== 'tool') {
      items.push({ index: i, message });
      continue;
    }
    const last = items[items.length - 1];
    if (last !== undefined && 'tools' in last && last.index + last.tools.length === i)
      (last.tools as ToolMessage[]).push(message);
    else items.push({ index: i, tools: [message] });
  }
  return items;
}

/** Tool call names by call id (a tool message has only the id). */
export function callNames(chat: readonly ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of chat)
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) names.set(call.id, call.name);
  return names;
}

/** The texts of an assistant message's content; each other block is recorded as lost (`why`). */
export function assistantTexts(
  message: AssistantMessage,
  index: number,
  losses: ConversionLoss[],
  why: string,
): string[] {
  const content = message.content ?? '';
  if (typeof content === 'string') return content === '' ? [] : [content];
  const texts: string[] = [];
  content.forEach((block, j) => {
    if (block.type === 'text') texts.push(block.text);
    else losses.push({ at: `messages[${index}].content[${j}]`, what: `a ${block.type} block (${why})` });
  });
  return texts;
}

/** A base64 `data:` URL: its media type and its bytes. */
const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/**
 * The image block of an image URL (the inverse of {@link imageUrl}): a base64 `data:` URL becomes
 * inline bytes with its media type, any other URL stays a URL; `detail` is kept when it is one of
 * `auto`, `low`, `high`.
 */
export function imageFromUrl(url: string, detail: unknown): ImageBlock {
  const extra: { detail?: 'auto' | 'low' | 'high' } =
    detail === 'auto' || detail === 'low' || detail === 'high' ? { detail } : {};
  const data = DATA_URL.exec(url);
  return data === null
    ? { type: 'image', source: { type: 'url', url }, ...extra }
    : {
        type: 'image',
        source: { type: 'inline', base64_data: data[2] as string },
        media_type: data[1] as string,
        ...extra,
      };
}

/** An image block as a URL: its URL, or its inline bytes as a `data:` URL. */
export function imageUrl(block: ImageBlock): string {
  return block.source.type === 'url' ? block.source.url : `data:${block.media_type};base64,${block.source.base64_data}`;
}
