/**
 * The `MutationReady` conditions beyond `JoinClosed`, over plain data, so the join check's
 * extended profile (a `mutationIntent`) and the typestate's `admitMutation` can decide them by
 * one rule. Internal.
 *
 * Source: HARNESS-TYPESTATE §6; TOOL-CALLING-HARNESS-TYPESTATE §4.4, §4.6.
 *
 * @module
 */
import type { FailureCollector } from '../failures/internal.ts';

/** One `consumed` tool-use row, as the mutation gate judges it. */
export interface ConsumedUse {
  readonly toolCallId: string;
  /** The result digest the use row names. */
  readonly resultDigest?: string | undefined;
  /** The digest of the `ok` result the turn holds for the call (none for an error result). */
  readonly heldResultDigest?: string | undefined;
  /** What the result was consumed into: `summaryRef`, `handoffRef`, `mutationInputRef` (trimmed). */
  readonly intoRefs: readonly (string | undefined)[];
}

/** What the mutation gate decides on. */
export interface MutationGateInput {
  /** The turn's `mutationPolicyDigest`. */
  readonly turnMutationPolicyDigest: string;
  /** The active instruction-linked mutation policy digest. */
  readonly activeMutationPolicyDigest: string;
  readonly requiredCapabilities: readonly string[];
  readonly capabilityClaims: readonly string[];
  readonly consumed: readonly ConsumedUse[];
  readonly sessionRefs: readonly string[];
  readonly trajectoryRefs: readonly string[];
}

/**
 * `mutation.policy_digest_mismatch` (the turn's mutation policy is not the active one),
 * `mutation.capability_claim_missing` (ids: the capabilities not claimed) and
 * `mutation.use_evidence_missing` (ids: consumed rows not bound to their result's digest or not
 * naming what they were consumed into; or no session or trajectory refs for the witness).
 */
export function checkMutationGate(input: MutationGateInput, out: FailureCollector): void {
  if (input.turnMutationPolicyDigest !== input.activeMutationPolicyDigest) {
    out.add(
      'mutation.policy_digest_mismatch',
      `Turn mutation policy \`${input.turnMutationPolicyDigest}\` is not the active \`${input.activeMutationPolicyDigest}\`.`,
    );
  }
  const claims = new Set(input.capabilityClaims);
  const missingClaims = input.requiredCapabilities.filter((c) => !claims.has(c));
  if (missingClaims.length > 0) {
    out.add('mutation.capability_claim_missing', 'Required capabilities are not claimed.', missingClaims);
  }
  const unevidenced = input.consumed
    .filter((u) => {
      const bound = u.resultDigest !== undefined && u.resultDigest === u.heldResultDigest;
      const named = u.intoRefs.some((ref) => ref !== undefined && ref !== '');
      return !bound || !named;
    })
    .map((u) => u.toolCallId);
  if (unevidenced.length > 0) {
    out.add(
      'mutation.use_evidence_missing',
      'Consumed results lack use evidence (a bound result digest and a summaryRef, handoffRef or mutationInputRef).',
      unevidenced,
    );
  }
  if (input.sessionRefs.length === 0 || input.trajectoryRefs.length === 0) {
    out.add(
      'mutation.use_evidence_missing',
      'The turn has no session or trajectory refs to link the mutation witness to.',
    );
  }
}
