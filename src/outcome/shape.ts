/**
 * Deliverables: the contract a delegated value must meet, as a valibot (or any Standard Schema
 * v1) schema or as ADR 0014's light shape form (an object with required keys, an array), and the
 * structural check that finds each contract key by tolerant key equivalence and hands on the
 * value in the contract's spelling.
 *
 * Source: ADR 0014, Decision §1-2; Rollout Phase 1 (object type with required keys, array type).
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import * as v from 'valibot';
import { issuePath } from '../evidence/index.ts';
import { formatPath, type PathSegment } from '../internal/path.ts';
import { type KeyEntry, type KeySource, isCaseTwin, keyEntries, lookupKey, shapeOf } from './keys.ts';

/**
 * The light shape form of an object deliverable: the keys that must be present, and optionally
 * the shapes of some keys' values. A key listed only under `properties` is optional.
 *
 * @example
 * ```ts
 * import type { ObjectShape } from 'turngate/outcome';
 * const page: ObjectShape = { type: 'object', required: ['body', 'statusCode'] };
 * ```
 */
export interface ObjectShape {
  /** The kind: a non-array object (a `Map` satisfies it through its entries). */
  readonly type: 'object';
  /** The keys that must be present, in the contract's spelling. */
  readonly required?: readonly string[];
  /** Shapes of key values, checked when the key is present. */
  readonly properties?: { readonly [key: string]: ShapeContract };
}

/**
 * The light shape form of an array deliverable, optionally with the shape of every item.
 *
 * @example
 * ```ts
 * import type { ArrayShape } from 'turngate/outcome';
 * const items: ArrayShape = { type: 'array', items: { type: 'object', required: ['title', 'link'] } };
 * ```
 */
export interface ArrayShape {
  /** The kind: an array. */
  readonly type: 'array';
  /** The shape every item must have. */
  readonly items?: ShapeContract;
}

/**
 * ADR 0014's light deliverable form: {@link ObjectShape} or {@link ArrayShape}.
 *
 * @example
 * ```ts
 * import type { ShapeContract } from 'turngate/outcome';
 * const feed: ShapeContract = { type: 'array', items: { type: 'object', required: ['title', 'link'] } };
 * ```
 */
export type ShapeContract = ObjectShape | ArrayShape;

/**
 * What a contract may declare as its deliverable: a Standard Schema v1 schema (valibot's, with
 * its output type) or the light {@link ShapeContract} form.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import type { Deliverable } from 'turngate/outcome';
 * const asSchema: Deliverable = v.object({ body: v.string(), statusCode: v.number() });
 * const asShape: Deliverable = { type: 'object', required: ['body', 'statusCode'] };
 * ```
 */
export type Deliverable = StandardSchemaV1 | ShapeContract;

type RequiredKeys<TShape> = TShape extends { readonly required: readonly (infer TKey extends string)[] } ? TKey : never;
type PropertyShapes<TShape> = TShape extends { readonly properties: infer TProperties }
  ? TProperties
  : Record<never, never>;
type OptionalKeys<TShape> = Exclude<keyof PropertyShapes<TShape> & string, RequiredKeys<TShape>>;
type PropertyValue<TShape, TKey extends string> = TKey extends keyof PropertyShapes<TShape>
  ? ShapeValue<PropertyShapes<TShape>[TKey]>
  : unknown;
type ObjectValue<TShape> = ([RequiredKeys<TShape>] extends [never]
  ? unknown
  : { readonly [TKey in RequiredKeys<TShape>]: PropertyValue<TShape, TKey> }) &
  ([OptionalKeys<TShape>] extends [never]
    ? unknown
    : { readonly [TKey in OptionalKeys<TShape>]?: PropertyValue<TShape, TKey> }) & { readonly [key: string]: unknown };

/**
 * The type a value meeting light shape `TShape` has: an object with the required keys (in the
 * contract's spelling) and any others, or a readonly array of the items' type.
 *
 * @example
 * ```ts
 * import type { ShapeValue } from 'turngate/outcome';
 * type Page = ShapeValue<{ type: 'object'; required: ['body'] }>;
 * const page: Page = { body: '<rss/>', etag: 'W/"1"' };
 * ```
 */
export type ShapeValue<TShape> = TShape extends { readonly type: 'array' }
  ? readonly (TShape extends { readonly items: infer TItems } ? ShapeValue<TItems> : unknown)[]
  : TShape extends { readonly type: 'object' }
    ? ObjectValue<TShape>
    : unknown;

/**
 * The type of the value a deliverable hands on: a schema's output type, or {@link ShapeValue}
 * of a light shape.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import type { DeliverableValue } from 'turngate/outcome';
 * const schema = v.object({ body: v.string() });
 * const page: DeliverableValue<typeof schema> = { body: '<rss/>' };
 * ```
 */
export type DeliverableValue<TDeliverable> = TDeliverable extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<TDeliverable>
  : ShapeValue<TDeliverable>;

/**
 * A deliverable described as plain JSON, for prompts (`renderKnownTools`) and for the contract
 * digest: `type` (`object`, `array`, a valibot schema type such as `string` or `union`, or
 * `schema` for another Standard Schema library), an object's `required` and `optional` keys, the
 * nested `properties` that are objects or arrays, an array's `items`, a foreign schema's `vendor`.
 *
 * @example
 * ```ts
 * import { describeDeliverable, type DeliverableDescription } from 'turngate/outcome';
 * const described: DeliverableDescription = describeDeliverable({ type: 'object', required: ['body'] });
 * described; //=> { type: 'object', required: ['body'] }
 * ```
 */
export interface DeliverableDescription {
  readonly type: string;
  readonly required?: readonly string[];
  readonly optional?: readonly string[];
  readonly properties?: { readonly [key: string]: DeliverableDescription };
  readonly items?: DeliverableDescription;
  readonly vendor?: string;
}

/** A contract key of an object shape. */
interface KeySpec {
  readonly name: string;
  readonly required: boolean;
  readonly shape: Shape | undefined;
}

/**
 * How a shape treats `null` and `undefined`. A light shape refuses a `null` where it expects an
 * object or array and counts a key whose value is `undefined` as absent (JSON has no
 * `undefined`). A shape read from a schema leaves both to the schema, which has the last word. A
 * call's input counts an `undefined` input as present, so the precondition check can name it.
 */
interface Nulls {
  readonly nullPasses: boolean;
  readonly undefinedIsMissing: boolean;
}
const LIGHT: Nulls = { nullPasses: false, undefinedIsMissing: true };
const SCHEMA: Nulls = { nullPasses: true, undefinedIsMissing: false };
const INPUT: Nulls = { nullPasses: false, undefinedIsMissing: false };

/** The structure the check walks. */
type Shape =
  | { readonly kind: 'object'; readonly keys: readonly KeySpec[]; readonly nulls: Nulls }
  | { readonly kind: 'array'; readonly items: Shape | undefined; readonly nulls: Nulls }
  | { readonly kind: 'opaque'; readonly type: string; readonly vendor?: string };

/** A deliverable ready to check: its structure, its description, and the schema that has the last word. */
export interface CompiledDeliverable {
  readonly shape: Shape;
  readonly description: DeliverableDescription;
  readonly schema: StandardSchemaV1 | undefined;
}

/** Whether a value is a Standard Schema v1 object (what `defineTools` accepts too). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  const standard: unknown = Reflect.get(value, '~standard');
  return standard !== null && typeof standard === 'object' && typeof Reflect.get(standard, 'validate') === 'function';
}

const ShapeContractSchema: v.GenericSchema<ShapeContract> = v.lazy(() =>
  v.variant('type', [
    v.strictObject({
      type: v.literal('object'),
      required: v.exactOptional(v.array(v.pipe(v.string(), v.nonEmpty('expected a non-empty key')))),
      properties: v.exactOptional(v.record(v.string(), ShapeContractSchema)),
    }),
    v.strictObject({ type: v.literal('array'), items: v.exactOptional(ShapeContractSchema) }),
  ]),
);

function checkedKeys(keys: KeySpec[], where: string): KeySpec[] {
  for (const [i, a] of keys.entries()) {
    for (const b of keys.slice(i + 1)) {
      if (a.name === b.name || isCaseTwin(a.name, b.name))
        throw new TypeError(
          `${where}: keys ${JSON.stringify(a.name)} and ${JSON.stringify(b.name)} would match the same delivered key; keep one spelling`,
        );
    }
  }
  return keys;
}

function fromShapeContract(shape: ShapeContract, where: string): Shape {
  if (shape.type === 'array')
    return {
      kind: 'array',
      items: shape.items === undefined ? undefined : fromShapeContract(shape.items, `${where}.items`),
      nulls: LIGHT,
    };
  const required = [...new Set(shape.required ?? [])];
  const properties = shape.properties ?? {};
  const names = [...required, ...Object.keys(properties).filter((name) => !required.includes(name))];
  const keys = names.map((name) => ({
    name,
    required: required.includes(name),
    shape: Object.hasOwn(properties, name)
      ? fromShapeContract(properties[name] as ShapeContract, `${where}.properties.${name}`)
      : undefined,
  }));
  return { kind: 'object', keys: checkedKeys(keys, where), nulls: LIGHT };
}

const VALIBOT_OBJECTS = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);
const VALIBOT_OPTIONAL = new Set(['optional', 'exact_optional', 'nullish']);
const VALIBOT_WRAPPERS = new Set([
  'optional',
  'exact_optional',
  'nullish',
  'undefinedable',
  'nullable',
  'non_optional',
  'non_nullable',
  'non_nullish',
]);

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? Reflect.get(value, key) : undefined;
}

/** Reads a valibot schema's structure through its public properties (`type`, `entries`, `item`, `wrapped`). */
function fromValibot(schema: unknown, where: string): Shape {
  const type = field(schema, 'type');
  if (typeof type !== 'string') return { kind: 'opaque', type: 'schema', vendor: 'valibot' };
  if (VALIBOT_WRAPPERS.has(type)) return fromValibot(field(schema, 'wrapped'), where);
  const entries = field(schema, 'entries');
  if (VALIBOT_OBJECTS.has(type) && entries !== null && typeof entries === 'object') {
    const keys = Object.keys(entries).map((name) => {
      const entry = Reflect.get(entries, name);
      const entryType = field(entry, 'type');
      return {
        name,
        required: !(typeof entryType === 'string' && VALIBOT_OPTIONAL.has(entryType)),
        shape: fromValibot(entry, `${where}.${name}`),
      };
    });
    return { kind: 'object', keys: checkedKeys(keys, where), nulls: SCHEMA };
  }
  if (type === 'array')
    return { kind: 'array', items: fromValibot(field(schema, 'item'), `${where}.item`), nulls: SCHEMA };
  return { kind: 'opaque', type };
}

function describe(shape: Shape): DeliverableDescription {
  if (shape.kind === 'opaque')
    return shape.vendor === undefined ? { type: shape.type } : { type: shape.type, vendor: shape.vendor };
  if (shape.kind === 'array')
    return shape.items === undefined ? { type: 'array' } : { type: 'array', items: describe(shape.items) };
  const required = shape.keys.filter((key) => key.required).map((key) => key.name);
  const optional = shape.keys.filter((key) => !key.required).map((key) => key.name);
  const nested = shape.keys.filter((key) => key.shape !== undefined && key.shape.kind !== 'opaque');
  return {
    type: 'object',
    required,
    ...(optional.length > 0 ? { optional } : {}),
    ...(nested.length > 0
      ? { properties: Object.fromEntries(nested.map((key) => [key.name, describe(key.shape as Shape)])) }
      : {}),
  };
}

/**
 * Compiles a deliverable once, when its contract is defined: checks the light form's fields,
 * reads a valibot schema's object and array structure, and refuses two contract keys that would
 * match the same delivered key (`result_digest` beside `resultDigest`).
 *
 * @throws TypeError naming the field, for a deliverable that is neither form or is malformed.
 */
export function compileDeliverable(deliverable: unknown, where: string): CompiledDeliverable {
  if (isStandardSchema(deliverable)) {
    const vendor = deliverable['~standard'].vendor;
    const shape: Shape =
      vendor === 'valibot' && field(deliverable, 'kind') === 'schema'
        ? fromValibot(deliverable, where)
        : { kind: 'opaque', type: 'schema', vendor };
    return { shape, description: describe(shape), schema: deliverable };
  }
  const parsed = v.safeParse(ShapeContractSchema, deliverable);
  if (!parsed.success) {
    const [issue] = parsed.issues;
    const at = issuePath(issue);
    throw new TypeError(
      `${where}${at === '' ? '' : `.${at}`}: expected a Standard Schema (e.g. a valibot schema) or a shape { type: 'object', required?, properties? } | { type: 'array', items? }; ${issue.message}`,
    );
  }
  const shape = fromShapeContract(deliverable as ShapeContract, where);
  return { shape, description: describe(shape), schema: undefined };
}

/**
 * Describes a deliverable as plain JSON (what `renderKnownTools` prints and the contract digest
 * covers). A valibot schema is read through its public structure; a schema of another library
 * is `{ type: 'schema', vendor }`.
 *
 * @param deliverable - A schema or a light shape.
 * @returns Its description.
 * @throws TypeError for a value that is neither, naming the bad field.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { describeDeliverable } from 'turngate/outcome';
 * describeDeliverable(v.array(v.object({ title: v.string(), link: v.string(), guid: v.optional(v.string()) })));
 * //=> { type: 'array', items: { type: 'object', required: ['title', 'link'], optional: ['guid'] } }
 * ```
 */
export function describeDeliverable(deliverable: Deliverable): DeliverableDescription {
  return compileDeliverable(deliverable, 'deliverable').description;
}

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
          const at = formatPath([...path, key.name]);
          const present = entries.map((entry) => entry.display).join(', ') || 'none';
          this.miss(
            this.kind === 'input_key'
              ? {
                  path: at,
                  rule: 'missing_input',
                  message: `required input ${JSON.stringify(key.name)} is missing (inputs present: ${present})`,
                }
              : {
                  path: at,
                  rule: 'missing_key',
                  message: `missing required key ${JSON.stringify(key.name)} (keys present: ${present})`,
                },
            this.objectFocus(shape, value, entries, path),
          );
        }
        continue;
      }
      if (lookup.status === 'conflict') {
        broken = true;
        this.miss(
          {
            path: formatPath([...path, key.name]),
            rule: 'conflicting_keys',
            message: `key ${JSON.stringify(key.name)} is given ${lookup.entries.length} ways with different values: ${lookup.entries.map((entry) => entry.display).join(', ')}`,
          },
          this.objectFocus(shape, value, entries, path),
        );
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

/** The shape of a call's input with required names: an object whose keys are checked tolerantly. */
export function inputShape(requiredInputs: readonly string[], where: string): Pick<CompiledDeliverable, 'shape'> {
  return {
    shape: {
      kind: 'object',
      keys: checkedKeys(
        requiredInputs.map((name) => ({ name, required: true, shape: undefined })),
        where,
      ),
      nulls: INPUT,
    },
  };
}
