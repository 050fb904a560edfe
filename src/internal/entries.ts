/**
 * Schema entries without a prototype. Internal.
 *
 * @module
 */

/**
 * Copies a valibot object schema's entries into an object without a prototype. valibot's
 * `v.object` walks its entries with `for...in`, which also visits enumerable properties of
 * `Object.prototype`: with a polluted prototype, every object schema would gain a "required"
 * field it does not have. Entries without a prototype keep the schema exactly as written.
 *
 * @param entries - The entries, as an object literal.
 * @returns The same entries on a null-prototype object (typed as given).
 */
export function ownEntries<const T extends object>(entries: T): T {
  return Object.freeze(Object.assign(Object.create(null) as object, entries)) as T;
}
