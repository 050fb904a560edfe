/**
 * What the canonical and pretty writers share: the {@link Sink} their text goes to (flat chunks,
 * or a SHA-256 fed as it is written), quoting, object keys in UTF-8 order (with their caches),
 * and the checks on entering a container (a cycle, nesting past the limit, a value that is not
 * JSON). Internal to the canonical layer.
 *
 * @module
 */
import * as crypto from 'node:crypto';
import { isPlainPrototype, MAX_DATA_DEPTH } from '../internal/own-data.ts';
import { JsonInputError } from './json-value.ts';
import { sortUtf8 } from './text.ts';

/** SHA-256 hex of a string's UTF-8 bytes; one-shot `crypto.hash` where Node has it (>= 20.12). */
export const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/** Characters that need an escape, or a well-formedness check (surrogates). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what needs escaping
const NEEDS_CARE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A string as a JSON string literal, as serde_json writes it: `"`, `\` and U+0000-U+001F
 * escaped (`\b \t \n \f \r`, else a lowercase `\u00xx`), everything else as it is.
 *
 * @throws {@link JsonInputError} `utf8_invalid` for a string holding a lone UTF-16 surrogate (it has
 *   no UTF-8 form).
 */
export function quote(value: string): string {
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
export class Sink {
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

/** {@link quote} of an object key, from a cache of the keys short enough to recur (rows repeat a few dozen names). */
export function quoteKey(key: string): string {
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

/** The `json_syntax` error for an object that is not JSON data (a class instance, a `Map`), named by its constructor. */
export function notJson(value: object): JsonInputError {
  const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
  return new JsonInputError(`a ${name} is not a JSON value`, 'json_syntax');
}

/** Whether `value` is a plain object (prototype `Object.prototype` or `null`): the one rule, `isPlainPrototype`'s. */
export function isPlainRecord(value: object): boolean {
  return isPlainPrototype(Object.getPrototypeOf(value));
}

/** Enters a container at `depth` (1 for the root's): refuses a cycle and nesting past the limit. */
export function enter(sink: Sink, value: object, depth: number): void {
  if (depth > MAX_DATA_DEPTH) {
    if (sink.open.includes(value)) throw new JsonInputError('the value contains itself (a cycle)', 'depth_exceeded');
    throw new JsonInputError(`nesting deeper than ${MAX_DATA_DEPTH} levels`, 'depth_exceeded');
  }
  sink.open[depth] = value;
}

/** An object's own enumerable string keys in UTF-8 order (members whose value is `undefined` are skipped when written). */
export function keysInOrder(object: object): string[] {
  const keys = Object.keys(object);
  return keys.length < 2 ? keys : sortedKeys(keys);
}
