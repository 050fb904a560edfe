/**
 * Shapes of the join-check report and its witness.
 *
 * @module
 */
import type { EXTENDED_PROFILE } from '../evidence/index.ts';
import type { Failure, FailureClass } from '../failures/index.ts';
import type {
  ContextState,
  DigestBundle,
  ExtendedNormalized,
  JoinState,
  NormalizedEvidence,
} from '../normalize/index.ts';

/**
 * The witness kind of a join check. Source: premath `harness-join-check`.
 *
 * @example
 * ```ts
 * import { JOIN_CHECK_WITNESS_KIND, type JoinCheckReport } from 'turngate/join-check';
 * declare const report: JoinCheckReport;
 * report.witness.witnessKind === JOIN_CHECK_WITNESS_KIND; //=> true
 * ```
 */
export const JOIN_CHECK_WITNESS_KIND = 'premath.harness.join_check.v1';

/**
 * The witness kind of a join check under the extended profile (the `extended.witness` of the
 * report).
 *
 * @example
 * ```ts
 * import { EXTENDED_WITNESS_KIND } from 'turngate/join-check';
 * EXTENDED_WITNESS_KIND; //=> 'turngate.harness.join_check_extended.v1'
 * ```
 */
export const EXTENDED_WITNESS_KIND = 'turngate.harness.join_check_extended.v1';

/**
 * The governance profile claim id that gates the governance classes. Source: HARNESS-TYPESTATE §8.
 *
 * @example
 * ```ts
 * import { GOVERNANCE_PROFILE_CLAIM_ID, joinCheck } from 'turngate/join-check';
 * declare const evidence: unknown;
 * joinCheck({ evidence, governanceProfile: { claimId: GOVERNANCE_PROFILE_CLAIM_ID, claimed: false } });
 * ```
 */
export const GOVERNANCE_PROFILE_CLAIM_ID = 'profile.doctrine_inf_governance.v0';

/**
 * The stop reasons the protocol policy handles. Source: TOOL-CALLING-HARNESS-TYPESTATE §4.1 (`protocolStatePolicy`).
 *
 * @example
 * ```ts
 * import { HANDLED_STOP_REASONS } from 'turngate/join-check';
 * HANDLED_STOP_REASONS.includes('end_turn'); //=> true
 * ```
 */
export const HANDLED_STOP_REASONS = ['tool_use', 'pause_turn', 'max_tokens', 'end_turn'] as const;

/** The join state's lists of missing and unknown ids (absent when empty). */
type MissingIds = Pick<
  JoinState,
  'missingResultCallIds' | 'orphanResultCallIds' | 'missingUseCallIds' | 'unknownUseCallIds'
>;

/** The context state's flags and its missing render ids (the id lists of the rows are left out). */
type ContextFlags = Omit<ContextState, 'renderCallIds' | 'queueIds' | 'stateViewIds'>;

/**
 * The join-gate input: what `JoinClosed` is decided on: every digest of the bundle but the
 * CallSpec's, the CallSpec's context policies, the missing-id lists and the context flags.
 * Lists are absent when empty.
 */
export interface JoinInput
  extends Omit<DigestBundle, 'callSpecDigest'>,
    MissingIds,
    ContextFlags,
    Pick<JoinState, 'joinClosed'> {
  readonly reminderQueuePolicyDigest: string;
  readonly toolRenderProtocolDigest: string;
  readonly stateViewPolicyDigest: string;
  readonly decompositionPolicyDigest: string;
}

/**
 * The mutation-gate input: what `MutationReady` is decided on. Lists are absent when empty.
 */
export interface MutationInput extends MissingIds, ContextFlags, Pick<JoinState, 'joinClosed'> {
  readonly continuationAllowed: boolean;
  readonly mutationPolicyDigest: string;
  readonly governancePolicyDigest: string;
  readonly normalizerId: string;
  readonly sessionRefs?: readonly string[];
  readonly trajectoryRefs?: readonly string[];
}

/**
 * The witness of one join check: digests plus the join and mutation gate inputs.
 */
export interface JoinCheckWitness {
  readonly schema: 1;
  readonly witnessKind: typeof JOIN_CHECK_WITNESS_KIND;
  readonly digests: DigestBundle;
  readonly joinInput: JoinInput;
  readonly mutationInput: MutationInput;
}

/**
 * The witness of the extended profile: it binds premath's join-set digest and the extended
 * evidence digest into one turn digest, and the mutation intent when one was checked.
 *
 * @example
 * ```ts
 * import { joinCheck } from 'turngate/join-check';
 * declare const input: unknown;
 * const outcome = joinCheck(input);
 * if (outcome.ok && outcome.value.extended) outcome.value.extended.witness.turnDigest;
 * ```
 */
export interface ExtendedWitness {
  readonly schema: 1;
  readonly witnessKind: typeof EXTENDED_WITNESS_KIND;
  /** premath's join-set digest of the same turn (`witness.digests.joinSetDigest`). */
  readonly joinSetDigest: string;
  /** The digest of the normalized extended evidence (`extended.normalized.digests.extendedDigest`). */
  readonly extendedDigest: string;
  /** `digest({ joinSetDigest, extendedDigest })`: the whole turn under the extended profile. */
  readonly turnDigest: string;
  /** `digest` of the normalized `mutationIntent`, when one was checked. */
  readonly mutationIntentDigest?: string;
}

/**
 * The extended section of a report (printed under `extended`): the normalized extended evidence,
 * its witness, and, when the input gave a `mutationIntent`, whether `MutationReady` holds.
 *
 * @example
 * ```ts
 * import { joinCheck } from 'turngate/join-check';
 * declare const input: unknown;
 * const outcome = joinCheck(input);
 * if (outcome.ok && outcome.value.extended?.mutationReady === false) outcome.value.failureClasses;
 * ```
 */
export interface ExtendedReport {
  /** The normalized extended evidence, kind `turngate.harness.extended_normalized.v1`. */
  readonly normalized: ExtendedNormalized;
  /** The extended witness. */
  readonly witness: ExtendedWitness;
  /** Present when a `mutationIntent` was checked: true exactly when the report is accepted. */
  readonly mutationReady?: boolean;
}

/**
 * The report of one join check. Under premath's profile every field but `failures` is what
 * premath's `harness-join-check --json` prints; `failures` adds the ids and a sentence per class.
 * Under the extended profile the report also has `profile` and `extended`, and `result`,
 * `failureClasses` and `joinClosed` cover the extended checks too; `normalized` and `witness`
 * stay premath's, byte for byte.
 *
 * @example
 * ```ts
 * import { joinCheck, type JoinCheckReport } from 'turngate/join-check';
 * declare const input: unknown;
 * const outcome = joinCheck(input);
 * const report: JoinCheckReport | undefined = outcome.ok ? outcome.value : undefined;
 * report?.failures.map((f) => f.ids);
 * ```
 */
export interface JoinCheckReport {
  /** Always `harness-join-check`. */
  readonly action: 'harness-join-check';
  /** `accepted` when no failure class is active. */
  readonly result: 'accepted' | 'rejected';
  /** The active failure classes, sorted and unique. */
  readonly failureClasses: readonly FailureClass[];
  /** True exactly when `result` is `accepted` (every HARNESS-TYPESTATE §5 condition holds). */
  readonly joinClosed: boolean;
  /** The witness. */
  readonly witness: JoinCheckWitness;
  /** The normalized evidence. */
  readonly normalized: NormalizedEvidence;
  /** One entry per active class with its cause and ids, in `failureClasses` order. Not printed by `--json`. */
  readonly failures: readonly Failure[];
  /** `turngate.harness.extended.v1` when the input opted into the extended profile; absent for premath's. */
  readonly profile?: typeof EXTENDED_PROFILE;
  /** The extended section, under the extended profile only. */
  readonly extended?: ExtendedReport;
}
