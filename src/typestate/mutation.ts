/**
 * The mutation gate, phase 1: `MutationReady` is minted only by `admitMutation` from a
 * `JoinClosed`, bound to the mutation intents that turn declares.
 *
 * @module
 */
import * as v from 'valibot';
import { trimWhiteSpace } from '../canonical/index.ts';
import { checkMutationGate } from '../check/internal.ts';
import { FailureCollector } from '../failures/internal.ts';
import type { Result } from '../failures/index.ts';
import { ownEntries } from '../internal/entries.ts';
import { expectMinted, isSpent, mint, type Branded } from './brand.ts';
import { turnLineage, type JoinClosed } from './close-join.ts';
import { intentKey, type MutationIntent } from './intents.ts';
import { type AdmitOptions, bindAdmission } from './ledger.ts';
import type { StateArgument } from './messages.ts';
import type { MutationWitness } from './mutation-record.ts';
import { DEFAULT_CALL_SPEC_FIELDS } from './profile.ts';
import { parseOwnData } from './rows.ts';
import type { ToolDefinitions, ToolDefinitionsOf, ToolsOf } from './tools.ts';

/**
 * The active mutation policy and the capability claims presented for this mutation.
 *
 * @example
 * ```ts
 * import type { MutationPolicy } from 'turngate/types';
 * const policy: MutationPolicy = { mutationPolicyDigest: 'pol.issues-write.v2', requiredCapabilities: ['issues:write'], capabilityClaims: ['issues:write'] };
 * ```
 */
export interface MutationPolicy {
  /**
   * The active instruction-linked mutation policy digest; must equal the turn's
   * `mutationPolicyDigest`. Default: the default profile's (`DEFAULT_CALL_SPEC_FIELDS.mutationPolicyDigest`).
   */
  readonly mutationPolicyDigest?: string;
  /** Capabilities the intended mutations require (e.g. `issues:write`). */
  readonly requiredCapabilities?: readonly string[];
  /** Capabilities claimed for them. */
  readonly capabilityClaims?: readonly string[];
}

/**
 * A closed turn admitted for the mutations it declares. It authorizes exactly its `intents`:
 * each runs at most once (across every `MutationReady` admitted from the same turn), with
 * exactly its bound input; anything else is refused with `TypestateError` before the effect.
 *
 * @example
 * ```ts
 * import { performMutation, type MutationReady } from 'turngate';
 * declare const ready: MutationReady;
 * const intent = ready.intents[0];
 * if (intent?.kind === 'mutation_input') {
 *   await performMutation(ready, { mutationInputRef: intent.mutationInputRef, input: { id: 'BILL-7' } }, (input) => input);
 * }
 * ```
 */
export type MutationReady<TTools extends ToolDefinitionsOf<TTools> = ToolDefinitions> = Branded<
  'MutationReady',
  {
    /** The closed turn. */
    readonly joinClosed: JoinClosed<TTools>;
    /** The witness every effect runs under. */
    readonly witness: MutationWitness;
    /** The intents it authorizes (the witness's). */
    readonly intents: readonly MutationIntent[];
    /** The registry's definitions type, for type-level queries only: absent at run time. */
    readonly '~tools'?: TTools;
  }
>;

const textList = v.optional(v.array(v.string()));
const PolicySchema = v.object(
  ownEntries({
    mutationPolicyDigest: v.optional(v.string()),
    requiredCapabilities: textList,
    capabilityClaims: textList,
  }),
);

/**
 * Admits a closed turn for the mutations it declares. Mints `MutationReady`, bound to the turn's
 * intents, only when every condition holds:
 * - the turn is `JoinClosed` (minted by `closeJoin`), with continuation context ready when the
 *   loop continues (`tool.join_incomplete`);
 * - no call of the turn was refused: each refused call's class is reported with its ids
 *   (`tool.unknown_or_disallowed`, `tool.caller_not_allowed`, `tool.schema_invalid`,
 *   `tool.parallel_policy_violation`): no fail-closed class may be active;
 * - its `mutationPolicyDigest` equals the active policy's (`mutation.policy_digest_mismatch`);
 * - every required capability is claimed (`mutation.capability_claim_missing`, ids = missing);
 * - every `consumed` result is bound to its result's digest and names what it was consumed into
 *   (`mutation.use_evidence_missing`, ids = the rows);
 * - the witness linkage is present: session and trajectory refs (`mutation.use_evidence_missing`);
 * - the turn declares at least one mutation intent not yet run (`mutation.use_evidence_missing`):
 *   a turn in which the model only read a file authorizes nothing.
 *
 * A turn may be admitted more than once (say, after a stale policy was refused); each of its
 * intents still runs at most once across every admission. The policy is read as own data.
 *
 * Source: HARNESS-TYPESTATE §6; TOOL-CALLING-HARNESS-TYPESTATE §4.6, §7.
 *
 * @param joinClosed - A `JoinClosed` from `closeJoin`.
 * @param policy - The active policy and the claims presented; default: the default profile's
 *   mutation policy, no capabilities.
 * @param options - The effect ledger every effect of this admission is claimed in, and the
 *   idempotency key (see {@link AdmitOptions}); default: none (once per turn, in this process).
 * @returns `MutationReady`, or the failures.
 * @throws {@link TypestateError} when `joinClosed` was not minted by `closeJoin`.
 * @example
 * ```ts
 * import { admitMutation, type JoinClosed } from 'turngate';
 * declare const closed: JoinClosed;
 * const ready = admitMutation(closed, { requiredCapabilities: ['issues:write'], capabilityClaims: ['issues:write'] });
 * if (!ready.ok) ready.failures.map((f) => f.class);
 * ```
 */
export function admitMutation<TClosed>(
  joinClosed: StateArgument<TClosed, 'JoinClosed', 'call closeJoin(use, context) first'>,
  policy?: MutationPolicy,
  options?: AdmitOptions,
): Result<MutationReady<ToolsOf<TClosed>>>;
export function admitMutation(
  joinClosed: JoinClosed,
  policy: MutationPolicy = {},
  options: AdmitOptions = {},
): Result<MutationReady> {
  expectMinted(joinClosed, 'JoinClosed');
  checkAdmitOptions(options);
  const parsed = parseOwnData(PolicySchema, policy, { root: 'policy' });
  if (!parsed.ok) return parsed;
  const active = parsed.value;
  const activeDigest = active.mutationPolicyDigest ?? DEFAULT_CALL_SPEC_FIELDS.mutationPolicyDigest;
  const n = joinClosed.normalized;
  const failures = new FailureCollector();
  if (!n.joinState.joinClosed || !n.contextState.continuationContextReady) {
    failures.add('tool.join_incomplete', 'The join or the continuation context is not closed.');
  }
  for (const refusal of joinClosed.refusals) {
    failures.add(refusal.class, `A call of the turn was refused: ${refusal.detail}`, refusal.ids);
  }
  const digests = new Map(
    joinClosed.results.map((r) => [r.toolCallId, r.status === 'ok' ? r.resultDigest : undefined]),
  );
  const trimmed = (ref: string | undefined) => (ref === undefined ? undefined : trimWhiteSpace(ref));
  const sessionRefs = n.sessionRefs ?? [];
  const trajectoryRefs = n.trajectoryRefs ?? [];
  const required = active.requiredCapabilities ?? [];
  // The rule the join check's extended profile applies to a mutationIntent: one home.
  checkMutationGate(
    {
      turnMutationPolicyDigest: n.callSpec.mutationPolicyDigest,
      activeMutationPolicyDigest: activeDigest,
      requiredCapabilities: required,
      capabilityClaims: active.capabilityClaims ?? [],
      consumed: joinClosed.uses
        .filter((u) => u.disposition === 'consumed')
        .map((u) => ({
          toolCallId: u.toolCallId,
          resultDigest: u.resultDigest,
          heldResultDigest: digests.get(u.toolCallId),
          intoRefs: [
            trimmed(u.evidence?.summaryRef),
            trimmed(u.evidence?.handoffRef),
            trimmed(u.evidence?.mutationInputRef),
          ],
        })),
      sessionRefs,
      trajectoryRefs,
    },
    failures,
  );
  const lineage = turnLineage(joinClosed);
  const open = joinClosed.intents.filter((intent) => !isSpent(lineage, intentKey(intent)));
  if (joinClosed.intents.length === 0) {
    failures.add(
      'mutation.use_evidence_missing',
      'The turn declares no mutation intent (a pending call of a mutation tool, or a consumed row with mutationInputRef and mutationInput): it authorizes nothing.',
    );
  } else if (open.length === 0) {
    failures.add('mutation.use_evidence_missing', 'Every mutation intent of the turn has already run.');
  }
  if (!failures.empty) return failures.failed();
  const witness: MutationWitness = Object.freeze({
    witnessKind: 'turngate.mutation.v2',
    callId: n.callSpec.callId,
    joinSetDigest: n.digests.joinSetDigest,
    mutationPolicyDigest: activeDigest,
    capabilities: Object.freeze([...new Set(required)].sort()),
    sessionRefs,
    trajectoryRefs,
    intents: joinClosed.intents,
  });
  const ready = mint('MutationReady', { joinClosed, witness, intents: joinClosed.intents });
  bindAdmission(ready, {
    ...(options.ledger !== undefined && { ledger: options.ledger }),
    ...(options.idempotencyKey !== undefined && { idempotencyKey: options.idempotencyKey }),
    ...(options.approvals !== undefined && { approvals: options.approvals }),
  });
  return { ok: true, value: ready };
}

/** Throws `TypeError` naming the field when `options` is not admission options. */
function checkAdmitOptions(options: AdmitOptions): void {
  if (options === null || typeof options !== 'object')
    throw new TypeError('admitMutation: options: expected an object');
  const { ledger, idempotencyKey } = options;
  if (ledger !== undefined) {
    for (const method of ['begin', 'finish', 'read'] as const) {
      if (typeof ledger?.[method] !== 'function') {
        throw new TypeError(`admitMutation: options.ledger.${method}: expected a function (an EffectLedger)`);
      }
    }
  }
  if (idempotencyKey !== undefined && typeof idempotencyKey !== 'function') {
    throw new TypeError('admitMutation: options.idempotencyKey: expected a function (intent) => string');
  }
}
