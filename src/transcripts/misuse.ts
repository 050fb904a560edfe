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
import type { LangChainInstanceForm, LangChainMessageInstance } from './langchain/instances.ts';
import type { TranscriptMessage } from './messages.ts';
import type { TranscriptField } from './unwrap.ts';

/**
 * The sentence for messages of type `M` checked as format `F` that hold another format's
 * structure (`'transcript.wrong_format: not openai-chat: messages of format anthropic (they
 * hold tool_use, tool_result): check and send them as their format'`); `never` when they
 * hold none (and for `any` and `never`). The markers are `core/markers.ts`'s, the ones the
 * run-time check reads.
 *
 * @example
 * ```ts
 * import type { WrongFormatMessage } from 'turngate/types';
 * type AnthropicTurn = { role: 'assistant'; content: { type: 'tool_use'; id: string; name: string; input: {} }[] };
 * const shown: WrongFormatMessage<'openai-chat', AnthropicTurn> =
 *   'transcript.wrong_format: not openai-chat: messages of format anthropic (they hold tool_use): check and send them as their format';
 * ```
 */
export type WrongFormatMessage<F extends TranscriptFormat, M> = [ForeignMarkers<F, M>] extends [never]
  ? never
  : MostTelling<ForeignMarkers<F, M>> extends infer X extends { readonly found: string; readonly owners: string }
    ? `transcript.wrong_format: not ${F}: messages of format ${IdList<X['owners']>} (they hold ${IdList<X['found']>}): check and send them as their format`
    : never;

/**
 * The sentence for messages of type `M` that are not format `F`'s, though they hold no other
 * format's marker; `TWhere` says what was given.
 *
 * @example
 * ```ts
 * import type { NotFormatMessage } from 'turngate/types';
 * const shown: NotFormatMessage<'chat', 'these are messages'> =
 *   "transcript.wrong_format: these are messages that are not format chat's: type them with TranscriptMessage<'chat'> or the SDK's chat message type";
 * ```
 */
export type NotFormatMessage<
  F extends TranscriptFormat,
  TWhere extends string,
> = `transcript.wrong_format: ${TWhere} that are not format ${F}'s: type them with TranscriptMessage<'${F}'> or the SDK's ${F} message type`;

/**
 * The problem with messages of type `M` for format `F`: the sentence naming it, or `never` when
 * `M` is a message type of `F` (or `any`, or `never`). `TWhere` says what was given, for
 * {@link NotFormatMessage}.
 *
 * @example
 * ```ts
 * import type { MessagesIssue } from 'turngate/types';
 * const shown: MessagesIssue<'chat', { role: 'user'; parts: { text: string }[] }> =
 *   'transcript.wrong_format: not chat: messages of format gemini (they hold parts): check and send them as their format';
 * ```
 */
export type MessagesIssue<F extends TranscriptFormat, M, TWhere extends string = 'these are messages'> = 0 extends 1 & M
  ? never
  : [M] extends [never]
    ? never
    : [WrongFormatMessage<F, M>] extends [never]
      ? [M] extends [TranscriptMessage<F>]
        ? never
        : NotFormatMessage<F, TWhere>
      : WrongFormatMessage<F, M>;

/** The list a transcript input `I` holds: `I` itself for an array, the format's field of a request body, else `never`. */
type InputList<F extends TranscriptFormat, I> = I extends readonly unknown[]
  ? I
  : I extends { readonly [K in TranscriptField<F>]: infer L }
    ? L
    : never;

/**
 * The objects of an SDK that format `F` reads through their serialized form, taken as input
 * (LangChain's message instances, `langchain/instances.ts`); `never` for the other formats. What
 * comes out is the serialized form (`InputMessage` gives the format's message type for them).
 */
type MessageInstance<F extends TranscriptFormat> = F extends 'langchain' ? LangChainMessageInstance : never;

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
            ? MessagesIssue<F, Exclude<M, MessageInstance<F>>>
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
 * import type { TranscriptArgument } from 'turngate/types';
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
 * import type { InputMessage } from 'turngate/types';
 * type M = InputMessage<'chat', { messages: { role: 'user'; content: string }[] }>; //=> { role: 'user'; content: string }
 * ```
 */
export type InputMessage<F extends TranscriptFormat, I> = 0 extends 1 & I
  ? TranscriptMessage<F>
  : InputList<F, I> extends readonly (infer M)[]
    ? M extends TranscriptMessage<F>
      ? M
      : M extends MessageInstance<F>
        ? Extract<LangChainInstanceForm, TranscriptMessage<F>>
        : TranscriptMessage<F>
    : TranscriptMessage<F>;

/**
 * What `checkTranscript`'s, `repairTranscript`'s and `convertTranscript`'s type parameter for the
 * input is constrained to: any value (the check is {@link TranscriptArgument}), written so an
 * array or object literal is typed in the context of format `F`'s messages (its `role` and `type`
 * literals stay literals).
 *
 * @example
 * ```ts
 * import type { AnyTranscriptInput } from 'turngate/types';
 * const messages: AnyTranscriptInput<'chat'> = [{ role: 'user', content: 'Hello' }];
 * const body: AnyTranscriptInput<'chat'> = { messages: [] };
 * ```
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
 *
 * @example
 * ```ts
 * import type { OptionMessage } from 'turngate/types';
 * const shown: OptionMessage<'dialect', 'openai-chat'> = 'transcript.invalid: dialect is an option of format openai-chat only';
 * ```
 */
export type OptionMessage<
  TOption extends string,
  TOwner extends string,
> = `transcript.invalid: ${TOption} is an option of format ${TOwner} only`;

/**
 * The sentence of an option a function does not take, written for the one it does: the type of
 * `format` in `convertTranscript`'s options (it takes `from` and `to`), so the error names the
 * option to write instead of "Type 'string' is not assignable to type 'never'".
 *
 * @example
 * ```ts
 * import type { MisnamedOptionMessage } from 'turngate/types';
 * const shown: MisnamedOptionMessage<'convertTranscript', 'format', 'from (the source format) and to'> =
 *   'transcript.invalid: convertTranscript takes from (the source format) and to, not format';
 * ```
 */
export type MisnamedOptionMessage<
  TFunction extends string,
  TOption extends string,
  TInstead extends string,
> = `transcript.invalid: ${TFunction} takes ${TInstead}, not ${TOption}`;

/**
 * The problem with a `send` whose messages are `M`, guarded as format `F`: the sentence naming
 * it ({@link MessagesIssue}), or `never` when `M` is a message type of `F` holding no other
 * format's structure, or `any`, `unknown` or `never`. (`send` is checked by what it takes, not
 * by assignability alone: a loose SDK type such as Gemini's `Content`, every field optional,
 * takes any message with a `role`, yet a Gemini call is no place for them.)
 *
 * @example
 * ```ts
 * import type { SenderIssue } from 'turngate/types';
 * const shown: SenderIssue<'chat', { role: 'user'; parts: { text: string }[] }> =
 *   'transcript.wrong_format: not chat: messages of format gemini (they hold parts): check and send them as their format';
 * ```
 */
export type SenderIssue<F extends TranscriptFormat, M> = unknown extends M
  ? never
  : MessagesIssue<F, M, 'send takes messages'>;

/**
 * What `guardSend` takes as its format: `F` itself when `send` takes format `F`'s messages
 * (see {@link SenderIssue}); otherwise the sentence naming the class, the format and what the
 * messages hold, so the error stands on the format argument and says why.
 *
 * @example
 * ```ts
 * import type { SenderFormat } from 'turngate/types';
 * const format: SenderFormat<'chat', { role: 'user'; content: string }> = 'chat';
 * ```
 */
export type SenderFormat<F extends TranscriptFormat, M> = [SenderIssue<F, M>] extends [never] ? F : SenderIssue<F, M>;
