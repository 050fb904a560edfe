/**
 * Canonical JSON text, `sha256:` digests, and premath's pretty output.
 *
 * @module
 */
import * as crypto from 'node:crypto';

/** SHA-256 hex of a string's UTF-8 bytes; one-shot `crypto.hash` where Node has it (>= 20.12). */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');
import { JsonInputError, JsonNumber, type JsonValue } from './json.ts';
import { MAX_DATA_DEPTH } from '../internal/own-data.ts';
import { formatJsonNumber } from './number.ts';
import { compareUtf8, sortUtf8 } from './text.ts';

/** Characters that need an escape, or a well-formedness check (surrogates). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what needs escaping
const NEEDS_CARE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(value: string): string {
  if (!NEEDS_CARE.test(value)) return `"${value}"`;
  // JSON.stringify escapes exactly `"`, `\` and U+0000–U+001F (as \b \t \n \f \r or a
  // lowercase \u00xx), like serde_json; a lone surrogate is the one input it escapes that
  // serde_json cannot hold, so it is refused.
  if (!value.isWellFormed()) {
    throw new JsonInputError('string holds a lone UTF-16 surrogate, which has no UTF-8 form', 'utf8_invalid');
  }
  return JSON.stringify(value);
}

/**
 * Where canonical or pretty text goes. Pieces are appended to a string (cheap: the engine
 * links them as a rope) and every {@link CHUNK_CHARS} characters the rope is made flat: fed to
 * the hash for a digest, which so never holds the whole text; kept as a flat chunk for the
 * text. A rope left to grow keeps one node per piece alive until the end, several times the
 * size of the text itself.
 */
class Sink {
  private rope = '';
  private readonly chunks: string[] = [];
  private hash: crypto.Hash | undefined;
  /** The containers being written, by depth: a cycle is found among them. */
  readonly open: object[] = [];

  constructor(private readonly hashing: boolean) {}

  write(piece: string): void {
    this.rope += piece;
    if (this.rope.length >= CHUNK_CHARS) this.flush();
  }

  private flush(): void {
    if (this.hashing) {
      this.hash ??= crypto.createHash('sha256');
      this.hash.update(this.rope, 'utf8');
    } else {
      // Converting a string to a number makes the engine flatten it first (V8 does), which
      // turns the rope into one flat string; the number itself is not used.
      Number(this.rope);
      this.chunks.push(this.rope);
    }
    this.rope = '';
  }

  /** The whole text. */
  text(): string {
    if (this.chunks.length === 0) return this.rope;
    this.flush();
    return this.chunks.join('');
  }

  /** The lowercase hex SHA-256 of the text's UTF-8 bytes. */
  hex(): string {
    if (this.hash === undefined) return sha256Hex(this.rope);
    this.flush();
    return this.hash.digest('hex');
  }
}

/** Characters of text between flushes. */
const CHUNK_CHARS = 1 << 16;

/** Keys longer than this are quoted and sorted without the caches, which so stay small. */
const CACHED_KEY_LENGTH = 64;
/** Objects with more keys than this are sorted without the cache. */
const CACHED_KEY_COUNT = 32;

/** Quoted object keys: the same few dozen names recur in every row. */
const quotedKeys = new Map<string, string>();

function quoteKey(key: string): string {
  if (key.length > CACHED_KEY_LENGTH) return quote(key);
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = quote(key);
    if (quotedKeys.size < 4096) quotedKeys.set(key, quoted);
  }
  return quoted;
}

const sortedByFirstKey = new Map<string, { keys: string[]; sorted: string[] }[]>();

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sortedKeys(keys: string[]): string[] {
  if (keys.length > CACHED_KEY_COUNT) return sortUtf8(keys);
  for (const key of keys) if (key.length > CACHED_KEY_LENGTH) return sortUtf8(keys);
  const first = keys[0] as string;
  let entries = sortedByFirstKey.get(first);
  if (entries !== undefined) {
    for (const entry of entries) if (sameKeys(entry.keys, keys)) return entry.sorted;
  } else if (sortedByFirstKey.size < 256) {
    entries = [];
    sortedByFirstKey.set(first, entries);
  }
  const sorted = sortUtf8([...keys]);
  if (entries !== undefined && entries.length < 8) entries.push({ keys, sorted });
  return sorted;
}

function notJson(value: object): JsonInputError {
  const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
  return new JsonInputError(`a ${name} is not a JSON value`, 'json_syntax');
}

function isPlainRecord(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Enters a container at `depth` (1 for the root's): refuses a cycle and nesting past the limit. */
function enter(sink: Sink, value: object, depth: number): void {
  if (depth > MAX_DATA_DEPTH) {
    if (sink.open.includes(value)) throw new JsonInputError('the value contains itself (a cycle)', 'depth_exceeded');
    throw new JsonInputError(`nesting deeper than ${MAX_DATA_DEPTH} levels`, 'depth_exceeded');
  }
  sink.open[depth] = value;
}

/** An object's own enumerable string keys in UTF-8 order (members whose value is `undefined` are skipped when written). */
function keysInOrder(object: object): string[] {
  const keys = Object.keys(object);
  return keys.length < 2 ? keys : sortedKeys(keys);
}

function writeCanonical(sink: Sink, value: unknown, depth: number): void {
  if (value === null) {
    sink.write('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      sink.write(quote(value));
      return;
    case 'boolean':
      sink.write(value ? 'true' : 'false');
      return;
    case 'number':
    case 'bigint':
      sink.write(formatJsonNumber(value));
      return;
    case 'object': {
      if (value instanceof JsonNumber) {
        sink.write(formatJsonNumber(value));
        return;
      }
      enter(sink, value, depth);
      if (Array.isArray(value)) {
        sink.write('[');
        writeElements(sink, value, depth);
        sink.write(']');
        return;
      }
      if (!isPlainRecord(value)) throw notJson(value);
      const record = value as Record<string, unknown>;
      const keys = keysInOrder(record);
      let separator = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        const item = record[key];
        if (item === undefined) continue;
        sink.write(separator);
        separator = ',';
        sink.write(quoteKey(key));
        sink.write(':');
        writeCanonical(sink, item, depth + 1);
      }
      sink.write(separator === '{' ? '{}' : '}');
      return;
    }
    default:
      throw new JsonInputError(
        `${value === undefined ? 'undefined' : `a ${typeof value}`} is not a JSON value`,
        'json_syntax',
      );
  }
}

/**
 * The elements of `array` (a container at `depth`) in canonical text, joined by commas: a long
 * array {@link ENGINE_BATCH} elements at a time through the engine where it writes them as we
 * do (so a large payload is neither copied whole nor written piece by piece in script), each
 * element by {@link writeCanonical} where it does not.
 */
function writeElements(sink: Sink, array: readonly unknown[], depth: number): void {
  for (let start = 0; start < array.length; start += ENGINE_BATCH) {
    const end = Math.min(array.length, start + ENGINE_BATCH);
    if (start > 0) sink.write(',');
    const text = array.length > ENGINE_BATCH ? engineText(array.slice(start, end), 0, depth) : undefined;
    if (text !== undefined) {
      sink.write(text.slice(1, -1));
      continue;
    }
    for (let i = start; i < end; i++) {
      if (i > start) sink.write(',');
      writeCanonical(sink, array[i] === undefined ? null : array[i], depth + 1);
    }
  }
}

/** What {@link engineReady} returns for a value the engine's `JSON.stringify` would not write as premath does. */
const SLOWER_PATH: unique symbol = Symbol('slower path');

/**
 * How many array elements and object members {@link engineReady} copies for one text (into
 * containers holding numbers where the value holds {@link JsonNumber}s) before it leaves the
 * value to our writer: the copy is a second tree held next to the value, which for a large
 * parsed payload was most of the join check's memory. Our writer hashes as it writes and hands
 * arrays back to the engine {@link ENGINE_BATCH} elements at a time, so no copy is larger.
 */
const ENGINE_COPIED_SLOTS = 1 << 16;

/** How many elements of a long array our writer gives the engine at a time. */
const ENGINE_BATCH = 1024;

/** What {@link engineReady} may still copy for the text being written. */
let copiedSlotsLeft = 0;

/**
 * Whether `text` (written by `JSON.stringify`) holds an escaped surrogate, `\ud800`–`\udfff`: a
 * lone surrogate in the value, or a literal backslash before such text, which the slower path
 * tells apart. `indexOf` scans the text natively, several times faster than a regular expression.
 */
function holdsEscapedSurrogate(text: string): boolean {
  for (let at = text.indexOf('\\ud'); at !== -1; at = text.indexOf('\\ud', at + 3)) {
    const c = text.charCodeAt(at + 3);
    if ((c >= 0x38 && c <= 0x39) || (c >= 0x61 && c <= 0x66)) return true;
  }
  return false;
}

/**
 * Whether `Object.prototype` or `Array.prototype` would change what the engine's writer or
 * {@link engineReady}'s walk sees: a `toJSON` our writers never call, or an enumerable
 * property (which `for...in` would read as a key of every object).
 */
function prototypesInTheWay(): boolean {
  for (const _ in Object.prototype) return true;
  return 'toJSON' in Object.prototype || 'toJSON' in Array.prototype;
}

/**
 * The value as the engine's `JSON.stringify` writes it exactly as {@link writeCanonical} and
 * {@link writePretty} would: plain objects whose keys are in UTF-8 order already (shared, not
 * copied: the join check builds its own objects in that order), safe integers, and
 * {@link JsonNumber}s whose literal `JSON.stringify` writes the same as numbers (in a copy of
 * their container). Anything else is {@link SLOWER_PATH}, and the writers above decide it (and
 * throw what they document): an object with its keys in another order (a payload, as its user
 * wrote it: copying it sorted costs more than their one pass), a class instance, a `bigint`, a
 * float the two write differently, a function, nesting past the limit, a cycle, an own
 * `__proto__` key. Lone surrogates are found in the output (see {@link holdsEscapedSurrogate}).
 */
function engineReady(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isSafeInteger(value) ? value : SLOWER_PATH;
    case 'object':
      break;
    default:
      return SLOWER_PATH;
  }
  if (value === null) return value;
  if (depth > MAX_DATA_DEPTH) return SLOWER_PATH;
  if (value instanceof JsonNumber) {
    const text = formatJsonNumber(value);
    const number = Number(text);
    return String(number) === text ? number : SLOWER_PATH;
  }
  if (Array.isArray(value)) {
    if (Object.hasOwn(value, 'toJSON')) return SLOWER_PATH;
    let out: unknown[] = value;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const ready = engineReady(item, depth + 1);
      if (ready === SLOWER_PATH) return SLOWER_PATH;
      if (ready !== item) {
        if (out === value) {
          copiedSlotsLeft -= value.length;
          if (copiedSlotsLeft < 0) return SLOWER_PATH;
          out = value.slice();
        }
        out[i] = ready;
      }
    }
    return out;
  }
  if (!isPlainRecord(value)) return SLOWER_PATH;
  const record = value as Record<string, unknown>;
  // `for...in` reads the keys in Object.keys' order without making an array of them (one per
  // object: a large share of this walk's garbage); it sees no inherited key, since engineText
  // takes this path only while Object.prototype has no enumerable property.
  let out = record;
  let previous: string | undefined;
  for (const key in record) {
    // Keys in another order: copying the object sorted costs more than our writer's one pass
    // (measured on payloads, whose keys come in the user's order).
    if (previous !== undefined && compareUtf8(previous, key) > 0) return SLOWER_PATH;
    previous = key;
    if (key === '__proto__') return SLOWER_PATH;
    const item = record[key];
    const ready = engineReady(item, depth + 1);
    if (ready === SLOWER_PATH) return SLOWER_PATH;
    if (ready !== item) {
      if (out === record) {
        copiedSlotsLeft -= Object.keys(record).length;
        if (copiedSlotsLeft < 0) return SLOWER_PATH;
        out = { ...record };
      }
      out[key] = ready;
    }
  }
  return out;
}

/**
 * The text the engine's `JSON.stringify` writes for `value` (standing at `depth`, 1 for a root)
 * when it is the text premath writes (canonical with `indent` 0, pretty with 2) and it takes no
 * more than {@link ENGINE_COPIED_SLOTS} copied slots, else `undefined`. The engine's writer escapes
 * exactly what serde_json escapes, in the same spelling, except a lone surrogate (refused by
 * serde_json), which the output check sends to the slower path.
 */
function engineText(value: unknown, indent: 0 | 2, depth = 1): string | undefined {
  if (prototypesInTheWay()) return undefined;
  copiedSlotsLeft = ENGINE_COPIED_SLOTS;
  const ready = engineReady(value, depth);
  if (ready === SLOWER_PATH || ready === undefined) return undefined;
  const text = indent === 0 ? JSON.stringify(ready) : JSON.stringify(ready, null, indent);
  return holdsEscapedSurrogate(text) ? undefined : text;
}

/**
 * The canonical JSON text of a value, as premath digests it: no whitespace; object keys
 * sorted by UTF-8 byte order; strings with only `"`, `\` and control characters escaped;
 * numbers as serde_json writes them. Object members whose value is `undefined` are left out;
 * `undefined` in an array is written as `null`, as `JSON.stringify` does.
 *
 * Source: DIGESTS.md "Canonical bytes"; HARNESS-TYPESTATE §4 (byte-stable digests).
 *
 * @param value - A JSON value (plain objects, arrays, strings, booleans, null, numbers).
 * @returns The canonical text; its UTF-8 encoding is what {@link digest} hashes.
 * @throws {@link JsonInputError} and nothing else for any value made of plain data:
 *   `number_out_of_range` for `NaN`, `Infinity` or a number beyond an f64; `utf8_invalid` for a
 *   string or key holding a lone surrogate; `json_syntax` for a value that is not JSON (a
 *   function, symbol, `undefined` at the root, a `Date`, `Map` or other class instance);
 *   `depth_exceeded` for a cycle or nesting deeper than 127 levels (the parser's limit).
 *   A getter or Proxy trap that throws is read as it is, so its error passes through.
 * @example
 * ```ts
 * import { canonicalJson } from 'turngate/canonical';
 * canonicalJson({ b: [1, 'x'], a: true }); //=> '{"a":true,"b":[1,"x"]}'
 * ```
 */
export function canonicalJson(value: JsonValue | object): string {
  const text = engineText(value, 0);
  if (text !== undefined) return text;
  const sink = new Sink(false);
  writeCanonical(sink, value, 1);
  return sink.text();
}

/**
 * The `sha256:` digest of a value: `"sha256:"` + lowercase hex SHA-256 of the UTF-8 bytes of
 * {@link canonicalJson}. Equal digests mean equal canonical values. The text is hashed as it
 * is written, so a large value costs no more memory than its own tree.
 *
 * Source: DIGESTS.md "Digest"; HARNESS-TYPESTATE §4.
 *
 * @param value - A JSON value.
 * @returns A string `sha256:` followed by 64 lowercase hex digits.
 * @throws {@link JsonInputError} exactly as {@link canonicalJson}.
 * @example
 * ```ts
 * import { digest } from 'turngate/canonical';
 * digest({ status: 'ok' }).startsWith('sha256:'); //=> true
 * ```
 */
export function digest(value: JsonValue | object): string {
  const text = engineText(value, 0);
  if (text !== undefined) return `sha256:${sha256Hex(text)}`;
  const sink = new Sink(true);
  writeCanonical(sink, value, 1);
  return `sha256:${sink.hex()}`;
}

/**
 * The `sha256:` digest of a string's raw UTF-8 bytes (not JSON-quoted). premath digests a tool
 * error message this way (`errorMessageDigest`).
 *
 * Source: DIGESTS.md "Digest".
 *
 * @param value - The text.
 * @returns A string `sha256:` followed by 64 lowercase hex digits.
 * @throws {@link JsonInputError} (`utf8_invalid`) when `value` holds a lone surrogate, which has
 *   no UTF-8 form (hashing it as U+FFFD would give a digest no UTF-8 text has).
 * @example
 * ```ts
 * import { digestText } from 'turngate/canonical';
 * digestText(''); //=> 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 * ```
 */
export function digestText(value: string): string {
  if (!value.isWellFormed()) {
    throw new JsonInputError('text holds a lone UTF-16 surrogate, which has no UTF-8 form', 'utf8_invalid');
  }
  return `sha256:${sha256Hex(value)}`;
}

const INDENTS: string[] = ['\n'];

function newline(depth: number): string {
  let indent = INDENTS[depth];
  if (indent === undefined) {
    indent = `\n${'  '.repeat(depth)}`;
    INDENTS[depth] = indent;
  }
  return indent;
}

function writePretty(sink: Sink, value: unknown, depth: number): void {
  if (value === null || typeof value !== 'object' || value instanceof JsonNumber) {
    writeCanonical(sink, value, depth + 1);
    return;
  }
  enter(sink, value, depth + 1);
  const inner = newline(depth + 1);
  if (Array.isArray(value)) {
    if (value.length === 0) {
      sink.write('[]');
      return;
    }
    sink.write('[');
    const between = `,${inner}`;
    for (let i = 0; i < value.length; i++) {
      sink.write(i > 0 ? between : inner);
      writePretty(sink, value[i] === undefined ? null : value[i], depth + 1);
    }
    sink.write(newline(depth));
    sink.write(']');
    return;
  }
  if (!isPlainRecord(value)) throw notJson(value);
  const record = value as Record<string, unknown>;
  const keys = keysInOrder(record);
  const open = `{${inner}`;
  const between = `,${inner}`;
  let separator = open;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = record[key];
    if (item === undefined) continue;
    sink.write(separator);
    separator = between;
    sink.write(quoteKey(key));
    sink.write(': ');
    writePretty(sink, item, depth + 1);
  }
  if (separator === open) {
    sink.write('{}');
    return;
  }
  sink.write(newline(depth));
  sink.write('}');
  return;
}

/**
 * Pretty JSON text as premath's `--json` output writes it (serde_json's pretty printer over
 * sorted maps): keys sorted by UTF-8 byte order, two-space indentation, `": "` after keys,
 * `[]` and `{}` for empty containers, no final newline (the CLI adds one).
 *
 * Source: DIGESTS.md "Output".
 *
 * @param value - A JSON value.
 * @returns The pretty text.
 * @throws {@link JsonInputError} exactly as {@link canonicalJson}.
 * @example
 * ```ts
 * import { prettyJson } from 'turngate/canonical';
 * prettyJson({ b: [], a: 1 }); //=> '{\n  "a": 1,\n  "b": []\n}'
 * ```
 */
export function prettyJson(value: JsonValue | object): string {
  const text = engineText(value, 2);
  if (text !== undefined) return text;
  const sink = new Sink(false);
  writePretty(sink, value, 0);
  return sink.text();
}
