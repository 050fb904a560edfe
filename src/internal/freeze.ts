/**
 * Deep freezing of plain data. Internal.
 *
 * @module
 */

/**
 * Freezes plain data (objects and arrays) all the way down, skipping `skip` and values already
 * frozen (so freezing a value that extends a frozen one costs only the new part).
 *
 * @param value - The value.
 * @param skip - An object to leave as it is (e.g. a caller-owned tool registry).
 * @returns The same value.
 */
export function deepFreeze<T>(value: T, skip?: object): T {
  if (value === null || typeof value !== 'object' || value === skip || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key], skip);
  return value;
}
