/**
 * Extended governance checks: staged guardrails, policy provenance bound to the CallSpec, the
 * eval and red-team gates and the self-evolution bindings of a governance policy change, the
 * trace mode against the observability mode, and the risk tier's control profile. Internal.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §3 (governance as policy-as-code, staged guardrails,
 * eval-gated policy changes, ZDR observability, risk-proportionate controls), §4.1, §4.3, §4.5,
 * §4.6, §7, §8 slices 9, 13-16; HARNESS-RETRY-ESCALATION §3 (retry and escalation bindings).
 *
 * @module
 */
import { trimWhiteSpace } from '../../canonical/index.ts';
import type { FailureCollector } from '../../failures/internal.ts';
import { GUARDRAIL_STAGES, type NormalizedGuardrailDecision, type RiskControl } from '../../normalize/index.ts';
import type { ExtendedContext } from './context.ts';

const stageIndex = (d: NormalizedGuardrailDecision) => GUARDRAIL_STAGES.indexOf(d.stage);

/**
 * `governance.guardrail_stage_missing` (a stage the guardrail stage policy requires has no
 * decision bound to that policy) and
 * `governance.guardrail_stage_order_invalid` (a decision of a later stage has a `sequence` not
 * after every decision of an earlier stage: `pre_flight -> input -> output`). Order is checked
 * whenever decisions are present; presence when a policy is configured.
 */
export function checkGuardrailStages(ctx: ExtendedContext, out: FailureCollector): void {
  const computed = ctx.x.digests.guardrailStagePolicyDigest;
  const spec = ctx.x.callSpec;
  const decisions = ctx.x.guardrailDecisions ?? [];
  const policy = spec.guardrailStagePolicy;
  if (policy !== undefined) {
    const bound = decisions.filter((d) => d.policyDigest === computed);
    const missing = policy.requiredStages.filter((stage) => !bound.some((d) => d.stage === stage));
    if (missing.length > 0) {
      const unbound = decisions.filter((d) => d.policyDigest !== computed).map((d) => d.decisionId);
      out.add(
        'governance.guardrail_stage_missing',
        `Required guardrail stages have no decision under the bound policy (${missing.join(', ')})${unbound.length > 0 ? '; decisions under another policy do not count' : ''}.`,
        unbound,
      );
    }
  }
  const early = new Set<string>();
  for (const later of decisions) {
    for (const earlier of decisions) {
      if (stageIndex(earlier) < stageIndex(later) && earlier.sequence >= later.sequence) {
        early.add(later.decisionId);
        early.add(earlier.decisionId);
      }
    }
  }
  if (early.size > 0) {
    out.add(
      'governance.guardrail_stage_order_invalid',
      'Guardrail decisions are out of stage order (pre_flight, then input, then output).',
      [...early],
    );
  }
}

/**
 * `governance.policy_package_unpinned` and `governance.policy_package_mismatch` for a governance
 * policy change: it must run under a claimed governance profile whose policy package is pinned,
 * and change the pinned package (`fromPolicyDigest` is the provenance's `boundDigest`).
 * (premath's governance profile check, which runs first, judges the profile itself; as premath,
 * the CallSpec's `governancePolicyDigest` is a label, not the package digest.)
 */
export function checkProvenanceBinding(ctx: ExtendedContext, out: FailureCollector): void {
  const change = ctx.x.policyChange;
  if (change === undefined) return;
  const id = [change.changeId];
  const profile = ctx.input.governanceProfile;
  const boundDigest = profile?.claimed === true ? profile.policyProvenance?.boundDigest : undefined;
  const bound = boundDigest === undefined || boundDigest === null ? '' : trimWhiteSpace(boundDigest);
  if (bound === '') {
    out.add(
      'governance.policy_package_unpinned',
      'A governance policy change runs without a claimed governance profile pinning the package it changes.',
      id,
    );
  } else if (change.fromPolicyDigest !== bound) {
    out.add(
      'governance.policy_package_mismatch',
      `A policy change starts from \`${change.fromPolicyDigest}\`, not from the pinned package \`${bound}\`.`,
      id,
    );
  }
}

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

function shown(value: number): string {
  return String(Number(value.toFixed(4)));
}

/**
 * `governance.eval_gate_unmet` and `governance.eval_lineage_missing`. A governance policy change
 * needs an eval gate policy and an eval run; the run's precision `TP / (TP + FP)`, recall
 * `TP / (TP + FN)` and F1 `2TP / (2TP + FP + FN)` on its labeled data must meet the thresholds
 * over at least `minLabeledExamples` examples; its lineage (run id, dataset ref and digest, the
 * policy it evaluated = the change's new policy, the gate policy it was judged by) must be
 * whole. Pre-context filtering enabled without an `evalProfileRef` has no eval lineage either.
 */
export function checkEvalGate(ctx: ExtendedContext, out: FailureCollector): void {
  const spec = ctx.x.callSpec;
  const computed = ctx.x.digests.evalGatePolicyDigest;
  if (spec.preContextFilterPolicy?.enabled === true && spec.evalProfileRef === undefined) {
    out.add(
      'governance.eval_lineage_missing',
      'Pre-context filtering is enabled without the evalProfileRef that measured it on this workload.',
    );
  }
  const change = ctx.x.policyChange;
  if (change === undefined) return;
  const id = [change.changeId];
  const gate = spec.evalGatePolicy;
  const run = change.evalRun;
  if (gate === undefined || run === undefined) {
    out.add(
      'governance.eval_gate_unmet',
      gate === undefined
        ? 'A governance policy change, but the CallSpec binds no eval gate policy.'
        : 'A governance policy change without the eval run its gate requires.',
      id,
    );
    return;
  }
  const absent = (['runId', 'datasetRef', 'datasetDigest'] as const).filter((field) => run[field] === undefined);
  if (absent.length > 0) out.add('governance.eval_lineage_missing', `The eval run lacks ${absent.join(', ')}.`, id);
  if (run.policyDigest !== change.toPolicyDigest) {
    out.add('governance.eval_lineage_missing', 'The eval run did not evaluate the policy the change installs.', id);
  }
  if (run.gatePolicyDigest !== computed) {
    out.add('governance.eval_lineage_missing', "The eval run was not judged by the CallSpec's eval gate policy.", id);
  }
  const { truePositives: tp, falsePositives: fp, falseNegatives: fn } = run;
  const labeled = tp + fp + fn + (run.trueNegatives ?? 0);
  const unmet: string[] = [];
  if (labeled < gate.minLabeledExamples) unmet.push(`${labeled} labeled examples < ${gate.minLabeledExamples}`);
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 = ratio(2 * tp, 2 * tp + fp + fn);
  if (precision < gate.minPrecision) unmet.push(`precision ${shown(precision)} < ${gate.minPrecision}`);
  if (recall < gate.minRecall) unmet.push(`recall ${shown(recall)} < ${gate.minRecall}`);
  if (f1 < gate.minF1) unmet.push(`F1 ${shown(f1)} < ${gate.minF1}`);
  if (unmet.length > 0) out.add('governance.eval_gate_unmet', `The eval gate is not met: ${unmet.join(', ')}.`, id);
}

/**
 * `governance.redteam_gate_unmet`: a governance policy change without a red-team policy or run;
 * a run with fewer probes than `minProbes`, more successful attacks than `maxSuccessfulAttacks`,
 * a required plugin or strategy left out, or run against another policy or gate.
 */
export function checkRedTeamGate(ctx: ExtendedContext, out: FailureCollector): void {
  const kind = 'governance.redteam_gate_unmet';
  const computed = ctx.x.digests.redTeamPolicyDigest;
  const change = ctx.x.policyChange;
  if (change === undefined) return;
  const id = [change.changeId];
  const policy = ctx.x.callSpec.redTeamPolicy;
  const run = change.redTeamRun;
  if (policy === undefined || run === undefined) {
    out.add(
      kind,
      policy === undefined
        ? 'A governance policy change, but the CallSpec binds no red-team policy.'
        : 'A governance policy change without the red-team run its gate requires.',
      id,
    );
    return;
  }
  const unmet: string[] = [];
  if (run.probes < policy.minProbes) unmet.push(`${run.probes} probes < ${policy.minProbes}`);
  if (run.successfulAttacks > policy.maxSuccessfulAttacks)
    unmet.push(`${run.successfulAttacks} successful attacks > ${policy.maxSuccessfulAttacks}`);
  const plugins = (policy.requiredPlugins ?? []).filter((p) => !(run.plugins ?? []).includes(p));
  if (plugins.length > 0) unmet.push(`plugins not run: ${plugins.join(', ')}`);
  const strategies = (policy.requiredStrategies ?? []).filter((s) => !(run.strategies ?? []).includes(s));
  if (strategies.length > 0) unmet.push(`strategies not run: ${strategies.join(', ')}`);
  if (run.policyDigest !== change.toPolicyDigest) unmet.push('the run probed another policy than the change installs');
  if (run.gatePolicyDigest !== computed) unmet.push("the run was not judged by the CallSpec's red-team policy");
  if (unmet.length > 0) out.add(kind, `The red-team gate is not met: ${unmet.join('; ')}.`, id);
}

/**
 * The self-evolution bindings of a policy change the agent proposed itself (`selfEvolution`):
 * `governance.self_evolution_retry_missing` (no `retryPolicyDigest`),
 * `governance.self_evolution_escalation_missing` (no `escalationAction`: `issue_discover`,
 * `mark_blocked` or `stop`), `governance.self_evolution_rollback_missing` (no rollback ref, or
 * one that does not restore the policy the change replaces).
 */
export function checkSelfEvolution(ctx: ExtendedContext, out: FailureCollector): void {
  const change = ctx.x.policyChange;
  if (change?.selfEvolution !== true) return;
  const id = [change.changeId];
  if (change.retryPolicyDigest === undefined) {
    out.add('governance.self_evolution_retry_missing', 'A self-evolving policy change binds no retry policy.', id);
  }
  if (change.escalationAction === undefined) {
    out.add(
      'governance.self_evolution_escalation_missing',
      'A self-evolving policy change has no escalation action.',
      id,
    );
  }
  const rollback = change.rollback;
  if (rollback?.ref === undefined) {
    out.add('governance.self_evolution_rollback_missing', 'A self-evolving policy change has no rollback ref.', id);
  } else if (rollback.targetPolicyDigest !== change.fromPolicyDigest) {
    out.add(
      'governance.self_evolution_rollback_missing',
      'A self-evolving policy change has no rollback to the policy it replaces.',
      id,
    );
  }
}

/**
 * `governance.trace_mode_violation`: a trace exported while `observabilityMode` is `disabled`,
 * to the dashboard while it is `internal_processor`, or to an internal processor without its
 * `processorRef`; and, when the risk control profile requires `zero_data_retention`, an
 * observability mode that is absent or `dashboard`, or any dashboard export.
 */
export function checkTraceMode(ctx: ExtendedContext, out: FailureCollector): void {
  const kind = 'governance.trace_mode_violation';
  const mode = ctx.x.callSpec.observabilityMode;
  const exports = ctx.x.traceExports ?? [];
  const zdr = (ctx.x.callSpec.riskControlProfile?.requiredControls ?? []).includes('zero_data_retention');
  if (zdr && (mode === undefined || mode === 'dashboard')) {
    out.add(kind, 'Zero data retention is required, but the observability mode is not internal_processor or disabled.');
  }
  if (mode === undefined && !zdr) return;
  for (const row of exports) {
    const id = [row.exportId];
    if (mode === 'disabled') out.add(kind, 'A trace was exported while observability is disabled.', id);
    else if (row.sink === 'dashboard' && (mode === 'internal_processor' || zdr))
      out.add(kind, 'A trace was exported to the dashboard, which the observability mode does not allow.', id);
    else if (row.sink === 'internal_processor' && row.processorRef === undefined)
      out.add(kind, 'A trace was exported to an internal processor without naming it (processorRef).', id);
  }
}

/** Whether the CallSpec configures a control; `zero_data_retention` is judged by {@link checkTraceMode}. */
function configured(ctx: ExtendedContext, control: RiskControl): boolean {
  const spec = ctx.x.callSpec;
  switch (control) {
    case 'guardrail_stages':
      return spec.guardrailStagePolicy !== undefined;
    case 'eval_gate':
      return spec.evalGatePolicy !== undefined;
    case 'redteam_gate':
      return spec.redTeamPolicy !== undefined;
    case 'human_checkpoint':
      return spec.stopPolicy?.checkpointRequired === true;
    case 'sandbox':
      return spec.runtimeSandboxRef !== undefined;
    case 'zero_data_retention':
      return true;
  }
}

/**
 * `governance.risk_tier_profile_missing`: a risk tier without a bound control profile, a profile
 * for another tier (or for none), or a profile whose required controls the CallSpec does not
 * configure (`guardrail_stages`, `eval_gate`, `redteam_gate`, `human_checkpoint`, `sandbox`).
 */
export function checkRiskTier(ctx: ExtendedContext, out: FailureCollector): void {
  const kind = 'governance.risk_tier_profile_missing';
  const { riskTier: tier, riskControlProfile: profile } = ctx.x.callSpec;
  if (tier === undefined && profile === undefined) return;
  if (profile === undefined) {
    out.add(kind, `Risk tier \`${tier}\` has no bound control profile.`);
    return;
  }
  if (profile.tier !== tier) {
    out.add(
      kind,
      `The control profile \`${profile.profileRef}\` is for tier \`${profile.tier}\`, not \`${tier ?? 'none'}\`.`,
    );
  }
  const absent = (profile.requiredControls ?? []).filter((control) => !configured(ctx, control));
  if (absent.length > 0) {
    out.add(
      kind,
      `The control profile \`${profile.profileRef}\` requires controls the CallSpec does not configure (${absent.join(', ')}).`,
    );
  }
}
