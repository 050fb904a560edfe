/**
 * Canonical JSON text, `sha256:` digests, and premath's pretty output.
 *
 * @module
 */
import { JsonInputError, JsonNumber, type JsonValue } from './json-value.ts';
import { formatJsonNumber } from './number.ts';
import { ENGINE_BATCH, engineText } from './engine.ts';
import { enter, isPlainRecord, keysInOrder, notJson, quote, quoteKey, sha256Hex, Sink } from './sink.ts';

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
