/**
 * Text helpers with Rust `str` semantics, used wherever premath trims or lowercases.
 *
 * @module
 */

/**
 * Whether a UTF-16 code unit is a character with the Unicode `White_Space` property.
 * This is the set Rust's `char::is_whitespace` (and so `str::trim`) uses: U+0009–U+000D,
 * U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
 * Unlike JavaScript's `String.prototype.trim`, it includes U+0085 and excludes U+FEFF.
 */
function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/**
 * Trims Unicode `White_Space` from both ends of a string, exactly as Rust's `str::trim`.
 *
 * Source: DIGESTS.md "Input text" (premath trims every required and optional string this way).
 *
 * @param value - The string to trim.
 * @returns The string without leading and trailing `White_Space` characters. Never throws.
 * @example
 * ```ts
 * import { trimWhiteSpace } from 'turngate/canonical';
 * trimWhiteSpace('\u0085 tc-1 \u3000'); //=> 'tc-1'
 * trimWhiteSpace('\ufefftc-1'); //=> '\ufefftc-1' (U+FEFF is not White_Space)
 * ```
 */
export function trimWhiteSpace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isWhiteSpace(value.charCodeAt(start))) start++;
  while (end > start && isWhiteSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/**
 * Whether a string is blank: nothing but Unicode `White_Space` (or empty), by the same rule as
 * {@link trimWhiteSpace} (Rust's `str::trim`). The one blank test of the project: premath refuses
 * a blank required field after this trim, so a check that used JavaScript's `String#trim` (which
 * also removes U+FEFF and keeps U+0085) would disagree with the digests.
 *
 * Source: DIGESTS.md "Input text"; pinned by the vectors `reject/blank_*` in
 * `conformance/harness-typestate/`.
 *
 * @param value - The string.
 * @returns `true` for `''`, `' '`, `'\u0085'`, `'\u3000'`; `false` for `'\ufeff'` or any text.
 * @example
 * ```ts
 * import { isBlank } from 'turngate/canonical';
 * isBlank('\u0085\u3000'); //=> true
 * isBlank('\ufeff'); //=> false
 * ```
 */
export function isBlank(value: string): boolean {
  return trimWhiteSpace(value) === '';
}

const ASCII_UPPER = /[A-Z]/;

/**
 * Lowercases ASCII letters only, as Rust's `str::to_ascii_lowercase`. Every other character,
 * the Kelvin sign U+212A included, is left as it is.
 *
 * @param value - The string to lowercase.
 * @returns The string with `A`–`Z` replaced by `a`–`z`. Never throws.
 * @example
 * ```ts
 * import { asciiLowercase } from 'turngate/canonical';
 * asciiLowercase('JSON'); //=> 'json'
 * asciiLowercase('\u212A'); //=> '\u212A'
 * ```
 */
export function asciiLowercase(value: string): string {
  if (!ASCII_UPPER.test(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    out += code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : value[i];
  }
  return out;
}

/**
 * Compares two strings by the byte order of their UTF-8 encodings (the order of Rust's
 * `String` and of `BTreeMap` keys), which is Unicode code point order. JavaScript's default
 * string order compares UTF-16 code units and differs for characters above U+FFFF against
 * U+E000–U+FFFF.
 *
 * @param a - The first string.
 * @param b - The second string.
 * @returns A negative number when `a` sorts first, positive when `b` does, 0 when equal. Never
 *   throws (lone surrogates compare as their code units).
 * @example
 * ```ts
 * import { compareUtf8 } from 'turngate/canonical';
 * ['\u{1F600}', '\uFF21'].sort(compareUtf8); //=> ['\uFF21', '\u{1F600}']
 * ```
 */
export function compareUtf8(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (0xD800–0xDFFF) encode code points above U+FFFF and must sort after
    // U+E000–U+FFFF; every other pair of code units already compares as code points.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) {
      const xk = xs ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
      const yk = ys ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
      return xk - yk;
    }
    return x - y;
  }
  return a.length - b.length;
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * Sorts strings in place by UTF-8 byte order (see {@link compareUtf8}). Uses the engine's
 * native sort when no string holds a surrogate, where the two orders agree.
 *
 * @param values - The strings to sort; the array is sorted in place.
 * @returns The same array. Never throws.
 *
 * @example
 * ```ts
 * import { sortUtf8 } from 'turngate/canonical';
 * sortUtf8(['b', '\u{1F600}', '\uFF21', 'a']); //=> ['a', 'b', '\uFF21', '\u{1F600}']
 * ```
 */
export function sortUtf8<T extends string>(values: T[]): T[] {
  for (const value of values) {
    if (SURROGATE.test(value)) return values.sort(compareUtf8);
  }
  return values.sort();
}
