/**
 * Whether `JSON.stringify` can write a value that is kept as it is (not copied): the check for
 * values a boundary passes on unchanged, such as the messages of a checked transcript, which a
 * provider SDK serializes afterwards. Internal; the copying boundaries take `snapshotOwnData`,
 * which refuses all this and more.
 *
 * @module
 */
import {
  cycleAt,
  dataErrorOf,
  isPlainPrototype,
  MAX_DATA_DEPTH,
  notDataAt,
  type OwnDataError,
  tooDeepAt,
} from './own-data.ts';
import type { PathSegment } from './path.ts';

/**
 * How many objects the quick walk visits before it hands over to the exact one: a tree walk
 * (what `JSON.stringify` does) visits a shared object once per reference, so objects shared
 * level after level would make it exponential; the exact walk visits each object once.
 */
export const QUICK_WALK_OBJECTS = 1 << 20;

/** The quick walk's stop: the exact walk decides (and names the path). */
const HAND_OVER = Symbol('hand over');

/** A plain object: its prototype is `Object.prototype` or `null`. */
function isPlain(value: object): boolean {
  return isPlainPrototype(Object.getPrototypeOf(value));
}

/**
 * `isPlain` for the quick walk, of an object that is not an array: first whether its
 * `constructor` is `Object` (what an object of `Object.prototype` inherits), one property read
 * that V8 serves from its inline caches, where `Object.getPrototypeOf` is a call into the
 * runtime (it doubled the walk's time); then the prototype itself. An object of another
 * prototype passes the first test only with a `constructor` field of its own holding `Object`:
 * the quick walk hands over on any field holding `Object` it meets, and the exact walk decides.
 */
export function isPlainQuick(value: object): boolean {
  return (value as { readonly constructor?: unknown }).constructor === Object || isPlain(value);
}

/** Whether `value` is a boxed bigint (`Object(1n)`), which `JSON.stringify` unboxes and throws on. */
function isBoxedBigInt(value: object): boolean {
  try {
    BigInt.prototype.valueOf.call(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * How `JSON.stringify` takes an object that is neither a plain object nor an array: `bigint`
 * (a boxed bigint, a typed array of bigints: it throws), `leaf` (it writes it without walking
 * its properties as ours: a typed array or `DataView` of numbers, a `toJSON` method as `Date`,
 * `URL` and `Buffer` have), or `walk` (its own enumerable properties, as a plain object's).
 */
function otherObject(value: object): 'bigint' | 'leaf' | 'walk' {
  if (ArrayBuffer.isView(value)) {
    const bigints = value instanceof BigInt64Array || value instanceof BigUint64Array;
    return bigints && value.length > 0 ? 'bigint' : 'leaf';
  }
  if (isBoxedBigInt(value)) return 'bigint';
  return typeof (value as { readonly toJSON?: unknown }).toJSON === 'function' ? 'leaf' : 'walk';
}

/**
 * The first reason `JSON.stringify(value)` would throw, or `undefined` when it can write it:
 * a cycle, a `bigint` (JSON has none), a getter or Proxy trap that throws, or nesting deeper
 * than `maxDepth` arrays and objects (the own-data snapshot's limit, so no reader recursing
 * over the value can run out of stack). What `JSON.stringify` leaves out or writes as `null`
 * (functions, symbols, `undefined`, `NaN`) is no problem; a class instance with a `toJSON`
 * method (`Date`, `URL`, `Buffer`: the method is trusted) and a typed array are taken as leaves
 * (a `BigInt64Array` and a boxed bigint are bigints). Objects shared without a cycle are fine.
 * Linear in the number of objects and properties: a quick tree walk (no set of objects kept)
 * decides the common case, and an exact walk that visits each object once finds the path of a
 * problem. Never throws. Call it while `Object.prototype` is clean (`objectPrototypeIsClean`):
 * the quick walk reads plain objects' keys with `for...in`.
 *
 * @param value - Any value.
 * @param root - The root's name in the error path (e.g. `messages`).
 * @param maxDepth - How many arrays and objects may nest; default `MAX_DATA_DEPTH`.
 * @returns The problem, as the own-data snapshot words it, or `undefined`.
 */
export function serializationError(value: unknown, root: string, maxDepth = MAX_DATA_DEPTH): OwnDataError | undefined {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'bigint' ? exactWalk(value, root, maxDepth) : undefined;
  }
  try {
    quickWalk(value, 1, maxDepth, { objects: QUICK_WALK_OBJECTS, copy: false });
    return undefined;
  } catch {
    return exactWalk(value, root, maxDepth);
  }
}

/**
 * A quick walk's state: how many objects it may still visit (`objects`), and whether it builds a
 * frozen copy as it goes (`copy`: the sendable snapshot of a transcript check) or only reads.
 */
export interface QuickWalk {
  objects: number;
  readonly copy: boolean;
}

/** The copy of every empty plain object and of every empty array: one frozen value each. */
const EMPTY_OBJECT: object = Object.freeze({});
const EMPTY_LIST: object = Object.freeze([]);

/**
 * The quick walk, the one hot loop of a transcript check: a tree walk of `current` (at `depth`)
 * that keeps no set of objects and spends one of `walk.objects` per object it visits. Reading
 * only, it allocates nothing and returns `current`. Under `walk.copy` it returns a frozen copy
 * built in the same pass: arrays and plain objects copied and frozen all the way down (every
 * empty one is one shared frozen value), other objects (a `Date`, a typed array, a class
 * instance) kept as they are and only read; so the data checked is the data kept. It throws
 * `HAND_OVER` on anything but a clean pass (a bigint, too deep: a cycle ends there too, too many
 * objects, or a throw while reading), for the exact walk to decide: it decides nothing itself,
 * the rule stays the exact walk's. Primitives are tested inline (a string first: the most
 * common), and plain objects are walked with `for...in`, which reads their own enumerable keys
 * (`Object.prototype` has none: the caller checked that it is clean) without allocating a key
 * list. A plain function, not a closure per call: V8 optimizes it once for every call. Exported
 * for a walk that reads a known shape's top levels itself (the transcript check's message pass):
 * any throw means "not decided here", and the caller asks {@link serializationError}.
 */
export function quickWalk(current: object, depth: number, maxDepth: number, walk: QuickWalk): object {
  if (depth > maxDepth || --walk.objects < 0) throw HAND_OVER;
  const copy = walk.copy;
  if (Array.isArray(current)) {
    const length = current.length;
    if (copy && length === 0) return EMPTY_LIST;
    const list: unknown[] = copy ? current.slice() : current;
    for (let index = 0; index < length; index++) {
      const item: unknown = list[index];
      if (typeof item === 'string') continue;
      if (typeof item === 'object') {
        if (item === null) continue;
        const kept = quickWalk(item, depth + 1, maxDepth, walk);
        if (copy) list[index] = kept;
      } else if (typeof item === 'bigint') throw HAND_OVER;
    }
    return copy ? Object.freeze(list) : current;
  }
  if (!isPlainQuick(current)) return quickOther(current, depth, maxDepth, walk);
  let record: Record<string, unknown> | undefined;
  for (const key in current) {
    let item: unknown = (current as Record<string, unknown>)[key];
    if (typeof item === 'object') {
      if (item !== null) item = quickWalk(item, depth + 1, maxDepth, walk);
    } else if (typeof item === 'bigint' || item === Object) throw HAND_OVER;
    if (copy) record = copyField(record, key, item);
  }
  return copy ? frozenRecord(record) : current;
}

/**
 * `quickWalk` of an object that is not plain (its prototype is not `isPlainPrototype`'s): kept
 * out of the hot function. Only read, never copied: what `JSON.stringify` writes of it is read
 * from it when it is sent.
 */
function quickOther(current: object, depth: number, maxDepth: number, walk: QuickWalk): object {
  const kind = otherObject(current);
  if (kind === 'bigint') throw HAND_OVER;
  if (kind === 'leaf') return current;
  const reading: QuickWalk = walk.copy ? { objects: walk.objects, copy: false } : walk;
  for (const key of Object.keys(current)) {
    const item: unknown = (current as Record<string, unknown>)[key];
    if (typeof item === 'object') {
      if (item !== null) quickWalk(item, depth + 1, maxDepth, reading);
    } else if (typeof item === 'bigint') throw HAND_OVER;
  }
  walk.objects = reading.objects;
  return current;
}

/**
 * Sets field `key` of a copy being built (made on the first field), as a field of its own: an
 * own `__proto__` field (`JSON.parse` makes one) is a field of the copy too, not its prototype.
 * Internal, for the copying walks.
 */
export function copyField(
  record: Record<string, unknown> | undefined,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const into = record ?? {};
  if (key === '__proto__')
    Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  else into[key] = value;
  return into;
}

/** A copy built with `copyField`, frozen (no field: the one frozen empty object). Internal. */
export function frozenRecord(record: Record<string, unknown> | undefined): object {
  return record === undefined ? EMPTY_OBJECT : Object.freeze(record);
}

/** A copied list, frozen (an empty one: the one frozen empty array). Internal. */
export function frozenList(list: unknown[]): object {
  return list.length === 0 ? EMPTY_LIST : Object.freeze(list);
}

/** The height (in nested containers) of each object walked; `OPEN` while it is being walked. */
const OPEN = -1;

/** The exact walk: each object once (its height kept), the path of the first problem. */
function exactWalk(value: unknown, root: string, maxDepth: number): OwnDataError | undefined {
  const path: PathSegment[] = [];
  const heights = new Map<object, number>();
  const walk = (current: unknown, depth: number): number => {
    if (typeof current !== 'object') {
      if (typeof current === 'bigint') throw notDataAt(path, current);
      return 0;
    }
    if (current === null) return 0;
    const known = heights.get(current);
    if (known === OPEN) throw cycleAt(path);
    if (known !== undefined) {
      if (depth + known - 1 > maxDepth) throw tooDeepAt(path, maxDepth);
      return known;
    }
    if (depth > maxDepth) throw tooDeepAt(path, maxDepth);
    const kind = Array.isArray(current) || isPlain(current) ? 'walk' : otherObject(current);
    if (kind === 'bigint') throw notDataAt(path, current);
    if (kind === 'leaf') {
      heights.set(current, 1);
      return 1;
    }
    heights.set(current, OPEN);
    let below = 0;
    // The segment is pushed before the read, so a getter that throws is named by its own path.
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        path.push(index);
        below = Math.max(below, walk(current[index], depth + 1));
        path.pop();
      }
    } else {
      for (const key of Object.keys(current)) {
        path.push(key);
        below = Math.max(below, walk((current as Record<string, unknown>)[key], depth + 1));
        path.pop();
      }
    }
    heights.set(current, below + 1);
    return below + 1;
  };
  try {
    walk(value, 1);
    return undefined;
  } catch (thrown) {
    return dataErrorOf(thrown, path, root);
  }
}
