/**
 * The types of `cutPoints` and `trimTranscript` (`trim.ts`): their options, the trimmed
 * transcript with its records of what went, and the refusal.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import type { Result } from '../failures/index.ts';
import type { TurnMisuse } from '../typestate/index.ts';
import type { OpenAIChatDialect } from './core/dialects.ts';
import type { TranscriptRepair } from './core/repair.ts';
import type { TranscriptInputError } from './core/report.ts';
import type { TranscriptFailure } from './rules.ts';
import type { TranscriptMessage } from './messages.ts';
import type { OptionMessage } from './misuse.ts';
import type { SendableTranscript } from './sendable.ts';

/**
 * Options of `cutPoints`.
 *
 * @example
 * ```ts
 * import type { CutPointsOptions } from 'turngate/transcripts';
 * const options: CutPointsOptions<'openai-chat'> = { format: 'openai-chat', dialect: 'groq' };
 * ```
 */
export interface CutPointsOptions<F extends TranscriptFormat> {
  /** The wire format. */
  readonly format: F;
  /** As `checkTranscript`: the model, for model-specific rules (default: the body's `model`). */
  readonly model?: string;
  /** As `checkTranscript`: `openai-chat` only, the provider dialect whose own rules run too. */
  readonly dialect?: F extends 'openai-chat' ? OpenAIChatDialect : TurnMisuse<OptionMessage<'dialect', 'openai-chat'>>;
}

/**
 * Options of `trimTranscript`.
 *
 * @example
 * ```ts
 * import type { TrimTranscriptOptions } from 'turngate/transcripts';
 * const options: TrimTranscriptOptions<'anthropic'> = { format: 'anthropic', keepLast: 20, summary: 'Earlier: the user asked for the weather in Oslo.' };
 * ```
 */
export interface TrimTranscriptOptions<F extends TranscriptFormat> extends CutPointsOptions<F> {
  /**
   * How many of the last messages to keep at least (a count of messages, items or contents;
   * the leading system messages, always kept, do not count). The cut is the nearest cut point
   * that keeps that many: the latest one at or before `length - keepLast`.
   */
  readonly keepLast: number;
  /**
   * A text that stands in place of the removed messages: a user message (the format's own, as
   * its conversion from `ChatMessage` writes it) right after the leading system messages. When
   * that breaks a rule of the format (two user messages in a row for Bedrock Converse), the
   * format's repair fixes it (it joins them) and the repairs are in `summary.repairs`.
   * Only when the cut removes something. Default: none; nothing stands in place of the removed
   * messages.
   */
  readonly summary?: string;
}

/**
 * A message the cut removed: its index in the input and the message itself.
 *
 * @example
 * ```ts
 * import type { RemovedMessage } from 'turngate/transcripts';
 * const removed: RemovedMessage<{ role: 'user'; content: string }> = { index: 1, message: { role: 'user', content: 'Hi' } };
 * ```
 */
export interface RemovedMessage<M> {
  /** Its index in the input (`messages[index]`, `input[index]`, `contents[index]`). */
  readonly index: number;
  /** The message (item, content) as it was. */
  readonly message: M;
}

/**
 * A tool call the cut removed (with its result, which the cut removed too).
 *
 * @example
 * ```ts
 * import type { RemovedToolCall } from 'turngate/transcripts';
 * const call: RemovedToolCall = { id: 'toolu_01', name: 'get_weather', messageIndex: 2, answered: true };
 * ```
 */
export interface RemovedToolCall {
  /** The tool call id. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** The index of the message (item, content) that made the call, in the input. */
  readonly messageIndex: number;
  /** Whether its result was in the history (and was removed with it). */
  readonly answered: boolean;
}

/**
 * A trimmed history: what the check accepts, where it was cut and what went.
 */
export interface TrimmedTranscript<F extends TranscriptFormat, M extends TranscriptMessage<F> = TranscriptMessage<F>> {
  /** The trimmed history: the leading system messages, the summary (when given), then the messages from `cut` on (the input's own objects). */
  readonly messages: readonly M[];
  /** The index in the input of the first message kept after the leading system messages (`removed` holds those before it). */
  readonly cut: number;
  /** How many leading system messages were kept before the cut. */
  readonly kept: number;
  /** The messages removed, in input order; empty when nothing needed cutting. */
  readonly removed: readonly RemovedMessage<M>[];
  /** The client tool calls of the removed messages, with whether their results were removed with them. */
  readonly removedToolCalls: readonly RemovedToolCall[];
  /** Where the summary stands in `messages`, and the repairs that made it fit (empty when it fit as it was); `undefined` without a summary or with nothing removed. */
  readonly summary: { readonly index: number; readonly repairs: readonly TranscriptRepair[] } | undefined;
  /** The trimmed history, checked: what a guarded provider call takes. */
  readonly transcript: SendableTranscript<F, M>;
}

/**
 * Why `trimTranscript` cut nothing: `invalid` (the input is no transcript of the format: `error`),
 * `no_cut_point` (no cut point keeps `keepLast` messages and the whole history does not pass:
 * `failures` are the whole history's), `summary_refused` (the summary message breaks a rule the
 * format's repair cannot fix: `failures` are the summarized history's).
 *
 * @example
 * ```ts
 * import type { TrimRefusal } from 'turngate/transcripts';
 * const refusal: TrimRefusal = { reason: 'no_cut_point', detail: 'no cut point keeps the last 3 messages', failures: [] };
 * ```
 */
export interface TrimRefusal<F extends TranscriptFormat = TranscriptFormat> {
  readonly reason: 'invalid' | 'no_cut_point' | 'summary_refused';
  /** One sentence: what stopped the cut. */
  readonly detail: string;
  /** The failures of the history the cut would have given (empty for `invalid`). */
  readonly failures: readonly TranscriptFailure<F>[];
  /** For `invalid`: the input error (the field and what was expected). */
  readonly error?: TranscriptInputError;
}

/**
 * The `Result` of `trimTranscript`: the {@link TrimmedTranscript} as `value`, or `failures`
 * holding the one {@link TrimRefusal}.
 */
export type TrimResult<F extends TranscriptFormat, M extends TranscriptMessage<F> = TranscriptMessage<F>> = Result<
  TrimmedTranscript<F, M>,
  TrimRefusal<F>
>;
