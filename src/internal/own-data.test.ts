import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonNumber, parseJson } from '../canonical/index.ts';
import { MAX_DATA_DEPTH, snapshotOwnData } from './own-data.ts';

/** `containers` objects nested inside one another. */
function nested(containers: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < containers; i++) value = { a: value };
  return value;
}

describe('snapshotOwnData', () => {
  it('copies JSON data exactly (same JSON text), into objects without a prototype', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const snapshot = snapshotOwnData(value);
        expect(snapshot.ok).toBe(true);
        if (!snapshot.ok) return;
        expect(JSON.stringify(snapshot.value)).toBe(JSON.stringify(value));
        if (snapshot.value !== null && typeof snapshot.value === 'object' && !Array.isArray(snapshot.value)) {
          expect(Object.getPrototypeOf(snapshot.value)).toBeNull();
        }
      }),
    );
  });

  it('reads its options as own properties: a polluted prototype sets none of them', () => {
    const proto = Object.prototype as Record<string, unknown>;
    const planted = { maxDepth: 1, bigint: true, root: 'evil', isLeaf: () => true };
    for (const [key, value] of Object.entries(planted)) {
      Object.defineProperty(proto, key, { value, enumerable: false, configurable: true, writable: true });
    }
    try {
      expect(snapshotOwnData({ a: { b: { c: 1 } } }).ok).toBe(true);
      const refused = snapshotOwnData({ a: 1n }, {});
      expect(refused.ok ? undefined : refused.failures[0]?.path).toBe('a');
    } finally {
      for (const key of Object.keys(planted)) delete proto[key];
    }
  });

  it('does not see a polluted Object.prototype', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto['toolUse'] = [{ toolCallId: 'x' }];
    try {
      const snapshot = snapshotOwnData({ evidence: {} });
      expect(snapshot.ok).toBe(true);
      if (!snapshot.ok) return;
      const evidence = (snapshot.value as { evidence: Record<string, unknown> }).evidence;
      expect(evidence['toolUse']).toBeUndefined();
      expect('toolUse' in evidence).toBe(false);
    } finally {
      delete proto['toolUse'];
    }
  });

  it('keeps own "__proto__" keys as ordinary data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const snapshot = snapshotOwnData(value);
    expect(snapshot.ok && Object.keys(snapshot.value as object)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('drops undefined object properties, as JSON.stringify does', () => {
    const snapshot = snapshotOwnData({ a: undefined, b: 1 });
    expect(snapshot.ok && Object.keys(snapshot.value as object)).toEqual(['b']);
  });

  it('refuses what is not JSON data, naming the path', () => {
    const cases: [unknown, string, string][] = [
      [{ a: [1, undefined] }, 'v.a[1]', 'not_data'],
      [{ a: () => 1 }, 'v.a', 'not_data'],
      [{ a: 1n }, 'v.a', 'not_data'],
      [{ a: Number.NaN }, 'v.a', 'not_data'],
      [{ a: new Date(0) }, 'v.a', 'not_data'],
      [{ a: new Map() }, 'v.a', 'not_data'],
      [[Symbol('s')], 'v[0]', 'not_data'],
      // biome-ignore lint/suspicious/noSparseArray: a hole is the case under test
      [[1, , 2], 'v[1]', 'not_data'],
      [undefined, 'v', 'not_data'],
    ];
    for (const [value, path, problem] of cases) {
      const snapshot = snapshotOwnData(value, { root: 'v' });
      expect(snapshot.ok).toBe(false);
      if (snapshot.ok) continue;
      expect(snapshot.failures[0]?.path).toBe(path);
      expect(snapshot.failures[0]?.problem).toBe(problem);
    }
  });

  it('refuses a cycle and nesting past the limit without overflowing the stack', () => {
    const cyclic: Record<string, unknown> = { a: { b: [] } };
    ((cyclic['a'] as Record<string, unknown>)['b'] as unknown[]).push(cyclic);
    const cycle = snapshotOwnData(cyclic);
    expect(cycle.ok ? undefined : [cycle.failures[0]?.problem, cycle.failures[0]?.path]).toEqual(['cycle', 'a.b[0]']);

    expect(snapshotOwnData(nested(MAX_DATA_DEPTH)).ok).toBe(true);
    expect(parseJson(JSON.stringify(nested(MAX_DATA_DEPTH)))).toBeDefined();
    expect(() => parseJson(JSON.stringify(nested(MAX_DATA_DEPTH + 1)))).toThrow(/deeper than 127/);
    const deep = snapshotOwnData(nested(MAX_DATA_DEPTH + 1));
    expect(deep.ok ? undefined : deep.failures[0]?.problem).toBe('too_deep');
    const veryDeep = snapshotOwnData(nested(100_000));
    expect(veryDeep.ok ? undefined : veryDeep.failures[0]?.problem).toBe('too_deep');
  });

  it('shares no mistake between siblings: the same object twice is not a cycle', () => {
    const shared = { x: 1 };
    expect(snapshotOwnData({ a: shared, b: [shared, shared] }).ok).toBe(true);
  });

  it('turns a throwing getter or Proxy trap into an error at its path', () => {
    const getter = {
      ok: 1,
      get bad(): number {
        throw new Error('boom');
      },
    };
    const fromGetter = snapshotOwnData({ outer: getter }, { root: 'message' });
    expect(fromGetter.ok ? undefined : fromGetter.failures[0]).toEqual({
      path: 'message.outer.bad',
      problem: 'read_failed',
      detail: 'reading it threw Error: boom',
    });
    const trap = new Proxy(
      {},
      {
        ownKeys() {
          throw new RangeError('no keys');
        },
      },
    );
    const fromTrap = snapshotOwnData({ p: trap });
    expect(fromTrap.ok ? undefined : [fromTrap.failures[0]?.problem, fromTrap.failures[0]?.path]).toEqual([
      'read_failed',
      'p',
    ]);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(snapshotOwnData([proxy]).ok).toBe(false);
  });

  it('keeps leaves the caller names', () => {
    const number = new JsonNumber('12345678901234567890');
    const snapshot = snapshotOwnData({ n: number }, { isLeaf: (value) => value instanceof JsonNumber });
    expect(snapshot.ok && (snapshot.value as { n: unknown }).n).toBe(number);
    expect(snapshotOwnData({ n: number }).ok).toBe(false);
  });
});

describe('schemaIssuePath', () => {
  it('writes valibot and Standard Schema paths alike, an index as [n]', async () => {
    const { schemaIssuePath } = await import('./path.ts');
    expect(schemaIssuePath(undefined)).toBe('');
    expect(schemaIssuePath([{ key: 'items' }, { key: 0 }, { key: 'link' }])).toBe('items[0].link');
    expect(schemaIssuePath(['items', 0, { key: 'link' }])).toBe('items[0].link');
  });
});
