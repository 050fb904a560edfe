/**
 * What a format checker receives and returns. Internal.
 *
 * @module
 */
import type { TranscriptFormat } from '../../check/index.ts';
import type { OpenAIChatDialect } from './dialects.ts';
import type { JsonObject } from './input.ts';
import type { LocatedFailure, OpenToolCall, RuleFailure } from './report.ts';
import type { RuleId } from './rule-info.ts';

/** What the transcript is checked for: about to be sent, or just received from the model. */
export type Expectation = 'sendable' | 'received';

/** The input of a format checker. */
export interface CheckContext {
  /** `sendable` or `received`. */
  readonly expect: Expectation;
  /** The request body, when the input was one (its other fields inform some rules). */
  readonly body: JsonObject | undefined;
  /**
   * What the messages are: the history a user holds (`history`, the default), or the prompt an
   * SDK hands its model after converting that history (`prompt`: the AI SDK's
   * `LanguageModelV4Prompt`, from which the SDK removes approval requests and keeps the
   * approval responses of provider-executed calls).
   */
  readonly stage?: 'history' | 'prompt';
  /**
   * The model the transcript goes to (`options.model`, else the request body's `model`), for
   * rules that hold only for some models; `undefined` when neither names one (model-specific
   * rules then do not run).
   */
  readonly model?: string | undefined;
  /**
   * `openai-chat` only: the provider dialect (`deepseek`, `kimi`, `groq`, `xai`) whose own
   * rules run besides the format's (`TRANSCRIPT_RULES[rule].dialects`); `undefined` for none.
   */
  readonly dialect?: OpenAIChatDialect | undefined;
}

/** What the check runs with: the format, the context's fields, and (`chat`) the calls carried open. Internal. */
export interface CheckSettings {
  readonly format: TranscriptFormat;
  readonly expect: Expectation;
  readonly carried?: readonly unknown[];
  readonly stage?: CheckContext['stage'];
  /** The model named by the caller; the body's `model` is read when this is absent. */
  readonly model?: string | undefined;
  /** `openai-chat` only: the provider dialect. */
  readonly dialect?: OpenAIChatDialect | undefined;
  /**
   * Under `sendable`, whether the check copies and freezes the messages for its
   * `SendableTranscript` (default `true`). `false` for an internal caller that passes its input on
   * itself and never reads the report's `transcript` (then `undefined`): the AI SDK middleware.
   */
  readonly snapshot?: boolean;
}

/** The outcome of a format checker over input it could read (`R`: the format's rule ids). */
export interface CheckOutcome<R extends RuleId = RuleId> {
  readonly failures: RuleFailure<R>[];
  readonly openToolCalls: OpenToolCall[];
  /** The failures with their message and slot, in the order found (for repair). */
  readonly located: readonly LocatedFailure<R>[];
  /** What the format's reader collected, for its repair (each format's own shape); absent when the repair needs none. */
  readonly analysis?: unknown;
}
