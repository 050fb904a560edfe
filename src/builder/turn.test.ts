import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classes, continuing, defaultSpec, endTurn, specFor, Tools } from '../../test/turn-fixtures.ts';
import { admitMutation, turn } from '../index.ts';
import { joinCheck } from '../join-check.ts';

describe('turn', () => {
  it('closes a default-profile turn without any context, and records a pending mutation call', () => {
    const closed = turn(defaultSpec('code'), Tools)
      .request('tc-1', 'read_file', { path: 'a' })
      .request('tc-2', 'update_issue', { id: '7', status: 'closed' })
      .result('tc-1', { status: 'ok', output: { text: 'A' } })
      .result('tc-2', { status: 'pending' })
      .use('tc-1', 'consumed', { evidence: { summaryRef: 'summary://1' } })
      .use('tc-2', 'retry_scheduled', { reasonCode: 'mutation_pending' })
      .close();
    if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
    expect(closed.value.pendingMutations).toEqual(['tc-2']);
    expect(closed.value.normalized.protocolState).toEqual({ stopReason: 'tool_use', continuationAllowed: true });
  });

  it('fails at close when the runtime refuses a call the types let through', () => {
    const closed = turn(specFor('code'), Tools)
      .request('tc-1', 'exec_only', {}, { callerId: 'code_execution/1' })
      .request('tc-2', 'read_file', { path: 'a' })
      .result('tc-1', { status: 'ok', output: {} })
      .result('tc-2', { status: 'ok', output: { text: 'A' } })
      .use('tc-1', 'observed')
      .use('tc-2', 'observed')
      .close(endTurn);
    expect(closed.ok).toBe(true);
    // biome-ignore lint/suspicious/noExplicitAny: a second json-mode request is a type error; this checks the run time
    const json = (turn(specFor('json'), Tools) as any)
      .request('tc-1', 'read_file', { path: 'a' })
      .request('tc-2', 'read_file', { path: 'b' })
      .close(endTurn);
    expect(classes(json as { ok: boolean; failures?: { class: string }[] })).toEqual([
      'tool.parallel_policy_violation',
    ]);
  });
});

describe('builder property: no MutationReady without a closed join', () => {
  const ids = ['tc-a', 'tc-b', 'tc-c'] as const;
  const call = fc.record({
    id: fc.constantFrom(...ids),
    mutation: fc.boolean(),
    answered: fc.double({ min: 0, max: 1, noNaN: true }).map((p) => p < 0.85),
    used: fc.double({ min: 0, max: 1, noNaN: true }).map((p) => p < 0.85),
    consumed: fc.boolean(),
  });
  const noise = fc.constantFrom('orphan-result', 'use-without-result', 'repeat-request');

  it('every MutationReady minted from arbitrary builder calls has evidence the join check accepts', () => {
    let admitted = 0;
    fc.assert(
      fc.property(
        fc.array(call, { maxLength: 3 }),
        fc.array(noise, { maxLength: 2 }),
        fc.constantFrom('code', 'json'),
        fc.boolean(),
        (calls, extra, mode, continues) => {
          // The builder's types forbid most of these sequences; at run time they must fail closed.
          // biome-ignore lint/suspicious/noExplicitAny: the property drives sequences the builder's types forbid
          let b = turn(specFor(mode), Tools) as any;
          for (const c of calls) {
            b = c.mutation
              ? b.request(c.id, 'update_issue', { id: c.id, status: 'closed' })
              : b.request(c.id, 'read_file', { path: c.id });
          }
          for (const n of extra) {
            if (n === 'orphan-result') b = b.result('tc-x', { status: 'ok', output: { text: 'x' } });
            else if (n === 'use-without-result') b = b.use('tc-y', 'observed');
            else b = b.request('tc-a', 'read_file', { path: 'again' });
          }
          for (const c of calls.filter((c) => c.answered)) {
            b = b.result(c.id, c.mutation ? { status: 'pending' } : { status: 'ok', output: { text: c.id } });
          }
          for (const c of calls.filter((c) => c.answered && c.used)) {
            b = c.mutation
              ? b.use(c.id, 'retry_scheduled')
              : b.use(c.id, c.consumed ? 'consumed' : 'observed', { evidence: { summaryRef: 's' } });
          }
          const requested = [...new Set(calls.map((c) => c.id))];
          const closed = b.close(continues ? continuing(requested) : endTurn);
          if (!closed.ok) return;
          const gate = admitMutation(closed.value, { mutationPolicyDigest: 'pol.mut.v1' });
          if (!gate.ok) return;
          admitted++;
          const evidence = gate.value.joinClosed.normalized;
          // Re-check the turn's request and use rows (error envelopes are digested, so results are re-read as ok rows).
          const recheck = joinCheck({
            evidence: {
              ...evidence,
              toolResults: (evidence.toolResults ?? []).map((r) => ({ toolCallId: r.toolCallId, status: 'ok' })),
            },
          });
          expect(recheck.ok && recheck.value.joinClosed).toBe(true);
          expect(gate.value.witness.joinSetDigest).toBe(gate.value.joinClosed.report.witness.digests.joinSetDigest);
          expect(evidence.joinState.joinClosed).toBe(true);
          expect(new Set(evidence.joinState.requestedCallIds)).toEqual(new Set(evidence.joinState.usedCallIds));
          expect(gate.value.intents.length).toBeGreaterThan(0);
          expect(extra).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
    expect(admitted).toBeGreaterThan(0);
  });
});
