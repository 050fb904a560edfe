import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { PROFILE } from '../../test/extended-turns.ts';
import {
  classes,
  closedTurn,
  continuing,
  defaultSpec,
  fromModel,
  mintsNothingMore,
  policy,
  ready,
  specFor,
  Tools,
  withPollution,
} from '../../test/turn-fixtures.ts';
import { digest } from '../canonical/index.ts';
import {
  admitMutation,
  performMutation,
  performMutationTool,
  recordMutations,
  settleMutations,
  turn,
  TypestateError,
  type MutationReady,
} from '../index.ts';
import { joinCheck } from '../join-check.ts';

const bound = { id: '7', status: 'closed' };

describe('admitMutation', () => {
  it('binds the MutationReady to the intents the closed turn declares, with a witness', () => {
    const r = ready();
    expect(r.intents).toEqual([
      { kind: 'tool_call', toolCallId: 'tc-3', toolName: 'update_issue', inputDigest: digest(bound) },
    ]);
    expect(r.witness).toMatchObject({
      witnessKind: 'turngate.mutation.v2',
      callId: 'turn-code',
      joinSetDigest: r.joinClosed.normalized.digests.joinSetDigest,
      capabilities: ['issues:write'],
      sessionRefs: ['session://test'],
      trajectoryRefs: ['trajectory://test/1'],
    });
  });

  it('refuses with the mutation.* classes of the design notes §4.6', () => {
    expect(classes(admitMutation(closedTurn(), { ...policy, mutationPolicyDigest: 'pol.mut.v2' }))).toEqual([
      'mutation.policy_digest_mismatch',
    ]);
    const missing = admitMutation(closedTurn(), { ...policy, capabilityClaims: [] });
    expect(classes(missing)).toEqual(['mutation.capability_claim_missing']);
    if (!missing.ok) expect(missing.failures[0]?.ids).toEqual(['issues:write']);
    const unlinked = turn(specFor('code'), Tools)
      .request('tc-1', 'update_issue', bound)
      .result('tc-1', { status: 'pending' })
      .use('tc-1', 'retry_scheduled')
      .close({ ...continuing(['tc-1']), sessionRefs: [], trajectoryRefs: [] });
    if (!unlinked.ok) throw new Error(JSON.stringify(unlinked.failures));
    expect(classes(admitMutation(unlinked.value, policy))).toEqual(['mutation.use_evidence_missing']);
  });

  it.each([
    ['a stale policy', { ...policy, mutationPolicyDigest: 'pol.mut.v2' }, ['mutation.policy_digest_mismatch']],
    ['an unclaimed capability', { ...policy, capabilityClaims: [] }, ['mutation.capability_claim_missing']],
    [
      'both',
      { mutationPolicyDigest: 'pol.mut.v0', requiredCapabilities: ['a:w', 'b:w'], capabilityClaims: ['b:w'] },
      ['mutation.capability_claim_missing', 'mutation.policy_digest_mismatch'],
    ],
    ['a policy that admits', policy, []],
  ])('decides %s by the one rule the join check applies to a mutationIntent', (_, given, expected) => {
    const closed = closedTurn();
    const context = closed.context;
    const extended = joinCheck({
      profile: PROFILE,
      evidence: {
        callSpec: closed.callSpec.spec,
        toolRequests: closed.requests.map((r) => ({ toolCallId: r.toolCallId, toolName: r.toolName })),
        toolResults: closed.results.map((r) =>
          r.status === 'ok'
            ? { toolCallId: r.toolCallId, status: 'ok', resultDigest: r.resultDigest }
            : { toolCallId: r.toolCallId, status: 'error', ...r.error },
        ),
        toolUse: closed.uses.map(({ evidence, ...row }) => ({ ...row, ...evidence })),
        protocolState: context.protocolState,
        toolRender: context.toolRender,
        reminderQueue: context.reminderQueue,
        stateViews: context.stateViews,
        sessionRefs: context.sessionRefs,
        trajectoryRefs: context.trajectoryRefs,
      },
      mutationIntent: {
        activeMutationPolicyDigest: given.mutationPolicyDigest,
        requiredCapabilities: given.requiredCapabilities,
        capabilityClaims: given.capabilityClaims,
      },
    });
    if (!extended.ok) throw new Error(extended.failures[0]?.message);
    const admitted = admitMutation(closed, given);
    const gate = (failures: readonly { class: string }[]) => failures.filter((f) => f.class.startsWith('mutation.'));
    expect(gate(admitted.ok ? [] : admitted.failures)).toEqual(gate(extended.value.failures));
    expect(gate(extended.value.failures).map((f) => f.class)).toEqual(expected);
    expect(admitted.ok).toBe(extended.value.extended?.mutationReady);
  });

  it('authorizes nothing for a turn in which the model only read a file', () => {
    const readOnly = turn(specFor('code'), Tools)
      .request('tc-1', 'read_file', { path: 'a' })
      .result('tc-1', { status: 'ok', output: { text: 'A' } })
      .use('tc-1', 'consumed', { evidence: { mutationInputRef: 'mutation://issues/ANY-ISSUE' } })
      .close(continuing(['tc-1']));
    if (!readOnly.ok) throw new Error(JSON.stringify(readOnly.failures));
    const refused = admitMutation(readOnly.value, policy);
    expect(classes(refused)).toEqual(['mutation.use_evidence_missing']);
    if (!refused.ok) expect(refused.failures[0]?.detail).toMatch(/declares no mutation intent/);
  });

  it('refuses a turn with a refused call: its failure class stays active', async () => {
    const requested = await import('../index.ts').then(({ requestTools }) =>
      requestTools(
        defaultSpec('code'),
        Tools,
        fromModel([
          { toolCallId: 'a', toolName: 'delete_everything', input: {} },
          { toolCallId: 'b', toolName: 'update_issue', input: bound },
        ]),
      ),
    );
    if (!requested.ok) throw new Error('setup');
    const { settle, useAll, closeJoin } = await import('../index.ts');
    const results = await settle(requested.value, {
      read_file: () => ({ text: '' }),
      search_web: () => ({ hits: 0 }),
      exec_only: () => ({}),
    });
    if (!results.ok) throw new Error('setup');
    const use = useAll(results.value, () => 'observed');
    if (!use.ok) throw new Error('setup');
    const closed = closeJoin(use.value);
    if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
    const refused = admitMutation(closed.value);
    expect(classes(refused)).toEqual(['tool.unknown_or_disallowed']);
    if (!refused.ok) expect(refused.failures[0]?.ids).toEqual(['a']);
  });

  it('reads the policy as own data: polluted capability claims or refs admit nothing more', () => {
    const closed = closedTurn();
    const demanding = { mutationPolicyDigest: 'pol.mut.v1', requiredCapabilities: ['issues:write'] };
    const clean = admitMutation(closed, demanding);
    expect(classes(clean)).toEqual(['mutation.capability_claim_missing']);
    const polluted = withPollution(
      { capabilityClaims: ['issues:write'], sessionRefs: ['session://x'], trajectoryRefs: ['trajectory://x'] },
      () => admitMutation(closed, demanding),
    );
    mintsNothingMore(polluted, clean, (v) => v.witness);
    expect(polluted.ok).toBe(false);
  });
});

describe('performMutation and performMutationTool', () => {
  it('run a bound intent once, with exactly the bound input; the effect sees that input and the witness', async () => {
    const r = ready();
    const effect = vi.fn(async (input: unknown) => ({ echoed: input }));
    const performed = await performMutation(r, { toolCallId: 'tc-3', input: { status: 'closed', id: '7' } }, effect);
    expect(effect).toHaveBeenCalledTimes(1);
    expect(performed.value).toEqual({ echoed: bound });
    expect(performed.intent.toolCallId).toBe('tc-3');
    expect(performed.witness).toBe(r.witness);
    await expect(performMutation(r, { toolCallId: 'tc-3', input: bound }, effect)).rejects.toMatchObject({
      code: 'spent',
    });
    expect(effect).toHaveBeenCalledTimes(1);
  });

  it('refuse before the effect: an unbound intent, another input, another tool, a tool that is not a mutation tool', async () => {
    const effect = vi.fn(async () => ({ ok: true }));
    await expect(performMutation(ready(), { toolCallId: 'tc-1', input: {} }, effect)).rejects.toMatchObject({
      code: 'not_bound',
    });
    await expect(
      performMutation(ready(), { mutationInputRef: 'mutation://issues/7', input: bound }, effect),
    ).rejects.toMatchObject({ code: 'not_bound' });
    await expect(
      performMutation(ready(), { toolCallId: 'tc-3', input: { id: 'ANY-ISSUE', status: 'closed' } }, effect),
    ).rejects.toMatchObject({ code: 'input_mismatch' });
    await expect(
      // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
      performMutationTool(ready(), { toolCallId: 'tc-3', toolName: 'read_file', input: bound } as never, effect),
    ).rejects.toThrow(/not a mutation: true tool/);
    expect(effect).not.toHaveBeenCalled();
  });

  it('validate a mutation tool output after it ran', async () => {
    const r = ready();
    // biome-ignore lint/plugin: the test returns a value its types forbid, to check the run-time refusal
    const bad = vi.fn(async () => ({ ok: 'yes' }) as never);
    await expect(
      performMutationTool(r, { toolCallId: 'tc-3', toolName: 'update_issue', input: bound }, bad),
    ).rejects.toThrow(/does not match its schema/);
    expect(bad).toHaveBeenCalledTimes(1);
  });

  it('never run an effect for a forged, copied or reused value, or twice for one intent across admissions', async () => {
    const genuine = ready();
    const forgeries: (() => unknown)[] = [
      () => ({}),
      () => ({ ...genuine }),
      () => Object.assign({}, genuine),
      () => JSON.parse(JSON.stringify({ witness: genuine.witness, intents: genuine.intents })),
      () => Object.create(genuine),
      () => genuine.joinClosed,
      () => null,
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...forgeries), fc.integer({ min: 1, max: 5 }), async (forge, admissions) => {
        const effect = vi.fn();
        await expect(
          performMutation(forge() as MutationReady, { toolCallId: 'tc-3', input: bound }, effect),
        ).rejects.toBeInstanceOf(TypestateError);
        const closed = closedTurn();
        let runs = 0;
        for (let i = 0; i < admissions; i++) {
          const admitted = admitMutation(closed, policy);
          if (!admitted.ok) {
            expect(classes(admitted)).toEqual(['mutation.use_evidence_missing']);
            continue;
          }
          await performMutation(admitted.value, { toolCallId: 'tc-3', input: bound }, effect).then(
            () => runs++,
            (error: unknown) => expect(error).toMatchObject({ code: 'spent' }),
          );
        }
        expect(runs).toBe(1);
        expect(effect).toHaveBeenCalledTimes(1);
      }),
      { numRuns: 40 },
    );
  });
});

describe('the two phases: a model-requested mutation flows through the gate', () => {
  it('settleMutations runs the pending call and makes its output that call’s result in the recorded turn', async () => {
    const closed = closedTurn();
    const update = vi.fn(async (input: { id: string; status: string }) => ({ ok: input.status === 'closed' }));
    const final = await settleMutations(closed, { update_issue: update }, policy);
    if (!final.ok) throw new Error(JSON.stringify(final.failures));
    expect(update).toHaveBeenCalledTimes(1);
    const answer = final.value.results.find((r) => r.toolCallId === 'tc-3');
    expect(answer).toMatchObject({
      toolName: 'update_issue',
      status: 'ok',
      output: { ok: true },
      resultDigest: digest({ ok: true }),
    });
    expect(final.value.pendingMutations).toEqual([]);
    expect(final.value.report.result).toBe('accepted');
    expect(final.value.normalized.toolResults?.find((r) => r.toolCallId === 'tc-3')?.resultDigest).toBe(
      digest({ ok: true }),
    );
    expect(final.value.uses.find((u) => u.toolCallId === 'tc-3')?.disposition).toBe('observed');
    expect(final.value.mutations.map((m) => [m.outcome, m.intent.toolCallId])).toEqual([['performed', 'tc-3']]);
    const record = final.value.mutations[0];
    expect(record?.outcome === 'performed' && record.witness.joinSetDigest).toBe(
      closed.normalized.digests.joinSetDigest,
    );
    expect(classes(admitMutation(final.value, policy))).toEqual(['mutation.use_evidence_missing']);
    // Settling the same turn again runs nothing more, and records what already ran.
    const again = await settleMutations(closed, { update_issue: update }, policy);
    expect(again.ok && again.value.mutations.map((m) => m.outcome)).toEqual(['performed']);
    expect(again.ok && again.value.normalized.digests.joinSetDigest).toBe(final.value.normalized.digests.joinSetDigest);
    expect(update).toHaveBeenCalledTimes(1);
  });

  it('answers a refused or failing mutation call with an error result, so the turn still closes', async () => {
    const refused = await settleMutations(
      closedTurn(),
      { update_issue: async () => ({ ok: true }) },
      { ...policy, capabilityClaims: [] },
    );
    if (!refused.ok) throw new Error(JSON.stringify(refused.failures));
    const answer = refused.value.results.find((r) => r.toolCallId === 'tc-3');
    expect(answer?.status === 'error' && answer.error).toMatchObject({
      errorCode: 'mutation_not_admitted',
      retryable: false,
    });
    expect(answer?.status === 'error' && answer.error.errorMessage).toMatch(/mutation.capability_claim_missing/);
    const thrown = await settleMutations(
      closedTurn(),
      { update_issue: async () => Promise.reject(new Error('')) },
      policy,
    );
    if (!thrown.ok) throw new Error(JSON.stringify(thrown.failures));
    const failed = thrown.value.results.find((r) => r.toolCallId === 'tc-3');
    expect(failed?.status === 'error' && failed.error).toMatchObject({
      errorCode: 'mutation_failed',
      errorMessage: 'update_issue threw Error with no message',
    });
    const skipped = recordMutations(closedTurn());
    const notRun = skipped.ok ? skipped.value.results.find((r) => r.toolCallId === 'tc-3') : undefined;
    expect(notRun?.status === 'error' && notRun.error.errorCode).toBe('mutation_not_performed');
  });

  it('answers refused calls with the classes, or with the caller’s why; a malformed why is refused', () => {
    const refused = [{ class: 'mutation.stop_reason_unsafe' as const, detail: 'cut off' }];
    const plain = recordMutations(closedTurn(), { refused });
    const named = recordMutations(closedTurn(), {
      refused,
      why: { text: 'not run: the reply was cut off', retryable: true },
    });
    const errorOf = (r: typeof plain) =>
      r.ok ? r.value.results.find((x) => x.toolCallId === 'tc-3' && x.status === 'error') : undefined;
    expect(errorOf(plain)).toMatchObject({
      error: {
        errorCode: 'mutation_not_admitted',
        errorMessage: 'the mutation gate refused this turn (mutation.stop_reason_unsafe); update_issue did not run',
      },
    });
    expect(errorOf(named)).toMatchObject({
      error: {
        errorCode: 'mutation_not_admitted',
        retryable: true,
        errorMessage: 'not run: the reply was cut off; update_issue did not run',
      },
    });
    // biome-ignore lint/plugin: a why of the wrong shape is the case under test
    const bad = recordMutations(closedTurn(), { refused, why: { text: 3 } as never });
    expect(bad.ok ? [] : bad.failures.map((f) => f.detail)).toEqual([
      'options.why: expected { text: string, retryable: boolean }',
    ]);
  });

  it('runs a consumed row’s mutation input once, bound by its digest', async () => {
    const closed = turn(specFor('code'), Tools)
      .request('tc-1', 'read_file', { path: 'a' })
      .result('tc-1', { status: 'ok', output: { text: 'A' } })
      .use('tc-1', 'consumed', { evidence: { mutationInputRef: 'mutation://issues/7', mutationInput: bound } })
      .close(continuing(['tc-1']));
    if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
    expect(closed.value.intents).toEqual([
      {
        kind: 'mutation_input',
        toolCallId: 'tc-1',
        mutationInputRef: 'mutation://issues/7',
        inputDigest: digest(bound),
      },
    ]);
    const admitted = admitMutation(closed.value, policy);
    if (!admitted.ok) throw new Error(JSON.stringify(admitted.failures));
    const effect = vi.fn(async () => 'done');
    await expect(
      performMutation(
        admitted.value,
        { mutationInputRef: 'mutation://issues/7', input: { ...bound, id: '8' } },
        effect,
      ),
    ).rejects.toMatchObject({ code: 'input_mismatch' });
    const performed = await performMutation(
      admitted.value,
      { mutationInputRef: 'mutation://issues/7', input: bound },
      effect,
    );
    expect(performed.value).toBe('done');
    expect(effect).toHaveBeenCalledTimes(1);
  });
});
