/**
 * The one check of every policy digest the CallSpec gives against the digest of its inline
 * policy. Internal.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §4.1 (the `...Digest` fields).
 *
 * @module
 */
import type { FailureClass } from '../../failures/index.ts';
import type { FailureCollector } from '../../failures/internal.ts';
import type { ExtendedDigestBundle } from '../../normalize/index.ts';
import type { ExtendedContext } from './context.ts';

/** Each digest field of the extended CallSpec, and the class a wrong one fails with: its policy's. */
const BOUND_DIGESTS = {
  toolCatalogDigest: 'tool.discovery_mismatch',
  deferPolicyDigest: 'tool.discovery_mismatch',
  toolExampleDigest: 'tool.example_digest_mismatch',
  allowedCallersDigest: 'tool.caller_not_allowed',
  compactionPolicyDigest: 'runtime.compaction_state_invalid',
  guardrailStagePolicyDigest: 'governance.guardrail_stage_missing',
  evalGatePolicyDigest: 'governance.eval_gate_unmet',
  redTeamPolicyDigest: 'governance.redteam_gate_unmet',
  contextScopeDigest: 'context.scope_violation',
  handoffContractDigest: 'handoff.target_not_allowed',
} as const satisfies Record<keyof Omit<ExtendedDigestBundle, 'extendedDigest'>, FailureClass>;

/**
 * A digest field the CallSpec gives must be the digest the check computed from its inline
 * policy (`extended.normalized.digests`); a digest given without the policy it names cannot be
 * checked, so it fails too. Each fails with the class of the check its policy feeds.
 */
export function checkPolicyDigests(ctx: ExtendedContext, out: FailureCollector): void {
  for (const [field, failureClass] of Object.entries(BOUND_DIGESTS) as [keyof typeof BOUND_DIGESTS, FailureClass][]) {
    const given = ctx.x.callSpec[field];
    const computed = ctx.x.digests[field];
    if (given === undefined) continue;
    if (computed === undefined) {
      out.add(failureClass, `The CallSpec gives \`${field}\` but not the policy it is the digest of.`);
    } else if (given !== computed) {
      out.add(
        failureClass,
        `The CallSpec's \`${field}\` \`${given}\` is not the digest of its policy, \`${computed}\`.`,
      );
    }
  }
}
