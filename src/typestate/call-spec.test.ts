import { describe, expect, it } from 'vitest';
import { classes, mintsNothingMore, specFor, withPollution } from '../../test/turn-fixtures.ts';
import { digest } from '../canonical/index.ts';
import { callSpec, DEFAULT_CALL_SPEC_FIELDS, DEFAULT_POLICIES } from '../index.ts';

describe('callSpec', () => {
  it('refuses a blank field or an unknown action mode, and lowercases the mode', () => {
    const base = { ...specFor('code').spec };
    expect(classes(callSpec({ ...base, callId: ' ' }))).toEqual(['tool.schema_invalid']);
    expect(classes(callSpec({ ...base, actionMode: 'yaml' as string }))).toEqual(['tool.schema_invalid']);
    const upper = callSpec({ ...base, actionMode: 'JSON' });
    expect(upper.ok && upper.value.spec.actionMode).toBe('json');
  });

  it('fills every field it is not given from the default profile, each digest that of its published policy', () => {
    const spec = callSpec({ callId: ' turn-1 ', modelRef: 'claude-sonnet-4-5', actionMode: 'code' });
    if (!spec.ok) throw new Error(JSON.stringify(spec.failures));
    expect(spec.value.spec).toEqual({
      callId: 'turn-1',
      modelRef: 'claude-sonnet-4-5',
      actionMode: 'code',
      executionPattern: 'single',
      normalizerId: 'premath.harness.typestate_normalized.v1',
      mutationPolicyDigest: digest(DEFAULT_POLICIES.mutation),
      governancePolicyDigest: digest(DEFAULT_POLICIES.governance),
      toolRenderProtocolDigest: digest(DEFAULT_POLICIES.toolRender),
      reminderQueuePolicyDigest: digest(DEFAULT_POLICIES.reminderQueue),
      stateViewPolicyDigest: digest(DEFAULT_POLICIES.stateView),
      decompositionPolicyDigest: digest(DEFAULT_POLICIES.decomposition),
    });
    const digests = Object.values(DEFAULT_CALL_SPEC_FIELDS).filter((value) => value.startsWith('sha256:'));
    expect(new Set(digests).size).toBe(6);
    expect(Object.isFrozen(DEFAULT_POLICIES.mutation)).toBe(true);
    expect(spec.value.sessionId).toBe('turn-1');
  });

  it('keeps the fields it is given and takes a session id', () => {
    const spec = callSpec({
      callId: 'turn-2',
      modelRef: 'gpt-5',
      actionMode: 'json',
      executionPattern: 'Chain',
      mutationPolicyDigest: 'pol.issues-write.v2',
      sessionId: ' support/4711 ',
    });
    if (!spec.ok) throw new Error(JSON.stringify(spec.failures));
    expect(spec.value.spec.executionPattern).toBe('chain');
    expect(spec.value.spec.mutationPolicyDigest).toBe('pol.issues-write.v2');
    expect(spec.value.spec.governancePolicyDigest).toBe(DEFAULT_CALL_SPEC_FIELDS.governancePolicyDigest);
    expect(spec.value.sessionId).toBe('support/4711');
  });

  it('reads own data only: a polluted Object.prototype changes nothing, a throwing getter is a failure', () => {
    const input = { callId: 'turn-3', modelRef: 'm', actionMode: 'code' };
    const clean = callSpec(input);
    const polluted = withPollution(
      { executionPattern: 'parallel', mutationPolicyDigest: 'pol.evil', sessionId: 'session-of-someone-else' },
      () => callSpec(input),
    );
    mintsNothingMore(polluted, clean, (spec) => [spec.spec, spec.sessionId]);
    const hostile = {
      modelRef: 'm',
      actionMode: 'code',
      get callId(): string {
        throw new Error('boom');
      },
    };
    const refused = callSpec(hostile);
    expect(classes(refused)).toEqual(['tool.schema_invalid']);
    if (!refused.ok) expect(refused.failures[0]?.detail).toMatch(/callSpec\.callId: reading it threw Error: boom/);
  });
});
