import { describe, expect, it } from 'vitest';
import { classes, specFor } from '../../test/turn-fixtures.ts';
import { callSpec } from '../index.ts';

describe('callSpec', () => {
  it('refuse a CallSpec with a blank field or an unknown action mode', () => {
    const base = { ...specFor('code').spec };
    expect(classes(callSpec({ ...base, callId: ' ' }))).toEqual(['tool.schema_invalid']);
    expect(classes(callSpec({ ...base, actionMode: 'yaml' }))).toEqual(['tool.schema_invalid']);
    const upper = callSpec({ ...base, actionMode: 'JSON' });
    expect(upper.ok && upper.value.spec.actionMode).toBe('json');
  });
});
