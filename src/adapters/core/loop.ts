/**
 * The tool loop every adapter shares: a provider reply -> the turn's typed requests -> read
 * tools through `settle`, `useAll`, `closeJoin`, mutating tools only through the gate
 * (`settleMutations`) -> the provider's messages to append, checked with `checkTranscript`.
 * Each adapter gives the reading of its SDK's reply and the writing of its tool results (a
 * {@link ProviderCodec}). Internal, except the types each adapter re-exports.
 *
 * @module
 */
import { digest, type JsonValue } from '../../canonical/index.ts';
import { mutationStopVerdict, type TranscriptFormat, type UnsafeStopKind } from '../../check/index.ts';
import type { Failure } from '../../failures/index.ts';
import {
  callSpec,
  closeJoin,
  effectKey,
  requestTools,
  recordMutations,
  MemoryEffectLedger,
  type AdmitOptions,
  type EffectLedger,
  type EffectRecord,
  type JoinClosed,
  type MutationPolicy,
  type MutationRecord,
  type MutationToolName,
  type MutationWitness,
  type ParsedToolInput,
  type ProviderStopReason,
  type ReadToolName,
  type ToolDefinitions,
  type ToolDefinitionsOf,
  type ToolOutput,
  type ToolRegistry,
  type ToolResult,
} from '../../typestate/index.ts';
import { settle, useAll, settleMutations, type ToolCallInfo } from '../../builder/index.ts';
import { checkTranscriptJson, toEvidence, type TranscriptFailure } from '../../transcripts/index.ts';
import { isPendingMutation, ownError, readClaim, registryDefinitions } from '../../typestate/internal.ts';
import type { DeclarationOptions } from './declarations.ts';
import { own } from '../../internal/own-field.ts';

/**
 * What every handler of a tool loop gets as its last argument: the step's `signal` (the
 * `AbortSignal` given to `answer`, or one that never aborts). A handler that honours it stops
 * early; the loop answers every call truthfully either way (see {@link ToolLoop.answer}).
 *
 * @example
 * ```ts
 * import type { StepContext } from 'turngate/adapters/anthropic';
 * const fetchWeather = async (city: string, { signal }: StepContext) => (await fetch(`https://example.com/${city}`, { signal })).text();
 * ```
 */
export interface StepContext {
  /** Aborted when the step is: stop, and throw (the loop answers the call). */
  readonly signal: AbortSignal;
}

/**
 * One handler per tool of the registry, typed by the tool: a read tool's handler takes the
 * parsed input and what the call is (as `ToolHandlers`, run by `settle`); a `mutation: true`
 * tool's handler takes the bound input and the witness it runs under (as `MutationHandlers`,
 * run only through the mutation gate). Both get the step's {@link StepContext} last. A missing
 * handler, a wrong input type or a wrong output shape is a `tsc` error.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { LoopHandlers } from 'turngate/adapters/anthropic';
 * class Tools extends defineTools({
 *   get_weather: { input: v.object({ city: v.string() }), output: v.object({ sky: v.string() }) },
 *   send_email: { input: v.object({ to: v.string() }), output: v.object({ sent: v.boolean() }), mutation: true },
 * }) {}
 * const handlers: LoopHandlers<Tools> = {
 *   get_weather: async ({ city }) => ({ sky: `snow in ${city}` }),
 *   send_email: async ({ to }) => ({ sent: to.includes('@') }),
 * };
 * ```
 */
export type LoopHandlers<TTools extends ToolDefinitionsOf<TTools>> = {
  readonly [TName in ReadToolName<TTools>]: (
    input: ParsedToolInput<TTools, TName>,
    call: ToolCallInfo,
    step: StepContext,
  ) => ToolOutput<TTools, TName> | Promise<ToolOutput<TTools, TName>>;
} & {
  readonly [TName in MutationToolName<TTools>]: (
    input: ParsedToolInput<TTools, TName>,
    witness: MutationWitness,
    step: StepContext,
  ) => ToolOutput<TTools, TName> | Promise<ToolOutput<TTools, TName>>;
};

/**
 * What a failed read tool does to the turn's mutating calls:
 * - `block_mutations` (the default): a read whose handler threw, or that was refused (unknown
 *   tool, invalid input), keeps every mutating call of the turn from running; each is answered
 *   `mutation_not_admitted` naming the failed read (`mutation.read_failed`).
 * - `refused_calls_only`: the builder's narrower rule: only calls refused before they ran
 *   (unknown tool, invalid input) block the mutations; a read whose handler threw is one result
 *   among others and the mutations run.
 *
 * @example
 * ```ts
 * import type { ReadFailurePolicy } from 'turngate/adapters/anthropic';
 * const policy: ReadFailurePolicy = 'block_mutations';
 * ```
 */
export type ReadFailurePolicy = 'block_mutations' | 'refused_calls_only';

/** The options of every tool loop, but the ledger and the session (see {@link ToolLoopOptions}). */
interface LoopSettings<TTools extends ToolDefinitionsOf<TTools>> extends DeclarationOptions {
  /** The registry (`defineTools`): one definition gives the declarations and the checks. */
  readonly tools: ToolRegistry<TTools>;
  /** One handler per tool (see {@link LoopHandlers}). */
  readonly handlers: LoopHandlers<TTools>;
  /** The active mutation policy and capability claims for the gate (default: the default profile's). */
  readonly policy?: MutationPolicy;
  /**
   * The idempotency key of an intent (default `effectKey`: call id, tool, input digest). The loop
   * scopes every key by `sessionId`, so two sessions never share an effect.
   */
  readonly idempotencyKey?: AdmitOptions['idempotencyKey'];
  /** What a failed read does to the turn's mutations (default `block_mutations`; see {@link ReadFailurePolicy}). */
  readonly readFailures?: ReadFailurePolicy;
  /**
   * Provider stop reasons, as the provider sends them, under which the mutating calls of a reply
   * may run besides the tool-use ones (`tool_use`, `tool_calls`, `function_call`, `tool-calls`,
   * Gemini `STOP` with calls); `null` stands for a reply that sent none. By default a reply cut
   * off (`max_tokens`, `length`, `MAX_TOKENS`, `incomplete`), filtered, failed, or final while it
   * holds calls (`end_turn`, `stop`) runs no mutation: each is answered "not run" with
   * `mutation.stop_reason_unsafe`. E.g. `['stop']` for an OpenAI-compatible server that ends tool
   * calls with `stop`. Refusals keep blocking whatever this says (the join check refuses them).
   */
  readonly mutationStopReasons?: readonly (string | null)[];
}

/**
 * What a tool loop is made of: the registry, one handler per tool, the gate's policy, and where
 * effects are recorded. A `ledger` shared beyond this loop (a store's, another loop's) needs the
 * `sessionId` its turns belong to: every effect key and every recorded reply is scoped by it, so
 * one session is never answered with another's result.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolLoopOptions } from 'turngate/adapters/openai-chat';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const options: ToolLoopOptions<Tools> = { tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } };
 * ```
 */
export type ToolLoopOptions<TTools extends ToolDefinitionsOf<TTools>> = LoopSettings<TTools> &
  (
    | {
        /**
         * Where each mutating call's effect is claimed before it runs and recorded after, and each
         * reply with a mutating call is recorded before any effect: default one
         * `MemoryEffectLedger` per loop (this process only).
         */
        readonly ledger?: undefined;
        /** The session the turns belong to (their CallSpec's `sessionId`, and the scope of every key). */
        readonly sessionId?: string;
      }
    | {
        /**
         * Where each mutating call's effect is claimed before it runs and recorded after, so that
         * a replayed reply never runs it twice, and where each reply with a mutating call is
         * recorded before any effect, so that a loop restarted after a crash answers the recorded
         * reply (see {@link ToolLoop.answer}). A store's ledger (`turngate/chat/sqlite`,
         * `turngate/chat/postgres`) keeps them across restarts.
         */
        readonly ledger: EffectLedger;
        /** The session the turns belong to: required with a ledger, it scopes every key in it. */
        readonly sessionId: string;
      }
  );

/**
 * One step of the loop: the messages to append to the history, whether the model has answered
 * (`done`: its reply held no client tool call), and what the turn did.
 *
 * @example
 * ```ts
 * import type { LoopStep } from 'turngate/adapters/anthropic';
 * import type { ToolDefinitions } from 'turngate';
 * declare const step: LoopStep<ToolDefinitions, unknown>;
 * step.mutations.map((m) => `${m.intent.kind === 'tool_call' ? m.intent.toolName : ''} ${m.outcome}`);
 * ```
 */
export interface LoopStep<TTools extends ToolDefinitionsOf<TTools>, TMessage> {
  /** `true` once the model's reply holds no client tool call (nothing left to answer). */
  readonly done: boolean;
  /**
   * The provider-format messages to append, in order: the model's reply, then the tool results
   * placed as the provider requires. `checkTranscript` accepted the history followed by them.
   */
  readonly messages: TMessage[];
  /** The closed turn (after the gate re-closed it), or `undefined` when the reply had no call or the turn did not close. */
  readonly closed: JoinClosed<TTools> | undefined;
  /** One result per tool call, in call order: what the messages carry back. */
  readonly results: readonly ToolResult<TTools>[];
  /**
   * What the mutation gate did with each mutating call: `performed`, `failed`, `replayed` (the
   * ledger already held its effect: not run again), `not_admitted`, `not_performed` (the step
   * was aborted before it started).
   */
  readonly mutations: readonly MutationRecord[];
  /**
   * Why no mutation ran: the turn did not close (e.g. `protocol.stop_reason_unhandled` for a
   * reply that stopped for `refusal`), or the loop kept them from running
   * (`mutation.stop_reason_unsafe`, `mutation.read_failed`, `mutation.aborted`, or the class of
   * a call the SDK itself answered as invalid). Each mutating call is then answered as not run.
   */
  readonly failures: readonly Failure[];
  /**
   * `true` when the step answers the reply recorded for this turn earlier (by this loop, or one
   * before a restart sharing its ledger and session), not the reply given: the turn's calls were
   * recorded before any effect, and a regenerated reply for the same turn is not answered again.
   */
  readonly resumed: boolean;
}

/**
 * Options of one {@link ToolLoop.answer}.
 *
 * @example
 * ```ts
 * import type { AnswerOptions } from 'turngate/adapters/anthropic';
 * const options: AnswerOptions = { signal: AbortSignal.timeout(60_000) };
 * ```
 */
export interface AnswerOptions {
  /**
   * Aborts the step: a call not started yet is not run (a read is answered `aborted`, it can be
   * retried; a mutation is not claimed and is answered `aborted` too), a handler that is running
   * gets the signal (its `StepContext`), and a mutation that had started and then throws under
   * the aborted signal is answered and recorded `effect_outcome_unknown` ("check before
   * retrying"). The step still answers every call, so the history stays one the check accepts.
   */
  readonly signal?: AbortSignal;
}

/**
 * The loop over one provider: its tool declarations, and `answer`, which turns the model's
 * reply into the messages to append.
 *
 * @example
 * ```ts
 * import type Anthropic from '@anthropic-ai/sdk';
 * import type { ToolDefinitions } from 'turngate';
 * import type { ToolLoop } from 'turngate/adapters/anthropic';
 * declare const loop: ToolLoop<ToolDefinitions, Anthropic.Message, Anthropic.MessageParam, Anthropic.Tool[]>;
 * loop.tools.map((tool) => tool.name);
 * ```
 */
export interface ToolLoop<TTools extends ToolDefinitionsOf<TTools>, TReply, TMessage, TDeclarations> {
  /** The tool declarations to send with each model call, in the SDK's own shape. */
  readonly tools: TDeclarations;
  /** The step before the first model call: not done, nothing to append. */
  start(): LoopStep<TTools, TMessage>;
  /**
   * Answers the model's reply, in this order: reads its client tool calls (input parsed and
   * validated; a call that fails becomes its own error result, never an exception); judges the
   * whole reply before any handler runs (`history`, the reply and a result for every call must be
   * a transcript the provider accepts: the format's rules, ids unique across the history, limits
   * such as 128 calls); records a reply with a mutating call in the ledger before any effect;
   * runs the read tools; closes the turn; admits the mutations (the gate, the stop reason, the
   * reads' outcome); runs the mutating tools through the gate only, each once per intent; and
   * gives back the messages to append (the reply, then every result).
   *
   * When the ledger already holds a reply for this turn (the same session and history) whose
   * calls differ from `reply`'s (the model was asked again after a crash, or regenerated), that
   * recorded reply is answered instead (`resumed: true`): its effects run once, not again under
   * new call ids. {@link ToolLoop.recorded} gives it before the model is called.
   *
   * @param history - The messages sent with the model call that produced `reply`.
   * @param reply - The SDK's reply, as its client returned it.
   * @param options - `signal`: aborts the step (see {@link AnswerOptions}).
   * @returns The step; `messages` go at the end of `history`.
   * @throws {@link ToolLoopError} before any handler runs: `reply_refused` when `history`, the
   *   reply and its results would not be a transcript the provider accepts (`failures` holds the
   *   check's failures, with `rule`, `at` and `fix`) or the reply's calls cannot be a turn (two
   *   calls with one id, a blank id); `turn_in_progress` when another process is recording this
   *   turn's reply. After the effects only `history_refused`, when a result's content makes the
   *   history one the provider refuses (the effects are recorded in the ledger: a retry replays them).
   * @throws TypeError when `reply` is not a reply of the SDK (no candidates, no choices, ...).
   */
  answer(history: readonly TMessage[], reply: TReply, options?: AnswerOptions): Promise<LoopStep<TTools, TMessage>>;
  /**
   * The reply recorded for the turn that `history` ends at, when a reply with a mutating call was
   * recorded for it (by this loop, or one before a restart sharing its ledger and session): give
   * it to `answer` instead of calling the model again. `undefined` when none was recorded.
   *
   * @param history - The messages the next model call would be sent.
   */
  recorded(history: readonly TMessage[]): Promise<RecordedReply | undefined>;
}

/**
 * A reply as the loop recorded it before its effects: what `answer` reads of an SDK reply, as
 * JSON data. `answer` takes one in place of the SDK's reply.
 *
 * @example
 * ```ts
 * import type { RecordedReply } from 'turngate/adapters/anthropic';
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
 * import { ToolLoopError } from 'turngate/adapters/anthropic';
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
export interface ProviderCodec<TReply, TMessage> {
  readonly format: Exclude<TranscriptFormat, 'chat'>;
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

const NO_STEP = { closed: undefined, results: [], mutations: [], failures: [], resumed: false } as const;

/** The `toolName` of a recorded reply in the effect ledger (never a tool's: tool names have no `:`). */
const REPLY_RECORD = 'turngate:reply';

/** The text an error result carries: `code: message`. */
export function errorText(result: {
  readonly error: { readonly errorCode: string; readonly errorMessage: string };
}): string {
  return `${result.error.errorCode}: ${result.error.errorMessage}`;
}

/** The text an ok result carries: a string output as it is, any other output as JSON. */
export function outputText(output: unknown): string {
  return typeof output === 'string' ? output : JSON.stringify(output ?? null);
}

type WideStep = Omit<LoopStep<ToolDefinitions, unknown>, 'messages' | 'done'>;

/** What one loop holds: its codec, options, ledger and the scope of its keys. */
interface LoopContext {
  readonly codec: ProviderCodec<unknown, unknown>;
  readonly options: ToolLoopOptions<ToolDefinitions>;
  readonly ledger: EffectLedger;
  /** The session every key is scoped by (`''` for a loop of its own ledger and no session). */
  readonly scope: string;
}

/** The canonical digest of a list of provider messages (JSON data: `undefined` fields dropped). */
function messagesDigest(messages: readonly unknown[]): string {
  return digest(JSON.parse(JSON.stringify(messages)) as JsonValue);
}

/** The ledger key of the reply recorded for the turn that `history` ends at, in `scope`. */
function turnKey(scope: string, history: readonly unknown[]): string {
  return digest({ kind: REPLY_RECORD, session: scope, history: messagesDigest(history) });
}

/** A read reply as JSON data, for the ledger. */
function recordOf(read: ReadReply<unknown>): RecordedReply {
  return {
    kind: 'turngate.recorded-reply',
    messages: JSON.parse(JSON.stringify(read.messages)) as JsonValue[],
    stopReason: read.stopReason ?? null,
    id: read.id ?? null,
    model: read.model ?? null,
    ...(read.positionalIds === true ? { positionalIds: true } : {}),
  };
}

/** Whether `value` is a recorded reply (`answer` takes one in place of the SDK's). */
function isRecordedReply(value: unknown): value is RecordedReply {
  return (
    value !== null &&
    typeof value === 'object' &&
    Object.hasOwn(value, 'kind') &&
    (value as { kind: unknown }).kind === 'turngate.recorded-reply' &&
    Array.isArray((value as { messages: unknown }).messages)
  );
}

/** The read reply a recorded one stands for. */
function revive(recorded: RecordedReply): ReadReply<unknown> {
  return {
    messages: [...recorded.messages],
    stopReason: recorded.stopReason ?? undefined,
    id: recorded.id ?? undefined,
    model: recorded.model ?? undefined,
    ...(recorded.positionalIds === true ? { positionalIds: true } : {}),
  };
}

/** A placeholder result for each call: where the results will go, to judge the reply before anything runs. */
function placeholder(call: { readonly toolCallId: string; readonly toolName: string }): CallAnswer {
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    result: {
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      status: 'error',
      error: ownError('mutation_pending', 'not answered yet'),
    },
  };
}

/** The check of `messages` as the provider would read them; failures, or `undefined` when accepted. */
function refusal(
  codec: ProviderCodec<unknown, unknown>,
  messages: readonly unknown[],
): TranscriptFailure[] | undefined {
  const report = checkTranscriptJson(codec.checked === undefined ? messages : codec.checked(messages), {
    format: codec.format,
  });
  if (report.result === 'accepted') return undefined;
  return report.result === 'rejected' ? [...report.failures] : [];
}

function refusalText(codec: ProviderCodec<unknown, unknown>, messages: readonly unknown[]): string {
  const report = checkTranscriptJson(codec.checked === undefined ? messages : codec.checked(messages), {
    format: codec.format,
  });
  if (report.result === 'rejected') return report.failures.map((f) => `${f.at} ${f.rule}`).join('; ');
  return report.result === 'invalid' ? report.error.message : '';
}

/** The truthful "not run" text of a mutation the loop kept from running, by why. */
function notRunText(kind: UnsafeStopKind, reason: string | undefined): string {
  const sent = reason === undefined ? 'no stop reason' : `stop reason ${JSON.stringify(reason)}`;
  switch (kind) {
    case 'cut_off':
      return `not run: the reply was cut off (${sent}), so the call may not be what the model meant; ask again`;
    case 'filtered':
      return `not run: the reply was filtered (${sent})`;
    case 'failed':
      return `not run: the provider reports the reply failed (${sent})`;
    case 'final':
      return `not run: the reply says it is final (${sent}) while it holds tool calls`;
    default:
      return `not run: the reply's ${sent} is not one under which mutations run`;
  }
}

/** A block of every mutating call of a turn: its failure and the text each call is answered with. */
interface Block {
  readonly failure: Failure;
  readonly text: string;
  readonly retryable: boolean;
}

/** Why the mutating calls of a closed turn may not run, if they may not. */
function mutationBlock(
  ctx: LoopContext,
  read: ReadReply<unknown>,
  results: readonly ToolResult<ToolDefinitions>[],
  sdkRefused: readonly { readonly toolCallId: string; readonly toolName: string }[],
  signal: AbortSignal | undefined,
): Block | undefined {
  const pending = results.filter((r) => isPendingMutation(r)).map((r) => r.toolCallId);
  if (pending.length === 0) return undefined;
  if (signal?.aborted === true) {
    return {
      failure: {
        class: 'mutation.aborted',
        detail: 'The step was aborted before the mutations started.',
        ids: pending,
      },
      text: 'not run: the step was aborted before it started; it can be retried',
      retryable: true,
    };
  }
  const verdict = mutationStopVerdict(ctx.codec.format, read.stopReason);
  const allowed = ctx.options.mutationStopReasons?.includes(read.stopReason ?? null) === true;
  if (!verdict.runs && !allowed) {
    const text = notRunText(verdict.kind, read.stopReason);
    return {
      failure: {
        class: 'mutation.stop_reason_unsafe',
        detail: `The reply's stop reason lets no mutation run: ${text}.`,
        ids: pending,
      },
      text,
      retryable: false,
    };
  }
  if (sdkRefused.length > 0) {
    const names = sdkRefused.map((c) => `${c.toolName} (${c.toolCallId})`).join(', ');
    return {
      failure: {
        class: 'tool.schema_invalid',
        detail: `The SDK answered ${names} as invalid, so the turn's mutations do not run.`,
        ids: pending,
      },
      text: `not run: the SDK refused another call of this turn as invalid (${names})`,
      retryable: false,
    };
  }
  if ((ctx.options.readFailures ?? 'block_mutations') === 'block_mutations') {
    const failed = results.filter((r) => r.status === 'error' && !isPendingMutation(r));
    if (failed.length > 0) {
      const names = failed.map((r) => `${r.toolName}: ${r.status === 'error' ? r.error.errorCode : ''}`).join(', ');
      return {
        failure: {
          class: 'mutation.read_failed',
          detail: `A read of this turn failed (${names}), so its mutations do not run.`,
          ids: pending,
        },
        text: `not run: a read of this turn failed (${names})`,
        retryable: false,
      };
    }
  }
  return undefined;
}

/** A pending mutation's result once the turn could not close, or the loop blocked it: the call did not run. */
function notRun(
  result: ToolResult<ToolDefinitions>,
  failures: readonly Failure[],
  block: Block | undefined,
  aborted: boolean,
): ToolResult<ToolDefinitions> {
  if (result.status !== 'error') return result;
  const code = result.error.errorCode;
  if (aborted && code === 'mutation_not_performed') {
    return {
      ...result,
      error: ownError('aborted', `not run: the step was aborted before ${result.toolName} started; it can be retried`),
    };
  }
  if (block !== undefined && code === 'mutation_not_admitted') {
    return {
      ...result,
      error: {
        errorCode: 'mutation_not_admitted',
        retryable: block.retryable,
        errorMessage: `${block.text}; ${result.toolName} did not run`,
      },
    };
  }
  if (!isPendingMutation(result)) return result;
  const classes = failures.map((f) => f.class).join(', ');
  return {
    ...result,
    error: ownError('mutation_not_admitted', `the turn did not close (${classes}); the mutation did not run`),
  };
}

/** The error a read handler is answered with when the step was aborted before it started. */
function abortedRead(toolName: string): { errorCode: string; retryable: boolean; message: string } {
  return {
    errorCode: 'aborted',
    retryable: true,
    message: `not run: the step was aborted before ${toolName} started; it can be retried`,
  };
}

/** The handlers the builder runs: each user handler given its step context, and the signal honoured. */
function stepHandlers(
  handlers: object,
  tools: ToolRegistry<ToolDefinitions>,
  signal: AbortSignal,
): Record<string, (input: unknown, second: unknown) => unknown> {
  const definitions = registryDefinitions(tools);
  const wrapped: Record<string, (input: unknown, second: unknown) => unknown> = {};
  const step: StepContext = { signal };
  for (const name of Object.keys(definitions)) {
    let handler: unknown;
    try {
      handler = Object.hasOwn(handlers, name) ? (handlers as Record<string, unknown>)[name] : undefined;
    } catch {
      handler = undefined;
    }
    if (typeof handler !== 'function') continue;
    const run = handler as (input: unknown, second: unknown, step: StepContext) => unknown;
    wrapped[name] =
      definitions[name]?.mutation === true
        ? async (input, witness) => {
            try {
              return await run(input, witness, step);
            } catch (error) {
              if (!signal.aborted) throw error;
              // Started, then aborted: whether the effect happened is unknown (recorded as such).
              throw {
                errorCode: 'effect_outcome_unknown',
                retryable: false,
                message: `${name} was aborted after it started: its outcome is unknown; check before retrying`,
              };
            }
          }
        : async (input, call) => {
            if (signal.aborted) throw abortedRead(name);
            return run(input, call, step);
          };
  }
  return wrapped;
}

/** The reply's calls, its evidence and the calls the SDK answered itself; throws a refusal before anything runs. */
function prepare(ctx: LoopContext, history: readonly unknown[], read: ReadReply<unknown>, turn: number) {
  const { codec, options } = ctx;
  const { format } = codec;
  const spec = callSpec({
    callId: read.id ?? `turn-${turn}`,
    modelRef: read.model ?? 'unknown',
    actionMode: 'code',
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
  });
  if (!spec.ok) {
    throw new ToolLoopError(
      `${format}: the reply's id or model cannot make a CallSpec`,
      spec.failures,
      'reply_refused',
    );
  }
  // biome-ignore lint/plugin: the codec's messages are its SDK's own, which the format's transcript schemas accept (type-tested in the transcripts layer)
  const evidence = toEvidence(read.messages as never, { format, callSpec: spec.value.spec });
  if (!evidence.ok) {
    const why = `${format}: the reply's calls cannot be read: ${evidence.failures[0]?.message}`;
    throw new ToolLoopError(
      `${why}; nothing ran`,
      [{ class: 'tool.schema_invalid', detail: `${why}.` }],
      'reply_refused',
    );
  }
  // Results inside the reply: the SDK's own error results for invalid calls (AI SDK) are the
  // answer of their calls; any other is the reply answering itself, which the check refuses.
  const selfAnswered = new Set(
    codec.ownErrorResults === true
      ? evidence.value.results.filter((r) => r.status === 'error').map((r) => r.toolCallId)
      : [],
  );
  const calls = evidence.value.requests.filter((c) => !selfAnswered.has(c.toolCallId));
  const sdkRefused = evidence.value.requests.filter((c) => selfAnswered.has(c.toolCallId));
  // Judge the whole reply before any handler: the history, the reply and a result for every call.
  const judged = [
    ...history,
    ...read.messages,
    ...(calls.length === 0 ? [] : codec.answers(calls.map(placeholder), read)),
  ];
  const failures = refusal(codec, judged);
  if (failures !== undefined) {
    throw new ToolLoopError(
      `${format}: the reply was refused before any tool ran: the history with it is not a transcript the provider accepts: ${refusalText(codec, judged)}`,
      failures,
      'reply_refused',
    );
  }
  return { spec: spec.value, calls, sdkRefused, allCalls: evidence.value.requests.length };
}

/** Whether a call names a `mutation: true` tool of the registry. */
function mutates(tools: ToolRegistry<ToolDefinitions>, toolName: string): boolean {
  const definitions = registryDefinitions(tools);
  return Object.hasOwn(definitions, toolName) && definitions[toolName]?.mutation === true;
}

/**
 * Records `read` as the reply of the turn `history` ends at, before any effect; or finds the
 * reply recorded for it earlier. Returns the reply to answer and whether it is the recorded one.
 */
async function writeAhead(
  ctx: LoopContext,
  history: readonly unknown[],
  read: ReadReply<unknown>,
): Promise<{ readonly read: ReadReply<unknown>; readonly resumed: boolean }> {
  const key = turnKey(ctx.scope, history);
  const record = recordOf(read);
  const inputDigest = digest(record);
  const begun = readClaim(
    await ctx.ledger.begin({
      key,
      toolCallId: read.id ?? '',
      toolName: REPLY_RECORD,
      inputDigest,
      joinSetDigest: inputDigest,
    }),
  );
  if (begun?.claimed === true) {
    await ctx.ledger.finish(key, { state: 'completed', output: record });
    return { read, resumed: false };
  }
  const existing: EffectRecord | undefined = begun?.record;
  if (existing?.toolName !== REPLY_RECORD) {
    const detail = `the effect ledger answered the record of this turn's reply with ${existing === undefined ? 'neither a claim nor a record' : `a record of ${JSON.stringify(existing.toolName)}`}: nothing ran`;
    throw new ToolLoopError(
      `${ctx.codec.format}: ${detail}`,
      [{ class: 'effect.record_mismatch', detail: `${detail[0]?.toUpperCase()}${detail.slice(1)}.` }],
      'reply_refused',
    );
  }
  if (existing.inputDigest === inputDigest) return { read, resumed: false };
  if (existing.state === 'completed' && isRecordedReply(existing.output)) {
    return { read: revive(existing.output), resumed: true };
  }
  if (existing.state === 'started') {
    throw new ToolLoopError(
      `${ctx.codec.format}: another process is recording this turn's reply; nothing ran, retry shortly`,
      [],
      'turn_in_progress',
    );
  }
  // Its recording never finished (the process ended before any effect): answer this reply.
  return { read, resumed: false };
}

/** The admission options of one reply: the loop's ledger, and keys scoped by the session (and the reply, for positional ids). */
function admission(ctx: LoopContext, read: ReadReply<unknown>, history: readonly unknown[]): AdmitOptions {
  const user = ctx.options.idempotencyKey;
  // Positional ids (`send_email#1`) are the same in every reply: the key also holds the reply.
  const reply = read.positionalIds === true ? (read.id ?? `history:${messagesDigest(history)}`) : undefined;
  return {
    ledger: ctx.ledger,
    idempotencyKey: (intent) =>
      digest({
        session: ctx.scope,
        ...(reply === undefined ? {} : { reply }),
        effect:
          user === undefined
            ? effectKey(intent, intent.kind === 'tool_call' ? intent.toolName : intent.mutationInputRef)
            : user(intent),
      }),
  };
}

/** Answers one reply (the registry and handlers taken as the widest types). */
async function answerTurn(
  ctx: LoopContext,
  history: readonly unknown[],
  reply: unknown,
  turn: number,
  options: AnswerOptions,
): Promise<LoopStep<ToolDefinitions, unknown>> {
  const { codec } = ctx;
  const { format } = codec;
  const signal = own(options, 'signal');
  let read = isRecordedReply(reply) ? revive(reply) : codec.read(reply);
  let prepared = prepare(ctx, history, read, turn);
  let resumed = false;
  const finish = (messages: unknown[], step: WideStep, done: boolean) => {
    const failures = refusal(codec, [...history, ...messages]);
    if (failures !== undefined) {
      throw new ToolLoopError(
        `${format}: a result made the history one the provider refuses (the effects are recorded): ${refusalText(codec, [...history, ...messages])}`,
        failures,
        'history_refused',
      );
    }
    return { done, messages, ...step };
  };
  if (prepared.allCalls === 0) return finish(read.messages, NO_STEP, read.stopReason !== 'pause_turn');
  if (prepared.calls.some((call) => mutates(ctx.options.tools, call.toolName))) {
    const ahead = await writeAhead(ctx, history, read);
    if (ahead.resumed) {
      read = ahead.read;
      prepared = prepare(ctx, history, read, turn);
      resumed = true;
    }
  }
  const { spec, calls, sdkRefused } = prepared;
  const step0 = { ...NO_STEP, resumed };
  if (calls.length === 0) {
    // Every call was answered by the SDK itself: the reply is the step.
    return finish(read.messages, step0, false);
  }
  const requests = requestTools(spec, ctx.options.tools, calls);
  if (!requests.ok) {
    throw new ToolLoopError(`${format}: the reply's tool calls cannot be answered`, requests.failures, 'reply_refused');
  }
  const live = signal ?? new AbortController().signal;
  const handlers = stepHandlers(ctx.options.handlers, ctx.options.tools, live);
  // biome-ignore lint/plugin: the wrapped handlers are the registry's own, one per tool by name (stepHandlers); settle checks every output against its schema
  const settled = await settle(requests.value, handlers as never);
  if (!settled.ok)
    throw new ToolLoopError(`${format}: the tool results were refused`, settled.failures, 'reply_refused');
  const used = useAll(settled.value, () => 'observed');
  if (!used.ok) throw new ToolLoopError(`${format}: the tool use was refused`, used.failures, 'reply_refused');
  const protocolState =
    read.stopReason === undefined
      ? undefined
      : // biome-ignore lint/plugin: the provider's stop reason as it sent it; one the table does not know maps to `unknown`, which the join check refuses
        ({ format, stopReason: read.stopReason } as never as ProviderStopReason);
  const closed = closeJoin(used.value, protocolState === undefined ? {} : { protocolState });
  let step: WideStep;
  let block: Block | undefined;
  if (closed.ok) {
    block = mutationBlock(ctx, read, closed.value.results, sdkRefused, signal);
    if (block !== undefined) {
      const refused = recordMutations(closed.value, { refused: [block.failure] });
      step = refused.ok
        ? {
            ...step0,
            closed: refused.value,
            results: refused.value.results,
            mutations: refused.value.mutations,
            failures: [block.failure],
          }
        : { ...step0, results: closed.value.results, failures: refused.failures };
    } else {
      // biome-ignore lint/plugin: the wrapped handlers are the registry's own, one per tool by name (stepHandlers); the gate checks every output against its schema
      const final = await settleMutations(closed.value, handlers as never, ctx.options.policy, {
        ...admission(ctx, read, history),
        ...(signal === undefined ? {} : { signal }),
      });
      step = final.ok
        ? {
            ...step0,
            closed: final.value,
            results: final.value.results,
            mutations: final.value.mutations,
            failures: [],
          }
        : { ...step0, results: closed.value.results, failures: final.failures };
    }
  } else step = { ...step0, results: settled.value.results, failures: closed.failures };
  const aborted = signal?.aborted === true;
  const results = step.results.map((result) => notRun(result, step.failures, block, aborted));
  const answers = codec.answers(
    results.map((result) => ({ toolCallId: result.toolCallId, toolName: result.toolName, result })),
    read,
  );
  return finish([...read.messages, ...answers], { ...step, results }, false);
}

/** The loop's settings, each from the caller's own field (the ledger and session are read apart). */
function ownSettings(given: ToolLoopOptions<ToolDefinitions>): LoopSettings<ToolDefinitions> {
  const settings: Record<string, unknown> = { tools: own(given, 'tools'), handlers: own(given, 'handlers') };
  for (const key of ['policy', 'idempotencyKey', 'readFailures', 'mutationStopReasons'] as const) {
    const value = own(given, key);
    if (value !== undefined) settings[key] = value;
  }
  // biome-ignore lint/plugin: the same fields the caller typed as LoopSettings, read one by one from its own properties
  return settings as unknown as LoopSettings<ToolDefinitions>;
}

/**
 * Makes the loop for one provider. Internal: each adapter's `toolLoop` calls it with its codec
 * and its declarations.
 *
 * @throws TypeError when `options.ledger` is given without `options.sessionId` (every key in a
 *   shared ledger is scoped by the session).
 */
export function createToolLoop<TTools extends ToolDefinitionsOf<TTools>, TReply, TMessage, TDeclarations>(
  codec: ProviderCodec<TReply, TMessage>,
  declarations: TDeclarations,
  options: ToolLoopOptions<TTools>,
): ToolLoop<TTools, TReply, TMessage, TDeclarations> {
  // Every option is read from the caller's own fields: a polluted Object.prototype (a `ledger`, a
  // `policy`, a `sessionId` planted there) never becomes the loop's.
  // biome-ignore lint/plugin: the loop runs on the registry's own definitions and handlers, typed for the caller by TTools
  const given = options as never as ToolLoopOptions<ToolDefinitions>;
  const ledger = own(given, 'ledger');
  const sessionId = own(given, 'sessionId');
  if (ledger !== undefined && (typeof sessionId !== 'string' || sessionId.trim() === '')) {
    throw new TypeError(
      `${codec.format} toolLoop: options.sessionId: expected the session the turns belong to (a non-blank string) with options.ledger, got ${JSON.stringify(sessionId)}: every effect key in a shared ledger is scoped by it`,
    );
  }
  const settings = ownSettings(given);
  const ctx: LoopContext = {
    // biome-ignore lint/plugin: the loop runs on the codec's own messages; the typed signature is what the caller sees
    codec: codec as never as ProviderCodec<unknown, unknown>,
    options: { ...settings, ...(sessionId === undefined ? {} : { sessionId }) },
    ledger: ledger ?? new MemoryEffectLedger(),
    scope: sessionId ?? '',
  };
  let turns = 0;
  return {
    tools: declarations,
    start: () => ({ done: false, messages: [], ...NO_STEP }),
    answer(history, reply, answerOptions = {}) {
      turns++;
      const signal = own(answerOptions, 'signal');
      // biome-ignore lint/plugin: the loop runs on the registry's own definitions and handlers; the typed signature is what the caller sees
      return answerTurn(ctx, history, reply, turns, signal === undefined ? {} : { signal }) as never as Promise<
        LoopStep<TTools, TMessage>
      >;
    },
    async recorded(history) {
      const record = await ctx.ledger.read(turnKey(ctx.scope, history));
      return record?.state === 'completed' && record.toolName === REPLY_RECORD && isRecordedReply(record.output)
        ? record.output
        : undefined;
    },
  };
}
