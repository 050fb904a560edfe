/**
 * The mutation gate, the effect: `performMutation` and `performMutationTool` run one bound
 * intent of a `MutationReady`, with exactly its input, once; they are the only door to a side
 * effect. What ran is kept for `recordMutations`.
 *
 * @module
 */
import { snapshotOwnData, snapshotProblem } from '../internal/own-data.ts';
import { expectMinted } from './brand.ts';
import { TypestateError } from './errors.ts';
import { claim, finish, type IntentTarget, keep, type RanOutcome, replay, thrownEnvelope } from './intent-claim.ts';
import type { MutationIntent } from './intents.ts';
import { recordedAnswer, type EffectRecord } from './ledger.ts';
import type { MutationToolCheck, StateArgument } from './messages.ts';
import type { MutationReady } from './mutation.ts';
import type { MutationWitness } from './mutation-record.ts';
import { PAYLOAD_MAX_DEPTH } from './rows.ts';

import { formatIssues, validateWith } from './schema.ts';
import {
  registryDefinitions,
  type MutationToolName,
  type ParsedToolInput,
  type ToolDefinitionsOf,
  type ToolInput,
  type ToolName,
  type ToolOutput,
  type ToolsOf,
} from './tools.ts';

export type { IntentTarget } from './intent-claim.ts';

/**
 * What a performed mutation returns: the effect's value, the intent it ran, and the witness.
 *
 * @example
 * ```ts
 * import type { PerformedMutation } from 'turngate/types';
 * declare const performed: PerformedMutation<{ ok: boolean }>;
 * performed.intent.inputDigest;
 * ```
 */
export interface PerformedMutation<TValue> {
  /** The effect's (awaited) return value; for `performMutationTool`, the validated output. */
  readonly value: TValue;
  /** The intent that ran. */
  readonly intent: MutationIntent;
  /** The witness of the admission it ran under. */
  readonly witness: MutationWitness;
  /**
   * Present when the effect did not run because the admission's effect ledger already held it
   * as `completed`: the record, whose `output` is `value`. (A `started`, `unknown_after_crash`
   * or `failed` record is thrown as {@link EffectAlreadyRecorded} instead.)
   */
  readonly replayed?: EffectRecord;
}

/**
 * Thrown by `performMutation` and `performMutationTool`, before the effect, when the admission's
 * effect ledger already holds the intent as `started`, `failed` or `unknown_after_crash`: the
 * effect ran (or may have run) in an earlier turn, retry, process or run, and does not run again.
 * `record` says what is known. (A `completed` record is returned as the value instead.)
 *
 * @example
 * ```ts
 * import { EffectAlreadyRecorded, performMutation, type MutationReady } from 'turngate';
 * declare const ready: MutationReady;
 * await performMutation(ready, { toolCallId: 'toolu_05', input: { to: 'ops@example.com' } }, () => 'sent').catch((error: unknown) => {
 *   if (error instanceof EffectAlreadyRecorded) error.record.state;
 * });
 * ```
 */
export class EffectAlreadyRecorded extends Error {
  /** What the ledger holds. */
  readonly record: EffectRecord;
  /**
   * Creates the error.
   *
   * @param record - What the ledger holds.
   */
  constructor(record: EffectRecord) {
    const answer = recordedAnswer(record);
    super(
      `the effect ledger already holds ${record.toolName} (${record.toolCallId}) as ${record.state}: it was not run again` +
        (answer.status === 'error' ? ` (${answer.error.errorMessage})` : ''),
    );
    this.name = 'EffectAlreadyRecorded';
    this.record = record;
  }
}

/**
 * Runs one mutation the turn declared: the only door to a side effect. The `MutationReady` must
 * come from `admitMutation`; `target` must name one of its intents (a pending mutation call by
 * `toolCallId`, or a consumed row's `mutationInputRef`) with exactly the bound input (equal
 * canonical digest); the intent must not have run (under any admission of the same turn). All
 * of this is checked, and the intent spent, before the effect runs, which receives the input as
 * own data. A pending call run this way gets the effect's value as its result if it passes the
 * tool's output schema (see `recordMutations`).
 *
 * Source: HARNESS-TYPESTATE §2, §6.
 *
 * @param ready - A `MutationReady` from `admitMutation`.
 * @param target - The intent and its input.
 * @param effect - The side effect; receives the bound input and the witness.
 * @returns The effect's value, the intent and the witness.
 * @throws {@link TypestateError} (as a rejection) before the effect: `forged` or `wrong_state`
 *   (not a minted `MutationReady`), `not_bound` (no such intent), `input_mismatch` (another
 *   input), `spent` (it already ran in this turn). {@link EffectAlreadyRecorded} before the
 *   effect when the admission's ledger holds it `started`, `failed` or `unknown_after_crash`.
 *   `TypeError` for an idempotency key that is not a non-blank string. Whatever the effect
 *   throws, and the ledger's own error when it cannot claim (nothing ran) or record the end (the
 *   effect ran; its record stays `started` and later reads `unknown_after_crash`).
 * @example
 * ```ts
 * import { performMutation, type MutationReady } from 'turngate';
 * declare const ready: MutationReady;
 * const { value, witness } = await performMutation(
 *   ready,
 *   { mutationInputRef: 'mutation://issues/BILL-7', input: { id: 'BILL-7', status: 'closed' } },
 *   async (input, w) => `updated ${JSON.stringify(input)} under ${w.joinSetDigest}`,
 * );
 * ```
 */
export function performMutation<TReady, TValue>(
  ready: StateArgument<TReady, 'MutationReady', 'call admitMutation(joinClosed, policy) first'>,
  target: IntentTarget,
  effect: (input: unknown, witness: MutationWitness) => TValue | Promise<TValue>,
): Promise<PerformedMutation<Awaited<TValue>>>;
export async function performMutation<TValue>(
  ready: MutationReady,
  target: IntentTarget,
  effect: (input: unknown, witness: MutationWitness) => TValue | Promise<TValue>,
): Promise<PerformedMutation<Awaited<TValue>>> {
  const claimed = await claim(ready, target, undefined);
  const intent = claimed.intent;
  if (claimed.kind === 'replay') {
    const outcome = replay(ready, intent, claimed.record);
    if (outcome.status === 'error') throw new EffectAlreadyRecorded(claimed.record);
    // A completed record's output is the JSON copy the ledger kept of the effect's value.
    return { value: outcome.output as Awaited<TValue>, intent, witness: ready.witness, replayed: claimed.record };
  }
  let value: Awaited<TValue>;
  try {
    value = await effect(claimed.input, ready.witness);
  } catch (error) {
    const failed: RanOutcome = {
      status: 'error',
      error: thrownEnvelope(error, 'mutation_failed', 'the mutation'),
      witness: ready.witness,
    };
    keep(ready.joinClosed, intent, failed);
    await finish(ready, claimed.entry, failed);
    throw error;
  }
  const outcome: RanOutcome =
    intent.kind === 'tool_call'
      ? toolOutcome(ready, intent.toolName, value)
      : { status: 'ok', output: value, witness: ready.witness };
  if (intent.kind === 'tool_call') keep(ready.joinClosed, intent, outcome);
  await finish(ready, claimed.entry, outcome);
  return { value, intent, witness: ready.witness };
}

function toolOutcome<TTools extends ToolDefinitionsOf<TTools>>(
  ready: MutationReady<TTools>,
  toolName: string,
  value: unknown,
): RanOutcome {
  const definition = registryDefinitions(ready.joinClosed.tools)[toolName];
  const checked = definition === undefined ? undefined : validateWith(definition.output, value);
  const data = checked?.ok === true ? snapshotOwnData(checked.value, { maxDepth: PAYLOAD_MAX_DEPTH }) : undefined;
  if (data?.ok === true) return { status: 'ok', output: data.value, witness: ready.witness };
  const why =
    checked === undefined
      ? `${toolName} is not in the registry`
      : !checked.ok
        ? formatIssues(checked.failures)
        : data !== undefined && !data.ok
          ? snapshotProblem(data)
          : '';
  return {
    status: 'error',
    error: {
      errorCode: 'mutation_failed',
      retryable: false,
      errorMessage: `${toolName} ran but returned an output that does not match its schema: ${why}`,
    },
    witness: ready.witness,
  };
}

/**
 * A call of a registered `mutation: true` tool, for {@link performMutationTool}.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { MutationToolCall } from 'turngate/types';
 * class Tools extends defineTools({ update_issue: { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true } }) {}
 * const call: MutationToolCall<Tools, 'update_issue'> = { toolCallId: 'toolu_05', toolName: 'update_issue', input: { id: 'BILL-7' } };
 * ```
 */
export type MutationToolCall<
  TTools extends ToolDefinitionsOf<TTools>,
  TName extends MutationToolName<TTools>,
> = IntentTarget<ParsedToolInput<TTools, TName> | ToolInput<TTools, TName>> & {
  /** The mutation tool. */
  readonly toolName: TName;
};

/**
 * Runs a registered `mutation: true` tool through the gate: as {@link performMutation}, and the
 * tool's output is validated against its output schema. For a pending mutation call the tool
 * must be the one the model called; its output (or the error) becomes that call's result when
 * `recordMutations` re-closes the turn.
 *
 * @param ready - A `MutationReady` from `admitMutation`.
 * @param call - The intent (`toolCallId` or `mutationInputRef`), the tool and exactly the bound input.
 * @param execute - The tool's implementation; receives the bound input and the witness.
 * @returns The validated output, the intent and the witness.
 * @throws {@link TypestateError} as {@link performMutation}, before the effect; `TypeError` when
 *   the tool is not a `mutation: true` tool of the turn's registry (before the effect) or its
 *   output fails the output schema (after it); whatever `execute` throws.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, performMutationTool, type MutationReady } from 'turngate';
 * class Tools extends defineTools({ update_issue: { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true } }) {}
 * declare const ready: MutationReady<Tools>;
 * const { value } = await performMutationTool(ready, { toolCallId: 'toolu_05', toolName: 'update_issue', input: { id: 'BILL-7' } }, async () => ({ ok: true }));
 * ```
 */
export function performMutationTool<TReady, TName extends ToolName<ToolsOf<TReady>>>(
  ready: StateArgument<TReady, 'MutationReady', 'call admitMutation(joinClosed, policy) first'>,
  call: IntentTarget<ParsedToolInput<ToolsOf<TReady>, TName> | ToolInput<ToolsOf<TReady>, TName>> & {
    readonly toolName: MutationToolCheck<ToolsOf<TReady>, TName>;
  },
  // NoInfer: typed by the tool, so a literal output is not widened (see `settle`).
  execute: NoInfer<
    (
      input: ParsedToolInput<ToolsOf<TReady>, TName>,
      witness: MutationWitness,
    ) => ToolOutput<ToolsOf<TReady>, TName> | Promise<ToolOutput<ToolsOf<TReady>, TName>>
  >,
): Promise<PerformedMutation<ToolOutput<ToolsOf<TReady>, TName>>>;
export async function performMutationTool(
  ready: MutationReady,
  call: IntentTarget & { readonly toolName: string },
  execute: (input: never, witness: MutationWitness) => unknown,
): Promise<PerformedMutation<unknown>> {
  // The overload types `execute` by the tool: its input passed the tool's input schema when the
  // turn was requested (the same digest), and its output is validated before it is returned.
  return runToolIntent(ready, call, execute as (input: unknown, witness: MutationWitness) => unknown);
}

/**
 * Runs a mutation tool for an intent, untyped: the checks and records of
 * {@link performMutationTool}. Internal: `settleMutations` dispatches by tool name with it.
 */
export async function runToolIntent<TTools extends ToolDefinitionsOf<TTools>>(
  ready: MutationReady<TTools>,
  call: IntentTarget & { readonly toolName: string },
  execute: (input: unknown, witness: MutationWitness) => unknown,
): Promise<PerformedMutation<unknown>> {
  expectMinted(ready, 'MutationReady');
  const toolName = call.toolName;
  const definition = registryDefinitions(ready.joinClosed.tools)[toolName];
  if (definition?.mutation !== true) {
    throw new TypeError(
      `performMutationTool: ${JSON.stringify(toolName)} is not a mutation: true tool of this turn's registry`,
    );
  }
  // A mutation_input intent was built by the turn, not requested through the tool: its input
  // passes the tool's input schema here, before anything runs.
  const parseInput = (input: unknown): unknown => {
    const checked = validateWith(definition.input, input);
    if (checked.ok) return checked.value;
    throw new TypestateError(
      'input_mismatch',
      'MutationReady',
      `the bound input of mutationInputRef ${JSON.stringify(call.mutationInputRef)} does not match ${toolName}'s input schema: ${formatIssues(checked.failures)}`,
    );
  };
  const claimed = await claim(
    ready,
    call,
    toolName,
    typeof call.mutationInputRef === 'string' ? parseInput : undefined,
  );
  const intent = claimed.intent;
  if (claimed.kind === 'replay') {
    const outcome = replay(ready, intent, claimed.record);
    if (outcome.status === 'error') throw new EffectAlreadyRecorded(claimed.record);
    return { value: outcome.output, intent, witness: ready.witness, replayed: claimed.record };
  }
  let value: unknown;
  try {
    value = await execute(claimed.input, ready.witness);
  } catch (error) {
    const failed: RanOutcome = {
      status: 'error',
      error: thrownEnvelope(error, 'mutation_failed', toolName),
      witness: ready.witness,
    };
    keep(ready.joinClosed, intent, failed);
    await finish(ready, claimed.entry, failed);
    throw error;
  }
  const outcome = toolOutcome(ready, toolName, value);
  keep(ready.joinClosed, intent, outcome);
  await finish(ready, claimed.entry, outcome);
  if (outcome.status === 'error') throw new TypeError(`performMutationTool: ${outcome.error.errorMessage}`);
  return { value: outcome.output, intent, witness: ready.witness };
}
