/**
 * A tool loop as a durable workflow: each model call a step (its reply recorded, replayed on
 * recovery, never requested again), each answer a step in which the loop runs the reads and
 * every mutation through the gate and the effect ledger (keys scoped by the workflow id), and
 * approvals waited for with the engine's durable receive, recorded against the ledger's approval
 * records by the loop's `resume`. The loop, the ledger and the approvals are the adapters' and
 * the typestate's: this file only orders them into steps.
 *
 * @module
 */
import * as v from 'valibot';
import type { JsonValue } from '../canonical/index.ts';
import type { EffectLedger, ToolDefinitionsOf } from '../typestate/index.ts';
import type { TranscriptFailure } from '../transcripts/index.ts';
import {
  refusal,
  refusalText,
  type ApprovalAnswer,
  type LoopStep,
  type ToolLoop,
  type WaitingState,
} from '../adapters/internal.ts';
import type { DurableEngine } from './engine.ts';

/** The topic a workflow receives its approval decisions on (`sendApprovals` sends to it). */
export const APPROVALS_TOPIC = 'turngate.approvals';

/**
 * The key under which a workflow publishes the approval requests it waits for (`ApprovalRecord`s,
 * each with the `toolCallId` to decide and the `requestDigest` shown to the person), and `[]` once
 * its turn goes on. DBOS: read it with `waitingApprovals` (`DBOS.getEvent`).
 */
export const WAITING_EVENT = 'turngate.waiting';

/** How long a workflow waits for approval decisions by default: 24 hours (the loop's default approval expiry). */
const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** How many model calls a workflow makes by default before it stops (`max_turns`). */
const DEFAULT_MAX_TURNS = 16;

/**
 * What the workflow's tool loop is made with: the effect ledger (approvals included) and the
 * session, which is the workflow id. Give both to the adapter's `toolLoop`.
 *
 * @example
 * ```ts
 * import type { DurableSession } from 'turngate/durable';
 * declare const session: DurableSession;
 * session.sessionId;
 * ```
 */
export interface DurableSession {
  /** The ledger given in {@link DurableLoopOptions}. */
  readonly ledger: EffectLedger;
  /** The workflow id: every effect key, recorded reply and approval is scoped by it. */
  readonly sessionId: string;
}

/**
 * The options of {@link durableToolLoop}. The values are live objects (a ledger, functions):
 * build them inside the workflow function, from what the workflow was started with.
 *
 * @example
 * ```ts
 * import type Anthropic from '@anthropic-ai/sdk';
 * import { MemoryEffectLedger, type ToolDefinitions } from 'turngate';
 * import type { DurableLoopOptions } from 'turngate/durable';
 * declare const options: DurableLoopOptions<ToolDefinitions, Anthropic.Message, Anthropic.MessageParam>;
 * options.maxTurns;
 * ```
 */
export interface DurableLoopOptions<
  TTools extends ToolDefinitionsOf<TTools>,
  TReply,
  TMessage,
  TDeclarations = unknown,
  TFormat extends string = string,
> {
  /**
   * Where effects, recorded replies and approvals are kept across processes: a store's
   * `approvalLedger()` (`turngate/chat/postgres`, on the engine's database for DBOS). A ledger
   * of one process's memory keeps nothing across a crash.
   */
  readonly ledger: EffectLedger;
  /** Builds the workflow's tool loop (any adapter's `toolLoop`) with the session's ledger and id. */
  readonly loop: (session: DurableSession) => ToolLoop<TTools, TReply, TMessage, TDeclarations, TFormat>;
  /**
   * Calls the model with the history and the loop's tool declarations (`loop.tools`), once per
   * turn inside a step (1 for the first); its reply must be JSON data (an SDK's reply is). Give
   * `loop` before it: its parameters are typed by the loop's message and reply types.
   */
  readonly model: (
    history: readonly NoInfer<TMessage>[],
    call: { readonly turn: number; readonly tools: TDeclarations },
  ) => Promise<NoInfer<TReply>>;
  /** The conversation so far (the workflow's input): the first model call is sent it. */
  readonly history: readonly NoInfer<TMessage>[];
  /** How many model calls at most (default 16); then the result's status is `max_turns`. */
  readonly maxTurns?: number;
  /** How long to wait for approval decisions, in milliseconds (default 24 hours); then `approval_timed_out`. */
  readonly approvalTimeoutMs?: number;
}

/**
 * What one tool call of a turn was answered, as JSON data.
 *
 * @example
 * ```ts
 * import type { DurableCall } from 'turngate/durable';
 * const call: DurableCall = { toolCallId: 'toolu_1', toolName: 'send_email', status: 'error', errorCode: 'effect_outcome_unknown' };
 * ```
 */
export interface DurableCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly status: 'ok' | 'error';
  /** The error result's code (`effect_outcome_unknown` where a crash hid an effect's outcome). */
  readonly errorCode?: string;
}

/**
 * One turn of a durable loop: what its calls were answered, what the gate did with each
 * mutating call, and whether it waited for approvals.
 *
 * @example
 * ```ts
 * import type { DurableTurn } from 'turngate/durable';
 * declare const turn: DurableTurn;
 * turn.mutations.filter((m) => m.outcome === 'performed').length;
 * ```
 */
export interface DurableTurn {
  /** 1 for the first model call. */
  readonly turn: number;
  /** The loop answered the reply recorded for this turn, not the one given (see `LoopStep.resumed`). */
  readonly resumed: boolean;
  readonly calls: readonly DurableCall[];
  /** Per mutating call: `performed`, `failed`, `replayed` (the ledger held it), `not_admitted`, `not_performed`. */
  readonly mutations: readonly { readonly toolCallId: string; readonly outcome: string }[];
  /** How many times the turn waited for approval decisions. */
  readonly waits: number;
}

/**
 * How a durable loop ended: `done` (the model answered without a tool call), `max_turns`, or
 * `approval_timed_out` (`waiting` holds the state, for the loop's `resume` elsewhere).
 *
 * @example
 * ```ts
 * import type { DurableLoopResult } from 'turngate/durable';
 * declare const result: DurableLoopResult<unknown>;
 * result.status === 'done' ? result.history.length : 0;
 * ```
 */
export interface DurableLoopResult<TMessage> {
  readonly status: 'done' | 'max_turns' | 'approval_timed_out';
  readonly workflowId: string;
  /** The input history followed by every message the turns appended. */
  readonly history: TMessage[];
  readonly turns: DurableTurn[];
  /** The state the workflow was waiting in (`approval_timed_out` only). */
  readonly waiting?: WaitingState;
}

/**
 * Thrown by {@link durableToolLoop} when the history the next model call would be sent is one the
 * format's check refuses (nothing is sent), or when an option is not what it must be.
 *
 * @example
 * ```ts
 * import { DurableLoopError } from 'turngate/durable';
 * new DurableLoopError('refused', []).name; //=> 'DurableLoopError'
 * ```
 */
export class DurableLoopError extends Error {
  override readonly name = 'DurableLoopError';
  /** The check's failures (`rule`, `at`, `fix`), when a history was refused. */
  readonly failures: readonly TranscriptFailure[];

  constructor(message: string, failures: readonly TranscriptFailure[]) {
    super(message);
    this.failures = failures;
  }
}

/** A step as JSON data: what the engine records, and what a recovered workflow reads back. */
interface RecordedStep {
  readonly done: boolean;
  readonly messages: JsonValue[];
  readonly resumed: boolean;
  readonly calls: DurableCall[];
  readonly mutations: { readonly toolCallId: string; readonly outcome: string }[];
  readonly state: JsonValue;
}

/** JSON data of a value (`undefined` fields dropped). */
function json<T>(value: T): JsonValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
}

/** What the engine records of a loop step. */
function recordStep<TTools extends ToolDefinitionsOf<TTools>>(step: LoopStep<TTools, unknown>): RecordedStep {
  return {
    done: step.done,
    messages: step.messages.map(json),
    resumed: step.resumed,
    calls: step.results.map((r) => ({
      toolCallId: r.toolCallId,
      toolName: r.toolName,
      status: r.status === 'ok' ? 'ok' : 'error',
      ...(r.status === 'ok' ? {} : { errorCode: r.error.errorCode }),
    })),
    mutations: step.mutations.map((m) => ({
      toolCallId: m.intent.kind === 'tool_call' ? m.intent.toolCallId : m.intent.mutationInputRef,
      outcome: m.outcome,
    })),
    state: json(step.state),
  };
}

const Decisions = v.array(
  v.object({
    toolCallId: v.string(),
    verdict: v.picklist(['approve', 'deny']),
    reason: v.string(),
    decidedBy: v.string(),
  }),
);

/** The decisions of a message that name a call the state waits for (anything else is not a decision on this step). */
function decisionsFor(message: unknown, state: WaitingState): ApprovalAnswer[] {
  const parsed = v.safeParse(Decisions, message);
  if (!parsed.success) return [];
  const waiting = new Set(state.approvals.map((a) => a.toolCallId));
  return parsed.output.filter((d) => waiting.has(d.toolCallId));
}

/** A positive whole number option, or its default. */
function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new DurableLoopError(
      `durableToolLoop: options.${name}: expected a positive whole number, got ${String(value)}`,
      [],
    );
  return value;
}

/**
 * Runs a tool loop as a durable workflow: call it inside the engine's workflow function. Per
 * turn: one step calls the model (the history first passes the loop's transcript check; a reply
 * the loop recorded for this history is used instead of a new call), one step answers the reply
 * with the loop (reads, then each mutation through the gate, claimed in the ledger under the
 * workflow id and the intent: re-run after a crash, it replays the recorded outcome or answers
 * `effect_outcome_unknown`, never runs the effect again). A turn waiting for approvals receives
 * decisions on {@link APPROVALS_TOPIC} (a list of `{ toolCallId, verdict, reason, decidedBy }`;
 * the requests it waits for are published under {@link WAITING_EVENT} when the engine publishes),
 * and one step per message records them with the loop's `resume` (the ledger's approval rules
 * decide: first decision final, bound to the call, input, policy and schema).
 *
 * @param engine - The engine, from inside the workflow (`dbosEngine(DBOS)`).
 * @param options - The ledger, the loop, the model call and the input history.
 * @returns How the loop ended, the whole history, and what each turn did.
 * @throws {@link DurableLoopError} when the history the next model call would be sent is refused by
 *   the format's check (nothing is sent), or an option is invalid; a loop's `ToolLoopError`
 *   (`reply_refused` before any handler ran).
 * @example
 * ```ts
 * import type Anthropic from '@anthropic-ai/sdk';
 * import { durableToolLoop, type DurableEngine } from 'turngate/durable';
 * import { toolLoop } from 'turngate/adapters/anthropic';
 * import { MemoryEffectLedger, defineTools } from 'turngate';
 * import * as v from 'valibot';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * declare const engine: DurableEngine;
 * declare const client: Anthropic;
 * const result = await durableToolLoop(engine, {
 *   ledger: new MemoryEffectLedger(),
 *   loop: (session) => toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` }, ...session }),
 *   model: (history, { tools }) => client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, tools, messages: [...history] }),
 *   history: [{ role: 'user', content: 'Weather in Oslo?' }],
 * });
 * result.status;
 * ```
 */
export async function durableToolLoop<
  TTools extends ToolDefinitionsOf<TTools>,
  TReply,
  TMessage,
  TDeclarations,
  TFormat extends string = string,
>(
  engine: DurableEngine,
  options: DurableLoopOptions<TTools, TReply, TMessage, TDeclarations, TFormat>,
): Promise<DurableLoopResult<TMessage>> {
  const maxTurns = positive('maxTurns', options.maxTurns, DEFAULT_MAX_TURNS);
  const waitMs = positive('approvalTimeoutMs', options.approvalTimeoutMs, DEFAULT_APPROVAL_TIMEOUT_MS);
  const workflowId = engine.workflowId;
  const loop = options.loop({ ledger: options.ledger, sessionId: workflowId });
  let history: TMessage[] = [...options.history];
  const turns: DurableTurn[] = [];
  const end = (status: DurableLoopResult<TMessage>['status'], waiting?: WaitingState) => ({
    status,
    workflowId,
    history,
    turns,
    ...(waiting === undefined ? {} : { waiting }),
  });
  for (let turn = 1; turn <= maxTurns; turn++) {
    const sent = history;
    const reply = await engine.step(`turngate.model.${turn}`, async () => {
      const report = loop.check(sent);
      const failures = refusal(report);
      if (failures !== undefined) {
        throw new DurableLoopError(
          `durableToolLoop: turn ${turn}: the history is not one the provider accepts; nothing was sent: ${refusalText(report)}`,
          failures,
        );
      }
      // A reply the loop recorded for this history (before its effects) is the turn's reply.
      const recorded = await loop.recorded(sent);
      return json(recorded ?? (await options.model(sent, { turn, tools: loop.tools })));
    });
    // biome-ignore lint/plugin: the reply the step recorded is the model's (JSON data), or the loop's recorded reply, which `answer` takes in its place
    const given = reply as never as TReply;
    // biome-ignore lint/plugin: the step's record is a RecordedStep (recordStep), JSON data
    let step = (await engine.step(`turngate.answer.${turn}`, async () =>
      json(recordStep(await loop.answer(sent, given))),
    )) as unknown as RecordedStep;
    let waits = 0;
    while (step.state !== null) {
      // biome-ignore lint/plugin: a waiting step's state as the loop gave it (JSON data)
      const state = step.state as unknown as WaitingState;
      await engine.publish?.(WAITING_EVENT, json(state.approvals));
      const message = await engine.receive(APPROVALS_TOPIC, waitMs);
      if (message === undefined || message === null) {
        turns.push({ turn, resumed: step.resumed, calls: step.calls, mutations: step.mutations, waits });
        return end('approval_timed_out', state);
      }
      waits++;
      const decisions = decisionsFor(message, state);
      if (decisions.length === 0) continue;
      // biome-ignore lint/plugin: the step's record is a RecordedStep (recordStep), JSON data
      step = (await engine.step(`turngate.resume.${turn}.${waits}`, async () =>
        json(recordStep(await loop.resume(state, decisions))),
      )) as unknown as RecordedStep;
    }
    if (waits > 0) await engine.publish?.(WAITING_EVENT, []);
    turns.push({ turn, resumed: step.resumed, calls: step.calls, mutations: step.mutations, waits });
    // biome-ignore lint/plugin: the messages the loop gave, as JSON data: the provider's own messages
    history = [...history, ...(step.messages as unknown as TMessage[])];
    if (step.done) return end('done');
  }
  return end('max_turns');
}
