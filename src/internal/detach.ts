/**
 * Cutting freshly built objects off `Object.prototype`, so that reading a key they do not hold
 * gives `undefined` even when some other code has polluted the prototype. Internal; the join
 * check applies it to what its schemas and its normalization build, whose optional fields are
 * absent when not given.
 *
 * @module
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

function detach(value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) detach(value[i]);
    return;
  }
  // Objects already without a prototype (the boundary snapshot's and the parser's data) hold
  // nothing else below them; class instances (JsonNumber) are leaves; frozen objects are left
  // as they are.
  if (!isPlainObject(value) || !Object.isExtensible(value)) return;
  Object.setPrototypeOf(value, null);
  for (const key of Object.keys(value)) detach(value[key]);
}

/**
 * Gives every extensible plain object in `value` (through arrays and objects) a `null`
 * prototype, in place. Meant for trees the caller has just built from own data: recursion is as
 * deep as the tree, and it stops at objects that already have no prototype.
 *
 * @param value - A tree of plain objects and arrays built by the caller.
 * @returns The same value.
 */
export function withoutPrototypes<T>(value: T): T {
  detach(value);
  return value;
}
