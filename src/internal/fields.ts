/**
 * Helpers for building wire-shaped objects whose optional fields and lists are absent rather
 * than `undefined` or `[]` (what premath's `skip_serializing_if` does). Internal.
 *
 * @module
 */

/**
 * `T` with its `readonly` modifiers removed, for building a value before it is returned.
 * (type-fest's `Writable` cannot be indexed by a generic key inside the helpers below, TS2536.)
 */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Sets `target[key]` only when `value` is defined. */
export function setOptional<T extends object, K extends keyof T>(
  target: Mutable<T>,
  key: K,
  value: T[K] | undefined,
): void {
  if (value !== undefined) target[key] = value;
}

/** Sets `target[key]` only when `list` is defined and non-empty. */
export function setList<T extends object, K extends keyof T>(
  target: Mutable<T>,
  key: K,
  list: readonly string[] | undefined,
): void {
  if (list !== undefined && list.length > 0) target[key] = list as T[K];
}
