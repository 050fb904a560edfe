/**
 * `SendableTranscript`: a transcript that passed `checkTranscript` for sending, branded through
 * the typestate layer's one mint registry, and `guardSend`, which makes a provider call accept
 * only such a transcript.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { Branded } from '../typestate/index.ts';
import { mint, mintedState } from '../typestate/internal.ts';
import { foreignStructure } from './core/markers.ts';
import { TRANSCRIPT_FIELD } from './core/unwrap.ts';
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
 * Wraps a provider call so that it accepts only a checked transcript: sending an unchecked
 * history is a `tsc` error (the argument must be a `SendableTranscript<F, M>`), and a forged one
 * (cast, copy, literal) or one checked for another format throws `UncheckedTranscriptError`
 * before `send` runs. `send` receives a fresh mutable copy of the messages, ready for an SDK's
 * parameter type.
 *
 * @param format - The format the transcript must have been checked for.
 * @param send - The provider call, given the checked messages.
 * @returns A function taking a `SendableTranscript<F, M>` and returning what `send` returns.
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
export function guardSend<F extends TranscriptFormat, M extends TranscriptMessage<F>, R>(
  format: F,
  send: (messages: M[]) => R,
): (transcript: SendableTranscript<F, M>) => R {
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
    const foreign = foreignStructure(transcript.messages, format, TRANSCRIPT_FIELD[format]);
    if (foreign !== undefined) throw new UncheckedTranscriptError('wrong_format', foreign.message);
    return send([...transcript.messages]);
  };
}
