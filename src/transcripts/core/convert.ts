/**
 * Shared pieces of the conversions between the wire formats and `ChatMessage`: the loss
 * record, and how a tool result's content becomes chat text. Internal, except the loss type.
 *
 * @module
 */
import type { AssistantContentBlock, ChatMessage, ToolCall } from '../chat-message.ts';
import { isObject, type JsonObject } from './input.ts';

/**
 * Something a conversion could not carry into the other format (a block type the other side
 * has no place for, an error flag, a field), with where it stood.
 *
 * @example
 * ```ts
 * import { toChatMessages } from 'turngate/transcripts';
 * const converted = toChatMessages(
 *   [{ role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Hi' } }] }],
 *   { format: 'anthropic' },
 * );
 * if (converted.ok) converted.losses; //=> [{ at: 'messages[0].content[0]', what: 'a document block (ChatMessage has no document block)' }]
 * ```
 */
export interface ConversionLoss {
  /** Where the dropped part stood, as a path into the input. */
  readonly at: string;
  /** What was dropped, and why. */
  readonly what: string;
}

/** Collects converted messages and losses. */
export class ChatBuilder {
  readonly messages: ChatMessage[] = [];
  readonly losses: ConversionLoss[] = [];

  lose(at: string, what: string): void {
    this.losses.push({ at, what });
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
  if (Array.isArray(content) && content.every((part) => isObject(part) && typeof part['text'] === 'string')) {
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
