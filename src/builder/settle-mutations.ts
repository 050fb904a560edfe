/**
 * The mutation gate for ids from model output: `settleMutations` runs a closed turn's pending
 * mutation calls through the gate and re-closes the turn with what ran.
 *
 * @module
 */
import type { Result } from '../failures/index.ts';
import { own } from '../internal/own-field.ts';
import { expectMinted } from '../typestate/internal.ts';
import type { StateArgument, ToolsOf } from '../typestate/index.ts';
import { runToolIntent } from '../typestate/internal.ts';
import { handlerOf } from './settle.ts';
import {
  admitMutation,
  recordMutations,
  type AdmitOptions,
  type JoinClosed,
  type MutationPolicy,
  type MutationToolName,
  type MutationWitness,
  type ParsedToolInput,
  type ToolDefinitionsOf,
  type ToolOutput,
} from '../typestate/index.ts';

/**
 * One handler per `mutation: true` tool, typed by the tool: it takes the bound input and the
 * witness it runs under, and returns (or resolves to) the tool's output.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type MutationHandlers } from 'turngate';
 * class Tools extends defineTools({
 *   update_issue: { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true },
 * }) {}
 * const handlers: MutationHandlers<Tools> = { update_issue: async ({ id }) => ({ ok: id.length > 0 }) };
 * ```
 */
export type MutationHandlers<TTools extends ToolDefinitionsOf<TTools>> = {
  readonly [TName in MutationToolName<TTools>]: (
    input: ParsedToolInput<TTools, TName>,
    witness: MutationWitness,
  ) => ToolOutput<TTools, TName> | Promise<ToolOutput<TTools, TName>>;
};

/**
 * Options of {@link settleMutations}: the admission's effect ledger and idempotency key, and an
 * `AbortSignal` after which no further mutation is claimed or run.
 *
 * @example
 * ```ts
 * import { MemoryEffectLedger } from 'turngate';
 * import type { SettleMutationsOptions } from 'turngate/types';
 * const options: SettleMutationsOptions = { ledger: new MemoryEffectLedger(), signal: AbortSignal.timeout(30_000) };
 * ```
 */
export interface SettleMutationsOptions extends AdmitOptions {
  /** Once aborted, the calls not yet started are neither claimed nor run. */
  readonly signal?: AbortSignal;
}

/**
 * Phase 2 for a turn whose model called mutation tools: admits the closed turn
 * (`admitMutation` with `policy`), runs each pending mutation call once with its handler and
 * exactly its bound input (`performMutationTool`, in call order, one after another), and
 * re-closes the turn with what ran as those calls' results (`recordMutations`). When the gate
 * refuses the turn, nothing runs and each pending call is answered `mutation_not_admitted`
 * naming the failure classes; the turn still closes, so the provider gets an answer for every
 * call. A handler that throws, or returns an output that fails its schema, gives that call an
 * error result (`mutation_failed`, or the error's own code). A turn with no pending call is
 * returned as it is.
 *
 * Source: HARNESS-TYPESTATE §6; TOOL-CALLING-HARNESS-TYPESTATE §4.6.
 *
 * @param joinClosed - A closed turn (phase 1), with its pending mutation calls.
 * @param handlers - One handler per `mutation: true` tool.
 * @param policy - The active mutation policy and capability claims (default: the default
 *   profile's mutation policy).
 * @param options - The effect ledger and idempotency key (see `AdmitOptions`): with a ledger, a
 *   call whose effect the ledger already holds is not run again; it is answered with the
 *   recorded output or error, or `effect_outcome_unknown` for an effect started and never
 *   finished (its record is `replayed`). `signal`: once it aborts, no further call is claimed
 *   or run (each is answered `mutation_not_performed`, its record `not_performed`); a call
 *   already running is not interrupted here (its handler reads the signal).
 * @returns The re-closed turn (`mutations` says what the gate did), or the join check's failures.
 * @throws {@link TypestateError} when `joinClosed` was not minted by `closeJoin`.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, settleMutations, type JoinClosed } from 'turngate';
 * class Tools extends defineTools({
 *   update_issue: { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true },
 * }) {}
 * declare const closed: JoinClosed<Tools>;
 * const final = await settleMutations(closed, { update_issue: async () => ({ ok: true }) });
 * if (final.ok) final.value.mutations.map((m) => m.outcome);
 * ```
 */
export function settleMutations<TClosed>(
  joinClosed: StateArgument<TClosed, 'JoinClosed', 'call closeJoin(use, context) first'>,
  // NoInfer: typed by the registry, so a literal output is not widened (see `settle`).
  handlers: NoInfer<MutationHandlers<ToolsOf<TClosed>>>,
  policy?: MutationPolicy,
  options?: SettleMutationsOptions,
): Promise<Result<JoinClosed<ToolsOf<TClosed>>>>;
export async function settleMutations(
  joinClosed: JoinClosed,
  handlers: object,
  policy?: MutationPolicy,
  options?: SettleMutationsOptions,
): Promise<Result<JoinClosed>> {
  expectMinted(joinClosed, 'JoinClosed');
  if (joinClosed.pendingMutations.length === 0) return { ok: true, value: joinClosed };
  const signal = options === undefined ? undefined : own(options, 'signal');
  const admitted = admitMutation(joinClosed, policy, options === undefined ? undefined : admitOptionsOf(options));
  if (!admitted.ok) return recordMutations(joinClosed, { refused: admitted.failures });
  const ready = admitted.value;
  const inputs = new Map(joinClosed.requests.map((r) => [r.toolCallId, r.input]));
  for (const intent of ready.intents) {
    if (intent.kind !== 'tool_call') continue;
    if (signal?.aborted === true) break;
    const handler = handlerOf(handlers, intent.toolName);
    if (typeof handler !== 'function') continue;
    const run = handler as (input: unknown, witness: MutationWitness) => unknown;
    // What ran (or threw) is kept for recordMutations, which answers the call with it.
    await runToolIntent(
      ready,
      { toolCallId: intent.toolCallId, toolName: intent.toolName, input: inputs.get(intent.toolCallId) },
      run,
    ).catch(() => undefined);
  }
  return recordMutations(joinClosed);
}

/** The admission's own options (the ledger and key; not the signal), read from own fields only. */
function admitOptionsOf(options: SettleMutationsOptions): AdmitOptions {
  const ledger = own(options, 'ledger');
  const idempotencyKey = own(options, 'idempotencyKey');
  const approvals = own(options, 'approvals');
  return {
    ...(ledger === undefined ? {} : { ledger }),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    ...(approvals === undefined ? {} : { approvals }),
  };
}
