import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { classes, closedTurn, continuing, policy, ready, specFor, tools } from '../../test/turn-fixtures.ts';
import {
  admitMutation,
  performMutation,
  performMutationTool,
  turn,
  TypestateError,
  type MutationReady,
} from '../index.ts';

describe('the mutation gate', () => {
  it('admits a closed turn and runs the effect once, with its witness', async () => {
    const effect = vi.fn(async () => 'done');
    const r = ready();
    const performed = await performMutation(r, effect);
    expect(performed.value).toBe('done');
    expect(effect).toHaveBeenCalledTimes(1);
    expect(performed.witness.joinSetDigest).toBe(r.joinClosed.normalized.digests.joinSetDigest);
    expect(performed.witness.capabilities).toEqual(['issues:write']);
    await expect(performMutation(r, effect)).rejects.toMatchObject({ code: 'spent' });
    expect(effect).toHaveBeenCalledTimes(1);
  });

  it('refuses with the mutation.* classes of seed 001 §4.6', () => {
    expect(classes(admitMutation(closedTurn(), { ...policy, mutationPolicyDigest: 'pol.mut.v2' }))).toEqual([
      'mutation.policy_digest_mismatch',
    ]);
    const missing = admitMutation(closedTurn(), { ...policy, capabilityClaims: [] });
    expect(classes(missing)).toEqual(['mutation.capability_claim_missing']);
    if (!missing.ok) expect(missing.failures[0]?.ids).toEqual(['issues:write']);
    const unevidenced = turn(specFor('code'), tools)
      .request('tc-1', 'fs.read', { path: 'a' })
      .result('tc-1', { status: 'ok', output: { text: 'A' } })
      .use('tc-1', 'consumed')
      .close(continuing(['tc-1']));
    if (!unevidenced.ok) throw new Error('setup');
    const refused = admitMutation(unevidenced.value, policy);
    expect(classes(refused)).toEqual(['mutation.use_evidence_missing']);
    if (!refused.ok) expect(refused.failures[0]?.ids).toEqual(['tc-1']);
    const unlinked = turn(specFor('code'), tools).close({ protocolState: { stopReason: 'end_turn' } });
    if (!unlinked.ok) throw new Error('setup');
    expect(classes(admitMutation(unlinked.value, policy))).toEqual(['mutation.use_evidence_missing']);
  });

  it('runs a mutation tool only through performMutationTool, validating input first', async () => {
    const execute = vi.fn(async (input: { id: string; status: string }) => ({ ok: input.status === 'closed' }));
    const done = await performMutationTool(ready(), tools, 'issues.update', { id: '7', status: 'closed' }, execute);
    expect(done.value).toEqual({ ok: true });
    await expect(
      // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
      performMutationTool(ready(), tools, 'fs.read' as never, { path: 'x' } as never, execute),
    ).rejects.toThrow(/not a mutation tool/);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    await expect(performMutationTool(ready(), tools, 'issues.update', { id: 7 } as never, execute)).rejects.toThrow(
      /does not match its schema/,
    );
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('never runs an effect for a forged, copied or reused value', async () => {
    const genuine = ready();
    const forgeries: (() => unknown)[] = [
      () => ({}),
      () => ({ ...genuine }),
      () => structuredClone({ witness: genuine.witness, joinClosed: JSON.parse(JSON.stringify(genuine.joinClosed)) }),
      () => JSON.parse(JSON.stringify(genuine)),
      () => Object.create(genuine),
      () => genuine.joinClosed,
      () => null,
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...forgeries), fc.nat({ max: 3 }), async (forge, reuses) => {
        const effect = vi.fn();
        await expect(performMutation(forge() as MutationReady, effect)).rejects.toBeInstanceOf(TypestateError);
        const real = ready();
        await performMutation(real, effect);
        for (let i = 0; i < reuses; i++)
          await expect(performMutation(real, effect)).rejects.toMatchObject({ code: 'spent' });
        expect(effect).toHaveBeenCalledTimes(1);
      }),
      { numRuns: 50 },
    );
  });
});
