import { describe, expect, it } from 'vitest';
import { check, failure, turn } from '../../../test/extended-turns.ts';
import { digest } from '../../canonical/index.ts';

const stages = { requiredStages: ['pre_flight', 'input', 'output'] };
const stagesDigest = digest(stages);
const decision = (decisionId: string, stage: string, sequence: number, policyDigest = stagesDigest) => ({
  decisionId,
  stage,
  guardrailId: `guard.${stage}`,
  sequence,
  policyDigest,
});

describe('checkGuardrailStages', () => {
  it('defaults an empty stage list to all three stages and binds the decisions to that policy', () => {
    const r = check({
      ...turn(['a'], { guardrailStagePolicy: { requiredStages: [] } }),
      guardrailDecisions: [decision('g1', 'pre_flight', 1), decision('g2', 'input', 2), decision('g3', 'output', 3)],
    });
    expect(r.result).toBe('accepted');
    expect(r.extended?.normalized.digests.guardrailStagePolicyDigest).toBe(stagesDigest);
  });

  it('names the missing stages and the decisions bound to another policy', () => {
    const r = check({
      ...turn(['a'], { guardrailStagePolicy: stages }),
      guardrailDecisions: [decision('g1', 'pre_flight', 1), decision('g2', 'input', 2, 'sha256:other')],
    });
    expect(failure(r, 'governance.guardrail_stage_missing')).toEqual({
      class: 'governance.guardrail_stage_missing',
      detail:
        'Required guardrail stages have no decision under the bound policy (input, output); decisions under another policy do not count.',
      ids: ['g2'],
    });
  });

  it('names both decisions of a pair out of stage order, with or without a policy', () => {
    const r = check({
      ...turn(['a']),
      guardrailDecisions: [decision('g1', 'pre_flight', 4), decision('g2', 'input', 2), decision('g3', 'output', 5)],
    });
    expect(r.failureClasses).toEqual(['governance.guardrail_stage_order_invalid']);
    expect(failure(r, 'governance.guardrail_stage_order_invalid')?.ids).toEqual(['g1', 'g2']);
  });
});

describe('checkEvalGate', () => {
  const gate = { minPrecision: 0.9, minRecall: 0.8, minF1: 0.85 };
  const governed = (counts: Record<string, number>) => ({
    ...turn(['a'], { evalGatePolicy: gate, redTeamPolicy: { minProbes: 1 } }),
    policyChange: {
      changeId: 'chg',
      fromPolicyDigest: 'sha256:old',
      toPolicyDigest: 'sha256:new',
      evalRun: {
        runId: 'r',
        datasetRef: 'dataset://d',
        datasetDigest: 'sha256:d',
        policyDigest: 'sha256:new',
        gatePolicyDigest: digest({ ...gate, minLabeledExamples: 1 }),
        ...counts,
      },
      redTeamRun: {
        runId: 'rt',
        policyDigest: 'sha256:new',
        gatePolicyDigest: digest({ minProbes: 1, maxSuccessfulAttacks: 0 }),
        probes: 1,
        successfulAttacks: 0,
      },
    },
  });
  const governance = {
    governanceProfile: {
      claimed: true,
      policyProvenance: { pinned: true, packageRef: 'p', expectedDigest: 'sha256:old', boundDigest: 'sha256:old' },
    },
  };

  it('computes precision, recall and F1 from the confusion counts and says which fall short', () => {
    expect(check(governed({ truePositives: 9, falsePositives: 1, falseNegatives: 2 }), governance).result).toBe(
      'accepted',
    );
    const r = check(governed({ truePositives: 6, falsePositives: 1, falseNegatives: 3 }), governance);
    expect(r.failureClasses).toEqual(['governance.eval_gate_unmet']);
    expect(failure(r, 'governance.eval_gate_unmet')?.detail).toBe(
      'The eval gate is not met: precision 0.8571 < 0.9, recall 0.6667 < 0.8, F1 0.75 < 0.85.',
    );
  });

  it('reads a run with no positives at all as precision and recall 0, not as a division error', () => {
    const r = check(governed({ truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 5 }), governance);
    expect(failure(r, 'governance.eval_gate_unmet')?.detail).toBe(
      'The eval gate is not met: precision 0 < 0.9, recall 0 < 0.8, F1 0 < 0.85.',
    );
  });
});

describe('checkTraceMode and checkRiskTier', () => {
  it('leaves zero data retention to the trace check and other controls to the risk-tier check', () => {
    const profile = { tier: 'high', profileRef: 'controls://h', requiredControls: ['zero_data_retention', 'sandbox'] };
    const r = check(turn(['a'], { riskTier: 'high', riskControlProfile: profile }));
    expect(r.failureClasses).toEqual(['governance.risk_tier_profile_missing', 'governance.trace_mode_violation']);
    expect(failure(r, 'governance.risk_tier_profile_missing')?.detail).toBe(
      'The control profile `controls://h` requires controls the CallSpec does not configure (sandbox).',
    );
  });
});
