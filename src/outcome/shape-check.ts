/**
 * The check of a delivered value against a compiled deliverable: the walk that reads the value
 * under every accepted key spelling, returns it in the contract's spelling, and records the
 * aliases used and the first mismatches.
 *
 * @module
 */
import { formatPath, type PathSegment } from '../internal/path.ts';
import { type KeyEntry, type KeySource, isCaseTwin, keyEntries, lookupKey, shapeOf } from './keys.ts';
import type { CompiledDeliverable, Shape } from './shape.ts';

/**
 * One way a delivered value (or a call) does not meet its contract.
 *
 * - `shape`: the value at `path` is not the kind the contract declares (`expected object, got array`).
 * - `missing_key`: a required key is absent under every accepted spelling.
 * - `conflicting_keys`: a key is given under several spellings with different values.
 * - `schema`: the deliverable schema refused the (canonicalized) value.
 * - `not_an_outcome`: the delegated call returned something that is not an `Outcome`.
 * - `unknown_method`: the call named a method that is neither canonical nor an alias.
 * - `missing_input`, `empty_input`: a required input is absent, or `null`, `undefined`, a blank
 *   string or an empty array, `Map` or `Set`.
 * - `unreadable`: a getter or Proxy trap threw while the boundary read the returned value or
 *   the call's request.
 *
 * @example
 * ```ts
 * import type { Mismatch } from 'turngate/outcome';
 * const missing: Mismatch = { path: 'body', rule: 'missing_key', message: 'missing required key "body" (keys present: Body)' };
 * ```
 */
export interface Mismatch {
  /** Where: the place in the delivered value (`items[2].link`, `''` for the root), the input name, or `method`. */
  readonly path: string;
  /** Which rule was broken. */
  readonly rule:
    | 'shape'
    | 'missing_key'
    | 'conflicting_keys'
    | 'schema'
    | 'not_an_outcome'
    | 'unknown_method'
    | 'missing_input'
    | 'empty_input'
    | 'unreadable';
  /** What was expected and what was found. */
  readonly message: string;
}

/**
 * A contract key satisfied by another spelling than the contract's own string key.
 *
 * @example
 * ```ts
 * import type { KeyAlias } from 'turngate/outcome';
 * const alias: KeyAlias = { kind: 'deliverable_key', path: 'statusCode', key: 'statusCode', source: 'string_key', spelling: 'status_code' };
 * ```
 */
export interface KeyAlias {
  /** Whether the key is in the delivered value or in the call's input. */
  readonly kind: 'deliverable_key' | 'input_key';
  /** The place of the key in the canonical value (`items[0].link`), or the input name. */
  readonly path: string;
  /** The contract's spelling. */
  readonly key: string;
  /** Where the satisfying key was. */
  readonly source: KeySource;
  /** The satisfying key's name: the contract's spelling, or its case twin. */
  readonly spelling: string;
}

/** Where the first structural mismatch is, described as ADR 0014's violation fields. */
export interface MismatchFocus {
  readonly path: string;
  readonly expectedShape: string;
  readonly actualShape: string;
  readonly expectedKeys: readonly string[];
  readonly actualKeys: readonly string[];
}

/** What checking a value against a shape found. */
export interface ShapeCheck {
  /** The value in the contract's spelling (the same reference when nothing needed renaming). */
  readonly value: unknown;
  readonly aliases: readonly KeyAlias[];
  readonly mismatch: readonly Mismatch[];
  /** The first structural mismatch's location, when there is one. */
  readonly focus: MismatchFocus | undefined;
}

/** The keys of an object or `Map` as `actualKeys` shows them; none for anything else (an array's indices are not keys). */
export function keysOf(value: unknown): string[] {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Set)
    ? keyEntries(value).map((entry) => entry.display)
    : [];
}

function requiredOf(shape: Shape | undefined): string[] {
  return shape?.kind === 'object' ? shape.keys.filter((key) => key.required).map((key) => key.name) : [];
}

/** The root description of a value for a violation: used when the mismatch is not structural. */
export function rootFocus(deliverable: CompiledDeliverable, value: unknown): MismatchFocus {
  return {
    path: '',
    expectedShape: deliverable.description.type,
    actualShape: shapeOf(value),
    expectedKeys: requiredOf(deliverable.shape),
    actualKeys: keysOf(value),
  };
}

/** What the direct path returns when the value needs the general walk. */
const INDIRECT: unique symbol = Symbol('indirect');

class Walk {
  readonly aliases: KeyAlias[] = [];
  readonly mismatch: Mismatch[] = [];
  focus: MismatchFocus | undefined;

  constructor(private readonly kind: KeyAlias['kind']) {}

  miss(entry: Mismatch, focus: MismatchFocus): void {
    this.mismatch.push(entry);
    this.focus ??= focus;
  }

  value(shape: Shape | undefined, value: unknown, path: readonly PathSegment[]): unknown {
    if (shape === undefined || shape.kind === 'opaque') return value;
    if (shape.nulls.nullPasses && (value === null || value === undefined)) return value;
    return shape.kind === 'array' ? this.array(shape, value, path) : this.object(shape, value, path);
  }

  private shapeMismatch(shape: Shape, value: unknown, path: readonly PathSegment[]): void {
    const expected = shape.kind === 'object' ? 'object' : 'array';
    const actual = shapeOf(value);
    const at = formatPath(path);
    const input = this.kind === 'input_key';
    this.miss(
      input
        ? {
            path: at,
            rule: 'missing_input',
            message: `expected an object of inputs (${requiredOf(shape).join(', ')}), got ${actual}`,
          }
        : { path: at, rule: 'shape', message: `expected ${expected}, got ${actual}` },
      {
        path: at,
        expectedShape: expected,
        actualShape: actual,
        expectedKeys: requiredOf(shape),
        actualKeys: keysOf(value),
      },
    );
  }

  private array(shape: Extract<Shape, { kind: 'array' }>, value: unknown, path: readonly PathSegment[]): unknown {
    if (!Array.isArray(value)) {
      this.shapeMismatch(shape, value, path);
      return value;
    }
    if (shape.items === undefined) return value;
    let changed = false;
    const items: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const canonical = this.value(shape.items, item, [...path, i]);
      changed ||= canonical !== item;
      items.push(canonical);
    }
    return changed ? items : value;
  }

  private objectFocus(
    shape: Shape,
    value: object,
    entries: readonly KeyEntry[],
    path: readonly PathSegment[],
  ): MismatchFocus {
    return {
      path: formatPath(path),
      expectedShape: 'object',
      actualShape: shapeOf(value),
      expectedKeys: requiredOf(shape),
      actualKeys: entries.map((entry) => entry.display),
    };
  }

  /**
   * The common case without building key entries: a plain object (not a `Map`, no symbol keys)
   * in which every contract key is spelled as the contract spells it and no other key is a case
   * twin of one. Anything else is `INDIRECT`, decided before anything is recorded, and takes the
   * general walk.
   */
  private directObject(
    shape: Extract<Shape, { kind: 'object' }>,
    value: object,
    path: readonly PathSegment[],
  ): unknown {
    if (value instanceof Map || Object.getOwnPropertySymbols(value).length > 0) return INDIRECT;
    const names = Object.keys(value);
    for (const key of shape.keys) for (const name of names) if (isCaseTwin(name, key.name)) return INDIRECT;
    const record = value as Record<string, unknown>;
    // A key counts as the general walk counts it: own, enumerable, and not undefined where that means absent.
    const present = (name: string) =>
      Object.prototype.propertyIsEnumerable.call(value, name) &&
      !(shape.nulls.undefinedIsMissing && record[name] === undefined);
    for (const key of shape.keys) if (key.required && !present(key.name)) return INDIRECT;
    let copy: Record<string, unknown> | undefined;
    for (const key of shape.keys) {
      if (key.shape === undefined || key.shape.kind === 'opaque' || !present(key.name)) continue;
      const given = record[key.name];
      const canonical = this.value(key.shape, given, [...path, key.name]);
      if (canonical === given) continue;
      copy ??= Object.fromEntries(names.map((name) => [name, record[name]]));
      Object.defineProperty(copy, key.name, { value: canonical, enumerable: true, writable: true, configurable: true });
    }
    return copy ?? value;
  }

  /** Records a required key (or input) the object lacks, naming the keys it has. */
  private missingKey(
    shape: Extract<Shape, { kind: 'object' }>,
    value: object,
    entries: readonly KeyEntry[],
    path: readonly PathSegment[],
    name: string,
  ): void {
    const at = formatPath([...path, name]);
    const present = entries.map((entry) => entry.display).join(', ') || 'none';
    this.miss(
      this.kind === 'input_key'
        ? {
            path: at,
            rule: 'missing_input',
            message: `required input ${JSON.stringify(name)} is missing (inputs present: ${present})`,
          }
        : {
            path: at,
            rule: 'missing_key',
            message: `missing required key ${JSON.stringify(name)} (keys present: ${present})`,
          },
      this.objectFocus(shape, value, entries, path),
    );
  }

  /** Records a key given several ways (spellings) with different values. */
  private conflictingKeys(
    shape: Extract<Shape, { kind: 'object' }>,
    value: object,
    entries: readonly KeyEntry[],
    path: readonly PathSegment[],
    name: string,
    given: readonly KeyEntry[],
  ): void {
    this.miss(
      {
        path: formatPath([...path, name]),
        rule: 'conflicting_keys',
        message: `key ${JSON.stringify(name)} is given ${given.length} ways with different values: ${given.map((entry) => entry.display).join(', ')}`,
      },
      this.objectFocus(shape, value, entries, path),
    );
  }

  private object(shape: Extract<Shape, { kind: 'object' }>, value: unknown, path: readonly PathSegment[]): unknown {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Set) {
      this.shapeMismatch(shape, value, path);
      return value;
    }
    const direct = this.directObject(shape, value, path);
    if (direct !== INDIRECT) return direct;
    const entries = keyEntries(value);
    const spelled: (readonly KeyEntry[])[] = [];
    const found: [string, unknown][] = [];
    let changed = value instanceof Map;
    let broken = false;
    // Paths, messages and the copy are built only when something is renamed or wrong.
    for (const key of shape.keys) {
      const lookup = lookupKey(entries, key.name, shape.nulls.undefinedIsMissing);
      spelled.push(lookup.candidates);
      if (lookup.status === 'missing') {
        if (key.required) {
          broken = true;
          this.missingKey(shape, value, entries, path, key.name);
        }
        continue;
      }
      if (lookup.status === 'conflict') {
        broken = true;
        this.conflictingKeys(shape, value, entries, path, key.name, lookup.entries);
        continue;
      }
      if (lookup.alias) {
        changed = true;
        this.aliases.push({
          kind: this.kind,
          path: formatPath([...path, key.name]),
          key: key.name,
          source: lookup.entry.source,
          spelling: lookup.entry.name as string,
        });
      }
      const given = lookup.entry.value;
      const canonical =
        key.shape === undefined || key.shape.kind === 'opaque'
          ? given
          : this.value(key.shape, given, [...path, key.name]);
      changed ||= canonical !== given;
      found.push([key.name, canonical]);
    }
    if (broken || !changed) return value;
    // Loops rather than flat()/map(): this runs once per renamed object, and they cost microseconds.
    const consumed = new Set<KeyEntry>();
    for (const candidates of spelled) for (const entry of candidates) consumed.add(entry);
    const names = new Set<string>();
    for (const [name] of found) names.add(name);
    for (const entry of entries) {
      if (consumed.has(entry) || entry.name === undefined || names.has(entry.name)) continue;
      names.add(entry.name);
      found.push([entry.name, entry.value]);
    }
    return Object.fromEntries(found);
  }
}

/**
 * Checks a value against a compiled shape and returns it in the contract's spelling.
 *
 * @param deliverable - From {@link compileDeliverable}.
 * @param value - The delivered value.
 * @param kind - Whether the keys are a deliverable's or an input's (for the alias records).
 */
export function checkShape(
  deliverable: Pick<CompiledDeliverable, 'shape'>,
  value: unknown,
  kind: KeyAlias['kind'],
): ShapeCheck {
  const walk = new Walk(kind);
  const canonical = walk.value(deliverable.shape, value, []);
  return { value: canonical, aliases: walk.aliases, mismatch: walk.mismatch, focus: walk.focus };
}
