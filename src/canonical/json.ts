/**
 * A lossless JSON parser with serde_json's acceptance rules.
 *
 * `JSON.parse` loses integers beyond 2^53, cannot tell `1` from `1.0`, and silently lets a
 * repeated key overwrite the first. premath parses with serde_json, so a digest over a payload
 * depends on the literal text of its numbers; this parser keeps that text.
 *
 * @module
 */
import { bareRecord } from '../internal/detach.ts';
import { Buffer, isUtf8 } from 'node:buffer';
import { MAX_DATA_DEPTH } from '../internal/own-data.ts';
import { JsonInputError, JsonNumber, noteDuplicateKey, type JsonInputErrorCode, type JsonValue } from './json-value.ts';

/** Literals at most this long are shared: one frozen instance per literal. */
const SHARED_LITERAL_LENGTH = 4;
/** How many literals are shared at most (all 1-4 character literals would be about 12,000). */
const SHARED_LITERALS = 16384;
const sharedNumbers = new Map<string, JsonNumber>();

/** The number for a literal the parser has checked; a short one is shared, so `[0,0,0,...]` costs one object. */
function numberOf(raw: string): JsonNumber {
  if (raw.length > SHARED_LITERAL_LENGTH) return new JsonNumber(raw);
  let number = sharedNumbers.get(raw);
  if (number === undefined) {
    number = new JsonNumber(raw);
    if (sharedNumbers.size < SHARED_LITERALS) sharedNumbers.set(raw, number);
  }
  return number;
}

/** serde_json's recursion limit: the 128th nested array or object is refused. */
const MAX_DEPTH = MAX_DATA_DEPTH;

/** A run of string characters that need no attention: no quote, backslash or control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a JSON string may not hold raw control characters
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;

/** {@link PLAIN_RUN} of ASCII only, for byte strings: a run that stops at a non-ASCII byte needs decoding. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a JSON string may not hold raw control characters
const PLAIN_ASCII_RUN = /[^"\\\u0000-\u001f\u0080-\uffff]*/y;

/**
 * Where the run of string characters from `at` that need no attention ends ({@link PLAIN_RUN}),
 * or with `asciiOnly` (a byte string) the run of them that is ASCII ({@link PLAIN_ASCII_RUN}).
 * An expression, not a loop in script: once optimized, a loop was 1-3% faster over a whole job,
 * but before the optimizing compiler reaches it (the first thousands of jobs of a process) it
 * made the job 22% slower; the expression runs natively at every tier.
 */
function plainRunEnd(text: string, at: number, asciiOnly: boolean): number {
  const run = asciiOnly ? PLAIN_ASCII_RUN : PLAIN_RUN;
  run.lastIndex = at;
  run.test(text);
  return run.lastIndex;
}

/** Decoded code units gathered before they become a string piece (well under the engine's argument limit). */
const ESCAPE_BATCH = 4096;

/**
 * The code unit each one-character escape stands for, by the character after the backslash
 * (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`; RFC 8259 §7); 0 where there is none.
 */
const SHORT_ESCAPES = new Uint8Array(0x80);
for (const [letter, unit] of [
  ['"', 0x22],
  ['\\', 0x5c],
  ['/', 0x2f],
  ['b', 0x08],
  ['f', 0x0c],
  ['n', 0x0a],
  ['r', 0x0d],
  ['t', 0x09],
] as const)
  SHORT_ESCAPES[letter.charCodeAt(0)] = unit;

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
 * @throws {@link JsonInputError} for input serde_json would refuse, and nothing else for any
 *   string or bytes, with one exception: more bytes than the longest string the engine holds
 *   (536,870,888 on 64-bit Node) throw Node's own error (`ERR_STRING_TOO_LONG`).
 * @example
 * ```ts
 * import { parseJson, JsonNumber } from 'turngate/canonical';
 * const value = parseJson('{"n": 9007199254740993}') as { n: JsonNumber };
 * value.n.raw; //=> '9007199254740993'
 * ```
 */
export function parseJson(input: string | Uint8Array): JsonValue {
  const { text, bytes } = decodeText(input);
  return new Parser(text, bytes, false).parseDocument();
}

/**
 * {@link parseJson} into objects without a prototype: every key read from the result is one the
 * text holds, whatever `Object.prototype` holds. What it returns is own data only (no getters,
 * no cycles, at most 127 levels, numbers as {@link JsonNumber}), which the join check's
 * boundary takes as it is. Internal.
 *
 * @param input - JSON text, as a string or as UTF-8 bytes.
 * @throws {@link JsonInputError} as {@link parseJson}.
 */
export function parseJsonData(input: string | Uint8Array): JsonValue {
  const { text, bytes } = decodeText(input);
  return new Parser(text, bytes, true).parseDocument();
}

/**
 * The text the parser reads. UTF-8 bytes are validated once and read as a Latin-1 string of their
 * bytes (one character per byte, which the engine stores one byte per character): the JSON
 * structure is ASCII, so it parses the same, and only string tokens holding non-ASCII bytes are
 * decoded from UTF-8 (`Parser.decoded`). Decoding the whole input to UTF-16 instead makes every
 * string sliced from it a two-byte string once the input holds one non-ASCII character, and every
 * later step (digests, the report text) pays for that.
 */
function decodeText(input: string | Uint8Array): { readonly text: string; readonly bytes: Buffer | undefined } {
  if (typeof input === 'string') {
    if (!input.isWellFormed()) {
      throw new JsonInputError('input holds a lone UTF-16 surrogate (not valid UTF-8 text)', 'utf8_invalid');
    }
    return { text: input, bytes: undefined };
  }
  if (!isUtf8(input)) throw new JsonInputError('input is not valid UTF-8', 'utf8_invalid');
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  return { text: bytes.toString('latin1'), bytes };
}

/** A character of a byte string that is not ASCII: part of a multi-byte UTF-8 sequence. */
const NON_ASCII_BYTE = /[\u0080-\u00ff]/;

class Parser {
  private pos = 0;
  private depth = 0;
  /**
   * @param text - The JSON text, or (with `bytes`) the input's UTF-8 bytes as a Latin-1 string.
   * @param bytes - The input's bytes when `text` holds them; string tokens are then decoded from them.
   * @param nullPrototype - Whether objects are made without a prototype.
   */
  constructor(
    private readonly text: string,
    private readonly bytes: Buffer | undefined,
    private readonly nullPrototype: boolean,
  ) {}

  /** Object keys already read, by {@link keySlot}: the same few names recur in every row. */
  private readonly keys: (string | undefined)[] = new Array(KEY_SLOTS);

  /**
   * The elements of the arrays being read, innermost last: each array is copied out at its `]`
   * at its exact length. An array grown by `push` keeps the engine's spare capacity (V8 gives a
   * one-element array room for 17: 184 bytes where 56 do), and a parsed tree is kept whole while
   * it is checked. A long array that is alone on the list is the list itself, handed over (a
   * copy would hold it twice for a moment, which is the peak for `[0,0,...]`).
   */
  private elements: JsonValue[] = [];

  /** The text between `start` and `end` (character boundaries), decoded from UTF-8 when the text holds bytes. */
  private decoded(start: number, end: number): string {
    const piece = this.text.slice(start, end);
    return this.bytes !== undefined && NON_ASCII_BYTE.test(piece) ? this.bytes.toString('utf8', start, end) : piece;
  }

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
    // Columns count UTF-16 code units of the decoded line, whatever form the text is held in.
    const column = this.decoded(lineStart, Math.min(at, this.text.length)).length;
    throw new JsonInputError(message, code, line, column + 1);
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

  /**
   * After an object member or an array element: a `,` is consumed with the white space after it
   * (false: another one follows); the closing bracket `close` is consumed and the nesting level
   * left (true); anything else fails with `expected`.
   */
  private closes(close: number, expected: string): boolean {
    this.skipWhitespace();
    const next = this.text.charCodeAt(this.pos);
    if (next === 0x2c) {
      this.pos++;
      this.skipWhitespace();
      return false;
    }
    if (next !== close) this.fail(expected);
    this.pos++;
    this.depth--;
    return true;
  }

  private parseObject(): JsonValue {
    this.enter();
    this.pos++; // {
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      this.depth--;
      return this.nullPrototype ? bareRecord() : new EmptyObject();
    }
    const object: Record<string, JsonValue> = this.nullPrototype ? bareRecord() : {};
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('expected a string key');
      const key = this.parseString(true);
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("expected ':' after an object key");
      this.pos++;
      this.skipWhitespace();
      const value = this.parseValue();
      if (Object.hasOwn(object, key)) noteDuplicateKey(object, key);
      if (key === '__proto__') {
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      } else {
        object[key] = value;
      }
      if (this.closes(0x7d, "expected ',' or '}' after an object member")) return object;
    }
  }

  private parseArray(): JsonValue {
    this.enter();
    this.pos++; // [
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      this.depth--;
      return [];
    }
    const start = this.elements.length;
    for (;;) {
      // Read after the element: an array inside it may have taken the list over.
      const value = this.parseValue();
      this.elements.push(value);
      if (!this.closes(0x5d, "expected ',' or ']' after an array element")) continue;
      const elements = this.elements;
      if (start === 0 && elements.length >= HANDED_OVER_LENGTH) {
        this.elements = [];
        return elements;
      }
      const array = elements.slice(start);
      elements.length = start;
      return array;
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
    return numberOf(raw);
  }

  /** Reads a string token; `key` when it is an object key. */
  private parseString(key = false): string {
    const text = this.text;
    let pos = this.pos + 1; // opening quote
    let end = plainRunEnd(text, pos, this.bytes !== undefined);
    if (text.charCodeAt(end) === 0x22) {
      this.pos = end + 1;
      if (!key) return text.slice(pos, end);
      // A key seen before is reused: no new string, and one the engine has already interned.
      const slot = keySlot(text, pos, end);
      const seen = this.keys[slot];
      if (seen !== undefined && seen.length === end - pos && text.startsWith(seen, pos)) return seen;
      const fresh = text.slice(pos, end);
      this.keys[slot] = fresh;
      return fresh;
    }
    if (this.bytes !== undefined) {
      // A non-ASCII byte (or an escape, or a fault): read on with the whole plain run.
      const plainEnd = plainRunEnd(text, end, false);
      if (text.charCodeAt(plainEnd) === 0x22) {
        // Non-ASCII text without escapes (most of it): decoded in one piece, nothing gathered.
        this.pos = plainEnd + 1;
        return this.bytes.toString('utf8', pos, plainEnd);
      }
      end = plainEnd;
    }
    if (text.charCodeAt(end) === 0x5c) {
      const escaped = this.escapedString(pos, end);
      if (escaped !== undefined) return escaped;
    }
    // Escapes the engine did not take (a fault to name): plain runs and decoded code units are
    // gathered in lists and joined once, so a string of a million escapes costs its own size,
    // not a rope node per character.
    const pieces: string[] = [];
    const units: number[] = [];
    const flushUnits = (): void => {
      if (units.length > 0) {
        pieces.push(String.fromCharCode(...units));
        units.length = 0;
      }
    };
    for (;;) {
      const c = text.charCodeAt(end);
      if (end > pos) {
        flushUnits();
        // A plain run ends at a quote, a backslash or a control character: on a character boundary.
        pieces.push(this.decoded(pos, end));
      }
      if (c === 0x22) {
        flushUnits();
        this.pos = end + 1;
        return pieces.join('');
      }
      if (c === 0x5c) {
        pos = this.parseEscape(end + 1, units);
        if (units.length >= ESCAPE_BATCH) flushUnits();
        end = plainRunEnd(text, pos, false);
        continue;
      }
      if (Number.isNaN(c)) this.fail('unexpected end of input inside a string', 'json_syntax', end);
      return this.fail('control character (U+0000–U+001F) inside a string', 'json_syntax', end);
    }
  }

  /**
   * The string token whose text starts at `start` and holds an escape at `at`, decoded by the
   * engine's `JSON.parse`, which reads a well-formed token as serde_json does, natively (a
   * loop over escapes in script costs several times more). `undefined`, for
   * {@link parseString}'s own loop to name the fault, when the token has no closing quote, holds
   * a control character or an invalid escape (which the engine refuses too), or decodes to text
   * with a lone surrogate (which the engine accepts and serde_json refuses).
   */
  private escapedString(start: number, at: number): string | undefined {
    const text = this.text;
    let end = at;
    for (;;) {
      const c = text.charCodeAt(end);
      if (c === 0x22) break;
      if (c !== 0x5c) return undefined;
      // Past the backslash and the character it escapes (the engine checks the escape).
      end = plainRunEnd(text, end + 2, false);
    }
    let value: unknown;
    try {
      value = JSON.parse(this.decoded(start - 1, end + 1));
    } catch {
      return undefined;
    }
    if (typeof value !== 'string' || !value.isWellFormed()) return undefined;
    this.pos = end + 1;
    return value;
  }

  /** Reads one escape after a backslash at `pos` into `units`; returns the position after it. */
  private parseEscape(pos: number, units: number[]): number {
    const c = this.text.charCodeAt(pos);
    const short = c < 0x80 ? (SHORT_ESCAPES[c] as number) : 0;
    if (short !== 0) {
      units.push(short);
      return pos + 1;
    }
    if (c !== 0x75) return this.fail('invalid escape in a string', 'json_syntax', pos - 1);
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
      units.push(unit, low);
      return after + 6;
    }
    units.push(unit);
    return pos + 5;
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

/**
 * Makes the empty objects `{}` parses to: ordinary objects (prototype `Object.prototype`,
 * `constructor` `Object`, shown as `{}`), made by a constructor because V8 sizes what a
 * constructor makes to the properties its objects are given (slack tracking): none, so 24 bytes,
 * where an object literal keeps room for four properties (56 bytes). A payload of `{}`s is kept
 * whole while it is checked.
 */
// biome-ignore lint/plugin: a function whose prototype is Object.prototype constructs plain objects; TypeScript has no construct signature for a function declaration
const EmptyObject = function EmptyObject() {} as unknown as new () => Record<string, JsonValue>;
EmptyObject.prototype = Object.prototype;

/** From this length on, an array alone on the parser's element list is that list (its spare capacity is under a half). */
const HANDED_OVER_LENGTH = 1024;

/** Slots of the parser's key cache (a power of two). */
const KEY_SLOTS = 256;

/** The key cache slot of the text between `start` and `end`: its length and first and last characters. */
function keySlot(text: string, start: number, end: number): number {
  if (end === start) return 0;
  return ((end - start) * 31 + text.charCodeAt(start) * 7 + text.charCodeAt(end - 1)) & (KEY_SLOTS - 1);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
