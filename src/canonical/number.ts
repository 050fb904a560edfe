/**
 * Number text exactly as serde_json 1.0.149 writes a parsed number.
 *
 * @module
 */
import { JsonInputError, JsonNumber } from './json-value.ts';

const U64_MAX = '18446744073709551615';
const I64_MIN_ABS = '9223372036854775808';

function fitsDigits(digits: string, max: string): boolean {
  return digits.length < max.length || (digits.length === max.length && digits <= max);
}

/**
 * Writes a finite double as serde_json does: the shortest digits that round-trip, in decimal
 * notation with a trailing `.0` for whole values when 1e-5 <= |x| < 1e16, otherwise in
 * exponent notation `d[.ddd]e+N` / `d[.ddd]e-N`.
 *
 * Source: DIGESTS.md "Numbers".
 *
 * @param value - A finite number.
 * @returns The serde_json text of `value` read as an f64.
 * @throws {@link JsonInputError} (`number_out_of_range`) for `Infinity` or `NaN`.
 * @example
 * ```ts
 * import { formatF64 } from 'turngate/canonical';
 * formatF64(100); //=> '100.0'
 * formatF64(1e16); //=> '1e+16'
 * formatF64(0.000001); //=> '1e-6'
 * ```
 */
export function formatF64(value: number): string {
  if (!Number.isFinite(value)) {
    throw new JsonInputError(`number ${value} is not a finite f64`, 'number_out_of_range');
  }
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const exponential = Math.abs(value).toExponential();
  const e = exponential.indexOf('e');
  const mantissa = exponential.slice(0, e);
  const exponent = Number(exponential.slice(e + 1));
  const digits = mantissa.length > 1 ? mantissa[0] + mantissa.slice(2) : mantissa;
  const point = exponent + 1; // digits before the decimal point
  if (point > 0 && point <= 16) {
    if (digits.length <= point) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  if (point > -5 && point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
}

/**
 * Writes a JSON number literal as serde_json writes it after parsing: integers that fit in
 * u64 or i64 keep their digits (even beyond 2^53); every other number (`-0`, a fraction or
 * an exponent, an integer outside the 64-bit ranges) is an f64 written by {@link formatF64}.
 *
 * @param raw - A valid JSON number literal.
 * @returns The canonical text.
 * @throws {@link JsonInputError} (`number_out_of_range`) when the value overflows an f64.
 * @example
 * ```ts
 * import { formatNumberLiteral } from 'turngate/canonical';
 * formatNumberLiteral('18446744073709551615'); //=> '18446744073709551615'
 * formatNumberLiteral('18446744073709551616'); //=> '1.8446744073709552e+19'
 * formatNumberLiteral('-0'); //=> '-0.0'
 * formatNumberLiteral('1E2'); //=> '100.0'
 * ```
 */
export function formatNumberLiteral(raw: string): string {
  let integer = true;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2e || c === 0x65 || c === 0x45) {
      integer = false;
      break;
    }
  }
  if (integer) {
    if (raw.charCodeAt(0) === 0x2d) {
      const digits = raw.slice(1);
      if (digits === '0') return '-0.0';
      if (fitsDigits(digits, I64_MIN_ABS)) return raw;
    } else if (fitsDigits(raw, U64_MAX)) {
      return raw;
    }
  }
  return formatF64(Number(raw));
}

/**
 * Writes a number value as canonical JSON text. A {@link JsonNumber} keeps its literal; a
 * `number` is read as the literal `JSON.stringify` writes for it (so `1` is an integer and
 * `1.5` an f64); a `bigint` is an integer.
 *
 * @param value - The number.
 * @returns The canonical text.
 * @throws {@link JsonInputError} (`number_out_of_range`) for non-finite numbers.
 *
 * @example
 * ```ts
 * import { formatJsonNumber, JsonNumber } from 'turngate/canonical';
 * formatJsonNumber(1.5); //=> '1.5'
 * formatJsonNumber(10n ** 20n); //=> '1e+20'
 * formatJsonNumber(new JsonNumber('1.0')); //=> '1.0'
 * ```
 */
export function formatJsonNumber(value: number | bigint | JsonNumber): string {
  if (value instanceof JsonNumber) return formatNumberLiteral(value.raw);
  if (typeof value === 'bigint') return formatNumberLiteral(value.toString());
  if (!Number.isFinite(value)) {
    throw new JsonInputError(`number ${value} is not a finite f64`, 'number_out_of_range');
  }
  if (Number.isSafeInteger(value)) return Object.is(value, -0) ? '0' : String(value);
  return formatNumberLiteral(JSON.stringify(value));
}
