/**
 * `SendableTranscript`: a transcript that passed `checkTranscript` for sending, branded through
 * the typestate layer's one mint registry, and `guardSend`, which makes a provider call accept
 * only such a transcript.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { Branded, TurnMisuse } from '../typestate/index.ts';
import { isPlainPrototype } from '../internal/own-data.ts';
import { mint, mintedState } from '../typestate/internal.ts';
import { foreignStructure } from './core/markers.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import type { TranscriptMessage } from './messages.ts';
import type { SenderFormat, SenderIssue } from './misuse.ts';

/**
 * A transcript that passed `checkTranscript(..., { expect: 'sendable' })`: only the check mints
 * one (an object literal or a cast has no brand, and `guardSend` refuses it at run time). It
 * holds a frozen snapshot of the messages taken at the check ({@link Frozen}): a change to the
 * checked history afterwards does not reach the transcript, and the transcript itself cannot be
 * changed (a `tsc` error, and a `TypeError` in strict mode).
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
> = Branded<'SendableTranscript', { readonly format: F; readonly messages: FrozenList<M> }>;

/**
 * A read-only list of {@link Frozen} values: the messages of a {@link SendableTranscript}, and
 * every list in them (a `push` or an assignment into one is a `tsc` error naming this type, not
 * the whole SDK union).
 *
 * @example
 * ```ts
 * import { checkTranscript } from 'turngate/transcripts';
 * import type { FrozenList } from 'turngate/types';
 * const report = checkTranscript([{ role: 'user', content: 'Hello' }], { format: 'chat' });
 * if (report.result === 'accepted') {
 *   const messages: FrozenList<{ role: 'user'; content: string }> = report.transcript.messages;
 *   Object.isFrozen(messages[0]); //=> true
 * }
 * ```
 */
export interface FrozenList<M> extends ReadonlyArray<Frozen<M>> {}

/**
 * `T` read-only all the way down: what a {@link SendableTranscript} holds, a frozen snapshot
 * (assigning into it or pushing to one of its lists is a `tsc` error, and throws at run time in
 * strict mode). Values `JSON.stringify` writes through their `toJSON` (`Date`, `URL`) and binary
 * data (`Uint8Array`, `ArrayBuffer`) are kept as they are.
 *
 * @example
 * ```ts
 * import type { Frozen } from 'turngate/types';
 * const message: Frozen<{ role: 'user'; content: { type: 'text'; text: string }[] }> = { role: 'user', content: [{ type: 'text', text: 'Hi' }] };
 * message.content.length; //=> 1
 * ```
 */
export type Frozen<T> = T extends ArrayBuffer | ArrayBufferView | { toJSON(...args: never[]): unknown }
  ? T
  : T extends (...args: never[]) => unknown
    ? T
    : T extends readonly (infer E)[]
      ? number extends T['length']
        ? FrozenList<E>
        : { readonly [K in keyof T]: Frozen<T[K]> }
      : T extends object
        ? { readonly [K in keyof T]: Frozen<T[K]> }
        : T;

/**
 * A frozen copy of checked data, for data the check's quick pass did not copy (it handed over
 * to the exact walk: objects shared past its budget, say): arrays and plain objects are copied
 * and frozen all the way down, each shared object once (a map of the copies made), so data of
 * 2^60 paths through 60 objects costs 60 copies; other values (a `Date`, a `Uint8Array`, what
 * the check keeps as a leaf) are kept as they are. The check accepted the data: it has no cycle
 * and nests at most `MAX_DATA_DEPTH` levels. Called while `Object.prototype` is clean (a spread
 * and `for...in` read own fields only). Internal.
 */
export function frozenCopy(value: object): object {
  return sharedCopy(value, new Map());
}

function sharedCopy(value: object, copies: Map<object, object>): object {
  const done = copies.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const list: unknown[] = value.slice();
    copies.set(value, list);
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (typeof item === 'object' && item !== null) list[i] = sharedCopy(item, copies);
    }
    return Object.freeze(list);
  }
  if (!isPlainPrototype(Object.getPrototypeOf(value))) return value;
  const copy: Record<string, unknown> = { ...value };
  copies.set(value, copy);
  for (const key in copy) {
    const item = copy[key];
    if (typeof item === 'object' && item !== null) copy[key] = sharedCopy(item, copies);
  }
  return Object.freeze(copy);
}

/**
 * Mints a sendable transcript: a frozen record of the format and the check's frozen snapshot of
 * the messages (see `checkInput`), so a change to the checked history after the check never
 * reaches the provider. Internal.
 */
export function mintSendable<F extends TranscriptFormat, M extends TranscriptMessage<F>>(
  format: F,
  snapshot: readonly M[],
): SendableTranscript<F, M> {
  return mint('SendableTranscript', { format, messages: snapshot as FrozenList<M> });
}

/** A transcript minted by extension whose list is not made yet: the transcript it extends, and the tail's frozen messages. */
interface Pending {
  readonly prefix: SendableTranscript;
  readonly tail: readonly unknown[];
}

/**
 * Mints the sendable transcript of `prefix`'s messages followed by `tail` (the tail's frozen
 * copy): its `messages` is made (one frozen list) the first time it is read, from the tails of
 * the extensions since the last transcript whose list was made, so an extension costs its tail
 * and a chain of extensions read at its end costs one list. Internal (`extend.ts`).
 */
export function mintExtended<F extends TranscriptFormat>(
  format: F,
  prefix: SendableTranscript<F>,
  tail: readonly unknown[],
): SendableTranscript<F> {
  let list: readonly unknown[] | undefined;
  let pending: Pending | undefined = { prefix, tail };
  const record = { format } as { readonly format: F; readonly messages: FrozenList<TranscriptMessage<F>> };
  Object.defineProperty(record, 'messages', {
    enumerable: true,
    get: () => {
      if (list !== undefined) return list;
      const tails: (readonly unknown[])[] = [];
      let at: Pending | undefined = pending;
      let base: readonly unknown[] = [];
      while (at !== undefined) {
        tails.push(at.tail);
        const before = PENDING.get(at.prefix);
        if (before === undefined) {
          base = at.prefix.messages;
          break;
        }
        at = before.read();
        if (at === undefined) {
          base = before.list();
          break;
        }
      }
      const made = [...base];
      for (let t = tails.length - 1; t >= 0; t--)
        for (const message of tails[t] as readonly unknown[]) made.push(message);
      list = Object.freeze(made);
      pending = undefined;
      return list;
    },
  });
  const minted = mint('SendableTranscript', record);
  PENDING.set(minted, {
    read: () => pending,
    list: () => list ?? minted.messages,
  });
  return minted;
}

/** The extension each transcript minted by {@link mintExtended} still holds (`read()`: `undefined` once its list is made). */
const PENDING = new WeakMap<
  object,
  { readonly read: () => Pending | undefined; readonly list: () => readonly unknown[] }
>();

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
 * import type { TurnMisuse } from 'turngate/types';
 * import type { SenderMisuse } from 'turngate/types';
 * type Own = SenderMisuse<'chat', { role: 'user'; content: string }>; //=> unknown
 * const refused: SenderMisuse<'chat', string> extends TurnMisuse<string> ? true : false = true;
 * ```
 */
export type SenderMisuse<F extends TranscriptFormat, M> = [SenderIssue<F, M>] extends [never]
  ? unknown
  : TurnMisuse<SenderIssue<F, M>>;

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
 * ...)`: `transcript.wrong_format: not openai-chat: messages of format anthropic (they hold
 * tool_use, ...)`),
 * and messages holding another format's structure are refused at run time. `send` receives a
 * fresh list of the transcript's frozen messages (the snapshot taken at the check: a change to
 * the history after the check never reaches it), typed as `send`'s parameter.
 *
 * @param format - The format the transcript must have been checked for. (Where `send` takes
 *   another format's messages, its type is the `transcript.wrong_format` sentence: see {@link SenderMisuse}.)
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
export function guardSend<const F extends TranscriptFormat, M = TranscriptMessage<F>, R = unknown>(
  format: SenderFormat<F, M>,
  send: (messages: M[]) => R,
): (transcript: SendableTranscript<F, SentMessage<F, M>>) => R {
  // `SenderFormat<F, M>` is `F` for every call that compiles (otherwise it is the misuse sentence).
  const checked = format as F;
  return (transcript) => {
    if (mintedState(transcript) !== 'SendableTranscript') {
      throw new UncheckedTranscriptError(
        'forged',
        'this transcript was not returned by checkTranscript (a literal, cast or copy)',
      );
    }
    if (transcript.format !== checked) {
      throw new UncheckedTranscriptError('wrong_format', `it was checked as ${transcript.format}, not ${checked}`);
    }
    // The snapshot is frozen; a leaf kept as it is (a toJSON object) is not: what is sent must still be the format's.
    const foreign = foreignStructure(transcript.messages, checked, FORMAT_DRIVERS[checked].field);
    if (foreign !== undefined) throw new UncheckedTranscriptError('wrong_format', foreign.message);
    // A fresh list (an SDK may append to it) of the frozen messages, typed as `send` takes them.
    const messages: unknown[] = [...transcript.messages];
    return send(messages as M[]);
  };
}
