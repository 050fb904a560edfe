import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HarnessInputError } from './errors.ts';
import { hostEffect, hostEffectArgsDigest, isMutationHostAction, missingMutationAuthority } from './host-effect.ts';
import { issueMemorySnapshotRef } from './issues.ts';
import { leaseHandoffRef, siteLineageRefs } from './refs.ts';

// Expected refs come from Python's json.dumps(sort_keys=True, separators=(",", ":"),
// ensure_ascii=False) + hashlib.sha256: the bytes premath's worker loop and scheme-eval hash.
describe('lease handoff refs (the Tusk harness contract §12: worker-loop convention)', () => {
  it('is lease://handoff/<issue>/<state>/<digest>', () => {
    expect(
      leaseHandoffRef({
        issueId: 'bd-7',
        workerId: 'worker.1',
        leaseId: 'lease-9',
        leaseOwner: 'worker.1',
        leaseState: 'released',
        leaseAction: 'release_closed',
        status: 'closed',
        assignee: 'worker.1',
      }),
    ).toBe('lease://handoff/bd-7/released/775d298344da3fe9f29e8feb184f29a97ab99777ca4112a3d4eea4ce61549c4a');
    expect(
      leaseHandoffRef({
        issueId: 'bd-7',
        workerId: 'w2',
        leaseState: 'stale',
        leaseAction: 'issue_claim_next_reclaim',
        status: 'in_progress',
        assignee: 'ü',
      }),
    ).toBe('lease://handoff/bd-7/stale/1bfafbe0460e7dc7caf7dfe692045c6e13bb7b282b0dafc853b8b6bb66f2e11a');
  });

  it('refuses an issue id or lease state that would break the ref', () => {
    const base = { workerId: 'w', leaseAction: 'stop', status: 's', assignee: 'a' };
    expect(() => leaseHandoffRef({ ...base, issueId: 'a/b', leaseState: 'active' })).toThrow(HarnessInputError);
    expect(() => leaseHandoffRef({ ...base, issueId: 'bd-1', leaseState: ' ' })).toThrow(/lease\.leaseState/);
  });
});

describe('site lineage refs (the Tusk harness contract §3.3, §12)', () => {
  it('derives ctx, cover and refinement refs, sorted', () => {
    expect(
      siteLineageRefs({
        issueId: 'bd-7',
        workerId: 'w1',
        repoRoot: '/repo',
        issuesPath: '/repo/.premath/issues.jsonl',
        worktree: '/repo/wt',
        mutationMode: 'human-override',
        activeEpoch: '2026-02',
        supportUntil: '2026-06',
      }),
    ).toEqual([
      'cover://worker-loop/bd-7/7d431d914e46c0f34c6c40bb8e85db9566b53361d89a9664cb56ce7fe59ff431',
      'ctx://issue/bd-7/463ad1c2ac31f5dec4bcba59190eaebc6cf6090b4e1531fcb56e08979a49a290',
      'refinement://worker-loop/bd-7/w1/4f05f8f69ae4c3790a341a5ae8639a245c07c9d983edefb76abb1d2f8198fa0a',
    ]);
  });

  it('changes every ref when the context changes, only the refinement when the placement does', () => {
    const base = { issueId: 'bd-7', workerId: 'w1', repoRoot: '/r', issuesPath: '/r/i', worktree: '/r/w' };
    const [cover, ctx, refinement] = siteLineageRefs(base);
    const moved = siteLineageRefs({ ...base, worktree: '/r/w2' });
    expect([moved[0], moved[1]]).toEqual([cover, ctx]);
    expect(moved[2]).not.toBe(refinement);
    expect(siteLineageRefs({ ...base, repoRoot: '/other' }).some((r, i) => r === [cover, ctx, refinement][i])).toBe(
      false,
    );
  });
});

describe('host-effect envelope (the Tusk harness contract §14.1)', () => {
  it("digests args as premath's scheme-eval does", () => {
    expect(hostEffectArgsDigest({ status: 'blocked', id: 'bd-7', n: [1, 2] })).toBe(
      'he1_d3fe3563064691c962703628772664cc7b70a9b885caf75b04d4e79f138b77b9',
    );
    expect(hostEffectArgsDigest(null)).toBe(hostEffectArgsDigest({}));
    expect(hostEffectArgsDigest(undefined)).toBe(
      'he1_44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
    );
  });

  it('requires policyDigest and instructionRef on mutation-capable actions', () => {
    expect(isMutationHostAction('issue.claim')).toBe(true);
    expect(isMutationHostAction('issue.list')).toBe(false);
    expect(missingMutationAuthority({ action: 'issue.update', instructionRef: 'i' })?.field).toBe('policyDigest');
    expect(
      missingMutationAuthority({ action: 'fs.write', policyDigest: 'p', instructionRef: ' ', mutation: true })?.field,
    ).toBe('instructionRef');
    expect(
      missingMutationAuthority({ action: 'issue.update', policyDigest: 'p', instructionRef: 'i' }),
    ).toBeUndefined();
    expect(() => hostEffect({ action: 'dep.add', resultClass: 'accepted', policyDigest: 'p' })).toThrow(
      /effect\.instructionRef/,
    );
  });

  it('builds the envelope with ordered refs and a JSON copy of the payload', () => {
    const payload = { count: 2 };
    const effect = hostEffect({
      action: ' issue.update ',
      args: { id: 'bd-7' },
      resultClass: 'accepted',
      payload,
      witnessRefs: ['w2', ' w1 ', 'w2', ''],
      policyDigest: 'pol.1',
      instructionRef: 'instructions/bd-7.json',
    });
    payload.count = 3;
    expect(effect).toEqual({
      schema: 'premath.host_effect.v0',
      action: 'issue.update',
      argsDigest: hostEffectArgsDigest({ id: 'bd-7' }),
      resultClass: 'accepted',
      payload: { count: 2 },
      witnessRefs: ['w2', 'w1'],
      policyDigest: 'pol.1',
      instructionRef: 'instructions/bd-7.json',
    });
    expect(hostEffect({ action: 'issue.list', resultClass: 'accepted' }).payload).toBeNull();
  });

  it('refuses non-JSON args or payloads and blank ids', () => {
    expect(() => hostEffect({ action: 'a', resultClass: 'accepted', args: { f: () => 1 } })).toThrow(/effect\.args/);
    expect(() => hostEffect({ action: 'a', resultClass: 'accepted', payload: new Map() })).toThrow(/effect\.payload/);
    expect(() => hostEffect({ action: ' ', resultClass: 'accepted' })).toThrow(/effect\.action/);
    expect(() => hostEffect({ action: 'a', resultClass: '' })).toThrow(/effect\.resultClass/);
  });

  it('gives equal args equal digests whatever their key order (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), (args) => {
        const reversed = Object.fromEntries(Object.entries(args).reverse());
        expect(hostEffectArgsDigest(reversed)).toBe(hostEffectArgsDigest(args));
      }),
    );
  });
});

describe('issue memory snapshot ref (the Tusk harness contract §11: stable for unchanged issue memory)', () => {
  const encode = (text: string) => new TextEncoder().encode(text);

  it('is the same for the same issues, whatever the line order, format or superseded lines', () => {
    const a = issueMemorySnapshotRef(encode('{"id":"bd-1","status":"open"}\n{"id":"bd-2","status":"closed"}\n'), 'i');
    const b = issueMemorySnapshotRef(
      encode('\n{"id":"bd-2","status":"open"}\n{ "status" : "closed", "id": "bd-2" }\n{"id":"bd-1","status":"open"}'),
      'i',
    );
    expect(a).toBe(b);
    expect(a).toMatch(/^iss1_[0-9a-f]{64}$/);
    expect(
      issueMemorySnapshotRef(encode('{"id":"bd-1","status":"closed"}\n{"id":"bd-2","status":"closed"}\n'), 'i'),
    ).not.toBe(a);
  });

  it('refuses a line that is not an issue, naming the line', () => {
    try {
      issueMemorySnapshotRef(encode('{"id":"bd-1"}\n{"status":"open"}\n'), 'issues.jsonl');
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessInputError);
      expect([(error as HarnessInputError).field, (error as HarnessInputError).line]).toEqual(['issue.id', 2]);
    }
  });
});
