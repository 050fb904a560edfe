/**
 * The JSON values the parser makes and the canonical writer reads: {@link JsonNumber} (a number
 * kept as its literal), {@link JsonValue}, the {@link JsonInputError} both throw, and the record
 * of keys a parsed object repeated.
 *
 * @module
 */
import { types } from 'node:util';
import { excerpt } from '../internal/display.ts';

/**
 * A JSON number kept as the literal text it was written with, so integers beyond 2^53 and
 * the difference between `1` and `1.0` survive parsing. Instances are frozen; the parser may
 * hand out one instance for every occurrence of a short literal.
 *
 * @example
 * ```ts
 * import { JsonNumber, canonicalJson } from 'turngate/canonical';
 * canonicalJson(new JsonNumber('18446744073709551615')); //=> '18446744073709551615'
 * canonicalJson(new JsonNumber('1E2')); //=> '100.0'
 * ```
 */
export class JsonNumber {
  /** The literal as written in the JSON text (a valid JSON number). */
  readonly raw: string;
  /**
   * Creates a JSON number from its literal text.
   *
   * @param raw - A JSON number literal, e.g. `-12`, `1.5e-7`.
   * @throws {@link JsonInputError} when `raw` is not a JSON number literal.
   */
  constructor(raw: string) {
    if (!NUMBER_LITERAL.test(raw)) {
      throw new JsonInputError(`not a JSON number literal: ${JSON.stringify(excerpt(String(raw)))}`, 'json_syntax');
    }
    this.raw = raw;
    Object.freeze(this);
  }
  /** The nearest IEEE-754 double, as `Number(raw)`. */
  toNumber(): number {
    return Number(this.raw);
  }
  /** The literal text. */
  toString(): string {
    return this.raw;
  }
}

const NUMBER_LITERAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Whether a value is a {@link JsonNumber} as this module makes them: its own class (not a
 * subclass), not a Proxy, frozen, with its literal as a string data property, so reading it
 * runs no code. The boundary snapshot keeps such values as leaves. Internal.
 *
 * @param value - Any object.
 */
export function isJsonNumber(value: object): value is JsonNumber {
  return (
    !types.isProxy(value) &&
    Object.getPrototypeOf(value) === JsonNumber.prototype &&
    Object.isFrozen(value) &&
    typeof Object.getOwnPropertyDescriptor(value, 'raw')?.value === 'string'
  );
}

/**
 * A JSON value as this library reads and digests it: a parsed number is a {@link JsonNumber};
 * values built in code may also use `number` (read as the literal `JSON.stringify` writes for
 * it) and `bigint` (an integer).
 *
 * @example
 * ```ts
 * import { canonicalJson, JsonNumber, type JsonValue } from 'turngate/canonical';
 * const payload: JsonValue = { big: new JsonNumber('18446744073709551615'), ratio: 0.5, tags: ['a'] };
 * canonicalJson(payload); //=> '{"big":18446744073709551615,"ratio":0.5,"tags":["a"]}'
 * ```
 */
export type JsonValue =
  | null
  | boolean
  | string
  | number
  | bigint
  | JsonNumber
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/**
 * The machine-readable kind of a {@link JsonInputError}.
 */
export type JsonInputErrorCode = 'utf8_invalid' | 'json_syntax' | 'number_out_of_range' | 'depth_exceeded';

/**
 * The error thrown for JSON text that premath's parser (serde_json) would refuse: invalid
 * UTF-8, a byte-order mark, syntax errors, lone surrogate escapes, trailing characters,
 * numbers too large for an f64, nesting deeper than 127 levels.
 *
 * @example
 * ```ts
 * import { JsonInputError, parseJson } from 'turngate/canonical';
 * try {
 *   parseJson('{"a": 1e400}');
 * } catch (error) {
 *   if (error instanceof JsonInputError) error.code; //=> 'number_out_of_range'
 * }
 * ```
 */
export class JsonInputError extends Error {
  /** The kind of fault. */
  readonly code: JsonInputErrorCode;
  /** The 1-based line of the fault, when known. */
  readonly line: number | undefined;
  /** The 1-based column (in UTF-16 code units) of the fault, when known. */
  readonly column: number | undefined;
  /**
   * Creates a JSON input error.
   *
   * @param message - What was wrong and what was expected.
   * @param code - The kind of fault.
   * @param line - The 1-based line, when known.
   * @param column - The 1-based column, when known.
   */
  constructor(message: string, code: JsonInputErrorCode, line?: number, column?: number) {
    super(line === undefined ? message : `${message} at line ${line} column ${column}`);
    this.name = 'JsonInputError';
    this.code = code;
    this.line = line;
    this.column = column;
  }
}

const duplicateKeys = new WeakMap<object, Set<string>>();

/**
 * The keys that appeared more than once in a JSON object parsed by {@link parseJson} (the
 * object keeps the last value of each, as serde_json's `Value` does). Evidence rows use this
 * to refuse repeated fields, as serde's derived structs do.
 *
 * @param value - An object returned (or nested in a value returned) by {@link parseJson}.
 * @returns The repeated keys, or `undefined` when there were none. Never throws.
 *
 * @example
 * ```ts
 * import { duplicateKeysOf, parseJson } from 'turngate/canonical';
 * const value = parseJson('{"k": 1, "k": 2}') as object;
 * [...(duplicateKeysOf(value) ?? [])]; //=> ['k']
 * ```
 */
export function duplicateKeysOf(value: object): ReadonlySet<string> | undefined {
  return duplicateKeys.get(value);
}

/**
 * Records `copy` as repeating the keys `original` repeated, so a copy of parsed JSON (the
 * boundary snapshot's) still refuses repeated fields. Internal.
 *
 * @param original - An object, parsed or not.
 * @param copy - Its copy.
 */
export function carryDuplicateKeys(original: object, copy: object): void {
  const repeated = duplicateKeys.get(original);
  if (repeated !== undefined) duplicateKeys.set(copy, repeated);
}

/** Records that the parser read `key` twice in `object` (see {@link duplicateKeysOf}). Internal. */
export function noteDuplicateKey(object: object, key: string): void {
  let seen = duplicateKeys.get(object);
  if (seen === undefined) {
    seen = new Set();
    duplicateKeys.set(object, seen);
  }
  seen.add(key);
}
