/**
 * Field readers for the harness artifacts, with serde's rules for derived structs (unknown
 * fields ignored, a repeated known field refused, `null` for an optional value the same as
 * absent, `null` for a list refused) and the contract's normalization (strings trimmed as
 * Rust's `str::trim`, blank optional strings dropped, refs trimmed, sorted and deduplicated,
 * timestamps RFC 3339). Internal.
 *
 * @module
 */
import { JsonInputError, JsonNumber, duplicateKeysOf, parseJson, trimWhiteSpace } from '../canonical/index.ts';
import type { JsonValue } from '../canonical/index.ts';
import { normalizeRefs } from '../normalize/index.ts';
import { HarnessInputError } from './errors.ts';
import { isRfc3339 } from './time.ts';
import { quote } from '../internal/display.ts';

/** A JSON object being read, with the path used in errors (`session`, `row`, `policy.rules[1]`). */
export interface Fields {
  readonly at: string;
  readonly value: Readonly<Record<string, unknown>>;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (value instanceof JsonNumber) return `the number ${value.raw}`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${String(value)}`;
}

/** The path of a field under `at`. */
export function fieldPath(at: string, key: string | number): string {
  if (typeof key === 'number') return `${at}[${key}]`;
  return at === '' ? key : `${at}.${key}`;
}

/**
 * Reads `value` as a JSON object whose known fields are `known`; a repeated known field (from
 * {@link parseJson}) is refused, as serde refuses it.
 */
export function objectAt(value: unknown, at: string, known: readonly string[], what: string): Fields {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof JsonNumber) {
    throw new HarnessInputError(at, `expected ${what} (a JSON object), received ${describe(value)}`);
  }
  const repeated = duplicateKeysOf(value);
  if (repeated !== undefined) {
    const field = known.find((key) => repeated.has(key));
    if (field !== undefined) throw new HarnessInputError(fieldPath(at, field), 'duplicate field');
  }
  return { at, value: value as Record<string, unknown> };
}

function raw(fields: Fields, key: string): unknown {
  return Object.hasOwn(fields.value, key) ? fields.value[key] : undefined;
}

function wellFormed(text: string, field: string): string {
  if (!text.isWellFormed())
    throw new HarnessInputError(field, 'expected valid Unicode text (it holds a lone surrogate)');
  return text;
}

/** A required string: present, a string, non-blank after trimming; returned trimmed. */
export function requiredString(fields: Fields, key: string): string {
  const field = fieldPath(fields.at, key);
  const value = raw(fields, key);
  if (value === undefined || value === null) throw new HarnessInputError(field, 'required field is missing');
  if (typeof value !== 'string') throw new HarnessInputError(field, `expected a string, received ${describe(value)}`);
  const trimmed = trimWhiteSpace(wellFormed(value, field));
  if (trimmed === '') throw new HarnessInputError(field, 'expected a non-blank string');
  return trimmed;
}

/** An optional string: absent or `null` is absent; blank after trimming is absent. */
export function optionalString(fields: Fields, key: string): string | undefined {
  const field = fieldPath(fields.at, key);
  const value = raw(fields, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new HarnessInputError(field, `expected a string, received ${describe(value)}`);
  return cleanOptional(value, field);
}

/** Trims an optional string; a blank one is absent. */
export function cleanOptional(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = trimWhiteSpace(wellFormed(value, field));
  return trimmed === '' ? undefined : trimmed;
}

/** A refs list: absent is empty; each entry a string; trimmed, blanks dropped, sorted, deduplicated. */
export function refList(fields: Fields, key: string): string[] {
  return cleanRefs(raw(fields, key), fieldPath(fields.at, key));
}

/** Normalizes a refs list given as a value (absent is empty). */
export function cleanRefs(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new HarnessInputError(field, `expected an array of strings, received ${describe(value)}`);
  }
  value.forEach((item, index) => {
    if (typeof item !== 'string') {
      throw new HarnessInputError(fieldPath(field, index), `expected a string, received ${describe(item)}`);
    }
  });
  return normalizeRefs(value as string[], field);
}

/** A required RFC 3339 timestamp, returned trimmed. */
export function requiredTimestamp(fields: Fields, key: string): string {
  return checkTimestamp(requiredString(fields, key), fieldPath(fields.at, key));
}

/** An optional RFC 3339 timestamp (blank is absent). */
export function optionalTimestamp(fields: Fields, key: string): string | undefined {
  const value = optionalString(fields, key);
  return value === undefined ? undefined : checkTimestamp(value, fieldPath(fields.at, key));
}

/** Refuses a string that is not an RFC 3339 date-time. */
export function checkTimestamp(value: string, field: string): string {
  if (!isRfc3339(value)) {
    throw new HarnessInputError(
      field,
      `expected an RFC 3339 timestamp such as 2026-02-22T01:00:00Z, received ${describe(value)}`,
    );
  }
  return value;
}

/** A field that must be exactly the string `expected` (after trimming). */
export function exactString(fields: Fields, key: string, expected: string): string {
  const value = requiredString(fields, key);
  if (value !== expected) {
    throw new HarnessInputError(
      fieldPath(fields.at, key),
      `expected ${JSON.stringify(expected)}, received ${describe(value)}`,
    );
  }
  return value;
}

/** The integer value of a JSON number (a `JsonNumber` from {@link parseJson} or a JS number), or `undefined`. */
export function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (value instanceof JsonNumber && /^-?\d+$/.test(value.raw)) {
    const n = Number(value.raw);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** The `schema` field: exactly the integer 1. */
export function schemaOne(fields: Fields, key = 'schema'): 1 {
  const field = fieldPath(fields.at, key);
  const value = raw(fields, key);
  if (value === undefined || value === null) throw new HarnessInputError(field, 'required field is missing');
  if (integerOf(value) !== 1) throw new HarnessInputError(field, `expected 1, received ${describe(value)}`);
  return 1;
}

/** Reads JSON text (bytes or string) as premath's parser would, naming the source in errors. */
export function parseJsonText(
  text: string | Uint8Array,
  at: string,
  where: { path?: string; line?: number } = {},
): JsonValue {
  try {
    return parseJson(text);
  } catch (error) {
    if (error instanceof JsonInputError) throw new HarnessInputError(at, `invalid JSON: ${error.message}`, where);
    throw error;
  }
}

/**
 * An artifact from its fields, in the order given, without absent values and empty lists
 * (premath's `skip_serializing_if`) except the lists in `required`, frozen.
 */
export function compact<T extends object>(
  fields: { readonly [K in keyof T]-?: T[K] | undefined },
  required: readonly (keyof T & string)[] = [],
): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 0 && !required.includes(key as keyof T & string)) continue;
    out[key] = value;
  }
  return Object.freeze(out) as T;
}

/** A copy of `value` with `keys` in order (for writing files in premath's field order). */
export function inOrder(value: object, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = item;
  }
  return out;
}
