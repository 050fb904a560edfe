import { describe, expect, it } from 'vitest';
import { classes, closedTurn, endTurn, policy, specFor, tools } from '../../test/turn-fixtures.ts';
import { admitMutation, closeJoin, recordResults, recordUse, requestTools, TypestateError } from '../index.ts';

describe('closeJoin and the minted states', () => {
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
