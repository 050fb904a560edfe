/**
 * The mutation gate, phase 2: `recordMutations` re-closes a turn whose mutation calls were
 * pending, with what the gate ran as their results.
 *
 * @module
 */
import { digest, type JsonValue } from '../canonical/index.ts';
import type { Failure, Result } from '../failures/index.ts';
import { snapshotOwnData } from '../internal/own-data.ts';
import { expectMinted } from './brand.ts';
import { closeTurn, type JoinClosed } from './close-join.ts';
import type { StateArgument } from './messages.ts';
import type { MutationRecord } from './mutation-record.ts';
import { type IntentOutcome, outcomeOf, type RanOutcome } from './intent-claim.ts';
import type { MutationIntent } from './intents.ts';
import type { EffectRecord } from './ledger.ts';
import { own } from '../internal/own-field.ts';
import type { ToolUseRow } from './record-use.ts';
import { ownError, type ToolResult } from './results.ts';
import { notData } from './rows.ts';
import type { ToolDefinitions, ToolsOf } from './tools.ts';
import { firstFailure, fail } from '../failures/internal.ts';

/**
 * How to answer pending calls the gate did not run: `refused` is the refusal of
 * `admitMutation` (each such call is answered `mutation_not_admitted`, naming the classes).
 *
 * @example
 * ```ts
 * import type { RecordMutationsOptions } from 'turngate/types';
 * const options: RecordMutationsOptions = { refused: [{ class: 'mutation.policy_digest_mismatch', detail: 'stale policy' }] };
 * ```
 */
export interface RecordMutationsOptions {
  /** `admitMutation`'s failures, when the gate refused the turn. */
  readonly refused?: readonly Failure[];
  /**
   * What each refused call is answered with, when the caller knows it better than the classes
   * (the tool loop: `not run: the reply was cut off ...`): the message is `<text>; <tool> did
   * not run`, the code `mutation_not_admitted`, `retryable` as given. Default: the classes named.
   */
  readonly why?: { readonly text: string; readonly retryable: boolean };
}

/**
 * Re-closes a turn after its mutation calls went through the gate (phase 2). Each call that was
 * pending gets what the gate did as its result, in the recorded turn and in `results` (what goes
 * back to the provider):
 * - it ran (`performMutationTool`, `performMutation`, `settleMutations`): its validated output,
 *   or the error it threw (its own `errorCode`, else `mutation_failed`);
 * - the gate refused the turn (`options.refused`): `mutation_not_admitted`, naming the classes;
 * - it did not run: `mutation_not_performed`.
 * Its disposition becomes `observed` (the model sees the result). The turn is checked again by
 * the join check with the same context; context rows derived under the default profile are
 * derived again. Intents that ran stay spent in the new turn. `mutations` records each outcome.
 * A turn with no pending call is returned as it is.
 *
 * Failure classes: as `closeJoin` (the re-closed turn must pass the join check again);
 * `tool.schema_invalid` for options that are not plain data.
 *
 * Source: HARNESS-TYPESTATE §5, §6.
 *
 * @param joinClosed - A `JoinClosed` (phase 1) whose `pendingMutations` went through the gate.
 * @param options - The gate's refusal, when it refused.
 * @returns The re-closed `JoinClosed`, with no pending call.
 * @throws {@link TypestateError} when `joinClosed` was not minted by `closeJoin`.
 * @example
 * ```ts
 * import { recordMutations, type JoinClosed } from 'turngate';
 * declare const closed: JoinClosed;
 * const final = recordMutations(closed);
 * if (final.ok) final.value.pendingMutations; //=> []
 * ```
 */
export function recordMutations<TClosed>(
  joinClosed: StateArgument<TClosed, 'JoinClosed', 'call closeJoin(use, context) first'>,
  options?: RecordMutationsOptions,
): Result<JoinClosed<ToolsOf<TClosed>>>;
export function recordMutations(joinClosed: JoinClosed, options: RecordMutationsOptions = {}): Result<JoinClosed> {
  expectMinted(joinClosed, 'JoinClosed');
  const snapshot = snapshotOwnData(options, { root: 'options' });
  if (!snapshot.ok) return notData(firstFailure(snapshot));
  const refused = (snapshot.value as RecordMutationsOptions).refused;
  if (refused !== undefined && !Array.isArray(refused)) {
    return fail('tool.schema_invalid', 'options.refused: expected a list of failures');
  }
  const why = (snapshot.value as RecordMutationsOptions).why;
  if (why !== undefined && (typeof why?.text !== 'string' || typeof why.retryable !== 'boolean')) {
    return fail('tool.schema_invalid', 'options.why: expected { text: string, retryable: boolean }');
  }
  if (joinClosed.pendingMutations.length === 0) return { ok: true, value: joinClosed };
  const pending = new Set(joinClosed.pendingMutations);
  const records: MutationRecord[] = [];
  const answers = new Map<string, ToolResult<ToolDefinitions>>();
  for (const intent of joinClosed.intents) {
    if (intent.kind !== 'tool_call' || !pending.has(intent.toolCallId)) continue;
    const { result, record } = answerOf(intent, outcomeOf(joinClosed, intent), refused, why);
    records.push(record);
    // The output was validated against the tool's schema when it ran: this is where it becomes typed.
    answers.set(intent.toolCallId, result as ToolResult<ToolDefinitions>);
  }
  const results = joinClosed.results.map((r) => answers.get(r.toolCallId) ?? r);
  const uses = joinClosed.uses.map((u): ToolUseRow => {
    const answer = answers.get(u.toolCallId);
    if (answer === undefined) return u;
    return answer.status === 'ok'
      ? { toolCallId: u.toolCallId, disposition: 'observed', resultDigest: answer.resultDigest }
      : { toolCallId: u.toolCallId, disposition: 'observed' };
  });
  return closeTurn({
    callSpec: joinClosed.callSpec,
    tools: joinClosed.tools,
    requests: joinClosed.requests,
    refused: joinClosed.refused,
    results,
    uses,
    context: joinClosed.context as Readonly<Record<string, unknown>>,
    mutations: [...joinClosed.mutations, ...records],
  });
}

/** The record an outcome was replayed from: its own field only (a polluted `Object.prototype` supplies none). */
function replayedOf(outcome: RanOutcome): EffectRecord | undefined {
  return own(outcome, 'replayed');
}

type AnsweredResult = { toolCallId: string; toolName: string } & (
  | { status: 'ok'; output: unknown; resultDigest: string }
  | { status: 'error'; error: ReturnType<typeof ownError> }
);

/** A pending mutation call's result and record: what ran, was replayed or refused, or why it did not run. */
function answerOf(
  intent: MutationIntent & { readonly kind: 'tool_call' },
  outcome: IntentOutcome | undefined,
  refused: readonly Failure[] | undefined,
  why: RecordMutationsOptions['why'],
): { readonly result: AnsweredResult; readonly record: MutationRecord } {
  const base = { toolCallId: intent.toolCallId, toolName: intent.toolName };
  const error = (code: Parameters<typeof ownError>[0], message: string): AnsweredResult => ({
    ...base,
    status: 'error',
    error: ownError(code, message),
  });
  if (outcome?.status === 'ok' || outcome?.status === 'error') {
    const replayed = replayedOf(outcome);
    const record: MutationRecord =
      replayed !== undefined
        ? { outcome: 'replayed', intent, witness: outcome.witness, record: replayed }
        : outcome.status === 'ok'
          ? { outcome: 'performed', intent, witness: outcome.witness }
          : { outcome: 'failed', intent, witness: outcome.witness, error: outcome.error };
    const result: AnsweredResult =
      outcome.status === 'ok'
        ? { ...base, status: 'ok', output: outcome.output, resultDigest: digest(outcome.output as JsonValue) }
        : { ...base, status: 'error', error: outcome.error };
    return { result, record };
  }
  if (outcome?.status === 'refused') {
    const refusedError = own(outcome, 'error');
    return {
      result:
        refusedError === undefined
          ? error('mutation_not_admitted', `${outcome.failure.detail} (${outcome.failure.class})`)
          : { ...base, status: 'error', error: refusedError },
      record: { outcome: 'not_admitted', intent, failures: [outcome.failure] },
    };
  }
  if (refused !== undefined && refused.length > 0) {
    const classes = [...new Set(refused.map((f) => f.class))].join(', ');
    const result: AnsweredResult =
      why === undefined
        ? error(
            'mutation_not_admitted',
            `the mutation gate refused this turn (${classes}); ${intent.toolName} did not run`,
          )
        : {
            ...base,
            status: 'error',
            error: {
              errorCode: 'mutation_not_admitted',
              retryable: why.retryable,
              errorMessage: `${why.text}; ${intent.toolName} did not run`,
            },
          };
    return {
      result,
      record: { outcome: 'not_admitted', intent, failures: refused },
    };
  }
  return {
    result: error('mutation_not_performed', `${intent.toolName} was not run through the mutation gate`),
    record: { outcome: 'not_performed', intent },
  };
}
