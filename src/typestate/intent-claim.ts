/**
 * What the mutation gate keeps about one intent of a `MutationReady`: the claim before its
 * effect (every check, spending the intent in its turn, the effect ledger's claim), what ran
 * (kept for `recordMutations`), and the end or replay of a recorded effect. `performMutation`
 * and `performMutationTool` (perform.ts) run the effect between the claim and the end.
 *
 * @module
 */
import { digest, isBlank, type JsonValue, trimWhiteSpace } from '../canonical/index.ts';
import type { Failure } from '../failures/index.ts';
import { snapshotOwnData, snapshotProblem } from '../internal/own-data.ts';
import { expectMinted, spendOnce } from './brand.ts';
import { turnLineage } from './close-join.ts';
import { TypestateError } from './errors.ts';
import { intentKey, type MutationIntent } from './intents.ts';
import type { ApprovalLedger } from './approval-records.ts';
import { type ApprovalPolicy, beginGated } from './approval-policy.ts';
import { approvalAnswer } from './approvals.ts';
import {
  type AdmissionApprovals,
  admissionOf,
  effectKey,
  type EffectClaim,
  type EffectEntry,
  type EffectLedger,
  type EffectRecord,
  readClaim,
  recordedAnswer,
} from './ledger.ts';
import type { MutationReady } from './mutation.ts';
import type { MutationWitness } from './mutation-record.ts';
import type { ToolErrorEnvelope } from './results.ts';
import { PAYLOAD_MAX_DEPTH } from './rows.ts';
import type { ToolDefinitionsOf } from './tools.ts';

/**
 * Which bound intent to run, and its input: a pending mutation call by `toolCallId`, or a
 * consumed row's mutation input by `mutationInputRef`. The input must be exactly the bound one
 * (equal canonical JSON digest).
 *
 * @example
 * ```ts
 * import type { IntentTarget } from 'turngate/types';
 * const byCall: IntentTarget = { toolCallId: 'toolu_05', input: { id: 'BILL-7', status: 'closed' } };
 * const byRef: IntentTarget = { mutationInputRef: 'mutation://issues/BILL-7', input: { id: 'BILL-7', status: 'closed' } };
 * ```
 */
export type IntentTarget<TInput = unknown> =
  | {
      /** The pending mutation call. */
      readonly toolCallId: string;
      readonly mutationInputRef?: undefined;
      /** Exactly its bound input. */
      readonly input: TInput;
    }
  | {
      readonly toolCallId?: undefined;
      /** The consumed row's mutation input ref. */
      readonly mutationInputRef: string;
      /** Exactly its bound input. */
      readonly input: TInput;
    };

/** What ran for an intent of a closed turn. Internal: `recordMutations` reads it. */
export type IntentOutcome =
  | {
      readonly status: 'ok';
      readonly output: unknown;
      readonly witness: MutationWitness;
      readonly replayed?: EffectRecord;
    }
  | {
      readonly status: 'error';
      readonly error: ToolErrorEnvelope;
      readonly witness: MutationWitness;
      readonly replayed?: EffectRecord;
    }
  | {
      /** Refused before the effect, with a class (the ledger's record names another tool or input; an approval refused it). */
      readonly status: 'refused';
      readonly failure: Failure;
      /** The error the call is answered with (default: `mutation_not_admitted` with the failure's detail). */
      readonly error?: ToolErrorEnvelope;
      readonly witness: MutationWitness;
    };

/** What ran, or was replayed, for an intent: an outcome that is not a refusal. Internal. */
export type RanOutcome = Exclude<IntentOutcome, { readonly status: 'refused' }>;

const outcomes = new WeakMap<object, Map<string, IntentOutcome>>();

/** What ran for `intent` of the turn of `closed` (any of its closures), if anything. Internal. */
export function outcomeOf(
  closed: { readonly requests: readonly unknown[] },
  intent: MutationIntent,
): IntentOutcome | undefined {
  return outcomes.get(turnLineage(closed))?.get(intentKey(intent));
}

/** Records what ran for `intent` of the turn of `closed`, for every closure of that turn to see (`outcomeOf`). Internal. */
export function keep(
  closed: { readonly requests: readonly unknown[] },
  intent: MutationIntent,
  outcome: IntentOutcome,
): void {
  const lineage = turnLineage(closed);
  let byKey = outcomes.get(lineage);
  if (byKey === undefined) {
    byKey = new Map();
    outcomes.set(lineage, byKey);
  }
  byKey.set(intentKey(intent), outcome);
}

/** The envelope of an error a mutation threw: its own code and retryability when it has them. */
export function thrownEnvelope(error: unknown, fallbackCode: string, what: string): ToolErrorEnvelope {
  let code: unknown;
  let retryable: unknown;
  let message: unknown;
  let name = 'a value';
  try {
    if (error !== null && typeof error === 'object') {
      const own = (key: string) => (Object.hasOwn(error, key) ? (error as Record<string, unknown>)[key] : undefined);
      code = own('errorCode') ?? own('code');
      retryable = own('retryable');
      message = error instanceof Error ? error.message : own('message');
      name = error instanceof Error ? error.name : 'an object';
    } else {
      message = String(error);
    }
  } catch {
    // A getter or Proxy trap threw while reading the error: keep the defaults.
  }
  const text = typeof message === 'string' ? trimWhiteSpace(message) : '';
  return {
    errorCode: typeof code === 'string' && !isBlank(code) ? code : fallbackCode,
    retryable: typeof retryable === 'boolean' ? retryable : false,
    errorMessage: text !== '' ? text : `${what} threw ${name} with no message`,
  };
}

/** A claimed intent: run it (`entry` is its ledger claim, when there is a ledger), or answer it from its record. */
export type Claim =
  | {
      readonly kind: 'run';
      readonly intent: MutationIntent;
      readonly input: unknown;
      readonly entry: EffectEntry | undefined;
    }
  | { readonly kind: 'replay'; readonly intent: MutationIntent; readonly record: EffectRecord };

const intentIndexes = new WeakMap<object, ReadonlyMap<string, MutationIntent>>();

/** The intent `target` names in `ready` (the first one, as the intents list them), found by key. */
function intentOf(
  ready: { readonly intents: readonly MutationIntent[] },
  target: IntentTarget,
): MutationIntent | undefined {
  let index = intentIndexes.get(ready);
  if (index === undefined) {
    const built = new Map<string, MutationIntent>();
    for (const intent of ready.intents) {
      const key = intentKey(intent);
      if (!built.has(key)) built.set(key, intent);
    }
    index = built;
    intentIndexes.set(ready, index);
  }
  if (typeof target?.toolCallId === 'string')
    return index.get(intentKey({ kind: 'tool_call', toolCallId: target.toolCallId }));
  if (typeof target?.mutationInputRef === 'string')
    return index.get(intentKey({ kind: 'mutation_input', mutationInputRef: target.mutationInputRef }));
  return undefined;
}

/**
 * Checks everything before the effect, spends the intent in its turn, and claims it in the
 * admission's effect ledger. Throws `TypestateError`.
 */
export async function claim<TTools extends ToolDefinitionsOf<TTools>>(
  ready: MutationReady<TTools>,
  target: IntentTarget,
  toolName: string | undefined,
  parseInput?: (input: unknown) => unknown,
): Promise<Claim> {
  expectMinted(ready, 'MutationReady');
  const byCall = typeof target?.toolCallId === 'string';
  const intent = intentOf(ready, target);
  const named = byCall
    ? `tool call ${JSON.stringify(target.toolCallId)}`
    : `mutationInputRef ${JSON.stringify(target?.mutationInputRef)}`;
  if (intent === undefined) {
    throw new TypestateError('not_bound', 'MutationReady', `the closed turn declares no mutation intent for ${named}`);
  }
  if (toolName !== undefined && intent.kind === 'tool_call' && intent.toolName !== toolName) {
    throw new TypestateError('not_bound', 'MutationReady', `${named} calls ${intent.toolName}, not ${toolName}`);
  }
  const input = snapshotOwnData(target.input, { root: 'input' });
  if (!input.ok || digest(input.value as JsonValue) !== intent.inputDigest) {
    throw new TypestateError(
      'input_mismatch',
      'MutationReady',
      input.ok
        ? `the input of ${named} is not the bound input (digest ${digest(input.value as JsonValue)}, bound ${intent.inputDigest})`
        : `the input of ${named} is not JSON data: ${snapshotProblem(input)}`,
    );
  }
  const parsed = parseInput === undefined ? input.value : parseInput(input.value);
  if (!spendOnce(turnLineage(ready.joinClosed), intentKey(intent))) {
    throw new TypestateError('spent', 'MutationReady', `${named} already ran for this turn`);
  }
  const { ledger, idempotencyKey } = admissionOf(ready);
  if (ledger === undefined) return { kind: 'run', intent, input: parsed, entry: undefined };
  const runBy = toolName ?? (intent.kind === 'tool_call' ? intent.toolName : intent.mutationInputRef);
  const key = idempotencyKey === undefined ? effectKey(intent, runBy) : idempotencyKey(intent);
  if (typeof key !== 'string' || isBlank(key)) {
    throw new TypeError(`options.idempotencyKey: expected a non-blank string for ${named}, got ${typeof key}`);
  }
  const entry: EffectEntry = {
    key,
    toolCallId: intent.toolCallId,
    toolName: runBy,
    inputDigest: intent.inputDigest,
    joinSetDigest: ready.witness.joinSetDigest,
  };
  const approvals = admissionOf(ready).approvals;
  const begun =
    approvals === undefined
      ? readClaim(await ledger.begin(entry))
      : await beginWithApproval(ready, approvals, ledger, entry, { intent, named, input: parsed });
  if (begun?.claimed === true) return { kind: 'run', intent, input: parsed, entry };
  if (begun === undefined) {
    throw new TypeError(
      `the effect ledger's begin answered neither { claimed: true } nor { claimed: false, record } for ${named}: ${named} did not run`,
    );
  }
  const record = begun.record;
  if (record.toolName !== entry.toolName || record.inputDigest !== entry.inputDigest) {
    // A colliding key, or a ledger answering with another effect's record: not this intent's effect.
    const detail = `the effect ledger holds a record of ${JSON.stringify(record.toolName)} with input ${String(record.inputDigest)} under the key of ${named} (${entry.toolName}, input ${entry.inputDigest}): not replayed, ${entry.toolName} did not run`;
    const failure: Failure = { class: 'effect.record_mismatch', detail, ids: [intent.toolCallId] };
    keep(ready.joinClosed, intent, { status: 'refused', failure, witness: ready.witness });
    throw new TypestateError('record_mismatch', 'MutationReady', detail, failure);
  }
  return { kind: 'replay', intent, record };
}

/**
 * The claim of an effect that may need approval: `beginGated` with the admission's policy. A
 * refusal (`approval.missing`, `approval.pending`, `approval.denied`, ...) is kept as the intent's
 * outcome (answered with `approvalAnswer`'s text) and thrown; nothing runs.
 */
async function beginWithApproval(
  ready: { readonly witness: MutationWitness; readonly joinClosed: { readonly requests: readonly unknown[] } },
  approvals: AdmissionApprovals,
  ledger: EffectLedger,
  entry: EffectEntry,
  call: { readonly intent: MutationIntent; readonly named: string; readonly input: unknown },
): Promise<EffectClaim | undefined> {
  if (typeof (ledger as Partial<ApprovalLedger>).readApproval !== 'function') {
    throw new TypeError(
      `options.ledger: approvals need a ledger that keeps them (an ApprovalLedger: a store's approvalLedger(), MemoryEffectLedger); ${call.named} did not run`,
    );
  }
  const claim = await beginGated(approvals.policy as ApprovalPolicy, ledger as ApprovalLedger, entry.toolName, entry, {
    input: call.input,
    context: {
      toolCallId: entry.toolCallId,
      toolName: entry.toolName,
      ...(approvals.sessionId === undefined ? {} : { sessionId: approvals.sessionId }),
    },
    schemaDigest: approvals.schemaDigest(entry.toolName),
    now: approvals.now(),
  });
  if (claim.claimed) return { claimed: true };
  if (!('refused' in claim)) return { claimed: false, record: claim.record };
  const failure = { class: claim.refused.class, detail: claim.refused.detail, ids: [call.intent.toolCallId] };
  keep(ready.joinClosed, call.intent, {
    status: 'refused',
    failure,
    error: approvalAnswer(claim.refused),
    witness: ready.witness,
  });
  throw new TypestateError('not_approved', 'MutationReady', `${call.named}: ${claim.refused.detail}`, failure);
}

/** Records the end of a claimed effect in the admission's ledger, if it has one. */
export async function finish(ready: Admitted, entry: EffectEntry | undefined, outcome: RanOutcome): Promise<void> {
  const ledger = admissionOf(ready).ledger;
  if (entry === undefined || ledger === undefined) return;
  const output = outcome.status === 'ok' ? snapshotOwnData(outcome.output, { maxDepth: PAYLOAD_MAX_DEPTH }) : undefined;
  await ledger.finish(
    entry.key,
    outcome.status === 'ok'
      ? { state: 'completed', output: output?.ok === true ? (output.value as JsonValue) : null }
      : { state: 'failed', error: outcome.error },
  );
}

/** What `finish` and `replay` read of a `MutationReady`. */
export type Admitted = {
  readonly witness: MutationWitness;
  readonly joinClosed: { readonly requests: readonly unknown[] };
};

/** Keeps and returns the recorded answer of an intent the ledger already held. */
export function replay(ready: Admitted, intent: MutationIntent, record: EffectRecord): RanOutcome {
  const answer = recordedAnswer(record);
  const outcome: RanOutcome =
    answer.status === 'ok'
      ? { status: 'ok', output: answer.output, witness: ready.witness, replayed: record }
      : { status: 'error', error: answer.error, witness: ready.witness, replayed: record };
  keep(ready.joinClosed, intent, outcome);
  return outcome;
}
