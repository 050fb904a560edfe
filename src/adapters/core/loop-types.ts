/**
 * The types of the tool loop every adapter shares: the options, the step, the loop, its error,
 * and what an adapter supplies (a {@link ProviderCodec}). Each adapter re-exports the public ones.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Failure } from '../../failures/index.ts';
import type {
  AdmitOptions,
  ApprovalPolicy,
  ApprovalRecord,
  EffectLedger,
  JoinClosed,
  MutationPolicy,
  MutationRecord,
  MutationToolName,
  MutationWitness,
  ParsedToolInput,
  ReadToolName,
  ToolDefinitions,
  ToolDefinition,
  ToolDefinitionsOf,
  ToolOutput,
  ToolRegistry,
  ToolResult,
} from '../../typestate/index.ts';
import type { ToolCallInfo } from '../../builder/index.ts';
import type { IdList, ToolName, TurnMisuse } from '../../typestate/index.ts';
import type { JsonValue } from '../../canonical/index.ts';
import type { SendableTranscript, TranscriptFormat, TranscriptReport } from '../../transcripts/index.ts';
import type { DeclarationOptions } from './declarations.ts';
import type { ProviderCodec, RecordedReply } from './codec.ts';

/**
 * What every handler of a tool loop gets as its last argument: the step's `signal` (the
 * `AbortSignal` given to `answer`, or one that never aborts). A handler that honours it stops
 * early; the loop answers every call truthfully either way (see {@link ToolLoop.answer}).
 *
 * @example
 * ```ts
 * import type { StepContext } from 'turngate/adapters';
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
 * import type { LoopHandlers } from 'turngate/adapters';
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
  ) => HandlerReturn<ToolOutput<TTools, TName>>;
} & {
  readonly [TName in MutationToolName<TTools>]: (
    input: ParsedToolInput<TTools, TName>,
    witness: MutationWitness,
    step: StepContext,
  ) => HandlerReturn<ToolOutput<TTools, TName>>;
};

/**
 * JSON data whose leaves are literal types: as the type a value is written for, it keeps a
 * literal (`'green'`, `3`, `true`, at any depth of an object or array) as written.
 */
type LiteralJson = '' | 0 | true | null | { readonly [key: string]: LiteralJson } | readonly LiteralJson[];

/**
 * A thenable of {@link LiteralJson}: what an async handler's awaited return is typed by while the
 * registry is inferred. Its last `then` (for a `this` no value has, so the awaited type does not
 * read it) resolves to `never`: a generic call in the handler infers from that one
 * (`Promise.reject(error)` stays `Promise<never>`, not a promise of JSON data).
 */
interface LiteralThenable {
  then(onfulfilled: (value: LiteralJson) => unknown): unknown;
  then(this: { readonly 'turngate.never': true }, onfulfilled: (value: never) => unknown): unknown;
}

/** The output of every tool of {@link ToolsBeingInferred}: a type no tool's output schema gives. */
interface OutputBeingInferred {
  readonly 'turngate.output-being-inferred': true;
}

/**
 * What a loop handler returns (or resolves to) for a tool whose output is `TOutput`: `TOutput |
 * Promise<TOutput>`; while the registry is still being inferred ({@link ToolsBeingInferred}),
 * JSON data of literals that is also a promise of it, so that a handler written without
 * parameters (`() => 'green'`, `async () => 'green'`, typed in that first pass) keeps its literal
 * for the registry's output type it is then compared with. (TypeScript finds the awaited type a
 * handler is written for only when every member of its return type has a `then`.)
 */
type HandlerReturn<TOutput> = 0 extends 1 & TOutput
  ? TOutput | Promise<TOutput>
  : [TOutput] extends [never]
    ? Promise<never>
    : [TOutput] extends [OutputBeingInferred]
      ? LiteralJson & LiteralThenable
      : TOutput | Promise<TOutput>;

/**
 * The registry type of a `toolLoop` call while TypeScript infers it: the default of its type
 * parameter, which TypeScript reads only in the first pass over the options (the handlers that
 * take no parameters are typed there, before `tools` is read); `tools` then gives the registry.
 * Its tools' output is one a handler's literal is kept for (see {@link LoopHandlers}).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop } from 'turngate/adapters/openai-chat';
 * class Lights extends defineTools({ light: { input: v.object({}), output: v.picklist(['green', 'red']) } }) {}
 * // `() => 'green'` keeps its literal: the light's output is 'green' | 'red'.
 * toolLoop({ tools: Lights, handlers: { light: async () => 'green' } });
 * ```
 */
export type ToolsBeingInferred = {
  readonly [name: string]: ToolDefinition<StandardSchemaV1, StandardSchemaV1<OutputBeingInferred>>;
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
 * import type { ReadFailurePolicy } from 'turngate/adapters';
 * const policy: ReadFailurePolicy = 'block_mutations';
 * ```
 */
export type ReadFailurePolicy = 'block_mutations' | 'refused_calls_only';

/** The options of every tool loop, but the ledger and the session (see {@link ToolLoopOptions}). */
export interface LoopSettings<TTools extends ToolDefinitionsOf<TTools>> extends DeclarationOptions {
  /** The registry (`defineTools`): one definition gives the declarations and the checks. */
  readonly tools: ToolRegistry<TTools>;
  /** One handler per tool (see {@link LoopHandlers}). */
  readonly handlers: NoInfer<LoopHandlers<TTools>>;
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
  /**
   * Which mutating calls wait for a person's yes (`approvalPolicy(Tools, version, rules)`): a call
   * whose rule answers `required` runs only on an approved, unexpired approval of exactly that
   * call, input, policy version and tool schema, consumed when its effect starts. Until every such
   * call of the turn is decided the step waits (`step.approvals`, `step.state`; nothing of the turn
   * mutates), and {@link ToolLoop.resume} goes on, in any process. A denied call is answered
   * `not run: declined by <approver>: <reason>`. The ledger must keep approvals (a store's
   * `approvalLedger()`, or the default `MemoryEffectLedger`). Source: docs/APPROVALS.md.
   */
  readonly approvals?: ApprovalPolicy<TTools, unknown>;
  /** How long an approval request stands, in milliseconds (default 24 hours). */
  readonly approvalExpiresInMs?: number;
}

/**
 * What a tool loop is made of: the registry, one handler per tool, the gate's policy, and where
 * effects are recorded. A `ledger` shared beyond this loop (a store's, another loop's) needs the
 * `sessionId` its turns belong to: every effect key and every recorded reply is scoped by it, so
 * one session is never answered with another's result. `TSession` is the session's type as a
 * `toolLoop` call infers it from `sessionId` (`undefined` without one, when a `ledger` is the
 * {@link LedgerSessionMessage}); written without it (`ToolLoopOptions<Tools>`), or as `string`,
 * the type takes a ledger with a session, or no ledger.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolLoopOptions } from 'turngate/adapters';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const options: ToolLoopOptions<Tools> = { tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } };
 * ```
 */
export type ToolLoopOptions<
  TTools extends ToolDefinitionsOf<TTools>,
  TSession extends string | undefined | NoSessionType = NoSessionType,
> = LoopSettings<TTools> &
  ([TSession] extends [NoSessionType]
    ? LedgerOptions
    : string extends TSession
      ? LedgerOptions
      : SessionLedger<Exclude<TSession, NoSessionType>>);

/**
 * The session type of options written ahead of a `toolLoop` call (`ToolLoopOptions<Tools>`), where
 * none is inferred: the default of {@link ToolLoopOptions}' `TSession`.
 */
export interface NoSessionType {
  readonly 'turngate.no-session-type': true;
}

/**
 * The handler map's first rule as a `toolLoop` call checks it, on `tools`: one handler per tool of
 * the registry. `THandled` is the names the call's `handlers` has; a missing handler shows
 * `no_handler: send_email has no handler in options.handlers` at `tools`, besides TypeScript's
 * own error at `handlers` (which prints the whole map first). A handler for a name the registry
 * lacks stays TypeScript's excess-property error, naming it: `'nope' does not exist in type
 * 'LoopHandlers<Tools>'`.
 */
export type HandlerNamesCheck<TTools extends ToolDefinitionsOf<TTools>, THandled extends string> = {
  readonly tools: NoInfer<
    [Exclude<ToolName<TTools>, THandled>] extends [never]
      ? unknown
      : TurnMisuse<`no_handler: ${IdList<Exclude<ToolName<TTools>, THandled>>} has no handler in options.handlers`>
  >;
  readonly handlers: { readonly [TName in THandled & ToolName<TTools>]: unknown };
};

/**
 * What a ledger without a session shows in a `toolLoop` call: the type of `ledger` when the
 * options have no `sessionId` (the run-time check throws a `TypeError` naming the same option).
 * E.g. `toolLoop({ tools, handlers, ledger })` shows, at `ledger`, `Property ''not allowed'' is
 * missing in type 'EffectLedger' but required in type 'TurnMisuse<"options.sessionId is required
 * with options.ledger: ...">'`.
 */
export type LedgerSessionMessage =
  'options.sessionId is required with options.ledger: every effect key in a shared ledger is scoped by the session';

/** The ledger and session of a `toolLoop` call whose `sessionId` is of type `TSession`. */
interface SessionLedger<TSession extends string | undefined> {
  /**
   * Where each mutating call's effect is claimed before it runs and recorded after, so that a
   * replayed reply never runs it twice, and where each reply with a mutating call is recorded
   * before any effect, so that a loop restarted after a crash answers the recorded reply (see
   * {@link ToolLoop.answer}): default one `MemoryEffectLedger` per loop (this process only). A
   * store's ledger (`turngate/chat/sqlite`, `turngate/chat/postgres`) keeps them across
   * restarts. Given, it needs `sessionId`.
   */
  readonly ledger?: ([TSession] extends [string] ? EffectLedger : TurnMisuse<LedgerSessionMessage>) | undefined;
  /** The session the turns belong to (their CallSpec's `sessionId`, and the scope of every key in the ledger). */
  readonly sessionId?: TSession;
}

/** The ledger and session of options typed without a session type: a ledger with a session, or no ledger. */
type LedgerOptions =
  | {
      readonly ledger?: undefined;
      /** The session the turns belong to (their CallSpec's `sessionId`, and the scope of every key). */
      readonly sessionId?: string | undefined;
    }
  | {
      /** The ledger (see `SessionLedger`). */
      readonly ledger: EffectLedger;
      /** The session the turns belong to: required with a ledger, it scopes every key in it. */
      readonly sessionId: string;
    };

/**
 * One step of the loop: the messages to append to the history, whether the model has answered
 * (`done`: its reply held no client tool call), and what the turn did.
 *
 * @example
 * ```ts
 * import type { LoopStep } from 'turngate/adapters';
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
  /**
   * The approvals this step waits for (`awaiting_approval` records, each with the `requestDigest`
   * the person decides on): non-empty only when the step waits, and then `done` is `true`,
   * `messages` is empty and `state` holds what {@link ToolLoop.resume} needs.
   */
  readonly approvals: readonly ApprovalRecord[];
  /** What `resume` takes, as JSON data to keep anywhere (a waiting step only). */
  readonly state: WaitingState | undefined;
}

/**
 * A waiting step's state, as JSON data: the history the reply answers, the reply as the loop
 * recorded it, and the approval requests it waits for. Keep it (a database row, a queue message)
 * and hand it to {@link ToolLoop.resume} in any process with the same ledger and session.
 *
 * @example
 * ```ts
 * import type { WaitingState } from 'turngate/adapters';
 * declare const state: WaitingState;
 * state.approvals.map((a) => `${a.toolName}: ${a.reason}`);
 * ```
 */
export type WaitingState = {
  readonly kind: 'turngate.waiting-for-approval';
  readonly history: JsonValue[];
  readonly reply: RecordedReply;
  readonly approvals: ApprovalRecord[];
};

/**
 * A person's decision on one call a step waits for: approve or deny it, with why and who.
 *
 * @example
 * ```ts
 * import type { ApprovalAnswer } from 'turngate/adapters';
 * const yes: ApprovalAnswer = { toolCallId: 'toolu_02', verdict: 'approve', reason: 'expected', decidedBy: 'ada' };
 * ```
 */
export interface ApprovalAnswer {
  /** The tool call decided on (one of the waiting step's `approvals`). */
  readonly toolCallId: string;
  readonly verdict: 'approve' | 'deny';
  /** Why (shown to the model for a denial). */
  readonly reason: string;
  /** Who decided. */
  readonly decidedBy: string;
}

/**
 * Options of one {@link ToolLoop.answer}.
 *
 * @example
 * ```ts
 * import type { AnswerOptions } from 'turngate/adapters';
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
 * import type { ToolLoop } from 'turngate/adapters';
 * declare const loop: ToolLoop<ToolDefinitions, Anthropic.Message, Anthropic.MessageParam, Anthropic.Tool[]>;
 * loop.tools.map((tool) => tool.name);
 * ```
 */
export interface ToolLoop<
  TTools extends ToolDefinitionsOf<TTools>,
  TReply,
  TMessage,
  TDeclarations,
  TFormat extends string = string,
> {
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
   * @param reply - The SDK's reply, as its client returned it, or the one `recorded` gave. (A
   *   reply of another SDK is a `tsc` error naming the loop's format: see {@link WrongReplyMessage}.)
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
  answer(
    history: readonly TMessage[],
    reply: TReply | RecordedReply | TurnMisuse<WrongReplyMessage<TFormat>>,
    options?: AnswerOptions,
  ): Promise<LoopStep<TTools, TMessage>>;
  /**
   * The reply recorded for the turn that `history` ends at, when a reply with a mutating call was
   * recorded for it (by this loop, or one before a restart sharing its ledger and session): give
   * it to `answer` instead of calling the model again. `undefined` when none was recorded.
   *
   * @param history - The messages the next model call would be sent.
   */
  recorded(history: readonly TMessage[]): Promise<RecordedReply | undefined>;
  /**
   * The format's transcript check of `history` as the next model call would send it: the same
   * check `answer` runs on each step (the format's rules, ids unique across the history, limits).
   * A caller that keeps the history itself (a durable workflow replaying recorded steps) calls it
   * before each model call, so a history the provider refuses is never sent.
   *
   * @param history - The messages the next model call would be sent.
   * @returns The check's report: `result` is `accepted`, `rejected` (with `failures`, each with
   *   `rule`, `at` and `fix`) or `invalid`.
   */
  check(history: readonly TMessage[]): TranscriptReport<TranscriptFormat>;
  /**
   * Goes on with a step that waited for approvals: records each decision (the first decision of a
   * request is final; the same one again is idempotent; another is refused, and the request keeps
   * its first), then answers the recorded reply again: approved calls run once (their approval is
   * consumed as the effect is claimed, so a second `resume`, a repeated signal or another process
   * runs nothing more), denied ones are answered "not run: declined by ...", and the reads run
   * again. A call still undecided keeps the step waiting. Runs in any process with the same
   * ledger and session.
   *
   * @param state - The waiting step's `state`.
   * @param decisions - A decision per call (by `toolCallId`); calls without one stay waiting.
   * @param options - `signal`, as for `answer`.
   * @returns The step, as `answer` gives it: its `messages` go at the end of the history.
   * @throws TypeError when `state` is not a waiting state or a decision names no waiting call.
   */
  resume(
    state: WaitingState,
    decisions: readonly ApprovalAnswer[],
    options?: AnswerOptions,
  ): Promise<LoopStep<TTools, TMessage>>;
}

/**
 * What a tool loop's `answer` shows for a reply of another SDK (an Anthropic `Message` given to
 * the OpenAI Chat loop): the type its `reply` takes besides the loop's own, naming the format
 * the loop answers (`TFormat`) and what to give instead, e.g. `'transcript.wrong_format: not a
 * reply of openai-chat: answer takes what its SDK client returned, or loop.recorded(history)'`;
 * `string` for a loop typed without its format.
 */
export type WrongReplyMessage<TFormat extends string> = string extends TFormat
  ? string
  : `transcript.wrong_format: not a reply of ${TFormat}: answer takes what its SDK client returned, or loop.recorded(history)`;

/** A step without its messages and `done`, for the widest registry: what the loop builds before placing the results. Internal. */
export type WideStep = Omit<LoopStep<ToolDefinitions, unknown>, 'messages' | 'done'>;

/** What one loop holds: its codec, options, ledger and the scope of its keys. */
export interface LoopContext {
  readonly codec: ProviderCodec<unknown, unknown>;
  readonly options: ToolLoopOptions<ToolDefinitions>;
  readonly ledger: EffectLedger;
  /** The session every key is scoped by (`''` for a loop of its own ledger and no session). */
  readonly scope: string;
  /** The digest of each tool's input JSON Schema (what an approval is asked under). */
  readonly schemaDigests: ReadonlyMap<string, string>;
  /**
   * The newest history each conversation's steps ended with (a step's history replaces the one
   * it extended), accepted by the transcript check, by its last message: the next step's check
   * extends the one its history starts with (`loop.ts`).
   */
  readonly histories: WeakMap<object, CheckedHistory>;
}

/** A history a step's check accepted: its messages as given (the objects), and the check's transcript. */
export interface CheckedHistory {
  readonly messages: readonly unknown[];
  readonly transcript: SendableTranscript;
}
