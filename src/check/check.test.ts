import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { callSpec, evidence, shuffled } from '../../test/arbitraries.ts';
import { HANDLED_STOP_REASONS, joinCheck, joinCheckText, renderJoinCheckJson, type JoinCheckReport } from './index.ts';
import { isFailureClass } from '../failures/index.ts';

const ctx = {
  toolRender: [
    {
      toolCallId: 'tc-1',
      operatorPayloadDigest: 'o',
      reminderRenderDigest: 'r',
      injectionPoint: 'tool_response',
      policyDigest: 'pol.render',
    },
  ],
  reminderQueue: [{ queueId: 'q', reducedDigest: 'd', policyDigest: 'pol.queue' }],
  stateViews: [{ viewId: 'v', viewDigest: 'd', policyDigest: 'pol.view' }],
};

function closed(extra: Record<string, unknown> = {}) {
  return {
    callSpec,
    toolRequests: [{ toolCallId: 'tc-1', toolName: 'fs.read' }],
    toolResults: [{ toolCallId: 'tc-1', status: 'ok', resultDigest: 'sha256:r' }],
    toolUse: [{ toolCallId: 'tc-1', disposition: 'consumed' }],
    protocolState: { stopReason: 'tool_use', continuationAllowed: true },
    ...ctx,
    ...extra,
  };
}

function report(input: unknown): JoinCheckReport {
  const outcome = joinCheck(input);
  if (!outcome.ok) throw new Error(`unexpected input error: ${outcome.failures[0]?.message}`);
  return outcome.value;
}

describe('joinCheck', () => {
  it('accepts a closed turn and binds it with digests', () => {
    const r = report({ evidence: closed() });
    expect(r.result).toBe('accepted');
    expect(r.joinClosed).toBe(true);
    expect(r.failures).toEqual([]);
    expect(r.witness.digests.joinSetDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.witness.joinInput.joinSetDigest).toBe(r.normalized.digests.joinSetDigest);
  });

  it('names the dangling tool call of the provider-400 bug class', () => {
    const r = report({
      evidence: closed({
        toolRequests: [
          { toolCallId: 'tc-1', toolName: 'fs.read' },
          { toolCallId: 'tc-2', toolName: 'fs.write' },
        ],
      }),
    });
    expect(r.failureClasses).toEqual(['tool.join_incomplete', 'tool.result_missing']);
    expect(r.failures.find((f) => f.class === 'tool.result_missing')?.ids).toEqual(['tc-2']);
    expect(r.normalized.joinState.missingResultCallIds).toEqual(['tc-2']);
  });

  it('gives each class the ids that caused it', () => {
    const r = report({
      evidence: closed({
        toolResults: [
          { toolCallId: 'tc-1', status: 'error', errorCode: 'x' },
          { toolCallId: 'tc-9', status: 'ok' },
        ],
        toolUse: [{ toolCallId: 'tc-7', disposition: 'observed' }],
      }),
    });
    const ids = Object.fromEntries(r.failures.map((f) => [f.class, f.ids]));
    expect(ids['tool.result_orphan']).toEqual(['tc-9']);
    expect(ids['tool.use_missing']).toEqual(['tc-1', 'tc-9']);
    expect(ids['tool.use_without_result']).toEqual(['tc-7']);
    expect(ids['tool.schema_invalid']).toEqual(['tc-1']);
    expect(ids['context.injection_point_missing']).toEqual(['tc-9']);
    expect(r.failures.find((f) => f.class === 'tool.schema_invalid')?.detail).toMatch(/retryable, errorMessage/);
    expect(r.failureClasses).toEqual([...r.failureClasses].sort());
  });

  it('refuses input that is not a turn, naming the field, and never throws', () => {
    const cases: [unknown, string][] = [
      [null, ''],
      [{ evidence: {} }, 'evidence.callSpec'],
      [
        { evidence: closed({ toolRequests: [{ toolCallId: 'tc-1', toolName: 7 }] }) },
        'evidence.toolRequests[0].toolName',
      ],
      [
        { evidence: closed({ toolUse: [{ toolCallId: 'tc-1', disposition: 'used' }] }) },
        'evidence.toolUse[0].disposition',
      ],
      [{ evidence: closed({ sessionRefs: null }) }, 'evidence.sessionRefs'],
      [{ evidence: closed({ callSpec: { ...callSpec, modelRef: '\u3000' } }) }, 'evidence.callSpec.modelRef'],
      [
        { evidence: closed({ toolResults: [{ toolCallId: 'tc-1', payload: { x: Number.POSITIVE_INFINITY } }] }) },
        'evidence.toolResults[0].payload.x',
      ],
      [{ evidence: closed({ toolResults: [{ toolCallId: '\ud800' }] }) }, 'evidence.toolResults[0].toolCallId'],
      [
        {
          evidence: closed({
            toolUse: [
              { toolCallId: 'tc-1', disposition: 'consumed' },
              { toolCallId: ' ', disposition: 'consumed' },
            ],
          }),
        },
        'evidence.toolUse[1].toolCallId',
      ],
    ];
    for (const [input, field] of cases) {
      const outcome = joinCheck(input);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.failures[0]?.field).toBe(field);
    }
  });

  it('gives the same report for parsed JSON text and for the object built in code', () => {
    const input = { evidence: closed({ toolResults: [{ toolCallId: 'tc-1', payload: { n: 3, f: 0.5, s: 'é' } }] }) };
    const fromText = joinCheckText(JSON.stringify(input));
    const fromObject = joinCheck(input);
    expect(fromText.ok && fromObject.ok).toBe(true);
    if (fromText.ok && fromObject.ok)
      expect(renderJoinCheckJson(fromText.value)).toBe(renderJoinCheckJson(fromObject.value));
  });

  it('reports invalid JSON text as an input error at the root', () => {
    const outcome = joinCheckText('{"evidence": ');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.failures[0]?.message).toMatch(/^invalid JSON: unexpected end of input/);
  });
});

describe('joinCheck properties', () => {
  it('digests do not depend on row order', () => {
    fc.assert(
      fc.property(
        evidence().chain((ev) => fc.tuple(fc.constant(ev), shuffled(ev))),
        ([a, b]) => {
          const ra = joinCheck({ evidence: a });
          const rb = joinCheck({ evidence: b });
          expect(ra.ok).toBe(rb.ok);
          if (ra.ok && rb.ok) expect(renderJoinCheckJson(rb.value)).toBe(renderJoinCheckJson(ra.value));
        },
      ),
    );
  });

  it('normalization is idempotent: normalized evidence normalizes to itself', () => {
    fc.assert(
      fc.property(evidence(true), (ev) => {
        const first = joinCheck({ evidence: ev });
        if (!first.ok) return;
        const again = joinCheck({ evidence: first.value.normalized });
        expect(again.ok).toBe(true);
        if (again.ok) expect(again.value.normalized).toEqual(first.value.normalized);
      }),
    );
  });

  it('never throws on arbitrary JSON or arbitrary text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const outcome = joinCheck(value);
        expect(typeof outcome.ok).toBe('boolean');
        expect(typeof joinCheck({ evidence: value }).ok).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(typeof joinCheckText(text).ok).toBe('boolean');
      }),
    );
  });

  it('never throws when any field of a valid input is replaced by arbitrary JSON', () => {
    fc.assert(
      fc.property(evidence(), fc.nat(), fc.jsonValue({ maxDepth: 2 }), (ev, pick, replacement) => {
        const keys = Object.keys(ev);
        const key = keys[pick % keys.length] as string;
        const outcome = joinCheck({ evidence: { ...ev, [key]: replacement } });
        expect(typeof outcome.ok).toBe('boolean');
        if (outcome.ok) for (const c of outcome.value.failureClasses) expect(isFailureClass(c)).toBe(true);
      }),
    );
  });

  it('an accepted report satisfies every JoinClosed condition of HARNESS-TYPESTATE §5', () => {
    let accepted = 0;
    fc.assert(
      fc.property(evidence(), (ev) => {
        const outcome = joinCheck({ evidence: ev });
        if (!outcome.ok || outcome.value.result !== 'accepted') return;
        accepted++;
        const n = outcome.value.normalized;
        const requested = new Set(ev.toolRequests.map((r) => r.toolCallId));
        const resulted = new Set(ev.toolResults.map((r) => r.toolCallId));
        const used = new Set(ev.toolUse.map((r) => r.toolCallId));
        for (const id of requested) expect(resulted.has(id)).toBe(true); // every request has a terminal result
        for (const id of resulted) expect(requested.has(id)).toBe(true); // no orphan results
        for (const id of resulted) expect(used.has(id)).toBe(true); // every result has a disposition
        for (const id of used) expect(resulted.has(id)).toBe(true); // no use of an unknown result
        expect(HANDLED_STOP_REASONS as readonly string[]).toContain(n.protocolState.stopReason);
        if (ev.protocolState.continuationAllowed) {
          const rendered = new Set(ev.toolRender.map((r) => r.toolCallId));
          for (const id of resulted) expect(rendered.has(id)).toBe(true);
          expect(ev.reminderQueue.length).toBeGreaterThan(0);
          expect(ev.stateViews.length).toBeGreaterThan(0);
          expect(n.contextState.continuationContextReady).toBe(true);
        }
        expect(outcome.value.joinClosed).toBe(true);
      }),
      { numRuns: 1000 },
    );
    // The generator closes joins often, so both verdicts are exercised in every run.
    expect(accepted).toBeGreaterThan(20);
  });
});

describe('optional text fields of the constraint blocks', () => {
  // Normalization's rule for optional strings (trim, blank = absent, lone surrogate refused),
  // applied by the checks too: a field the text could never hold is named, not printed.
  const refusal = (input: unknown) => {
    const outcome = joinCheck(input);
    return outcome.ok ? undefined : outcome.failures[0]?.field;
  };

  it('refuses a lone surrogate in a constraint field, naming the field', () => {
    expect(refusal({ evidence: closed(), governanceProfile: { claimId: '\ud800', claimed: false } })).toBe(
      'governanceProfile.claimId',
    );
    expect(
      refusal({
        evidence: closed(),
        decompositionConstraints: { expectedExecutionPattern: 'x\udc00', admissible: true },
      }),
    ).toBe('decompositionConstraints.expectedExecutionPattern');
  });

  it('reads a blank field as absent, as normalization does', () => {
    const r = report({ evidence: closed(), decompositionConstraints: { expectedExecutionPattern: ' \u3000 ' } });
    expect(r.failureClasses).not.toContain('coordination.decomposition_policy_violation');
  });
});
