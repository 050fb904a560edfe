/**
 * The tool loop every adapter shares: a provider reply -> the turn's typed requests -> read
 * tools through `settle`, `useAll`, `closeJoin`, mutating tools only through the gate
 * (`settleMutations`) -> the provider's messages to append, checked with `checkTranscript`.
 * Each adapter gives the reading of its SDK's reply and the writing of its tool results (a
 * {@link ProviderCodec}). Internal, except the types each adapter re-exports.
 *
 * @module
 */
import { digest } from '../../canonical/index.ts';
import type { TranscriptFormat } from '../../check/index.ts';
import type { Failure } from '../../failures/index.ts';
import {
  callSpec,
  closeJoin,
  effectKey,
  requestTools,
  MemoryEffectLedger,
  type AdmitOptions,
  type EffectLedger,
  type JoinClosed,
  type MutationPolicy,
  type MutationRecord,
  type ProviderStopReason,
  type ToolDefinitions,
  type ToolDefinitionsOf,
  type ToolRegistry,
  type ToolResult,
} from '../../typestate/index.ts';
import { settle, useAll, settleMutations, type MutationHandlers, type ToolHandlers } from '../../builder/index.ts';
import { checkTranscriptJson, toEvidence, type TranscriptFailure } from '../../transcripts/index.ts';
import { isPendingMutation, ownError } from '../../typestate/internal.ts';
import type { DeclarationOptions } from './declarations.ts';

/**
 * One handler per tool of the registry, typed by the tool: a read tool's handler takes the
 * parsed input and what the call is (`ToolHandlers`, run by `settle`); a `mutation: true`
 * tool's handler takes the bound input and the witness it runs under (`MutationHandlers`, run
 * only through the mutation gate). A missing handler, a wrong input type or a wrong output shape
 * is a `tsc` error.
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
export type LoopHandlers<TTools extends ToolDefinitionsOf<TTools>> = ToolHandlers<TTools> & MutationHandlers<TTools>;

/**
 * What a tool loop is made of: the registry, one handler per tool, and the gate's policy.
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
export interface ToolLoopOptions<TTools extends ToolDefinitionsOf<TTools>> extends DeclarationOptions {
  /** The registry (`defineTools`): one definition gives the declarations and the checks. */
  readonly tools: ToolRegistry<TTools>;
  /** One handler per tool (see {@link LoopHandlers}). */
  readonly handlers: LoopHandlers<TTools>;
  /** The active mutation policy and capability claims for the gate (default: the default profile's). */
  readonly policy?: MutationPolicy;
  /**
   * Where each mutating call's effect is claimed before it runs and recorded after, so that a
   * replayed reply (the same call id, tool and input) never runs it twice: the call gets the
   * recorded output or error, or `effect_outcome_unknown` for an effect started and never
   * finished. Default: one `MemoryEffectLedger` per loop (this process only); pass a store's
   * ledger (`turngate/chat/sqlite`, `turngate/chat/postgres`) to keep it across restarts.
   */
  readonly ledger?: EffectLedger;
  /** The idempotency key of an intent (default `effectKey`: call id, tool, input digest). */
  readonly idempotencyKey?: AdmitOptions['idempotencyKey'];
  /** The session the turns belong to (their CallSpec's `sessionId`); default: each turn's own id. */
  readonly sessionId?: string;
}

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
   * ledger already held its effect: not run again), `not_admitted`.
   */
  readonly mutations: readonly MutationRecord[];
  /**
   * Why the turn did not close (e.g. `protocol.stop_reason_unhandled` for a reply that stopped
   * for `refusal`): then no mutation ran, and each mutating call is answered as not run.
   */
  readonly failures: readonly Failure[];
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
   * Answers the model's reply: reads its client tool calls (input parsed and validated; a call
   * that fails becomes its own error result, never an exception), runs the read tools, closes
   * the turn, runs the mutating ones through the gate only, and gives back the messages to
   * append (the reply, then every result).
   *
   * @param history - The messages sent with the model call that produced `reply`.
   * @param reply - The SDK's reply, as its client returned it.
   * @returns The step; `messages` go at the end of `history`.
   * @throws {@link ToolLoopError} when the reply cannot be answered as a turn (two calls with one
   *   id, a blank id) or `history` followed by the step's messages is not a transcript the
   *   provider accepts (`failures` holds the check's failures: a history that was wrong before).
   * @throws TypeError when `reply` is not a reply of the SDK (no candidates, no choices, ...).
   */
  answer(history: readonly TMessage[], reply: TReply): Promise<LoopStep<TTools, TMessage>>;
}

/**
 * Thrown by a tool loop's `answer` when it cannot give back messages the provider accepts: the
 * failures say why (the transcript check's, with `rule`, `at` and `fix`; or the turn's, with
 * `class` and `ids`).
 *
 * @example
 * ```ts
 * import { ToolLoopError } from 'turngate/adapters/anthropic';
 * const error = new ToolLoopError('the history is not a transcript anthropic accepts', []);
 * error.name; //=> 'ToolLoopError'
 * ```
 */
export class ToolLoopError extends Error {
  override readonly name = 'ToolLoopError';
  /** Why: transcript failures (`rule`, `at`, `fix`) or turn failures (`class`, `ids`). */
  readonly failures: readonly (TranscriptFailure | Failure)[];

  constructor(message: string, failures: readonly (TranscriptFailure | Failure)[]) {
    super(message);
    this.failures = failures;
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
   * holds the reply's id.
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
}

const NO_STEP = { closed: undefined, results: [], mutations: [], failures: [] } as const;

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

/** A pending mutation's result once the turn could not close: the call did not run. */
function notRun(result: ToolResult<ToolDefinitions>, failures: readonly Failure[]): ToolResult<ToolDefinitions> {
  if (result.status !== 'error' || !isPendingMutation(result)) return result;
  const classes = failures.map((f) => f.class).join(', ');
  return {
    ...result,
    error: ownError('mutation_not_admitted', `the turn did not close (${classes}); the mutation did not run`),
  };
}

type WideStep = Omit<LoopStep<ToolDefinitions, unknown>, 'messages' | 'done'>;

/** Answers one reply (the registry and handlers taken as the widest types). */
async function answerTurn(
  codec: ProviderCodec<unknown, unknown>,
  options: ToolLoopOptions<ToolDefinitions>,
  admit: AdmitOptions,
  history: readonly unknown[],
  reply: unknown,
  turn: number,
): Promise<LoopStep<ToolDefinitions, unknown>> {
  const { format } = codec;
  const read = codec.read(reply);
  const spec = callSpec({
    callId: read.id ?? `turn-${turn}`,
    modelRef: read.model ?? 'unknown',
    actionMode: 'code',
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
  });
  if (!spec.ok) throw new ToolLoopError(`${format}: the reply's id or model cannot make a CallSpec`, spec.failures);
  // biome-ignore lint/plugin: the codec's messages are its SDK's own, which the format's transcript schemas accept (type-tested in the transcripts layer)
  const evidence = toEvidence(read.messages as never, { format, callSpec: spec.value.spec });
  if (!evidence.ok) throw new TypeError(`${format}: the reply cannot be read: ${evidence.failures[0]?.message}`);
  const calls = evidence.value.requests;
  const finish = (messages: unknown[], step: WideStep, done: boolean) => {
    const report = checkTranscriptJson([...history, ...messages], { format });
    if (report.result !== 'accepted') {
      const failures = report.result === 'rejected' ? report.failures : [];
      const why =
        report.result === 'rejected' ? failures.map((f) => `${f.at} ${f.rule}`).join('; ') : report.error.message;
      throw new ToolLoopError(
        `${format}: the history with this step is not a transcript the provider accepts: ${why}`,
        failures,
      );
    }
    return { done, messages, ...step };
  };
  if (calls.length === 0) return finish(read.messages, NO_STEP, read.stopReason !== 'pause_turn');

  const requests = requestTools(spec.value, options.tools, calls);
  if (!requests.ok) throw new ToolLoopError(`${format}: the reply's tool calls cannot be answered`, requests.failures);
  const settled = await settle(requests.value, options.handlers);
  if (!settled.ok) throw new ToolLoopError(`${format}: the tool results were refused`, settled.failures);
  const used = useAll(settled.value, () => 'observed');
  if (!used.ok) throw new ToolLoopError(`${format}: the tool use was refused`, used.failures);
  const protocolState =
    read.stopReason === undefined
      ? undefined
      : // biome-ignore lint/plugin: the provider's stop reason as it sent it; one the table does not know maps to `unknown`, which the join check refuses
        ({ format, stopReason: read.stopReason } as never as ProviderStopReason);
  const closed = closeJoin(used.value, protocolState === undefined ? {} : { protocolState });
  let step: WideStep;
  if (closed.ok) {
    const keyed = keyedByReply(admit, read, spec.value.spec.callId);
    const final = await settleMutations(closed.value, options.handlers, options.policy, keyed);
    step = final.ok
      ? { closed: final.value, results: final.value.results, mutations: final.value.mutations, failures: [] }
      : { ...NO_STEP, results: closed.value.results, failures: final.failures };
  } else step = { ...NO_STEP, results: settled.value.results, failures: closed.failures };
  const results = step.results.map((result) => notRun(result, step.failures));
  const answers = codec.answers(
    results.map((result) => ({ toolCallId: result.toolCallId, toolName: result.toolName, result })),
    read,
  );
  return finish([...read.messages, ...answers], { ...step, results }, false);
}

/**
 * The admission options of one reply: as given, except that when the reply's call ids are
 * positional (the same in every reply) the default key also holds the reply's id, so a call of
 * a later reply with the same tool and input is not taken for a replay of an earlier one. (A
 * reply without an id keys by the loop's turn number: a replay is then not recognized.)
 */
function keyedByReply(admit: AdmitOptions, read: ReadReply<unknown>, callId: string): AdmitOptions {
  if (read.positionalIds !== true || admit.idempotencyKey !== undefined) return admit;
  return {
    ...admit,
    idempotencyKey: (intent) =>
      digest({
        reply: callId,
        effect: effectKey(intent, intent.kind === 'tool_call' ? intent.toolName : intent.mutationInputRef),
      }),
  };
}

/**
 * Makes the loop for one provider. Internal: each adapter's `toolLoop` calls it with its codec
 * and its declarations.
 */
export function createToolLoop<TTools extends ToolDefinitionsOf<TTools>, TReply, TMessage, TDeclarations>(
  codec: ProviderCodec<TReply, TMessage>,
  declarations: TDeclarations,
  options: ToolLoopOptions<TTools>,
): ToolLoop<TTools, TReply, TMessage, TDeclarations> {
  let turns = 0;
  const admit: AdmitOptions = {
    ledger: options.ledger ?? new MemoryEffectLedger(),
    ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
  };
  return {
    tools: declarations,
    start: () => ({ done: false, messages: [], ...NO_STEP }),
    answer(history, reply) {
      turns++;
      // biome-ignore lint/plugin: the loop runs on the registry's own definitions and handlers; the typed signature is what the caller sees
      return answerTurn(codec as never, options as never, admit, history, reply, turns) as never as Promise<
        LoopStep<TTools, TMessage>
      >;
    },
  };
}
