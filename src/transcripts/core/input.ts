/**
 * Reading untrusted transcript input: what counts as an object, and the fault a reader raises
 * for input that is not a transcript of its format. Internal.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../../internal/object.ts';
import { TranscriptInputError } from './report.ts';

export { isJsonObject, type JsonObject };

/** Raises the input error for `path`. */
export function invalid(path: string, expected: string): never {
  throw new TranscriptInputError(path, expected);
}

/** Reads `value` as an object, or raises. */
export function objectAt(value: unknown, path: () => string, what: string): JsonObject {
  if (!isJsonObject(value)) invalid(path(), what);
  return value;
}

/** Reads a string field, or raises. */
export function stringField(object: JsonObject, key: string, path: () => string): string {
  const value = object[key];
  if (typeof value !== 'string') invalid(`${path()}.${key}`, 'a string');
  return value;
}

/** Reads an optional string field (absent or `null` is `undefined`), or raises. */
export function optionalString(object: JsonObject, key: string, path: () => string): string | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') invalid(`${path()}.${key}`, 'a string');
  return value;
}

/**
 * Reads a content field that is a string or an array of parts with a string `type` (absent or
 * `null` allowed unless `required`), or raises.
 *
 * @returns Whether there is content.
 */
export function contentParts(value: unknown, path: string, required: boolean): boolean {
  if (value === undefined || value === null) {
    if (required) invalid(path, 'a string or an array of content parts');
    return false;
  }
  if (typeof value === 'string') return true;
  if (!Array.isArray(value)) invalid(path, 'a string or an array of content parts');
  for (let k = 0; k < value.length; k++) {
    const part: unknown = value[k];
    if (!isJsonObject(part)) invalid(`${path}[${k}]`, 'a content part object');
    if (typeof part['type'] !== 'string') invalid(`${path}[${k}].type`, 'a string');
  }
  return true;
}
