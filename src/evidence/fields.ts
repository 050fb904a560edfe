/**
 * Field schemas shared by the premath rows and the extended-profile rows. Internal.
 *
 * Absent-versus-null rules follow serde: an optional field may be absent or `null`; a list
 * field may be absent (empty) but not `null`; a required string must be present and a string.
 * Trimming, lowercasing and enum checks happen in normalization, which names the field; so
 * does the check for lone surrogates in strings (parsed JSON text cannot hold them at all).
 *
 * @module
 */
import * as v from 'valibot';
import { JsonNumber } from '../canonical/index.ts';

/** A required string (blank is refused in normalization). */
export const text = v.string();
/** An optional string: absent or `null` is the same. */
export const optionalText = v.optional(v.nullable(text));
/** An optional boolean: absent or `null` is the same. */
export const optionalBool = v.optional(v.nullable(v.boolean()));
/** A boolean that defaults to `false` when absent. */
export const defaultBool = v.optional(v.boolean(), false);
/** A list of strings, empty when absent (not `null`). */
export const textList = v.optional(v.array(text), () => [] as string[]);
/** Any JSON value (a payload or a raw error); `null` is the same as absent. */
export const anyJson = v.optional(v.unknown());

/** A list of rows, empty when absent (not `null`). */
export function rows<TSchema extends v.GenericSchema>(schema: TSchema) {
  return v.optional(v.array(schema), () => [] as v.InferOutput<TSchema>[]);
}

/** A JSON number as a caller may pass it: parsed ({@link JsonNumber}) or built in code. */
export type NumberInput = number | bigint | JsonNumber;

function numberValue(value: NumberInput): number {
  return value instanceof JsonNumber ? value.toNumber() : Number(value);
}

function isCount(value: NumberInput): boolean {
  if (value instanceof JsonNumber)
    return /^(?:0|[1-9]\d*)$/.test(value.raw) && value.toNumber() <= Number.MAX_SAFE_INTEGER;
  if (typeof value === 'bigint') return value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER);
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isRatio(value: NumberInput): boolean {
  if (!(value instanceof JsonNumber) && typeof value !== 'number' && typeof value !== 'bigint') return false;
  const n = numberValue(value);
  return Number.isFinite(n) && n >= 0 && n <= 1;
}

// `custom` only fixes the input type; `check` gives the issue a message naming what was expected
// (a `schema` issue would say "expected unknown").
const numberInput = v.custom<NumberInput>(() => true);

/** A required non-negative integer (a JSON integer literal, at most 2^53 - 1), read as a `number`. */
export const count = v.pipe(
  numberInput,
  v.check(isCount, 'expected a non-negative integer (at most 2^53 - 1, written without a fraction or exponent)'),
  v.transform(numberValue),
);
/** An optional non-negative integer: absent or `null` is the same. */
export const optionalCount = v.optional(v.nullable(count));
/** A required number from 0 to 1 (a ratio such as a precision threshold), read as a `number`. */
export const ratio = v.pipe(numberInput, v.check(isRatio, 'expected a number from 0 to 1'), v.transform(numberValue));
