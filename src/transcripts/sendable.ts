/**
 * `SendableTranscript`: a transcript that passed `checkTranscript` for sending, branded through
 * the typestate layer's one mint registry, and `guardSend`, which makes a provider call accept
 * only such a transcript.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { Branded, TurnMisuse } from '../typestate/index.ts';
import { mint, mintedState } from '../typestate/internal.ts';
import { type FormatMisuse, foreignStructure } from './core/markers.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import type { TranscriptMessage } from './messages.ts';

/**
 * A transcript that passed `checkTranscript(..., { expect: 'sendable' })`: only the check mints
 * one (an object literal or a cast has no brand, and `guardSend` refuses it at run time). It
 * holds a frozen copy of the message list; do not change the message objects after the check.
 *
 * @example
 * ```ts
 * import { checkTranscript, type SendableTranscript } from 'turngate/transcripts';
 * const report = checkTranscript([{ role: 'user', content: 'Hello' }], { format: 'anthropic' });
 * if (report.result === 'accepted') {
 *   const transcript: SendableTranscript<'anthropic'> = report.transcript;
 *   transcript.messages.length; //=> 1
 * }
 * ```
 */
export type SendableTranscript<
  F extends TranscriptFormat = TranscriptFormat,
  M extends TranscriptMessage<F> = TranscriptMessage<F>,
> = Branded<'SendableTranscript', { readonly format: F; readonly messages: readonly M[] }>;

/** Mints a sendable transcript: a frozen record of the format and a frozen copy of the list. Internal. */
export function mintSendable<F extends TranscriptFormat, M extends TranscriptMessage<F>>(
  format: F,
  messages: readonly M[],
): SendableTranscript<F, M> {
  return mint('SendableTranscript', { format, messages: Object.freeze([...messages]) });
}

/**
 * Thrown by a guarded send when it is handed a transcript the check did not mint (`forged`: a
 * literal, cast, spread or copy), or one checked for another format or whose messages hold
 * another format's structure (`wrong_format`: a message object changed after the check). The
 * provider call does not run.
 *
 * @example
 * ```ts
 * import { guardSend, UncheckedTranscriptError, type SendableTranscript } from 'turngate/transcripts';
 * const send = guardSend('anthropic', (messages) => messages.length);
 * try {
 *   send({ format: 'anthropic', messages: [] } as unknown as SendableTranscript<'anthropic'>);
 * } catch (error) {
 *   if (error instanceof UncheckedTranscriptError) error.code; //=> 'forged'
 * }
 * ```
 */
export class UncheckedTranscriptError extends Error {
  /** `forged` (not minted by the check) or `wrong_format` (checked for another format, or holding another format's structure). */
  readonly code: 'forged' | 'wrong_format';

  /**
   * Creates the error.
   *
   * @param code - Why the transcript was refused.
   * @param detail - What was found.
   */
  constructor(code: 'forged' | 'wrong_format', detail: string) {
    super(`expected a SendableTranscript minted by checkTranscript: ${detail}`);
    this.name = 'UncheckedTranscriptError';
    this.code = code;
  }
}

/**
 * Whether `value` is a `SendableTranscript` minted by the check (of `format`, when given).
 *
 * @param value - Any value.
 * @param format - The format it must have been checked for.
 * @returns `true` only for a transcript `checkTranscript` returned.
 * @example
 * ```ts
 * import { checkTranscript, isSendableTranscript } from 'turngate/transcripts';
 * const report = checkTranscript([{ role: 'user', content: 'Hello' }], { format: 'openai-chat' });
 * isSendableTranscript(report.result === 'accepted' ? report.transcript : undefined, 'openai-chat'); //=> true
 * isSendableTranscript({ format: 'openai-chat', messages: [] }); //=> false
 * ```
 */
export function isSendableTranscript<F extends TranscriptFormat = TranscriptFormat>(
  value: unknown,
  format?: F,
): value is SendableTranscript<F> {
  return (
    mintedState(value) === 'SendableTranscript' &&
    (format === undefined || (value as { readonly format: unknown }).format === format)
  );
}

/**
 * What `guardSend` adds to the type of `send`, whose messages are `M`: nothing (`unknown`) when
 * `M` is a message type of format `F` holding no other format's structure, or when `M` is
 * `any`, `unknown` or `never`; otherwise a `TurnMisuse` naming the format. (`send` is checked by
 * what it takes, not by assignability alone: a loose SDK type such as Gemini's `Content`, every
 * field optional, takes any message with a `role`, yet a Gemini call is no place for them.)
 *
 * @example
 * ```ts
 * import type { TurnMisuse } from 'turngate';
 * import type { SenderMisuse } from 'turngate/transcripts';
 * type Own = SenderMisuse<'chat', { role: 'user'; content: string }>; //=> unknown
 * const refused: SenderMisuse<'chat', string> extends TurnMisuse<string> ? true : false = true;
 * ```
 */
export type SenderMisuse<F extends TranscriptFormat, M> = 0 extends 1 & M
  ? unknown
  : [M] extends [never]
    ? unknown
    : unknown extends M
      ? unknown
      : [FormatMisuse<F, M>] extends [TurnMisuse<string>]
        ? FormatMisuse<F, M>
        : [M] extends [TranscriptMessage<F>]
          ? unknown
          : TurnMisuse<`transcript.wrong_format: send takes messages that are not format ${F}'s: type its parameter with TranscriptMessage<'${F}'> or the SDK's ${F} message type`>;

/**
 * The message type of the transcript a guarded send takes: `M` when it is one of format `F`'s
 * (`never` stays `never`), the format's message type for `any`, `unknown` and the rest.
 *
 * @example
 * ```ts
 * import type { SentMessage } from 'turngate/transcripts';
 * const message: SentMessage<'chat', unknown> = { role: 'user', content: 'Hello' };
 * ```
 */
export type SentMessage<F extends TranscriptFormat, M> = 0 extends 1 & M
  ? TranscriptMessage<F>
  : [M] extends [TranscriptMessage<F>]
    ? M
    : TranscriptMessage<F>;

/**
 * Wraps a provider call so that it accepts only a checked transcript: sending an unchecked
 * history is a `tsc` error (the argument must be a `SendableTranscript<F, M>`), and a forged one
 * (cast, copy, literal) or one checked for another format throws `UncheckedTranscriptError`
 * before `send` runs. A `send` typed for another format's messages is a `tsc` error where the
 * SDKs' types tell the formats apart (`guardSend('openai-chat', (m: Anthropic.MessageParam[]) =>
 * ...)`: `transcript.wrong_format: these messages hold tool_use, ... (format anthropic), not
 * format openai-chat`),
 * and messages holding another format's structure are refused at run time. `send` receives a fresh mutable copy of the messages, ready for an SDK's
 * parameter type.
 *
 * @param format - The format the transcript must have been checked for.
 * @param send - The provider call, given the checked messages.
 * @returns A function taking a `SendableTranscript<F, M>` and returning what `send` returns.
 *   (`send` typed for another format's messages is a `tsc` error: see {@link SenderMisuse}.)
 * @throws {@link UncheckedTranscriptError} (from the returned function) for a transcript the check did not mint for `format`.
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { checkTranscript, guardSend } from 'turngate/transcripts';
 * const client = new Anthropic();
 * const send = guardSend('anthropic', (messages: Anthropic.MessageParam[]) =>
 *   client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages }),
 * );
 * const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];
 * const report = checkTranscript(history, { format: 'anthropic' });
 * if (report.result === 'accepted') await send(report.transcript);
 * ```
 */
export function guardSend<F extends TranscriptFormat, M = TranscriptMessage<F>, R = unknown>(
  format: F,
  send: ((messages: M[]) => R) & SenderMisuse<F, M>,
): (transcript: SendableTranscript<F, SentMessage<F, M>>) => R {
  return (transcript) => {
    if (mintedState(transcript) !== 'SendableTranscript') {
      throw new UncheckedTranscriptError(
        'forged',
        'this transcript was not returned by checkTranscript (a literal, cast or copy)',
      );
    }
    if (transcript.format !== format) {
      throw new UncheckedTranscriptError('wrong_format', `it was checked as ${transcript.format}, not ${format}`);
    }
    // The list is frozen, its message objects are not: what is sent must still be the format's.
    const foreign = foreignStructure(transcript.messages, format, FORMAT_DRIVERS[format].field);
    if (foreign !== undefined) throw new UncheckedTranscriptError('wrong_format', foreign.message);
    return send([...transcript.messages] as M[]);
  };
}
