/**
 * The loss record of a conversion between wire formats (what the conversion steps and each
 * format's converters report). The pieces the converters share to and from `ChatMessage` are
 * the hub's (`chat/convert.ts`).
 *
 * @module
 */

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
 * if (converted.ok) converted.value.losses; //=> [{ at: 'messages[0].content[0]', what: 'a document block (ChatMessage has no document block)' }]
 * ```
 */
export interface ConversionLoss {
  /** Where the dropped part stood, as a path into the input. */
  readonly at: string;
  /** What was dropped, and why. */
  readonly what: string;
}
