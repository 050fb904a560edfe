/**
 * What a tool loop reads and writes of a provider: the reply as the loop reads it (and records
 * it), the answers it writes back, the codec an adapter supplies, and the loop's error. Internal,
 * except the types each adapter re-exports.
 *
 * @module
 */
import type { JsonValue } from '../../canonical/index.ts';
import type { TranscriptFormat } from '../../check/index.ts';
import type { Failure } from '../../failures/index.ts';
import type { ToolDefinitions, ToolResult } from '../../typestate/index.ts';
import type { TranscriptFailure } from '../../transcripts/index.ts';

/**
 * A reply as the loop recorded it before its effects: what `answer` reads of an SDK reply, as
 * JSON data. `answer` takes one in place of the SDK's reply.
 *
 * @example
 * ```ts
 * import type { RecordedReply } from 'turngate/adapters';
 * const recorded: RecordedReply = { kind: 'turngate.recorded-reply', messages: [], stopReason: 'tool_use', id: 'msg_1', model: 'claude-sonnet-4-6' };
 * ```
 */
export type RecordedReply = {
  readonly kind: 'turngate.recorded-reply';
  /** The reply as history messages. */
  readonly messages: JsonValue[];
  /** The provider's stop reason (`null`: none). */
  readonly stopReason: string | null;
  /** The provider's id of the reply (`null`: none). */
  readonly id: string | null;
  /** The model (`null`: none). */
  readonly model: string | null;
  /** Whether call ids are positional (Gemini calls without an id). */
  readonly positionalIds?: boolean;
};

/**
 * Why a tool loop's `answer` threw:
 * - `reply_refused`: before any handler ran, the reply was judged: the history with it and a
 *   result for each call would not be a transcript the provider accepts, or its calls cannot be
 *   a turn. Nothing ran. Ask the model again, or stop.
 * - `turn_in_progress`: another process is recording this turn's reply; retry shortly.
 * - `history_refused`: after the effects, a result's content made the history one the provider
 *   refuses; the effects are recorded in the ledger (a retry of the same reply replays them).
 */
export type ToolLoopErrorCode = 'reply_refused' | 'turn_in_progress' | 'history_refused';

/**
 * Thrown by a tool loop's `answer` when it cannot give back messages the provider accepts: the
 * failures say why (the transcript check's, with `rule`, `at` and `fix`; or the turn's, with
 * `class` and `ids`), `code` when (see {@link ToolLoopErrorCode}).
 *
 * @example
 * ```ts
 * import { ToolLoopError } from 'turngate/adapters';
 * const error = new ToolLoopError('the history is not a transcript anthropic accepts', [], 'reply_refused');
 * error.code; //=> 'reply_refused'
 * ```
 */
export class ToolLoopError extends Error {
  override readonly name = 'ToolLoopError';
  /** Why: transcript failures (`rule`, `at`, `fix`) or turn failures (`class`, `ids`). */
  readonly failures: readonly (TranscriptFailure | Failure)[];
  /** When: before any handler ran (`reply_refused`, `turn_in_progress`) or after the effects (`history_refused`). */
  readonly code: ToolLoopErrorCode;

  constructor(message: string, failures: readonly (TranscriptFailure | Failure)[], code: ToolLoopErrorCode) {
    super(message);
    this.failures = failures;
    this.code = code;
  }
}

/** A model reply as the loop reads it. */
export interface ReadReply<TMessage> {
  /** The reply as history messages (the assistant message; Responses: the output items). */
  readonly messages: TMessage[];
  /** The provider's stop reason, as it sent it (`undefined` when it sent none). */
  readonly stopReason: string | undefined;
  /** The provider's id of the reply, made the turn's `callId`. */
  readonly id: string | undefined;
  /** The model that answered, made the turn's `modelRef`. */
  readonly model: string | undefined;
  /**
   * Whether some call ids are not the provider's but named by position (Gemini calls without an
   * id): then the same id names different calls in different replies, and an effect's key also
   * holds the reply (its id, or the turn's history).
   */
  readonly positionalIds?: boolean;
}

/** A tool call with its result, as the codec writes it back. */
export interface CallAnswer {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly result: ToolResult<ToolDefinitions>;
}

/** What an adapter supplies: its format, the reading of its reply, the writing of its results. */
export interface ProviderCodec<
  TReply,
  TMessage,
  TFormat extends Exclude<TranscriptFormat, 'chat'> = Exclude<TranscriptFormat, 'chat'>,
> {
  readonly format: TFormat;
  /** Reads the SDK's reply; throws TypeError for a value that is not one. */
  read(reply: TReply): ReadReply<TMessage>;
  /** The messages carrying the results, placed as the provider requires (after `reply.messages`). */
  answers(calls: readonly CallAnswer[], reply: ReadReply<TMessage>): TMessage[];
  /**
   * Whether the SDK itself puts an error result into its reply for a call it found invalid
   * (the AI SDK: an unknown tool, arguments that do not parse): such a result is the call's
   * answer (no second one), the call does not run, and the turn's mutations do not either. A
   * reply of another format that answers its own calls is refused.
   */
  readonly ownErrorResults?: boolean;
  /** What the transcript check reads: the messages, or a request body holding them (Responses under `store: false`). */
  checked?(messages: readonly TMessage[]): unknown;
}
