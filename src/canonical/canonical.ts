/**
 * Canonical JSON text, `sha256:` digests, and premath's pretty output.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { JsonInputError, JsonNumber, type JsonValue } from './json.ts';
import { formatJsonNumber } from './number.ts';
import { sortUtf8 } from './text.ts';

function quote(value: string): string {
  // JSON.stringify escapes exactly `"`, `\` and U+0000–U+001F (as \b \t \n \f \r or a
  // lowercase \u00xx), like serde_json; a lone surrogate is the one input it escapes that
  // serde_json cannot hold, so it is refused.
  if (!value.isWellFormed()) {
    throw new JsonInputError('string holds a lone UTF-16 surrogate, which has no UTF-8 form', 'utf8_invalid');
  }
  return JSON.stringify(value);
}

function sortedKeys(object: object): string[] {
  const keys: string[] = [];
  for (const key of Object.keys(object)) {
    if ((object as Record<string, unknown>)[key] !== undefined) keys.push(key);
  }
  return sortUtf8(keys);
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
        return out + ']';
      }
      let out = '{';
      let first = true;
      for (const key of sortedKeys(value)) {
        if (!first) out += ',';
        first = false;
        out += quote(key) + ':' + writeCanonical((value as Record<string, unknown>)[key]);
      }
      return out + '}';
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
  return 'sha256:' + createHash('sha256').update(writeCanonical(value), 'utf8').digest('hex');
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
  return 'sha256:' + createHash('sha256').update(value, 'utf8').digest('hex');
}

function writePretty(value: unknown, indent: string, parts: string[]): void {
  if (value === null || typeof value !== 'object' || value instanceof JsonNumber) {
    parts.push(writeCanonical(value));
    return;
  }
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) {
      parts.push('[]');
      return;
    }
    parts.push('[\n');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) parts.push(',\n');
      parts.push(inner);
      writePretty(value[i] === undefined ? null : value[i], inner, parts);
    }
    parts.push('\n', indent, ']');
    return;
  }
  const keys = sortedKeys(value);
  if (keys.length === 0) {
    parts.push('{}');
    return;
  }
  parts.push('{\n');
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (i > 0) parts.push(',\n');
    parts.push(inner, quote(key), ': ');
    writePretty((value as Record<string, unknown>)[key], inner, parts);
  }
  parts.push('\n', indent, '}');
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
  const parts: string[] = [];
  writePretty(value, '', parts);
  return parts.join('');
}
