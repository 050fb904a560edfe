import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { continuing, endTurn, specFor, tools } from '../../test/turn-fixtures.ts';
import {
  adaptText,
  admitMutation,
  callSpec,
  closeJoin,
  joinCheck,
  matchToolResult,
  performMutation,
  performMutationTool,
  recordResults,
  recordUse,
  requestTools,
  settle,
  turn,
  TypestateError,
  useAll,
  type JoinClosed,
  type MutationReady,
} from '../index.ts';

const policy = {
  mutationPolicyDigest: 'pol.mut.v1',
  requiredCapabilities: ['issues:write'],
  capabilityClaims: ['issues:write'],
};

function closedTurn(): JoinClosed<typeof tools.definitions> {
  const closed = turn(specFor('code'), tools)
    .request('tc-1', 'fs.read', { path: 'a.md' })
    .request('tc-2', 'web.search', { query: 'x' })
    .result('tc-1', { status: 'ok', output: { text: 'A' } })
    .result('tc-2', { status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'slow' } })
    .use('tc-1', 'consumed', { evidence: { mutationInputRef: 'mutation://issues/7' } })
    .use('tc-2', 'observed')
    .close(continuing(['tc-1', 'tc-2']));
  if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
  return closed.value;
}

function ready(): MutationReady<typeof tools.definitions> {
  const admitted = admitMutation(closedTurn(), policy);
  if (!admitted.ok) throw new Error(JSON.stringify(admitted.failures));
  return admitted.value;
}

const classes = (r: { ok: boolean; failures?: readonly { class: string }[] }) =>
  r.ok ? [] : (r.failures ?? []).map((f) => f.class);

describe('transitions', () => {
  it('mint frozen states only when the evidence holds', () => {
    const closed = closedTurn();
    expect(Object.isFrozen(closed)).toBe(true);
    expect(closed.report.result).toBe('accepted');
    expect(closed.results.map((r) => r.status)).toEqual(['ok', 'error']);
    const ok = closed.results[0];
    if (ok?.status === 'ok') expect(ok.resultDigest).toBe(closed.normalized.toolResults?.[0]?.resultDigest);
  });

  it('freeze the evidence a state holds, so it cannot be edited past the gate', () => {
    const closed = closedTurn();
    expect(() => {
      (closed.normalized.callSpec as { mutationPolicyDigest: string }).mutationPolicyDigest = 'pol.other';
    }).toThrow(TypeError);
    expect(() => {
      (closed.results as unknown[]).push({});
    }).toThrow(TypeError);
    expect(Object.isFrozen(closed.report.witness.digests)).toBe(true);
    expect(Object.isFrozen(tools.definitions['fs.read'])).toBe(false);
  });

  it('refuse a CallSpec with a blank field or an unknown action mode', () => {
    const base = { ...specFor('code').spec };
    expect(classes(callSpec({ ...base, callId: ' ' }))).toEqual(['tool.schema_invalid']);
    expect(classes(callSpec({ ...base, actionMode: 'yaml' }))).toEqual(['tool.schema_invalid']);
    const upper = callSpec({ ...base, actionMode: 'JSON' });
    expect(upper.ok && upper.value.spec.actionMode).toBe('json');
  });

  it('requestTools fails closed on unknown tools, disallowed callers and bad input', () => {
    const spec = specFor('code');
    expect(classes(requestTools(spec, tools, [{ toolCallId: 'a', toolName: 'fs.delete', input: {} }]))).toEqual([
      'tool.unknown_or_disallowed',
    ]);
    expect(classes(requestTools(spec, tools, [{ toolCallId: 'a', toolName: 'code.exec_only', input: {} }]))).toEqual([
      'tool.unknown_or_disallowed',
    ]);
    expect(
      requestTools(spec, tools, [
        { toolCallId: 'a', toolName: 'code.exec_only', input: {}, callerId: 'code_execution/1' },
      ]).ok,
    ).toBe(true);
    const bad = requestTools(spec, tools, [{ toolCallId: 'a', toolName: 'fs.read', input: { path: 3 } }]);
    expect(classes(bad)).toEqual(['tool.schema_invalid']);
    if (!bad.ok) expect(bad.failures[0]?.detail).toMatch(/path: Invalid type: Expected string/);
    expect(
      classes(
        requestTools(spec, tools, [
          { toolCallId: 'a', toolName: 'fs.read', input: { path: 'x' } },
          { toolCallId: 'a', toolName: 'fs.read', input: { path: 'y' } },
        ]),
      ),
    ).toEqual(['tool.schema_invalid']);
  });

  it('enforces the action modes: json one call, text only through an adapter', () => {
    const two = [
      { toolCallId: 'a', toolName: 'fs.read', input: { path: 'x' } },
      { toolCallId: 'b', toolName: 'fs.read', input: { path: 'y' } },
    ];
    expect(requestTools(specFor('code'), tools, two).ok).toBe(true);
    expect(classes(requestTools(specFor('json'), tools, two))).toEqual(['tool.parallel_policy_violation']);
    expect(classes(requestTools(specFor('text'), tools, two.slice(0, 1)))).toEqual(['tool.schema_invalid']);
    const profile = {
      profileId: 'tag.v1',
      parse: (text: string) =>
        [...text.matchAll(/<read id="(\w+)">([^<]*)<\/read>/g)].map((m) => ({
          toolCallId: m[1] as string,
          toolName: 'fs.read',
          input: { path: m[2] },
        })),
    };
    const adapted = adaptText(specFor('text'), tools, profile, 'see <read id="t1">a.md</read>');
    expect(adapted.ok && adapted.value.requests.map((r) => r.toolCallId)).toEqual(['t1']);
  });

  it('recordResults refuses orphans and outputs that fail their schema; recordUse refuses uses without results', () => {
    const requested = requestTools(specFor('code'), tools, [
      { toolCallId: 'a', toolName: 'fs.read', input: { path: 'x' } },
    ]);
    if (!requested.ok) throw new Error('setup');
    const orphan = recordResults(requested.value, [{ toolCallId: 'z', status: 'ok', output: {} }]);
    expect(classes(orphan)).toEqual(['tool.result_orphan']);
    if (!orphan.ok) expect(orphan.failures[0]?.ids).toEqual(['z']);
    expect(classes(recordResults(requested.value, [{ toolCallId: 'a', status: 'ok', output: { text: 1 } }]))).toEqual([
      'tool.schema_invalid',
    ]);
    expect(
      classes(
        recordResults(requested.value, [
          { toolCallId: 'a', status: 'error', error: { errorCode: ' ', retryable: false, errorMessage: 'x' } },
        ]),
      ),
    ).toEqual(['tool.schema_invalid']);
    const resulted = recordResults(requested.value, [{ toolCallId: 'a', status: 'ok', output: { text: 'x' } }]);
    if (!resulted.ok) throw new Error('setup');
    expect(classes(recordUse(resulted.value, [{ toolCallId: 'q', disposition: 'observed' }]))).toEqual([
      'tool.use_without_result',
    ]);
    expect(classes(recordUse(resulted.value, [{ toolCallId: 'a', disposition: 'discarded_with_reason' }]))).toEqual([
      'tool.schema_invalid',
    ]);
  });

  it('closeJoin names the unanswered call', () => {
    const requested = requestTools(specFor('code'), tools, [
      { toolCallId: 'a', toolName: 'fs.read', input: { path: 'x' } },
      { toolCallId: 'b', toolName: 'fs.read', input: { path: 'y' } },
    ]);
    if (!requested.ok) throw new Error('setup');
    const resulted = recordResults(requested.value, [{ toolCallId: 'a', status: 'ok', output: { text: 'x' } }]);
    if (!resulted.ok) throw new Error('setup');
    const used = recordUse(resulted.value, [{ toolCallId: 'a', disposition: 'observed' }]);
    if (!used.ok) throw new Error('setup');
    const closed = closeJoin(used.value, endTurn);
    expect(classes(closed)).toEqual(['tool.join_incomplete', 'tool.result_missing']);
    if (!closed.ok) expect(closed.failures.find((f) => f.class === 'tool.result_missing')?.ids).toEqual(['b']);
  });

  it('refuse states that were not minted, or minted as another state', () => {
    const spec = specFor('code');
    expect(() => requestTools({ ...spec }, tools, [])).toThrow(TypestateError);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => recordResults(spec as never, [])).toThrow(/is a CallSpec/);
    expect(() => requestTools(structuredClone(spec), tools, [])).toThrow(TypestateError);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => admitMutation(JSON.parse(JSON.stringify(closedTurn())) as never, policy)).toThrow(TypestateError);
    // A state that holds the tool registry (schemas are functions) cannot even be cloned.
    expect(() => structuredClone(closedTurn())).toThrow(/could not be cloned/);
  });
});

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

describe('settle and useAll', () => {
  it('give one result per request and one disposition per result; mutation tools do not run', async () => {
    const requested = requestTools(specFor('code'), tools, [
      { toolCallId: 'model-1', toolName: 'fs.read', input: { path: 'a' } },
      { toolCallId: 'model-2', toolName: 'web.search', input: { query: 'q' } },
      { toolCallId: 'model-3', toolName: 'issues.update', input: { id: '1', status: 'closed' } },
    ]);
    if (!requested.ok) throw new Error('setup');
    const run = vi.fn(async (request: { toolName: string }) => {
      if (request.toolName === 'web.search')
        throw Object.assign(new Error('search backend down'), { code: 'unavailable', retryable: true });
      return { text: 'A' };
    });
    const results = await settle(requested.value, run);
    expect(run).toHaveBeenCalledTimes(2);
    if (!results.ok) throw new Error(JSON.stringify(results.failures));
    expect(results.value.results.map((r) => (r.status === 'ok' ? 'ok' : r.error.errorCode))).toEqual([
      'ok',
      'unavailable',
      'mutation_not_admitted',
    ]);
    const use = useAll(results.value, (r) =>
      r.status === 'ok' ? { disposition: 'consumed', evidence: { summaryRef: 'summary://1' } } : 'observed',
    );
    if (!use.ok) throw new Error('setup');
    const closed = closeJoin(use.value, continuing(['model-1', 'model-2', 'model-3']));
    expect(closed.ok).toBe(true);
  });
});

describe('builder property: no MutationReady without a closed join', () => {
  const ids = ['tc-a', 'tc-b', 'tc-c'] as const;
  const op = fc.oneof(
    fc.record({ kind: fc.constant('request' as const), id: fc.constantFrom(...ids) }),
    fc.record({ kind: fc.constant('result' as const), id: fc.constantFrom(...ids, 'tc-x') }),
    fc.record({ kind: fc.constant('use' as const), id: fc.constantFrom(...ids, 'tc-y'), consumed: fc.boolean() }),
  );

  it('every MutationReady minted from arbitrary builder calls has evidence the join check accepts', () => {
    let admitted = 0;
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 9 }),
        fc.constantFrom('code', 'json'),
        fc.boolean(),
        (ops, mode, continues) => {
          // The builder's types forbid most of these sequences; at run time they must fail closed.
          // biome-ignore lint/suspicious/noExplicitAny: the property drives sequences the builder's types forbid
          let b = turn(specFor(mode), tools) as any;
          for (const o of ops) {
            if (o.kind === 'request') b = b.request(o.id, 'fs.read', { path: o.id });
            else if (o.kind === 'result') b = b.result(o.id, { status: 'ok', output: { text: o.id } });
            else b = b.use(o.id, o.consumed ? 'consumed' : 'observed', { evidence: { summaryRef: 's' } });
          }
          const requested = [...new Set(ops.filter((o) => o.kind === 'request').map((o) => o.id))];
          const closed = b.close(continues ? continuing(requested) : endTurn);
          if (!closed.ok) return;
          const gate = admitMutation(closed.value, { mutationPolicyDigest: 'pol.mut.v1' });
          if (!gate.ok) return;
          admitted++;
          const evidence = gate.value.joinClosed.normalized;
          const recheck = joinCheck({ evidence: { ...evidence, toolResults: evidence.toolResults ?? [] } });
          expect(recheck.ok && recheck.report.result).toBe('accepted');
          expect(evidence.joinState.joinClosed).toBe(true);
          expect(new Set(evidence.joinState.requestedCallIds)).toEqual(new Set(evidence.joinState.usedCallIds));
        },
      ),
      { numRuns: 400 },
    );
    expect(admitted).toBeGreaterThan(0);
  });
});

describe('matchToolResult', () => {
  it("calls the handler of the result's tool, and refuses a result with no handler", async () => {
    const closed = closedTurn();
    const lines = closed.results.map((r) =>
      matchToolResult(r, {
        'fs.read': (x) => (x.status === 'ok' ? `read ${x.output.text}` : 'read failed'),
        'web.search': (x) => (x.status === 'ok' ? `${x.output.hits} hits` : `search ${x.error.errorCode}`),
        'code.exec_only': () => 'exec',
        'issues.update': () => 'update',
      }),
    );
    expect(lines).toEqual(['read A', 'search timeout']);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => matchToolResult(closed.results[0] as never, {} as never)).toThrow(/no handler for tool "fs.read"/);
  });
});
