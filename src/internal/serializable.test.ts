import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DATA_DEPTH } from './own-data.ts';
import { serializationError } from './serializable.ts';

/** Whether `JSON.stringify` writes `value` without throwing. */
function stringifies(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

/** `containers` objects nested inside one another. */
function nested(containers: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < containers; i++) value = { a: value };
  return value;
}

/** Every value fast-check builds, the ones JSON.stringify throws on included. */
const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
});

describe('serializationError', () => {
  it('finds a problem exactly when JSON.stringify throws', () => {
    fc.assert(
      fc.property(anything, (value) => {
        expect(serializationError(value, 'v') === undefined).toBe(stringifies(value));
      }),
      { numRuns: 2000, seed: 23 },
    );
  });

  it('finds a cycle planted in any object, and names its path', () => {
    const objectsOf = (value: unknown, path: string, into: [string, Record<string, unknown>][]) => {
      if (Array.isArray(value)) for (let i = 0; i < value.length; i++) objectsOf(value[i], `${path}[${i}]`, into);
      else if (value !== null && typeof value === 'object') {
        into.push([path, value as Record<string, unknown>]);
        for (const [key, item] of Object.entries(value)) objectsOf(item, `${path}.${key}`, into);
      }
      return into;
    };
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.jsonValue()), fc.nat(), (root, pick) => {
        const objects = objectsOf(root, 'messages[0]', []);
        const [path, object] = objects[pick % objects.length] as [string, Record<string, unknown>];
        object['back'] = root;
        expect(serializationError([root], 'messages')).toEqual({
          path: `${path}.back`,
          problem: 'cycle',
          detail: 'the value contains itself (a cycle)',
        });
      }),
      { numRuns: 200, seed: 24 },
    );
  });

  it('names the path of a bigint, a boxed bigint, a BigInt64Array and a getter that throws', () => {
    const getter = Object.defineProperty({}, 'late', {
      enumerable: true,
      get() {
        throw new Error('gone');
      },
    });
    expect(serializationError([{ a: [1, { n: 2n }] }], 'messages')).toEqual({
      path: 'messages[0].a[1].n',
      problem: 'not_data',
      detail: 'a bigint is not JSON data',
    });
    expect(serializationError({ b: Object(3n) }, 'body')?.path).toBe('body.b');
    expect(serializationError({ c: new BigInt64Array(2) }, '')).toMatchObject({ path: 'c', problem: 'not_data' });
    expect(serializationError({ d: getter }, '')).toEqual({
      path: 'd.late',
      problem: 'read_failed',
      detail: 'reading it threw Error: gone',
    });
    expect(serializationError(5n, 'v')?.path).toBe('v');
  });

  it('keeps what JSON.stringify writes: Date, URL, Buffer, typed arrays, functions, undefined, NaN, holes', () => {
    const holes: unknown[] = new Array(3);
    holes[0] = 1;
    const value = {
      at: new Date(0),
      url: new URL('https://example.com/a.png'),
      buffer: Buffer.from('abc'),
      bytes: new Uint8Array(3),
      none: new BigInt64Array(0),
      f: () => 1,
      u: undefined,
      n: Number.NaN,
      holes,
    };
    expect(serializationError(value, '')).toBeUndefined();
    expect(stringifies(value)).toBe(true);
  });

  it('refuses nesting past the limit (the own-data snapshot’s), also through a shared object', () => {
    expect(serializationError(nested(MAX_DATA_DEPTH), '')).toBeUndefined();
    expect(serializationError(nested(MAX_DATA_DEPTH + 1), '')?.problem).toBe('too_deep');
    expect(serializationError(nested(10), '', 10)).toBeUndefined();
    expect(serializationError(nested(11), '', 10)?.problem).toBe('too_deep');
    // A shared object met first near the root and again lower down, where it nests too deep.
    const shared = nested(5);
    const deep = { a: shared, b: nested(0) };
    let low: unknown = shared;
    for (let i = 0; i < 6; i++) low = [low];
    (deep as Record<string, unknown>)['b'] = low;
    expect(serializationError(deep, '', 11)?.problem).toBe('too_deep');
    expect(serializationError(deep, '', 12)).toBeUndefined();
  });

  it('walks objects shared level after level once each: 2^60 paths, no cycle', () => {
    let value: unknown = { leaf: true };
    for (let level = 0; level < 60; level++) value = { left: value, right: value };
    expect(serializationError(value, '')).toBeUndefined();
    (value as Record<string, unknown>)['tail'] = 1n;
    expect(serializationError(value, 'x')?.path).toBe('x.tail');
  });
});
