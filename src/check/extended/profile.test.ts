import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callSpec, evidence } from '../../../test/arbitraries.ts';
import { digest, parseJson } from '../../canonical/index.ts';
import { joinCheck, renderJoinCheckJson } from '../index.ts';

const PROFILE = 'turngate.harness.extended.v1';

const CALL_SPEC_FIELDS = ['toolPolicy', 'toolChoice', 'guardrailStagePolicy', 'observabilityMode', 'riskTier'];
const ROW_FIELDS = ['transportIndex', 'terminal', 'shell', 'searchId', 'summaryRef', 'parentToolCallId'];
const EVIDENCE_FIELDS = ['toolSearches', 'guardrailDecisions', 'transfers', 'traceExports', 'policyChange'];

/** An object holding some of `keys`, each with arbitrary JSON (well-formed extended values or not). */
const some = (keys: string[]) =>
  fc.dictionary(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 2 }), { maxKeys: keys.length });

function withExtendedFields(ev: Record<string, unknown>, spec: object, row: object, top: object) {
  const rows = (list: unknown) => (list as object[]).map((r) => ({ ...r, ...row }));
  return {
    ...ev,
    ...top,
    callSpec: { ...(ev['callSpec'] as object), ...spec },
    toolRequests: rows(ev['toolRequests']),
    toolResults: rows(ev['toolResults']),
    toolUse: rows(ev['toolUse']),
  };
}

describe('the premath profile is unchanged by extended fields', () => {
  it('prints the same bytes with or without extended fields when the input does not opt in', () => {
    fc.assert(
      fc.property(evidence(), some(CALL_SPEC_FIELDS), some(ROW_FIELDS), some(EVIDENCE_FIELDS), (ev, spec, row, top) => {
        const plain = joinCheck({ evidence: ev });
        const carrying = joinCheck({
          evidence: withExtendedFields(ev, spec, row, top),
          mutationIntent: { activeMutationPolicyDigest: 'x' },
        });
        expect(carrying.ok).toBe(plain.ok);
        if (plain.ok && carrying.ok) {
          expect(renderJoinCheckJson(carrying.value)).toBe(renderJoinCheckJson(plain.value));
          expect(carrying.value.profile).toBeUndefined();
          expect(carrying.value.extended).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps premath's normalized evidence and witness byte for byte under the extended profile", () => {
    fc.assert(
      fc.property(evidence(), (ev) => {
        const premath = joinCheck({ evidence: ev });
        const extended = joinCheck({ profile: PROFILE, evidence: ev });
        expect(extended.ok).toBe(premath.ok);
        if (!premath.ok || !extended.ok) return;
        const p = JSON.parse(renderJoinCheckJson(premath.value));
        const x = JSON.parse(renderJoinCheckJson(extended.value));
        expect(x.normalized).toEqual(p.normalized);
        expect(x.witness).toEqual(p.witness);
        // Nothing extended is configured, so no extended check has anything to judge.
        expect(x.failureClasses).toEqual(p.failureClasses);
        expect(x.profile).toBe(PROFILE);
        expect(Object.keys(x).sort()).toEqual([...Object.keys(p), 'extended', 'profile'].sort());
      }),
      { numRuns: 300 },
    );
  });

  const upstream = join(
    import.meta.dirname,
    '../../../../shared/upstream/premath/tests/conformance/fixtures/harness-typestate',
  );
  it.runIf(existsSync(upstream))(
    "gives premath's verdict, normalized evidence and witness on premath's 20 vectors opted into the extended profile",
    () => {
      const manifest = JSON.parse(readFileSync(join(upstream, 'manifest.json'), 'utf8')) as { vectors: string[] };
      expect(manifest.vectors).toHaveLength(20);
      for (const id of manifest.vectors) {
        const input = (parseJson(readFileSync(join(upstream, id, 'case.json'))) as { input: Record<string, unknown> })
          .input;
        const premath = joinCheck(input);
        const extended = joinCheck({ ...input, profile: PROFILE });
        if (!premath.ok || !extended.ok) throw new Error(`${id}: refused`);
        expect(extended.value.failureClasses, id).toEqual(premath.value.failureClasses);
        expect(extended.value.normalized, id).toEqual(premath.value.normalized);
        expect(extended.value.witness, id).toEqual(premath.value.witness);
      }
    },
  );
});

describe('the extended report', () => {
  it('binds the join-set digest and the extended digest into one turn digest', () => {
    const outcome = joinCheck({
      profile: PROFILE,
      evidence: {
        callSpec: { ...callSpec, observabilityMode: 'Disabled' },
        protocolState: { stopReason: 'end_turn' },
      },
    });
    if (!outcome.ok) throw new Error(outcome.failures[0]?.message);
    const x = outcome.value.extended;
    expect(x?.normalized.kind).toBe('turngate.harness.extended_normalized.v1');
    expect(x?.normalized.callSpec).toEqual({ observabilityMode: 'disabled' });
    expect(x?.witness.witnessKind).toBe('turngate.harness.join_check_extended.v1');
    const { digests, ...body } = x?.normalized ?? { digests: undefined };
    expect(digests?.extendedDigest).toBe(digest(body));
    const joinSetDigest = outcome.value.witness.digests.joinSetDigest;
    expect(x?.witness.turnDigest).toBe(digest({ joinSetDigest, extendedDigest: digest(body) }));
    expect(x?.mutationReady).toBeUndefined();
    const printed = JSON.parse(renderJoinCheckJson(outcome.value));
    expect(printed.profile).toBe(PROFILE);
    expect(printed.extended.witness).toEqual(x?.witness);
    expect(printed.failures).toBeUndefined();
  });
});

describe('extended profile properties', () => {
  it('never throws, whatever JSON the extended fields hold', () => {
    fc.assert(
      fc.property(evidence(), some(CALL_SPEC_FIELDS), some(ROW_FIELDS), some(EVIDENCE_FIELDS), (ev, spec, row, top) => {
        const outcome = joinCheck({
          profile: PROFILE,
          evidence: withExtendedFields(ev, spec, row, top),
          mutationIntent: { activeMutationPolicyDigest: 'pol.mut' },
        });
        expect(typeof outcome.ok).toBe('boolean');
        if (!outcome.ok) expect(outcome.failures[0]?.field).not.toBe('');
      }),
      { numRuns: 500 },
    );
  });

  it('prints the same bytes whatever the order of the extended rows', () => {
    const example = parseJson(
      readFileSync(join(import.meta.dirname, '../../../examples/evidence/extended-coding-turn.json')),
    ) as { evidence: Record<string, unknown[]> };
    const lists = ['toolRequests', 'toolResults', 'toolUse', 'toolSearches', 'guardrailDecisions', 'traceExports'];
    const expected = joinCheck(example);
    if (!expected.ok) throw new Error(expected.failures[0]?.message);
    fc.assert(
      fc.property(
        fc.tuple(
          ...lists.map((key) =>
            fc.shuffledSubarray(example.evidence[key] ?? [], { minLength: (example.evidence[key] ?? []).length }),
          ),
        ),
        (orders) => {
          const evidence = { ...example.evidence };
          lists.forEach((key, i) => {
            evidence[key] = orders[i] as unknown[];
          });
          const outcome = joinCheck({ ...example, evidence });
          if (!outcome.ok) throw new Error(outcome.failures[0]?.message);
          expect(renderJoinCheckJson(outcome.value)).toBe(renderJoinCheckJson(expected.value));
        },
      ),
      { numRuns: 100 },
    );
  });
});
