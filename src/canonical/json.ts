/**
 * A lossless JSON parser with serde_json's acceptance rules.
 *
 * `JSON.parse` loses integers beyond 2^53, cannot tell `1` from `1.0`, and silently lets a
 * repeated key overwrite the first. premath parses with serde_json, so a digest over a payload
 * depends on the literal text of its numbers; this parser keeps that text.
 *
 * @module
 */
import { MAX_DATA_DEPTH } from '../internal/own-data.ts';

/**
 * A JSON number kept as the literal text it was written with, so integers beyond 2^53 and
 * the difference between `1` and `1.0` survive parsing.
 *
 * @example
 * ```ts
 * import { JsonNumber, canonicalJson } from 'turngate';
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
      throw new JsonInputError(`not a JSON number literal: ${JSON.stringify(raw)}`, 'json_syntax');
    }
    this.raw = raw;
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
 * A JSON value as this library reads and digests it: a parsed number is a {@link JsonNumber};
 * values built in code may also use `number` (read as the literal `JSON.stringify` writes for
 * it) and `bigint` (an integer).
 *
 * @example
 * ```ts
 * import { canonicalJson, JsonNumber, type JsonValue } from 'turngate';
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
 *
 * @example
 * ```ts
 * import type { JsonInputErrorCode } from 'turngate';
 * declare const value: JsonInputErrorCode;
 * void value;
 * ```
 */
export type JsonInputErrorCode = 'utf8_invalid' | 'json_syntax' | 'number_out_of_range' | 'depth_exceeded';

/**
 * The error thrown for JSON text that premath's parser (serde_json) would refuse: invalid
 * UTF-8, a byte-order mark, syntax errors, lone surrogate escapes, trailing characters,
 * numbers too large for an f64, nesting deeper than 127 levels.
 *
 * @example
 * ```ts
 * import { JsonInputError, parseJson } from 'turngate';
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
 * @returns The repeated keys, or `undefined` when there were none.
 *
 * @example
 * ```ts
 * import { duplicateKeysOf, parseJson } from 'turngate';
 * const value = parseJson('{"k": 1, "k": 2}') as object;
 * duplicateKeysOf(value); //=> Set { 'k' }
 * ```
 */
export function duplicateKeysOf(value: object): ReadonlySet<string> | undefined {
  return duplicateKeys.get(value);
}

/** serde_json's recursion limit: the 128th nested array or object is refused. */
const MAX_DEPTH = MAX_DATA_DEPTH;

/** A run of string characters that need no attention: no quote, backslash or control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a JSON string may not hold raw control characters
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parses JSON text losslessly, with the acceptance rules of serde_json 1.0 (premath's parser).
 *
 * - Numbers become {@link JsonNumber} (literal text kept).
 * - A repeated key keeps its last value and is reported by {@link duplicateKeysOf}.
 * - `__proto__`, `constructor` and the like are ordinary own keys.
 * - Refused (throws {@link JsonInputError}): invalid UTF-8, a leading byte-order mark, control
 *   characters inside strings, lone surrogate escapes (`"\ud800"`), trailing characters after
 *   the root value, numbers whose magnitude overflows an f64 (`1e400`), nesting deeper than
 *   127 levels.
 *
 * Source: DIGESTS.md "Input text" and "Numbers".
 *
 * @param input - JSON text, as a string or as UTF-8 bytes.
 * @returns The parsed value.
 * @throws {@link JsonInputError} for input serde_json would refuse.
 * @example
 * ```ts
 * import { parseJson, JsonNumber } from 'turngate';
 * const value = parseJson('{"n": 9007199254740993}') as { n: JsonNumber };
 * value.n.raw; //=> '9007199254740993'
 * ```
 */
export function parseJson(input: string | Uint8Array): JsonValue {
  let text: string;
  if (typeof input === 'string') {
    if (!input.isWellFormed()) {
      throw new JsonInputError('input holds a lone UTF-16 surrogate (not valid UTF-8 text)', 'utf8_invalid');
    }
    text = input;
  } else {
    try {
      text = utf8.decode(input);
    } catch {
      throw new JsonInputError('input is not valid UTF-8', 'utf8_invalid');
    }
  }
  return new Parser(text).parseDocument();
}

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  parseDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.parseValue();
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail('trailing characters after the JSON value');
    return value;
  }

  private fail(message: string, code: JsonInputErrorCode = 'json_syntax', at = this.pos): never {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new JsonInputError(message, code, line, at - lineStart + 1);
  }

  private skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
    this.pos = pos;
  }

  private parseValue(): JsonValue {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x22: // "
        return this.parseString();
      case 0x7b: // {
        return this.parseObject();
      case 0x5b: // [
        return this.parseArray();
      case 0x74: // t
        return this.parseLiteral('true', true);
      case 0x66: // f
        return this.parseLiteral('false', false);
      case 0x6e: // n
        return this.parseLiteral('null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        if (Number.isNaN(c)) this.fail('unexpected end of input, expected a JSON value');
        return this.fail('expected a JSON value');
    }
  }

  private parseLiteral<T>(word: string, value: T): T {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return value;
    }
    return this.fail(`expected \`${word}\``);
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels`, 'depth_exceeded');
  }

  private parseObject(): JsonValue {
    this.enter();
    this.pos++; // {
    const object: Record<string, JsonValue> = {};
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      this.depth--;
      return object;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('expected a string key');
      const key = this.parseString();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("expected ':' after an object key");
      this.pos++;
      this.skipWhitespace();
      const value = this.parseValue();
      if (Object.hasOwn(object, key)) {
        let seen = duplicateKeys.get(object);
        if (seen === undefined) {
          seen = new Set();
          duplicateKeys.set(object, seen);
        }
        seen.add(key);
      }
      if (key === '__proto__') {
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      } else {
        object[key] = value;
      }
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.pos);
      if (next === 0x2c) {
        this.pos++;
        this.skipWhitespace();
        continue;
      }
      if (next === 0x7d) {
        this.pos++;
        this.depth--;
        return object;
      }
      this.fail("expected ',' or '}' after an object member");
    }
  }

  private parseArray(): JsonValue {
    this.enter();
    this.pos++; // [
    const array: JsonValue[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      this.depth--;
      return array;
    }
    for (;;) {
      array.push(this.parseValue());
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.pos);
      if (next === 0x2c) {
        this.pos++;
        this.skipWhitespace();
        continue;
      }
      if (next === 0x5d) {
        this.pos++;
        this.depth--;
        return array;
      }
      this.fail("expected ',' or ']' after an array element");
    }
  }

  private parseNumber(): JsonValue {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    if (text.charCodeAt(pos) === 0x2d) pos++;
    const first = text.charCodeAt(pos);
    if (first === 0x30) {
      pos++;
    } else if (first >= 0x31 && first <= 0x39) {
      while (isDigit(text.charCodeAt(pos))) pos++;
    } else {
      this.fail('invalid number: expected a digit', 'json_syntax', pos);
    }
    let isFloat = false;
    if (text.charCodeAt(pos) === 0x2e) {
      pos++;
      if (!isDigit(text.charCodeAt(pos)))
        this.fail('invalid number: expected a digit after the decimal point', 'json_syntax', pos);
      while (isDigit(text.charCodeAt(pos))) pos++;
      isFloat = true;
    }
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) {
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) pos++;
      if (!isDigit(text.charCodeAt(pos)))
        this.fail('invalid number: expected a digit in the exponent', 'json_syntax', pos);
      while (isDigit(text.charCodeAt(pos))) pos++;
      isFloat = true;
    }
    const raw = text.slice(start, pos);
    if ((isFloat || raw.length > 19) && !Number.isFinite(Number(raw))) {
      this.fail('number out of range (too large for an f64)', 'number_out_of_range', start);
    }
    this.pos = pos;
    return new JsonNumber(raw);
  }

  private parseString(): string {
    const text = this.text;
    let pos = this.pos + 1; // opening quote
    let out = '';
    for (;;) {
      PLAIN_RUN.lastIndex = pos;
      PLAIN_RUN.test(text);
      const end = PLAIN_RUN.lastIndex;
      const c = text.charCodeAt(end);
      if (c === 0x22) {
        this.pos = end + 1;
        return out === '' ? text.slice(pos, end) : out + text.slice(pos, end);
      }
      out += text.slice(pos, end);
      if (c === 0x5c) {
        pos = this.parseEscape(end + 1, (s) => (out += s));
        continue;
      }
      if (Number.isNaN(c)) this.fail('unexpected end of input inside a string', 'json_syntax', end);
      return this.fail('control character (U+0000–U+001F) inside a string', 'json_syntax', end);
    }
  }

  /** Reads one escape after a backslash at `pos`; returns the position after it. */
  private parseEscape(pos: number, emit: (s: string) => void): number {
    const c = this.text.charCodeAt(pos);
    switch (c) {
      case 0x22:
        emit('"');
        return pos + 1;
      case 0x5c:
        emit('\\');
        return pos + 1;
      case 0x2f:
        emit('/');
        return pos + 1;
      case 0x62:
        emit('\b');
        return pos + 1;
      case 0x66:
        emit('\f');
        return pos + 1;
      case 0x6e:
        emit('\n');
        return pos + 1;
      case 0x72:
        emit('\r');
        return pos + 1;
      case 0x74:
        emit('\t');
        return pos + 1;
      case 0x75: {
        const unit = this.readHex4(pos + 1);
        if (unit >= 0xdc00 && unit <= 0xdfff) {
          this.fail('lone trailing surrogate in a \\u escape', 'json_syntax', pos - 1);
        }
        if (unit >= 0xd800 && unit <= 0xdbff) {
          const after = pos + 5;
          if (this.text.charCodeAt(after) !== 0x5c || this.text.charCodeAt(after + 1) !== 0x75) {
            this.fail('lone leading surrogate in a \\u escape', 'json_syntax', pos - 1);
          }
          const low = this.readHex4(after + 2);
          if (low < 0xdc00 || low > 0xdfff) {
            this.fail('lone leading surrogate in a \\u escape', 'json_syntax', pos - 1);
          }
          emit(String.fromCharCode(unit, low));
          return after + 6;
        }
        emit(String.fromCharCode(unit));
        return pos + 5;
      }
      default:
        return this.fail('invalid escape in a string', 'json_syntax', pos - 1);
    }
  }

  private readHex4(pos: number): number {
    let value = 0;
    for (let i = 0; i < 4; i++) {
      const c = this.text.charCodeAt(pos + i);
      let digit: number;
      if (c >= 0x30 && c <= 0x39) digit = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) digit = c - 0x57;
      else if (c >= 0x41 && c <= 0x46) digit = c - 0x37;
      else return this.fail('invalid \\u escape: expected 4 hex digits', 'json_syntax', pos + i);
      value = value * 16 + digit;
    }
    return value;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
