/**
 * The fast path of the canonical and pretty writers: the engine's `JSON.stringify`, taken for a
 * value it writes exactly as premath does (keys already in UTF-8 order, safe integers,
 * {@link JsonNumber}s it spells the same), checked on the way and in its output. Anything else
 * is left to the writers in canonical.ts. Internal to the canonical layer.
 *
 * @module
 */
import { MAX_DATA_DEPTH } from '../internal/own-data.ts';
import { JsonNumber } from './json-value.ts';
import { formatJsonNumber } from './number.ts';
import { isPlainRecord } from './sink.ts';
import { compareUtf8 } from './text.ts';

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
export const ENGINE_BATCH = 1024;

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
 * their container). Anything else is {@link SLOWER_PATH}, and the writers (canonical.ts) decide it (and
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
export function engineText(value: unknown, indent: 0 | 2, depth = 1): string | undefined {
  if (prototypesInTheWay()) return undefined;
  copiedSlotsLeft = ENGINE_COPIED_SLOTS;
  const ready = engineReady(value, depth);
  if (ready === SLOWER_PATH || ready === undefined) return undefined;
  const text = indent === 0 ? JSON.stringify(ready) : JSON.stringify(ready, null, indent);
  return holdsEscapedSurrogate(text) ? undefined : text;
}
