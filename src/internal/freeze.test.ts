import { describe, expect, it } from 'vitest';
import { deepFreeze } from './freeze.ts';

describe('deepFreeze', () => {
  it('freezes arrays and plain objects all the way down', () => {
    const value = { list: [{ text: 'a' }], bare: Object.assign(Object.create(null), { k: { v: 1 } }) };
    deepFreeze(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.list)).toBe(true);
    expect(Object.isFrozen(value.list[0])).toBe(true);
    expect(Object.isFrozen(value.bare.k)).toBe(true);
  });

  it('leaves objects that are not plain data as they are, a typed array with elements included', () => {
    const bytes = new Uint8Array([1, 2]);
    const when = new Date(0);
    const value = { bytes, when, map: new Map([['k', 1]]) };
    expect(() => deepFreeze(value)).not.toThrow();
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(bytes)).toBe(false);
    expect(Object.isFrozen(when)).toBe(false);
    expect(Object.isFrozen(value.map)).toBe(false);
  });

  it('leaves skip as it is', () => {
    const registry = { tools: { a: {} } };
    const value = { registry, rows: [1] };
    deepFreeze(value, registry);
    expect(Object.isFrozen(value.rows)).toBe(true);
    expect(Object.isFrozen(registry)).toBe(false);
  });
});
