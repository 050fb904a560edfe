/**
 * The join check's rules over premath's evidence, each adding its failure classes to the
 * collector: the join, the stop reason, decomposition, context rebuild, handoff, error envelopes
 * and the governance profile. Internal; check.ts runs them in the report's order.
 *
 * Source: HARNESS-TYPESTATE §5, §8.
 *
 * @module
 */
import { optional, rawErrorCovers } from '../normalize/internal.ts';
import { asciiLowercase, trimWhiteSpace } from '../canonical/index.ts';
import type {
  DecompositionConstraintsInput,
  EvidenceInput,
  GovernanceProfileInput,
  HandoffConstraintsInput,
  ToolResultInput,
} from '../evidence/index.ts';
import type { FailureCollector } from '../failures/internal.ts';
import { normalizeRefs, type JoinState, type NormalizedEvidence, type NormalizedHandoff } from '../normalize/index.ts';
import { GOVERNANCE_PROFILE_CLAIM_ID, HANDLED_STOP_REASONS } from './types.ts';

/**
 * An optional string field as premath reads it: trimmed, `''` when absent or blank. Normalization's
 * rule (`optional`), so a lone surrogate is refused here as there, naming `field`.
 */
export function optionalText(value: string | null | undefined, field: string): string {
  return optional(value, field) ?? '';
}

/** The join: `tool.result_missing`, `tool.result_orphan`, `tool.use_missing`, `tool.use_without_result` with their call ids, and `tool.join_incomplete` (all of them) unless the join is closed. */
export function checkJoin(join: JoinState, out: FailureCollector): void {
  const missing = join.missingResultCallIds ?? [];
  const orphan = join.orphanResultCallIds ?? [];
  const useMissing = join.missingUseCallIds ?? [];
  const unknownUse = join.unknownUseCallIds ?? [];
  if (missing.length > 0) out.add('tool.result_missing', 'Requested tool calls have no terminal result.', missing);
  if (orphan.length > 0) out.add('tool.result_orphan', 'Results answer tool calls that were never requested.', orphan);
  if (useMissing.length > 0) out.add('tool.use_missing', 'Terminal results have no tool-use disposition.', useMissing);
  if (unknownUse.length > 0)
    out.add('tool.use_without_result', 'Tool-use rows name tool calls without a terminal result.', unknownUse);
  if (!join.joinClosed) {
    out.add('tool.join_incomplete', 'The request/result/use join is not closed.', [
      ...missing,
      ...orphan,
      ...useMissing,
      ...unknownUse,
    ]);
  }
}

/** `protocol.stop_reason_unhandled` for a stop reason outside `HANDLED_STOP_REASONS`. */
export function checkStopReason(normalized: NormalizedEvidence, out: FailureCollector): void {
  const stopReason = normalized.protocolState.stopReason;
  if (!(HANDLED_STOP_REASONS as readonly string[]).includes(stopReason)) {
    out.add(
      'protocol.stop_reason_unhandled',
      `Stop reason \`${stopReason}\` is not one of ${HANDLED_STOP_REASONS.join(', ')}.`,
    );
  }
}

/** `coordination.decomposition_policy_violation`: the constraints mark the turn inadmissible, or its execution pattern or decomposition policy digest is not the expected one. Nothing without constraints. */
export function checkDecomposition(
  constraints: DecompositionConstraintsInput | null | undefined,
  normalized: NormalizedEvidence,
  out: FailureCollector,
): void {
  if (constraints === null || constraints === undefined) return;
  const kind = 'coordination.decomposition_policy_violation';
  if (constraints.admissible === false) {
    out.add(kind, 'Decomposition constraints mark this turn inadmissible.');
    return;
  }
  const pattern = optionalText(
    constraints.expectedExecutionPattern,
    'decompositionConstraints.expectedExecutionPattern',
  );
  if (pattern !== '' && normalized.callSpec.executionPattern !== asciiLowercase(pattern)) {
    out.add(
      kind,
      `Execution pattern \`${normalized.callSpec.executionPattern}\` is not the expected \`${asciiLowercase(pattern)}\`.`,
    );
  }
  const policy = optionalText(constraints.expectedPolicyDigest, 'decompositionConstraints.expectedPolicyDigest');
  if (policy !== '' && normalized.callSpec.decompositionPolicyDigest !== policy) {
    out.add(
      kind,
      `Decomposition policy digest \`${normalized.callSpec.decompositionPolicyDigest}\` is not the expected \`${policy}\`.`,
    );
  }
}

/**
 * When context must be rebuilt (continuation allowed, or a result consumed):
 * `context.injection_point_missing` (results without a render row, with their call ids, or no
 * state view) and `context.queue_policy_violation` (no queue reduction, or a row bound to
 * another policy digest).
 */
export function checkContext(normalized: NormalizedEvidence, out: FailureCollector): void {
  const needsContext =
    normalized.protocolState.continuationAllowed ||
    (normalized.toolUse ?? []).some((u) => u.disposition === 'consumed');
  if (!needsContext) return;
  const context = normalized.contextState;
  const missingRender = context.missingRenderCallIds ?? [];
  if (missingRender.length > 0 || !context.stateViewPresent) {
    const causes: string[] = [];
    if (missingRender.length > 0) causes.push('results have no tool-render row');
    if (!context.stateViewPresent) causes.push('no state view is present');
    out.add('context.injection_point_missing', `Context must be rebuilt but ${causes.join(' and ')}.`, missingRender);
  }
  if (
    !context.queueReductionPresent ||
    !context.renderPolicyValid ||
    !context.queuePolicyValid ||
    !context.stateViewPolicyValid
  ) {
    const causes: string[] = [];
    if (!context.queueReductionPresent) causes.push('no reminder queue reduction is present');
    if (!context.renderPolicyValid) causes.push('a render row is bound to another policy digest');
    if (!context.queuePolicyValid) causes.push('a queue row is bound to another policy digest');
    if (!context.stateViewPolicyValid) causes.push('a state view is bound to another policy digest');
    out.add('context.queue_policy_violation', `Context must be rebuilt but ${causes.join(', ')}.`);
  }
}

/** Against the handoff constraints: `handoff.required_artifact_missing` (with the refs), `handoff.target_not_allowed`, `handoff.return_path_missing`; each also when the turn has no handoff packet. Nothing without constraints. */
export function checkHandoff(
  constraints: HandoffConstraintsInput | null | undefined,
  handoff: NormalizedHandoff | undefined,
  out: FailureCollector,
): void {
  if (constraints === null || constraints === undefined) return;
  const requiredRefs = new Set(
    normalizeRefs(constraints.requiredArtifactRefs, 'handoffConstraints.requiredArtifactRefs'),
  );
  const allowedTargets = new Set(normalizeRefs(constraints.allowedTargets, 'handoffConstraints.allowedTargets'));
  if (handoff === undefined) {
    if (requiredRefs.size > 0) {
      out.add('handoff.required_artifact_missing', 'Artifacts are required but the turn has no handoff packet.', [
        ...requiredRefs,
      ]);
    }
    if (constraints.requireReturnPath)
      out.add('handoff.return_path_missing', 'A return path is required but the turn has no handoff packet.');
    if (allowedTargets.size > 0)
      out.add('handoff.target_not_allowed', 'Targets are constrained but the turn has no handoff packet.');
    return;
  }
  if (requiredRefs.size > 0) {
    const provided = new Set(handoff.requiredArtifactRefs ?? []); // already normalized
    const absent = [...requiredRefs].filter((ref) => !provided.has(ref));
    if (absent.length > 0)
      out.add('handoff.required_artifact_missing', 'The handoff packet lacks required artifacts.', absent);
  }
  const target = handoff.target; // normalized: trimmed and non-blank
  if (allowedTargets.size > 0 && !allowedTargets.has(target)) {
    out.add('handoff.target_not_allowed', `Handoff target \`${target}\` is not an allowed target.`, [target]);
  }
  if (constraints.requireReturnPath && handoff.returnPathRef === undefined) {
    out.add('handoff.return_path_missing', 'The handoff packet names no return path.');
  }
}

/**
 * premath reads a result as an error from its raw row: status `error`, or no status and any error
 * field (the envelope check's reading of `rawError`: see `raw-error.ts`).
 */
function isErrorRow(row: ToolResultInput, at: string): boolean {
  const status = asciiLowercase(optionalText(row.status, `${at}.status`));
  if (status === 'error') return true;
  if (status === 'ok') return false;
  return (
    optionalText(row.errorCode, `${at}.errorCode`) !== '' ||
    (row.retryable !== undefined && row.retryable !== null) ||
    optionalText(row.errorMessage, `${at}.errorMessage`) !== '' ||
    (row.rawError !== undefined && row.rawError !== null)
  );
}

/** `tool.schema_invalid` (with the call id) for an error result whose envelope lacks `errorCode`, `retryable` or `errorMessage`, given neither as a field nor in `rawError`. */
export function checkErrorEnvelopes(evidence: EvidenceInput, out: FailureCollector): void {
  for (let index = 0; index < evidence.toolResults.length; index++) {
    const row = evidence.toolResults[index] as ToolResultInput;
    const at = `evidence.toolResults[${index}]`;
    if (!isErrorRow(row, at)) continue;
    const absent: string[] = [];
    if (optionalText(row.errorCode, `${at}.errorCode`) === '' && !rawErrorCovers(row.rawError, 'errorCode'))
      absent.push('errorCode');
    if ((row.retryable === undefined || row.retryable === null) && !rawErrorCovers(row.rawError, 'retryable'))
      absent.push('retryable');
    if (optionalText(row.errorMessage, `${at}.errorMessage`) === '' && !rawErrorCovers(row.rawError, 'errorMessage'))
      absent.push('errorMessage');
    if (absent.length > 0) {
      out.add('tool.schema_invalid', `Error results lack a machine-readable envelope (missing ${absent.join(', ')}).`, [
        trimWhiteSpace(row.toolCallId),
      ]);
    }
  }
}

/** The governance profile: `governance.claim_id_invalid`, then for a claimed profile `governance.policy_package_unpinned` and `governance.policy_package_mismatch`. Nothing without a profile. */
export function checkGovernance(profile: GovernanceProfileInput | null | undefined, out: FailureCollector): void {
  if (profile === null || profile === undefined) return;
  const claimId = optionalText(profile.claimId, 'governanceProfile.claimId');
  if (claimId !== '' && claimId !== GOVERNANCE_PROFILE_CLAIM_ID) {
    out.add('governance.claim_id_invalid', `Claim id \`${claimId}\` is not \`${GOVERNANCE_PROFILE_CLAIM_ID}\`.`);
    return;
  }
  if (!profile.claimed) return;
  const provenance = profile.policyProvenance;
  if (provenance === null || provenance === undefined) {
    out.add('governance.policy_package_unpinned', 'The governance profile is claimed but has no policy provenance.');
    return;
  }
  const at = 'governanceProfile.policyProvenance';
  const packageRef = optionalText(provenance.packageRef, `${at}.packageRef`);
  const expected = optionalText(provenance.expectedDigest, `${at}.expectedDigest`);
  const bound = optionalText(provenance.boundDigest, `${at}.boundDigest`);
  if (!provenance.pinned || packageRef === '' || expected === '' || bound === '') {
    out.add(
      'governance.policy_package_unpinned',
      'The governance policy package is not pinned (pinned, packageRef, expectedDigest and boundDigest are all required).',
    );
    return;
  }
  if (expected !== bound) {
    out.add(
      'governance.policy_package_mismatch',
      `Bound policy digest \`${bound}\` is not the expected \`${expected}\`.`,
    );
  }
}
