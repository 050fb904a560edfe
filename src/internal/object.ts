/**
 * What counts as a JSON object when reading untrusted values. Internal.
 *
 * @module
 */

/** A JSON object: not `null`, not an array. */
export type JsonObject = { readonly [key: string]: unknown };

/**
 * Whether `value` is an object that is neither `null` nor an array: the one test the boundary
 * readers (normalization, the transcript readers, the chat boundary) use before reading fields.
 * It says nothing of the prototype: boundaries read own data (see `own-data.ts`).
 *
 * @param value - Any value.
 * @returns Whether fields can be read from it as a JSON object's.
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
