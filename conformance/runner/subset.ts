/**
 * The containment rule both conformance runners assert with. Internal.
 *
 * @module
 */

/**
 * Returns the first path where `expected` is not contained in `actual`, or `undefined`:
 * objects by subset of keys, arrays element by element with equal length, everything else by
 * `Object.is`.
 *
 * @param expected - The expected shape (from a fixture).
 * @param actual - The value produced.
 * @param path - The path of this value, for the report.
 * @returns The mismatching path, or `undefined` when `expected` is contained.
 */
export function subsetMismatch(expected: unknown, actual: unknown, path = ''): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return path;
    for (let i = 0; i < expected.length; i++) {
      const miss = subsetMismatch(expected[i], actual[i], `${path}[${i}]`);
      if (miss !== undefined) return miss;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return path;
    for (const [key, value] of Object.entries(expected)) {
      const miss = subsetMismatch(value, Reflect.get(actual, key), `${path}.${key}`);
      if (miss !== undefined) return miss;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : path;
}
