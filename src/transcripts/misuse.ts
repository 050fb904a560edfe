/**
 * The type-level messages of `turngate/transcripts`: what a misuse of `checkTranscript`,
 * `repairTranscript`, `convertTranscript` and `guardSend` shows in a `tsc` error. Each is one
 * sentence that starts with its class (`transcript.wrong_format`, `transcript.invalid`), then
 * what was found and the format, so the error names the class within its first characters and
 * never prints a whole SDK union. One home for these sentences; the typestate layer's are in
 * `typestate/messages.ts`.
 *
 * @module
 */
import type { IdList } from '../builder/index.ts';
import type { TranscriptFormat } from '../check/index.ts';
import type { ForeignMarkers, MostTelling } from './core/markers.ts';
import type { TranscriptMessage } from './messages.ts';
import type { TranscriptField } from './unwrap.ts';

/**
 * The sentence for messages of type `M` checked as format `F` that hold another format's
 * structure (`'transcript.wrong_format: not openai-chat: messages of format anthropic (they
 * hold tool_use, tool_result): check and send them as their format'`); `never` when they
 * hold none (and for `any` and `never`).
 */
export type WrongFormatMessage<F extends TranscriptFormat, M> = [ForeignMarkers<F, M>] extends [never]
  ? never
  : MostTelling<ForeignMarkers<F, M>> extends infer X extends { readonly found: string; readonly owners: string }
    ? `transcript.wrong_format: not ${F}: messages of format ${IdList<X['owners']>} (they hold ${IdList<X['found']>}): check and send them as their format`
    : never;

/** The sentence for messages of type `M` that are not format `F`'s, though they hold no other format's marker. */
export type NotFormatMessage<
  F extends TranscriptFormat,
  TWhere extends string,
> = `transcript.wrong_format: ${TWhere} that are not format ${F}'s: type them with TranscriptMessage<'${F}'> or the SDK's ${F} message type`;

/**
 * The problem with messages of type `M` for format `F`: the sentence naming it, or `never` when
 * `M` is a message type of `F` (or `any`, or `never`).
 */
export type MessagesIssue<F extends TranscriptFormat, M> = 0 extends 1 & M
  ? never
  : [M] extends [never]
    ? never
    : [WrongFormatMessage<F, M>] extends [never]
      ? [M] extends [TranscriptMessage<F>]
        ? never
        : NotFormatMessage<F, 'these are messages'>
      : WrongFormatMessage<F, M>;

/** The list a transcript input `I` holds: `I` itself for an array, the format's field of a request body, else `never`. */
type InputList<F extends TranscriptFormat, I> = I extends readonly unknown[]
  ? I
  : I extends { readonly [K in TranscriptField<F>]: infer L }
    ? L
    : never;

/** The problem with a transcript input `I` of format `F` (an array or a request body), or `never`. */
type InputIssue<F extends TranscriptFormat, I, TJson extends string> = 0 extends 1 & I
  ? never
  : [I] extends [never]
    ? never
    : unknown extends I
      ? `transcript.invalid: a value of type unknown is no typed transcript of format ${F}: call ${TJson}, which reads any value`
      : [I] extends [string]
        ? `transcript.invalid: a string is no transcript of format ${F}: pass its messages, or a request body with ${TranscriptField<F>}`
        : [InputList<F, I>] extends [never]
          ? `transcript.invalid: format ${F} takes an array of messages or a request body with ${TranscriptField<F>}`
          : InputList<F, I> extends readonly (infer M)[]
            ? MessagesIssue<F, M>
            : F extends 'openai-responses'
              ? [InputList<F, I>] extends [string]
                ? never
                : `transcript.invalid: ${TranscriptField<F>} is a string or an array of items`
              : `transcript.invalid: ${TranscriptField<F>} is an array of messages of format ${F}`;

/**
 * What `checkTranscript`, `repairTranscript` and `convertTranscript` take as the transcript of
 * format `F`: the input `I` itself (an array of the format's messages, or a request body holding
 * them) when it is one; otherwise a sentence naming the class and the format, e.g.
 * `'transcript.wrong_format: not openai-chat: messages of format anthropic (they hold tool_use, tool_result): check and send them as their format'`
 * or `'transcript.invalid: a value of type unknown is no typed transcript of format gemini: call checkTranscriptJson, which reads any value'`.
 * `TJson` names the function that reads a value of unknown shape.
 *
 * @example
 * ```ts
 * import type { TranscriptArgument } from 'turngate/transcripts';
 * type Own = TranscriptArgument<'chat', { role: 'user'; content: string }[], 'checkTranscriptJson'>; //=> { role: 'user'; content: string }[]
 * const refused: TranscriptArgument<'chat', string, 'checkTranscriptJson'> = 'transcript.invalid: a string is no transcript of format chat: pass its messages, or a request body with messages';
 * ```
 */
export type TranscriptArgument<F extends TranscriptFormat, I, TJson extends string> = [
  InputIssue<F, I, TJson>,
] extends [never]
  ? I
  : InputIssue<F, I, TJson>;

/**
 * The message type a transcript input `I` of format `F` holds (its elements, or those of the
 * request body's field), or the format's message type when that is not one of the format's.
 *
 * @example
 * ```ts
 * import type { InputMessage } from 'turngate/transcripts';
 * type M = InputMessage<'chat', { messages: { role: 'user'; content: string }[] }>; //=> { role: 'user'; content: string }
 * ```
 */
export type InputMessage<F extends TranscriptFormat, I> = 0 extends 1 & I
  ? TranscriptMessage<F>
  : InputList<F, I> extends readonly (infer M)[]
    ? M extends TranscriptMessage<F>
      ? M
      : TranscriptMessage<F>
    : TranscriptMessage<F>;

/**
 * What `checkTranscript`'s, `repairTranscript`'s and `convertTranscript`'s type parameter for the
 * input is constrained to: any value (the check is {@link TranscriptArgument}), written so an
 * array or object literal is typed in the context of format `F`'s messages (its `role` and `type`
 * literals stay literals).
 */
export type AnyTranscriptInput<F extends TranscriptFormat> =
  | readonly TranscriptMessage<F>[]
  | { readonly [K in TranscriptField<F>]?: unknown }
  // biome-ignore lint/complexity/noBannedTypes: with null and undefined, `{}` makes the constraint take any value
  | {}
  | null
  | undefined;

/**
 * The sentence of an option only format `TOwner` takes, given under another format. The
 * option's type there is `TurnMisuse<OptionMessage<...>>`: no value an option takes is
 * assignable to it, and the error says whose option it is.
 */
export type OptionMessage<
  TOption extends string,
  TOwner extends string,
> = `transcript.invalid: ${TOption} is an option of format ${TOwner} only`;

/**
 * The problem with a `send` whose messages are `M`, guarded as format `F`: the sentence naming
 * it, or `never` when `M` is a message type of `F` holding no other format's structure, or
 * `any`, `unknown` or `never`. (`send` is checked by what it takes, not by assignability alone:
 * a loose SDK type such as Gemini's `Content`, every field optional, takes any message with a
 * `role`, yet a Gemini call is no place for them.)
 */
export type SenderIssue<F extends TranscriptFormat, M> = 0 extends 1 & M
  ? never
  : [M] extends [never]
    ? never
    : unknown extends M
      ? never
      : [WrongFormatMessage<F, M>] extends [never]
        ? [M] extends [TranscriptMessage<F>]
          ? never
          : NotFormatMessage<F, 'send takes messages'>
        : WrongFormatMessage<F, M>;

/**
 * What `guardSend` takes as its format: `F` itself when `send` takes format `F`'s messages
 * (see {@link SenderIssue}); otherwise the sentence naming the class, the format and what the
 * messages hold, so the error stands on the format argument and says why.
 */
export type SenderFormat<F extends TranscriptFormat, M> = [SenderIssue<F, M>] extends [never] ? F : SenderIssue<F, M>;
