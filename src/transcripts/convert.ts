/**
 * Conversion between each wire format and turngate's `ChatMessage`, lossless where both sides
 * can hold the same thing; every part that cannot cross is listed as a `ConversionLoss`. Each
 * format's module says what is lossless and what is not.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { ChatMessage } from './chat/message.ts';
import type { ConversionLoss } from './core/convert.ts';
import { type TranscriptInputError, unreadableInput } from './core/report.ts';
import type { Converter } from './core/driver.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import { unwrapTranscript } from './unwrap.ts';
import type { TranscriptMessage } from './messages.ts';
import type { AnyTranscriptInput, TranscriptArgument } from './misuse.ts';
import type { Result } from '../failures/index.ts';

/** A conversion's output: the converted messages and what could not cross. */
export interface Conversion<M> {
  readonly messages: M[];
  readonly losses: readonly ConversionLoss[];
}

/**
 * The `Result` of a conversion: the {@link Conversion} as `value`, or `failures` holding one
 * input error for input that is not a transcript of the source format.
 *
 * @example
 * ```ts
 * import { toChatMessages, type ConversionResult, type ChatMessage } from 'turngate/transcripts';
 * const converted: ConversionResult<ChatMessage> = toChatMessages([{ role: 'user', content: 'Hi' }], { format: 'openai-chat' });
 * converted.ok && converted.value.messages; //=> [{ role: 'user', content: 'Hi' }]
 * ```
 */
export type ConversionResult<M> = Result<Conversion<M>, TranscriptInputError>;

function convert(input: unknown, source: TranscriptFormat, converter: Converter): ConversionResult<unknown> {
  try {
    const { messages } = unwrapTranscript(input, source);
    const converted = converter(messages);
    return { ok: true, value: { messages: converted.messages, losses: converted.losses } };
  } catch (error) {
    return { ok: false, failures: [unreadableInput('messages', error)] };
  }
}

/**
 * Converts a transcript of `format` to `ChatMessage`s: text, images, thinking, tool calls and
 * tool results cross; everything else is listed in `losses` with its position. Calls and
 * results keep their ids, so the check's verdict on tool pairing carries over.
 *
 * @param messages - The messages (items, contents), or a request body holding them.
 * @param options - `format`: the source format.
 * @returns The `ChatMessage`s and the losses, or the input error.
 * @example
 * ```ts
 * import { toChatMessages } from 'turngate/transcripts';
 * const converted = toChatMessages(
 *   [
 *     { role: 'model', parts: [{ functionCall: { id: 'fc_1', name: 'get_weather', args: { city: 'Oslo' } } }] },
 *     { role: 'user', parts: [{ functionResponse: { id: 'fc_1', name: 'get_weather', response: { output: 'Snow' } } }] },
 *   ],
 *   { format: 'gemini' },
 * );
 * converted.ok && converted.value.messages;
 * //=> [{ role: 'assistant', content: '', tool_calls: [{ id: 'fc_1', name: 'get_weather', arguments: { city: 'Oslo' } }] }, { role: 'tool', tool_call_id: 'fc_1', content: 'Snow' }]
 * ```
 */
export function toChatMessages<const F extends TranscriptFormat, I extends AnyTranscriptInput<F>>(
  messages: TranscriptArgument<F, I, "convertTranscriptJson(value, { from, to: 'chat' })">,
  options: { readonly format: F },
): ConversionResult<ChatMessage> {
  return convert(messages, options.format, FORMAT_DRIVERS[options.format].toChat) as ConversionResult<ChatMessage>;
}

/**
 * Converts `ChatMessage`s to the messages of `format` (the inverse of `toChatMessages` on what
 * both hold); what the format cannot hold is listed in `losses`.
 *
 * @param messages - `ChatMessage`s.
 * @param options - `format`: the target format.
 * @returns The messages of `format` and the losses, or the input error for values that are not `ChatMessage`s.
 * @example
 * ```ts
 * import { fromChatMessages } from 'turngate/transcripts';
 * const converted = fromChatMessages(
 *   [
 *     { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
 *     { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
 *   ],
 *   { format: 'openai-chat' },
 * );
 * converted.ok && converted.value.messages[0];
 * //=> { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] }
 * ```
 */
export function fromChatMessages<const F extends TranscriptFormat>(
  messages: readonly ChatMessage[],
  options: { readonly format: F },
): ConversionResult<TranscriptMessage<F>> {
  return convert(messages, 'chat', FORMAT_DRIVERS[options.format].fromChat) as ConversionResult<TranscriptMessage<F>>;
}
