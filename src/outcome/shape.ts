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
import { isCaseTwin } from './keys.ts';

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
export type Shape =
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
