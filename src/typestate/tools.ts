/**
 * Typed tools: one input schema and one output schema per tool (any Standard Schema v1 object,
 * valibot's among them), side-effecting tools marked, callers allow-listed. A registry is a
 * frozen copy of the definitions, so no definition changes under a minted state.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isBlank, sortUtf8 } from '../canonical/index.ts';
import { checkMethods } from './methods.ts';
import { isSchema } from './schema.ts';

/**
 * One tool: its schemas, whether it has side effects, who may call it, and its canonical methods
 * and their aliases. Extra fields (other metadata) are kept as they are, in the types and at run
 * time.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import type { ToolDefinition } from 'turngate';
 * const transfer: ToolDefinition = { input: v.object({ amount: v.number() }), output: v.object({ id: v.string() }), mutation: true, allowedCallers: ['orchestrator'] };
 * ```
 */
export interface ToolDefinition<
  TInput extends StandardSchemaV1 = StandardSchemaV1,
  TOutput extends StandardSchemaV1 = StandardSchemaV1,
> {
  /** The schema of the tool's input (the model's arguments). */
  readonly input: TInput;
  /** The schema of the tool's successful output. */
  readonly output: TOutput;
  /**
   * `true` (the literal) for a side-effecting tool: `settle` never runs it; it runs only through
   * the mutation gate (`admitMutation`, then `performMutationTool` or `settleMutations`).
   */
  readonly mutation?: boolean;
  /** Caller ids allowed to invoke it (e.g. `code_execution`); absent means any caller. */
  readonly allowedCallers?: readonly string[];
  /** A one-line description for the model. */
  readonly description?: string;
  /**
   * The canonical method names. When declared (non-empty), every call names one of them or an
   * alias (`RequestedToolCall.method`); `requestTools` refuses any other name, or none, as
   * `unknown_method`. Source: ADR 0014, Decision §3.
   */
  readonly methods?: readonly string[];
  /** Other names callers use, each mapped to one canonical method (`{ fetch: 'fetch_url' }`); a call through one is recorded. */
  readonly aliases?: { readonly [alias: string]: string };
}

/**
 * A map from tool name to its definition (the widest registry type).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import type { ToolDefinitions } from 'turngate';
 * const definitions: ToolDefinitions = { read_file: { input: v.object({ path: v.string() }), output: v.string() } };
 * ```
 */
export type ToolDefinitions = { readonly [name: string]: ToolDefinition };

/**
 * The constraint on a registry's definitions type `T`: every member a {@link ToolDefinition}.
 * Unlike {@link ToolDefinitions} it needs no index signature, so the instance type of a class
 * that extends `defineTools(...)` satisfies it.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolDefinitionsOf } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.string() } }) {}
 * const ok: Tools extends ToolDefinitionsOf<Tools> ? true : false = true;
 * ```
 */
export type ToolDefinitionsOf<T> = { readonly [K in keyof T]: ToolDefinition };

/**
 * The names of a registry's tools.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type ToolName } from 'turngate';
 * const tools = defineTools({ a: { input: v.any(), output: v.any() }, b: { input: v.any(), output: v.any() } });
 * const name: ToolName<typeof tools.definitions> = 'b';
 * ```
 */
export type ToolName<TTools> = keyof TTools & string;

/**
 * The input type of tool `TName`: what its input schema accepts (what a caller or the model passes).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type ToolInput } from 'turngate';
 * const tools = defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.string() } });
 * const input: ToolInput<typeof tools.definitions, 'read_file'> = { path: 'a.md' };
 * ```
 */
export type ToolInput<
  TTools extends ToolDefinitionsOf<TTools>,
  TName extends ToolName<TTools>,
> = StandardSchemaV1.InferInput<TTools[TName]['input']>;

/**
 * The parsed input of tool `TName`: what its input schema returns (what a tool's handler
 * receives; the same as {@link ToolInput} unless the schema transforms).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ParsedToolInput } from 'turngate/types';
 * const tools = defineTools({ wait: { input: v.object({ ms: v.pipe(v.string(), v.transform(Number)) }), output: v.null() } });
 * const parsed: ParsedToolInput<typeof tools.definitions, 'wait'> = { ms: 250 };
 * ```
 */
export type ParsedToolInput<
  TTools extends ToolDefinitionsOf<TTools>,
  TName extends ToolName<TTools>,
> = StandardSchemaV1.InferOutput<TTools[TName]['input']>;

/**
 * The output type of tool `TName` (what its output schema returns).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type ToolOutput } from 'turngate';
 * const tools = defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } });
 * const output: ToolOutput<typeof tools.definitions, 'read_file'> = { text: '# hi' };
 * ```
 */
export type ToolOutput<
  TTools extends ToolDefinitionsOf<TTools>,
  TName extends ToolName<TTools>,
> = StandardSchemaV1.InferOutput<TTools[TName]['output']>;

/**
 * The names of the tools defined with `mutation: true`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type MutationToolName } from 'turngate';
 * const tools = defineTools({
 *   read_file: { input: v.object({ path: v.string() }), output: v.string() },
 *   update_issue: { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true },
 * });
 * const name: MutationToolName<typeof tools.definitions> = 'update_issue';
 * ```
 */
export type MutationToolName<TTools> = {
  [K in keyof TTools]: TTools[K] extends { readonly mutation: true } ? K : never;
}[keyof TTools] &
  string;

/**
 * The names of the tools `settle` runs: every tool not defined with `mutation: true`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type ReadToolName } from 'turngate';
 * const tools = defineTools({
 *   read_file: { input: v.object({ path: v.string() }), output: v.string() },
 *   update_issue: { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true },
 * });
 * const name: ReadToolName<typeof tools.definitions> = 'read_file';
 * ```
 */
export type ReadToolName<TTools> = Exclude<ToolName<TTools>, MutationToolName<TTools>>;

/**
 * The tool definitions a state, a builder, a registry (or a class extending one) or a
 * definitions object is typed by: the registry behind `JoinClosed<Tools>` is `Tools`;
 * `ToolDefinitions` for `any`; `never` for a type that is none of these.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type JoinClosed } from 'turngate';
 * import type { ToolsOf } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.string() } }) {}
 * declare const closed: JoinClosed<Tools>;
 * const same: ToolsOf<typeof closed> extends Tools ? true : false = true;
 * ```
 */
export type ToolsOf<T> = 0 extends 1 & T ? ToolDefinitions : Extract<ToolsIn<T>, ToolDefinitionsOf<ToolsIn<T>>>;

type ToolsIn<T> = T extends { readonly '~tools'?: infer TTools }
  ? TTools
  : T extends { readonly '~calls'?: { readonly tools: infer TTools } }
    ? TTools
    : T extends abstract new () => infer TTools
      ? TTools
      : T;

/**
 * The canonical methods of tool `TName`: the literal union of its `methods`, or `string` when it
 * declares none (any method name, or none, is accepted as it is).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolMethod } from 'turngate/types';
 * class Tools extends defineTools({
 *   web_fetcher: { input: v.object({ url: v.string() }), output: v.string(), methods: ['fetch_url', 'head_url'], aliases: { fetch: 'fetch_url' } },
 * }) {}
 * const method: ToolMethod<Tools, 'web_fetcher'> = 'head_url';
 * ```
 */
export type ToolMethod<TTools, TName extends keyof TTools> = TTools[TName] extends {
  readonly methods: readonly (infer TMethod extends string)[];
}
  ? [TMethod] extends [never]
    ? string
    : TMethod
  : string;

/**
 * The method aliases of tool `TName` (`never` when it declares none).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolMethodAlias } from 'turngate/types';
 * class Tools extends defineTools({
 *   web_fetcher: { input: v.object({ url: v.string() }), output: v.string(), methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } },
 * }) {}
 * const alias: ToolMethodAlias<Tools, 'web_fetcher'> = 'fetch';
 * ```
 */
export type ToolMethodAlias<TTools, TName extends keyof TTools> = TTools[TName] extends {
  readonly aliases: infer TAliases;
}
  ? keyof TAliases & string
  : never;

/**
 * What `defineTools` and `defineContracts` check an object of definitions against, beside its own
 * shape: every alias names one of the definition's canonical methods; one that does not shows
 * `'fetch_uri' & { 'an alias names one of the canonical methods': 'fetch_url' }`. Exported from
 * `turngate/types` so that declarations can name it; not written by hand.
 */
export type AliasTargets<TDefinition> = TDefinition extends {
  readonly methods: readonly (infer TMethod extends string)[];
  readonly aliases: infer TAliases;
}
  ? {
      readonly aliases: {
        readonly [TAlias in keyof TAliases]: TAliases[TAlias] extends TMethod
          ? TAliases[TAlias]
          : { readonly 'an alias names one of the canonical methods': TMethod };
      };
    }
  : unknown;

/**
 * A registry of typed tools, made by {@link defineTools}: a frozen copy of the definitions and
 * their names. It is also a class, so `class Tools extends defineTools({...}) {}` gives the
 * registry a name, and type errors and hovers print `JoinClosed<Tools>` instead of every
 * schema of every tool. Constructing it gives its definitions; nothing needs to.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §4.1 (`toolPolicy`, `allowedCallersDigest`), §4.2.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type ToolRegistry } from 'turngate';
 * const tools = defineTools({ ping: { input: v.object({}), output: v.literal('pong') } });
 * const registry: ToolRegistry<typeof tools.definitions> = tools;
 * ```
 */
export interface ToolRegistry<TTools extends ToolDefinitionsOf<TTools> = ToolDefinitions> {
  /** Gives the definitions (the registry is used as it is; this signature is what a class can extend). */
  new (): TTools;
  /** The definitions: a frozen copy of what `defineTools` was given. */
  readonly definitions: NoInfer<TTools>;
  /** The tool names, sorted by UTF-8 byte order. */
  readonly names: readonly NoInfer<ToolName<TTools>>[];
}

interface RegistryRecord {
  readonly definitions: ToolDefinitions;
  readonly names: readonly string[];
}

const registries = new WeakMap<object, RegistryRecord>();

function ownField(name: string, definition: object, key: string): unknown {
  let descriptor: PropertyDescriptor | undefined;
  try {
    descriptor = Object.getOwnPropertyDescriptor(definition, key);
  } catch (error) {
    throw new TypeError(`defineTools: reading ${key} of tool ${JSON.stringify(name)} threw: ${String(error)}`);
  }
  if (descriptor === undefined) return undefined;
  if (!('value' in descriptor)) {
    throw new TypeError(
      `defineTools: ${key} of tool ${JSON.stringify(name)} is a getter; define it as a plain property`,
    );
  }
  return descriptor.value;
}

function copyDefinition(name: string, definition: unknown): ToolDefinition {
  if (definition === null || typeof definition !== 'object') {
    throw new TypeError(`defineTools: tool ${JSON.stringify(name)} must be an object with input and output schemas`);
  }
  let keys: string[];
  try {
    keys = Object.keys(definition);
  } catch (error) {
    throw new TypeError(`defineTools: reading tool ${JSON.stringify(name)} threw: ${String(error)}`);
  }
  const copy: Record<string, unknown> = {};
  for (const key of keys) copy[key] = ownField(name, definition, key);
  const { input, output, mutation, allowedCallers, methods, aliases } = copy;
  for (const [key, schema] of [
    ['input', input],
    ['output', output],
  ] as const) {
    if (!isSchema(schema)) {
      throw new TypeError(
        `defineTools: tool ${JSON.stringify(name)} needs a Standard Schema v1 \`${key}\` (e.g. a valibot schema)`,
      );
    }
  }
  if (mutation !== undefined && typeof mutation !== 'boolean') {
    throw new TypeError(`defineTools: mutation of tool ${JSON.stringify(name)} must be true or false`);
  }
  if (
    allowedCallers !== undefined &&
    (!Array.isArray(allowedCallers) || !allowedCallers.every((c) => typeof c === 'string' && !isBlank(c)))
  ) {
    throw new TypeError(
      `defineTools: allowedCallers of tool ${JSON.stringify(name)} must be a list of non-blank caller ids`,
    );
  }
  const table = checkMethods(`defineTools: ${name}`, methods, aliases);
  const frozen: ToolDefinition = {
    ...copy,
    input: input as StandardSchemaV1,
    output: output as StandardSchemaV1,
    ...(allowedCallers === undefined ? {} : { allowedCallers: Object.freeze([...(allowedCallers as string[])]) }),
    ...(methods === undefined ? {} : { methods: table.methods }),
    ...(aliases === undefined ? {} : { aliases: table.aliases }),
  };
  return Object.freeze(frozen);
}

/**
 * Creates a typed tool registry. Names are literal types, so results form a union discriminated
 * on `toolName` that ts-pattern can match exhaustively. The registry holds a frozen copy of
 * each definition (own properties only; schemas and extra metadata values are used as given),
 * so changing the object passed in changes nothing a minted state holds.
 *
 * To give the registry a short name in type errors, extend it:
 * `class Tools extends defineTools({...}) {}` and pass `Tools` where a registry is expected.
 *
 * @param definitions - Per tool: `input` and `output` schemas (valibot, or any Standard Schema
 *   v1 object with a synchronous `validate`), optional `mutation: true`, optional
 *   `allowedCallers`, optional `description`, optional `methods` and `aliases` (an alias must name
 *   one of the methods: a literal that does not is a `tsc` error), any other metadata.
 * @returns The frozen registry.
 * @throws TypeError when a definition lacks a Standard Schema `input` or `output`, has a
 *   non-boolean `mutation` or an `allowedCallers` that is not a list of non-blank strings, a blank
 *   or repeated method, an alias that is blank, is itself a canonical method or names none
 *   (`defineTools: web_fetcher.aliases.fetch: must name one of the canonical methods (fetch_url),
 *   got "fetch_uri"`), or a field defined by a getter (or a Proxy trap that throws).
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * class Tools extends defineTools({
 *   read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
 *   update_issue: { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true },
 * }) {}
 * Tools.names; //=> ['read_file', 'update_issue']
 * Object.isFrozen(Tools.definitions.read_file); //=> true
 * ```
 */
export function defineTools<const TTools extends ToolDefinitionsOf<TTools>>(
  definitions: TTools & { readonly [TName in keyof TTools]: AliasTargets<TTools[TName]> },
): ToolRegistry<TTools> {
  if (definitions === null || typeof definitions !== 'object') {
    throw new TypeError('defineTools: expected an object of tool definitions');
  }
  let names: string[];
  try {
    names = Object.keys(definitions);
  } catch (error) {
    throw new TypeError(`defineTools: reading the definitions threw: ${String(error)}`);
  }
  const copy: Record<string, ToolDefinition> = Object.create(null);
  for (const name of names) copy[name] = copyDefinition(name, ownField(name, definitions, name));
  const record: RegistryRecord = { definitions: Object.freeze(copy), names: Object.freeze(sortUtf8([...names])) };
  // A plain function, not a class: constructing the registry returns its definitions object.
  const registry = function ToolRegistry() {
    return record.definitions;
  };
  Object.defineProperties(registry, {
    definitions: { value: record.definitions, enumerable: true },
    names: { value: record.names, enumerable: true },
  });
  Object.freeze(registry.prototype);
  Object.freeze(registry);
  registries.set(registry, record);
  // biome-ignore lint/plugin: the function carries the frozen copy of exactly these definitions; its type states that
  return registry as unknown as ToolRegistry<TTools>;
}

/**
 * The definitions a registry was made with: the frozen copy `defineTools` holds, for a
 * registry or a class that extends one (a subclass's own statics are not trusted). Internal.
 *
 * @throws TypeError when `tools` is not a registry from `defineTools` (or a class extending one).
 */
export function registryDefinitions(tools: unknown): ToolDefinitions {
  let current: unknown = tools;
  for (let depth = 0; depth < 16 && (typeof current === 'function' || typeof current === 'object'); depth++) {
    if (current === null) break;
    const record = registries.get(current);
    if (record !== undefined) return record.definitions;
    current = Object.getPrototypeOf(current);
  }
  throw new TypeError('expected a tool registry made by defineTools (or a class that extends one)');
}
