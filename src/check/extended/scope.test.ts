import { describe, expect, it } from 'vitest';
import { check, failure, patch, turn } from '../../../test/extended-turns.ts';

describe('checkRoleScope', () => {
  const scope = { readRefs: ['artifact://design'], writeRefs: ['artifact://out/'] };

  it('names each ref read or written outside the scope', () => {
    const ev = turn(['a'], { contextScope: scope });
    const r = check({
      ...ev,
      stateViews: [
        { viewId: 'v', viewDigest: 'sha256:v', policyDigest: 'pol.view', sourceRefs: ['artifact://design/x'] },
      ],
      contextReads: ['artifact://designs/y', 'artifact://design/z'],
      toolResults: patch(ev['toolResults'], 'a', {
        artifactWrites: [
          { path: 'artifact://out/report.md', digest: 'sha256:1' },
          { path: 'artifact://outside.md', digest: 'sha256:2' },
        ],
      }),
    });
    const f = failure(r, 'context.scope_violation');
    expect(f?.detail).toBe('The role read context outside its scope. The role wrote artifacts outside its scope.');
    expect(f?.ids).toEqual(['artifact://designs/y', 'artifact://outside.md']);
  });
});

describe('checkTransfers', () => {
  const contract = { allowedTargets: ['worker.qa'], requiredArtifactRefs: ['artifact://spec'] };
  const out = { transferId: 't1', direction: 'fan_out', target: 'worker.qa', artifactRefs: ['artifact://spec'] };

  it("holds premath's handoff packet to the contract as the transfer `handoff`", () => {
    const r = check(turn(['a'], { handoffContract: contract }, { handoff: { target: 'worker.ops' } }));
    expect(failure(r, 'handoff.target_not_allowed')?.ids).toEqual(['handoff']);
    expect(failure(r, 'handoff.required_artifact_missing')?.ids).toEqual(['handoff']);
  });

  it('lets a fan-out wait for its fan-in while the loop continues, not when the turn ends', () => {
    const waiting = turn(['a'], { handoffContract: contract }, { transfers: [out] });
    expect(check(waiting).result).toBe('accepted');
    const ending = { ...waiting, protocolState: { stopReason: 'end_turn', continuationAllowed: false } };
    expect(failure(check(ending), 'tool.join_incomplete')).toEqual({
      class: 'tool.join_incomplete',
      detail: 'The turn ends with outgoing transfers no fan-in answered.',
      ids: ['t1'],
    });
    const back = { transferId: 'r1', direction: 'fan_in', target: 'worker.qa', answersTransferId: 't1' };
    expect(check({ ...ending, transfers: [out, back] }).result).toBe('accepted');
  });
});

describe('checkMutationIntent', () => {
  const intent = {
    activeMutationPolicyDigest: 'pol.mut',
    requiredCapabilities: ['a:w', 'b:w'],
    capabilityClaims: ['a:w'],
  };

  it('decides MutationReady: policy, claims, use evidence and witness linkage, each with its ids', () => {
    const ev = turn(['a', 'b'], {}, { sessionRefs: ['s://1'], trajectoryRefs: ['t://1'] });
    const uses = patch(
      patch(ev['toolUse'], 'a', { disposition: 'consumed', resultDigest: 'sha256:r-a', summaryRef: 'summary://1' }),
      'b',
      { disposition: 'consumed', resultDigest: 'sha256:r-b' },
    );
    const r = check({ ...ev, toolUse: uses }, { mutationIntent: intent });
    expect(r.failureClasses).toEqual(['mutation.capability_claim_missing', 'mutation.use_evidence_missing']);
    expect(failure(r, 'mutation.capability_claim_missing')?.ids).toEqual(['b:w']);
    expect(failure(r, 'mutation.use_evidence_missing')?.ids).toEqual(['b']);
    expect(r.extended?.mutationReady).toBe(false);
    const admitted = check(
      { ...ev, toolUse: uses },
      { mutationIntent: { ...intent, capabilityClaims: ['a:w', 'b:w'] } },
    );
    expect(admitted.failureClasses).toEqual(['mutation.use_evidence_missing']);
  });
});
