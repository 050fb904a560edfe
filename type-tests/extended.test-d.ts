/**
 * Type tests of the extended profile's public types. Negative cases use `@ts-expect-error`, so
 * tsd and TypeScript 7 check the same file.
 */
import { expectAssignable, expectType } from 'tsd';
import { joinCheck, type ExtendedReport, type JoinCheckReport } from 'turngate/join-check';
import type { ExtendedJoinCheckInputWire } from 'turngate/evidence';
import type { GuardrailStage } from 'turngate/normalize';

const callSpec = {
  callId: 'c',
  modelRef: 'm',
  actionMode: 'code',
  executionPattern: 'single',
  normalizerId: 'n',
  mutationPolicyDigest: 'p',
  governancePolicyDigest: 'g',
  toolRenderProtocolDigest: 'r',
  reminderQueuePolicyDigest: 'q',
  stateViewPolicyDigest: 's',
  decompositionPolicyDigest: 'd',
};

// A whole extended input: premath's fields and the extended ones, typed together.
expectAssignable<ExtendedJoinCheckInputWire>({
  profile: 'turngate.harness.extended.v1',
  evidence: {
    callSpec: { ...callSpec, parallelPolicy: { allowed: true, maxBranches: 2 }, riskTier: 'low' },
    toolRequests: [{ toolCallId: 'a', toolName: 't', transportIndex: 0 }],
    protocolState: { stopReason: 'end_turn' },
    guardrailDecisions: [{ decisionId: 'g', stage: 'input', guardrailId: 'x', sequence: 1, policyDigest: 'p' }],
  },
});

export const badCount: ExtendedJoinCheckInputWire = {
  evidence: {
    // A branch count is a number, not a string.
    // @ts-expect-error -- "is not assignable to type 'NumberInput | null | undefined'"
    callSpec: { ...callSpec, parallelPolicy: { allowed: true, maxBranches: '2' } },
    protocolState: { stopReason: 'end_turn' },
  },
};

export const missingField: ExtendedJoinCheckInputWire = {
  evidence: {
    callSpec,
    protocolState: { stopReason: 'end_turn' },
    // A guardrail decision needs its sequence.
    // @ts-expect-error -- "Property 'sequence' is missing"
    guardrailDecisions: [{ decisionId: 'g', stage: 'input', guardrailId: 'x', policyDigest: 'p' }],
  },
};

// The extended section is there only under the extended profile, and typed.
declare const report: JoinCheckReport;
expectType<ExtendedReport | undefined>(report.extended);
expectType<'turngate.harness.extended.v1' | undefined>(report.profile);
if (report.extended !== undefined) {
  expectType<boolean | undefined>(report.extended.mutationReady);
  expectType<string>(report.extended.witness.turnDigest);
  expectType<readonly GuardrailStage[] | undefined>(
    report.extended.normalized.callSpec.guardrailStagePolicy?.requiredStages,
  );
}
// The extended section may be absent.
// @ts-expect-error -- "possibly 'undefined'"
report.extended.witness;

joinCheck({ profile: 'turngate.harness.extended.v1', evidence: {} });
