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
import { formatJsonNumber } from './number.ts';
import { sortUtf8 } from './text.ts';

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

/** Quoted object keys: the same few dozen names recur in every row. */
const quotedKeys = new Map<string, string>();

function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = quote(key);
    if (quotedKeys.size < 4096) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/**
 * Sorted key lists, looked up by the object's own key list: rows of one shape sort once. The
 * lookup compares key arrays element by element (keys are interned strings), so it allocates
 * nothing on a hit.
 */
const sortedByFirstKey = new Map<string, { keys: string[]; sorted: string[] }[]>();

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sortedKeys(object: object): string[] {
  let keys = Object.keys(object);
  for (let i = 0; i < keys.length; i++) {
    if ((object as Record<string, unknown>)[keys[i] as string] === undefined) {
      keys = keys.filter((key) => (object as Record<string, unknown>)[key] !== undefined);
      break;
    }
  }
  if (keys.length < 2) return keys;
  const first = keys[0] as string;
  let entries = sortedByFirstKey.get(first);
  if (entries !== undefined) {
    for (const entry of entries) if (sameKeys(entry.keys, keys)) return entry.sorted;
  } else if (sortedByFirstKey.size < 1024) {
    entries = [];
    sortedByFirstKey.set(first, entries);
  }
  const sorted = sortUtf8([...keys]);
  if (entries !== undefined && entries.length < 16) entries.push({ keys, sorted });
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

function writeCanonical(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
    case 'bigint':
      return formatJsonNumber(value);
    case 'object': {
      if (value instanceof JsonNumber) return formatJsonNumber(value);
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          out += writeCanonical(value[i] === undefined ? null : value[i]);
        }
        return `${out}]`;
      }
      if (!isPlainRecord(value)) throw notJson(value);
      const keys = sortedKeys(value);
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        if (i > 0) out += ',';
        out += `${quoteKey(key)}:${writeCanonical((value as Record<string, unknown>)[key])}`;
      }
      return `${out}}`;
    }
    default:
      throw new JsonInputError(`a ${typeof value} is not a JSON value`, 'json_syntax');
  }
}

/**
 * The canonical JSON text of a value, as premath digests it: no whitespace; object keys
 * sorted by UTF-8 byte order; strings with only `"`, `\` and control characters escaped;
 * numbers as serde_json writes them. Object members whose value is `undefined` are left out.
 *
 * Source: DIGESTS.md "Canonical bytes"; HARNESS-TYPESTATE §4 (byte-stable digests).
 *
 * @param value - A JSON value (plain objects, arrays, strings, booleans, null, numbers).
 * @returns The canonical text; its UTF-8 encoding is what {@link digest} hashes.
 * @throws {@link JsonInputError} for non-finite numbers, lone surrogates, or non-JSON values.
 * @example
 * ```ts
 * import { canonicalJson } from 'turngate';
 * canonicalJson({ b: [1, 'x'], a: true }); //=> '{"a":true,"b":[1,"x"]}'
 * ```
 */
export function canonicalJson(value: JsonValue | object): string {
  return writeCanonical(value);
}

/**
 * The `sha256:` digest of a value: `"sha256:"` + lowercase hex SHA-256 of the UTF-8 bytes of
 * {@link canonicalJson}. Equal digests mean equal canonical values.
 *
 * Source: DIGESTS.md "Digest"; HARNESS-TYPESTATE §4.
 *
 * @param value - A JSON value.
 * @returns A string `sha256:` followed by 64 lowercase hex digits.
 * @throws {@link JsonInputError} as {@link canonicalJson}.
 * @example
 * ```ts
 * import { digest } from 'turngate';
 * digest({ status: 'ok' }).startsWith('sha256:'); //=> true
 * ```
 */
export function digest(value: JsonValue | object): string {
  return `sha256:${sha256Hex(writeCanonical(value))}`;
}

/**
 * The `sha256:` digest of a string's raw UTF-8 bytes (not JSON-quoted). premath digests a tool
 * error message this way (`errorMessageDigest`).
 *
 * Source: DIGESTS.md "Digest".
 *
 * @param value - The text.
 * @returns A string `sha256:` followed by 64 lowercase hex digits.
 * @example
 * ```ts
 * import { digestText } from 'turngate';
 * digestText(''); //=> 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 * ```
 */
export function digestText(value: string): string {
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

function writePretty(value: unknown, depth: number): string {
  if (value === null || typeof value !== 'object' || value instanceof JsonNumber) return writeCanonical(value);
  const inner = newline(depth + 1);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      out += (i > 0 ? ',' : '') + inner + writePretty(value[i] === undefined ? null : value[i], depth + 1);
    }
    return `${out + newline(depth)}]`;
  }
  if (!isPlainRecord(value)) throw notJson(value);
  const keys = sortedKeys(value);
  if (keys.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    out +=
      (i > 0 ? ',' : '') +
      inner +
      quoteKey(key) +
      ': ' +
      writePretty((value as Record<string, unknown>)[key], depth + 1);
  }
  return `${out + newline(depth)}}`;
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
 * @throws {@link JsonInputError} as {@link canonicalJson}.
 * @example
 * ```ts
 * import { prettyJson } from 'turngate';
 * prettyJson({ b: [], a: 1 }); //=> '{\n  "a": 1,\n  "b": []\n}'
 * ```
 */
export function prettyJson(value: JsonValue | object): string {
  return writePretty(value, 0);
}
