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
import { toolSchemas } from './declarations.ts';
import {
  callSpec,
  closeJoin,
  effectKey,
  requestTools,
  recordMutations,
  MemoryEffectLedger,
  type AdmitOptions,
  type ApprovalLedger,
  type JoinClosed,
  type ProviderStopReason,
  type ToolDefinitions,
  type ToolDefinitionsOf,
  type ToolRegistry,
} from '../../typestate/index.ts';
import { settle, useAll, settleMutations } from '../../builder/index.ts';
import { toEvidence, type TranscriptFormat } from '../../transcripts/index.ts';
import { checkStep, refusal, refusalText } from './step-check.ts';
import { ownError, registryDefinitions } from '../../typestate/internal.ts';
import { own } from '../../internal/own-field.ts';
import { type CallAnswer, type ProviderCodec, type ReadReply, ToolLoopError } from './codec.ts';
import type {
  AnswerOptions,
  LoopContext,
  LoopSettings,
  LoopStep,
  ToolLoop,
  ToolLoopOptions,
  WideStep,
} from './loop-types.ts';
import {
  isRecordedReply,
  messagesDigest,
  REPLY_RECORD,
  recordOf,
  revive,
  turnKey,
  writeAhead,
} from './recorded-reply.ts';
import { recordDecisions, waitingApprovals, waitingState } from './loop-approvals.ts';
import { mutationBlock, notRun, stepHandlers } from './step-gate.ts';

export { ToolLoopError } from './codec.ts';
export type { CallAnswer, ProviderCodec, ReadReply, RecordedReply, ToolLoopErrorCode } from './codec.ts';
export type {
  AnswerOptions,
  ApprovalAnswer,
  HandlerNamesCheck,
  LoopHandlers,
  LoopStep,
  NoSessionType,
  ReadFailurePolicy,
  StepContext,
  ToolLoop,
  ToolLoopOptions,
  ToolsBeingInferred,
  WaitingState,
} from './loop-types.ts';

const NO_STEP = {
  closed: undefined,
  results: [],
  mutations: [],
  failures: [],
  resumed: false,
  approvals: [],
  state: undefined,
} as const;

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
  const judged = [...read.messages, ...(calls.length === 0 ? [] : codec.answers(calls.map(placeholder), read))];
  const report = checkStep(ctx, history, judged, false);
  const failures = refusal(report);
  if (failures !== undefined) {
    throw new ToolLoopError(
      `${format}: the reply was refused before any tool ran: the history with it is not a transcript the provider accepts: ${refusalText(report)}`,
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

/** The admission options of one reply: the loop's ledger, and keys scoped by the session (and the reply, for positional ids). */
function admission(ctx: LoopContext, read: ReadReply<unknown>, history: readonly unknown[]): AdmitOptions {
  const user = ctx.options.idempotencyKey;
  // Positional ids (`send_email#1`) are the same in every reply: the key also holds the reply.
  const reply = read.positionalIds === true ? (read.id ?? `history:${messagesDigest(history)}`) : undefined;
  const policy = ctx.options.approvals;
  return {
    ledger: ctx.ledger,
    ...(policy === undefined
      ? {}
      : {
          approvals: {
            policy,
            now: () => Date.now(),
            schemaDigest: (toolName: string) => ctx.schemaDigests.get(toolName) ?? '',
            sessionId: ctx.scope,
          },
        }),
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

/** What the mutations of a closed turn are run with. */
interface MutationRun {
  readonly step0: WideStep;
  readonly sdkRefused: readonly { readonly toolCallId: string; readonly toolName: string }[];
  readonly handlers: Record<string, (input: unknown, second: unknown) => unknown>;
  readonly signal: AbortSignal | undefined;
}

/**
 * The mutations of a closed turn: kept from running (a block from `mutationBlock`: every pending call answered
 * `mutation_not_admitted` with why), or run through the gate, once per intent, keys scoped.
 */
async function runMutations(
  ctx: LoopContext,
  read: ReadReply<unknown>,
  history: readonly unknown[],
  closed: JoinClosed<ToolDefinitions>,
  run: MutationRun,
): Promise<WideStep> {
  const { step0, signal } = run;
  const block = mutationBlock(ctx, read, closed.results, run.sdkRefused, signal);
  if (block !== undefined) {
    const refused = recordMutations(closed, {
      refused: [block.failure],
      why: { text: block.text, retryable: block.retryable },
    });
    const step: WideStep = refused.ok
      ? {
          ...step0,
          closed: refused.value,
          results: refused.value.results,
          mutations: refused.value.mutations,
          failures: [block.failure],
        }
      : { ...step0, results: closed.results, failures: refused.failures };
    return step;
  }
  const admit = admission(ctx, read, history);
  // A call that waits for a person's yes holds every mutation of the turn: nothing mutates yet.
  const waiting = await waitingApprovals(ctx, closed, admit);
  if (waiting.length > 0) {
    const state = waitingState(history, recordOf(read), waiting);
    return { ...step0, closed, results: closed.results, approvals: waiting, state };
  }
  // biome-ignore lint/plugin: the wrapped handlers are the registry's own, one per tool by name (stepHandlers); the gate checks every output against its schema
  const final = await settleMutations(closed, run.handlers as never, ctx.options.policy, {
    ...admit,
    ...(signal === undefined ? {} : { signal }),
  });
  const step: WideStep = final.ok
    ? { ...step0, closed: final.value, results: final.value.results, mutations: final.value.mutations, failures: [] }
    : { ...step0, results: closed.results, failures: final.failures };
  return step;
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
    const report = checkStep(ctx, history, messages, true);
    const failures = refusal(report);
    if (failures !== undefined) {
      throw new ToolLoopError(
        `${format}: a result made the history one the provider refuses (the effects are recorded): ${refusalText(report)}`,
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
  const step: WideStep = closed.ok
    ? await runMutations(ctx, read, history, closed.value, { step0, sdkRefused, handlers, signal })
    : { ...step0, results: settled.value.results, failures: closed.failures };
  if (step.approvals.length > 0) return { done: true, messages: [], ...step };
  const aborted = signal?.aborted === true;
  const results = step.results.map((result) => notRun(result, step.failures, aborted));
  const answers = codec.answers(
    results.map((result) => ({ toolCallId: result.toolCallId, toolName: result.toolName, result })),
    read,
  );
  return finish([...read.messages, ...answers], { ...step, results }, false);
}

/** The loop's settings, each from the caller's own field (the ledger and session are read apart). */
function ownSettings(given: ToolLoopOptions<ToolDefinitions>): LoopSettings<ToolDefinitions> {
  const settings: Record<string, unknown> = { tools: own(given, 'tools'), handlers: own(given, 'handlers') };
  for (const key of [
    'policy',
    'idempotencyKey',
    'readFailures',
    'mutationStopReasons',
    'approvals',
    'approvalExpiresInMs',
  ] as const) {
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
export function createToolLoop<
  TTools extends ToolDefinitionsOf<TTools>,
  TReply,
  TMessage,
  TDeclarations,
  TSession extends string | undefined,
  TFormat extends Exclude<TranscriptFormat, 'chat'>,
>(
  codec: ProviderCodec<TReply, TMessage, TFormat>,
  declarations: TDeclarations,
  options: ToolLoopOptions<TTools, TSession>,
): ToolLoop<TTools, TReply, TMessage, TDeclarations, TFormat> {
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
  const effects = ledger ?? new MemoryEffectLedger();
  if (settings.approvals !== undefined && typeof (effects as Partial<ApprovalLedger>).readApproval !== 'function') {
    throw new TypeError(
      `${codec.format} toolLoop: options.ledger: approvals need a ledger that keeps them (a store's approvalLedger(), or MemoryEffectLedger)`,
    );
  }
  const ctx: LoopContext = {
    // biome-ignore lint/plugin: the loop runs on the codec's own messages; the typed signature is what the caller sees
    codec: codec as never as ProviderCodec<unknown, unknown>,
    options: { ...settings, ...(sessionId === undefined ? {} : { sessionId }) },
    ledger: effects,
    scope: sessionId ?? '',
    histories: new WeakMap(),
    schemaDigests: new Map(
      settings.approvals === undefined
        ? []
        : toolSchemas(settings.tools, given).map((schema) => [schema.name, digest(schema.parameters as JsonValue)]),
    ),
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
    async resume(state, decisions, answerOptions = {}) {
      await recordDecisions(ctx, state, decisions);
      turns++;
      const signal = own(answerOptions, 'signal');
      // biome-ignore lint/plugin: the loop runs on the registry's own definitions and handlers; the typed signature is what the caller sees
      return answerTurn(
        ctx,
        state.history,
        state.reply,
        turns,
        signal === undefined ? {} : { signal },
      ) as never as Promise<LoopStep<TTools, TMessage>>;
    },
    check: (history) => checkStep(ctx, history, [], false),
    async recorded(history) {
      const record = await ctx.ledger.read(turnKey(ctx.scope, history));
      return record?.state === 'completed' && record.toolName === REPLY_RECORD && isRecordedReply(record.output)
        ? record.output
        : undefined;
    },
  };
}
