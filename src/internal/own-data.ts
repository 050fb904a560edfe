/**
 * The boundary snapshot: a copy of a value built in code that holds only its own data, so no
 * check downstream can be fooled by the prototype chain (a polluted `Object.prototype.toolUse`),
 * a getter or Proxy trap that throws, a cycle, or nesting too deep for the recursive checks.
 * Internal; every boundary that validates a value built by user code (the join check, the
 * typestate transitions and the mutation gate, chat `send()`, the transcript check) takes it
 * first.
 *
 * @module
 */
import { bareRecord } from './detach.ts';
import { describeThrown } from './display.ts';
import { formatPath, type PathSegment } from './path.ts';
import { firstFailure, type ResultOf } from './result.ts';

/**
 * How many arrays and objects may nest inside one another: the limit of the lossless JSON
 * parser (premath reads with serde_json, whose recursion limit refuses a 128th level), so a
 * value built in code and the same value sent as JSON text are refused alike.
 */
export const MAX_DATA_DEPTH = 127;

/** Why a value cannot cross the boundary. */
export type OwnDataProblem = 'cycle' | 'too_deep' | 'read_failed' | 'not_data';

/** Where and why a snapshot failed. */
export interface OwnDataError {
  /** The place, as `formatPath` writes it (under the caller's root name). */
  readonly path: string;
  readonly problem: OwnDataProblem;
  /** One sentence, for an error message. */
  readonly detail: string;
}

/** The result of {@link snapshotOwnData}: the copy, or `failures` holding one {@link OwnDataError}. */
export type OwnDataResult = ResultOf<unknown, OwnDataError>;

/** `path: detail` of a failed snapshot, for a message. */
export function snapshotProblem(failed: { readonly ok: false; readonly failures: readonly OwnDataError[] }): string {
  const error = firstFailure(failed);
  return `${error.path}: ${error.detail}`;
}

/** Options of {@link snapshotOwnData}. */
export interface OwnDataOptions {
  /** The root's name in error paths (e.g. `evidence`, `message`). */
  readonly root?: string;
  /** Values kept as they are, as leaves (e.g. the lossless parser's `JsonNumber`). */
  readonly isLeaf?: (value: object) => boolean;
  /** How many containers may nest; default {@link MAX_DATA_DEPTH}. */
  readonly maxDepth?: number;
  /** Keep `bigint` values (integers built in code) instead of refusing them. */
  readonly bigint?: boolean;
  /**
   * Told of each object copied, after its own properties were: carries what a side table knows
   * about the original over to the copy (e.g. the parser's repeated keys). Must not throw.
   */
  readonly onObjectCopied?: (original: object, copy: object) => void;
}

/** A walk's stop: where and why (thrown inside a walk, turned into an {@link OwnDataError} at its end). Internal. */
export class DataFailure {
  constructor(
    readonly segments: readonly PathSegment[],
    readonly problem: OwnDataProblem,
    readonly detail: string,
  ) {}
}

/** The cycle at `path` (the walks' one wording). */
export function cycleAt(path: readonly PathSegment[]): DataFailure {
  return new DataFailure([...path], 'cycle', 'the value contains itself (a cycle)');
}

/** Nesting past `maxDepth` at `path`. */
export function tooDeepAt(path: readonly PathSegment[], maxDepth: number): DataFailure {
  return new DataFailure([...path], 'too_deep', `nesting deeper than ${maxDepth} levels`);
}

/** A value that is no JSON data (`a bigint`, `a function`, ...) at `path`. */
export function notDataAt(path: readonly PathSegment[], value: unknown): DataFailure {
  return new DataFailure([...path], 'not_data', `${kindOf(value)} is not JSON data`);
}

/**
 * The {@link OwnDataError} of what a walk threw: its {@link DataFailure}, or, for anything else
 * (a getter, Proxy trap or prototype lookup threw), `read_failed` where the walk stood.
 */
export function dataErrorOf(thrown: unknown, path: readonly PathSegment[], root: string): OwnDataError {
  if (thrown instanceof DataFailure) {
    return { path: formatPath(thrown.segments, root), problem: thrown.problem, detail: thrown.detail };
  }
  return { path: formatPath(path, root), problem: 'read_failed', detail: `reading it threw ${describeThrown(thrown)}` };
}

function kindOf(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return 'a bigint';
  if (typeof value === 'symbol') return 'a symbol';
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object that is not plain data';
}

/** Whether an object with this prototype is a plain object (`Object.prototype` or `null`). */
export function isPlainPrototype(prototype: unknown): boolean {
  return prototype === null || prototype === Object.prototype;
}

/**
 * Copies `value` into plain data that holds only own enumerable string-keyed properties:
 * objects become null-prototype objects (an absent key reads as `undefined` whatever
 * `Object.prototype` holds), arrays become new arrays. Accepted: strings, booleans, `null`,
 * finite numbers, plain objects (prototype `Object.prototype` or `null`), arrays, and leaves
 * `options.isLeaf` names. An object property whose value is `undefined` is dropped, as
 * `JSON.stringify` drops it. Never throws: a getter or Proxy trap that throws, a cycle, nesting
 * past the limit, or any other value (functions, bigints unless `options.bigint`, symbols, `NaN`, `Date`, `Map`, class
 * instances, `undefined` in an array, array holes) is `{ ok: false, failures: [error] }` naming the path.
 *
 * @param value - Any value.
 * @param options - Root name, leaf test, depth limit, bigints, copy notice.
 */
export function snapshotOwnData(value: unknown, options: OwnDataOptions = {}): OwnDataResult {
  // Options are read as own properties only: a polluted Object.prototype must not set them.
  const option = <K extends keyof OwnDataOptions>(key: K): OwnDataOptions[K] | undefined =>
    Object.hasOwn(options, key) ? options[key] : undefined;
  const maxDepth = option('maxDepth') ?? MAX_DATA_DEPTH;
  const isLeaf = option('isLeaf');
  const keepBigInt = option('bigint') === true;
  const onObjectCopied = option('onObjectCopied');
  const rootName = option('root') ?? '';
  const path: PathSegment[] = [];
  const ancestors = new Set<object>();

  const copy = (current: unknown, depth: number): unknown => {
    switch (typeof current) {
      case 'string':
      case 'boolean':
        return current;
      case 'number':
        if (Number.isFinite(current)) return current;
        throw new DataFailure([...path], 'not_data', `${kindOf(current)} is not a JSON number`);
      case 'object':
        break;
      case 'bigint':
        if (keepBigInt) return current;
        throw notDataAt(path, current);
      default:
        throw notDataAt(path, current);
    }
    if (current === null) return null;
    if (isLeaf?.(current)) return current;
    if (depth > maxDepth) throw tooDeepAt(path, maxDepth);
    if (ancestors.has(current)) throw cycleAt(path);
    ancestors.add(current);
    try {
      if (Array.isArray(current)) {
        const length = current.length;
        const out: unknown[] = new Array(length);
        for (let index = 0; index < length; index++) {
          path.push(index);
          // A hole is not read through: Array.prototype may hold a value at that index.
          const item = Object.hasOwn(current, index) ? current[index] : undefined;
          if (item === undefined) {
            throw new DataFailure([...path], 'not_data', 'undefined (or a hole) in an array is not JSON data');
          }
          out[index] = copy(item, depth + 1);
          path.pop();
        }
        return out;
      }
      if (!isPlainPrototype(Object.getPrototypeOf(current))) {
        throw new DataFailure([...path], 'not_data', `${kindOf(current)} is not plain JSON data`);
      }
      const out = bareRecord();
      for (const key of Object.keys(current)) {
        path.push(key);
        const item = (current as Record<string, unknown>)[key];
        if (item !== undefined) out[key] = copy(item, depth + 1);
        path.pop();
      }
      onObjectCopied?.(current, out);
      return out;
    } finally {
      ancestors.delete(current);
    }
  };

  try {
    return { ok: true, value: copy(value, 1) };
  } catch (thrown) {
    return { ok: false, failures: [dataErrorOf(thrown, path, rootName)] };
  }
}
