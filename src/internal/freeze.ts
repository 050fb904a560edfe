/**
 * Deep freezing of plain data. Internal.
 *
 * @module
 */
import { isPlainPrototype } from './own-data.ts';

/**
 * Freezes plain data all the way down: arrays and plain objects (prototype `Object.prototype` or
 * `null`). Skips `skip`, values already frozen (so freezing a value that extends a frozen one
 * costs only the new part, and an object shared many times is walked once), and objects that are
 * not plain data (a `Date`, a `Map`, a `Uint8Array`, a class instance): freezing those guards
 * nothing their methods cannot change, and a typed array with elements cannot be frozen.
 *
 * @param value - The value.
 * @param skip - An object to leave as it is (e.g. a caller-owned tool registry).
 * @returns The same value.
 */
export function deepFreeze<T>(value: T, skip?: object): T {
  if (value === null || typeof value !== 'object' || value === skip || Object.isFrozen(value)) return value;
  if (!Array.isArray(value) && !isPlainPrototype(Object.getPrototypeOf(value))) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key], skip);
  return value;
}
