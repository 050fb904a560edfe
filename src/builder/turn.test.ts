import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { continuing, endTurn, specFor, tools } from '../../test/turn-fixtures.ts';
import { admitMutation, joinCheck, turn } from '../index.ts';

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
