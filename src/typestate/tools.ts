/**
 * Typed tools: one input schema and one output schema per tool (any Standard Schema v1 object,
 * valibot's among them), side-effecting tools marked, callers allow-listed. A registry is a
 * frozen copy of the definitions, so no definition changes under a minted state.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import * as v from 'valibot';
import { sortUtf8, isBlank } from '../canonical/index.ts';
import { issuePath } from '../evidence/index.ts';
import { describeThrown } from '../internal/display.ts';
import type { Result } from '../failures/index.ts';
import { schemaIssuePath } from '../internal/path.ts';

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
 * import { defineTools, type ToolDefinitionsOf } from 'turngate';
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
 * import { defineTools, type ParsedToolInput } from 'turngate';
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
 * The canonical methods of tool `TName`: the literal union of its `methods`, or `string` when it
 * declares none (any method name, or none, is accepted as it is).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type ToolMethod } from 'turngate';
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
 * import { defineTools, type ToolMethodAlias } from 'turngate';
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
 * `'fetch_uri' & { 'an alias names one of the canonical methods': 'fetch_url' }`. Internal.
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

function isSchema(value: unknown): value is StandardSchemaV1 {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    const standard = (value as Partial<StandardSchemaV1>)['~standard'];
    return typeof standard?.validate === 'function';
  } catch {
    return false;
  }
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

/**
 * Where a tool's methods and aliases are declared: a tool definition, or a contract's
 * description (`turngate/outcome`).
 *
 * @example
 * ```ts
 * import type { MethodSource } from 'turngate/outcome';
 * const source: MethodSource = { methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } };
 * ```
 */
export interface MethodSource {
  /** The canonical methods; none (or an empty list) means any name, or none, is accepted. */
  readonly methods?: readonly string[];
  /** Alias -> canonical method. */
  readonly aliases?: { readonly [alias: string]: string };
}

/**
 * A method alias a call used, resolved to its canonical method.
 *
 * @example
 * ```ts
 * import type { MethodAlias } from 'turngate/outcome';
 * const used: MethodAlias = { kind: 'method', alias: 'fetch', method: 'fetch_url' };
 * ```
 */
export interface MethodAlias {
  readonly kind: 'method';
  /** The name the call used. */
  readonly alias: string;
  /** The canonical method it resolved to. */
  readonly method: string;
}

/**
 * How a called method name resolved against a tool's methods: `resolved` (to the canonical
 * method, and the alias when one was used) or `unknown` (the name called and the canonical
 * methods, sorted by UTF-8 bytes).
 *
 * @example
 * ```ts
 * import { resolveMethod, type MethodResolution } from 'turngate/outcome';
 * const resolved: MethodResolution = resolveMethod({ methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } }, 'fetch');
 * resolved; //=> { status: 'resolved', method: 'fetch_url', alias: { kind: 'method', alias: 'fetch', method: 'fetch_url' } }
 * ```
 */
export type MethodResolution =
  | { readonly status: 'resolved'; readonly method: string | undefined; readonly alias: MethodAlias | undefined }
  | { readonly status: 'unknown'; readonly called: string | undefined; readonly methods: readonly string[] };

/**
 * Resolves the method a call names: a canonical method resolves to itself, an alias to its
 * canonical method (and says so); any other name, or no name, is `unknown` when the tool declares
 * methods. A tool without methods accepts any name (or none) as it is. This is the one rule for
 * methods: `requestTools` applies it to tool calls, `delegate` (`turngate/outcome`) to delegations.
 *
 * Source: ADR 0014, Decision §3; Open Question 2 (aliases are declared, never promoted at run
 * time, so every alias maps to exactly one method).
 *
 * @param source - A tool definition (`Tools.definitions.web_fetcher`) or a contract's description.
 * @param called - The method name the call used.
 * @returns The resolution.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { resolveMethod } from 'turngate/outcome';
 * class Tools extends defineTools({
 *   web_fetcher: { input: v.object({ url: v.string() }), output: v.string(), methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } },
 * }) {}
 * resolveMethod(Tools.definitions.web_fetcher, 'fetch_url'); //=> { status: 'resolved', method: 'fetch_url', alias: undefined }
 * resolveMethod(Tools.definitions.web_fetcher, 'get'); //=> { status: 'unknown', called: 'get', methods: ['fetch_url'] }
 * ```
 */
export function resolveMethod(source: MethodSource, called: string | undefined): MethodResolution {
  const methods = source.methods ?? [];
  const aliases = source.aliases ?? {};
  if (methods.length === 0) return { status: 'resolved', method: called, alias: undefined };
  if (called !== undefined && methods.includes(called)) return { status: 'resolved', method: called, alias: undefined };
  if (called !== undefined && Object.hasOwn(aliases, called)) {
    const method = aliases[called] as string;
    return { status: 'resolved', method, alias: { kind: 'method', alias: called, method } };
  }
  return { status: 'unknown', called, methods: sortUtf8([...methods]) };
}

/**
 * The sentence for a call whose method did not resolve: `web_fetcher has no method "get"; its
 * methods are fetch_url` (or `has no method` when it named none). Internal: `requestTools` and
 * `delegate` write it.
 */
export function unknownMethodDetail(tool: string, unknown: Extract<MethodResolution, { status: 'unknown' }>): string {
  const shown = unknown.called === undefined ? 'no method' : `no method ${JSON.stringify(unknown.called)}`;
  return `${tool} has ${shown}; its methods are ${unknown.methods.join(', ')}`;
}

const MethodName = v.pipe(
  v.string(),
  v.check((value) => !isBlank(value), 'expected a non-blank name'),
);
const MethodsSchema = v.array(MethodName);
const AliasesSchema = v.record(v.string(), MethodName);

/** A tool's methods and aliases once checked: frozen copies. Internal. */
export interface MethodTable {
  readonly methods: readonly string[];
  readonly aliases: { readonly [alias: string]: string };
}

function refuse(where: string, field: string, issue: v.BaseIssue<unknown>): never {
  const at = issuePath(issue);
  throw new TypeError(`${where}.${field}${at === '' || at.startsWith('[') ? at : `.${at}`}: ${issue.message}`);
}

/**
 * Checks a tool's canonical methods and aliases, for `defineTools` and `defineContracts` alike:
 * methods are non-blank and listed once; each alias is non-blank, not itself a canonical method,
 * and names a canonical method. Internal.
 *
 * @param where - What the messages start with (`defineTools: web_fetcher`).
 * @returns Frozen copies (the aliases keep every own key, `__proto__` included).
 * @throws TypeError naming the field: `<where>.methods[1]: expected a non-blank name`,
 *   `<where>.methods: "fetch" is listed twice`, `<where>.aliases.get: "get" is a canonical method,
 *   not an alias`, `<where>.aliases.fetch: must name one of the canonical methods (fetch_url), got "fetch_uri"`.
 */
export function checkMethods(where: string, methods: unknown, aliases: unknown): MethodTable {
  const checkedMethods = methods === undefined ? undefined : v.safeParse(MethodsSchema, methods);
  if (checkedMethods !== undefined && !checkedMethods.success) refuse(where, 'methods', checkedMethods.issues[0]);
  const checkedAliases = aliases === undefined ? undefined : v.safeParse(AliasesSchema, aliases);
  if (checkedAliases !== undefined && !checkedAliases.success) refuse(where, 'aliases', checkedAliases.issues[0]);
  const names = [...((methods as readonly string[] | undefined) ?? [])];
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new TypeError(`${where}.methods: ${JSON.stringify(twice)} is listed twice`);
  // The original, not valibot's copy: `v.record` drops keys such as `__proto__`.
  const entries = aliases === undefined ? [] : Object.entries(aliases as object);
  for (const [alias, method] of entries) {
    if (isBlank(alias)) throw new TypeError(`${where}.aliases: an alias must be a non-blank name`);
    if (names.includes(alias))
      throw new TypeError(`${where}.aliases.${alias}: ${JSON.stringify(alias)} is a canonical method, not an alias`);
    if (!names.includes(method as string))
      throw new TypeError(
        `${where}.aliases.${alias}: must name one of the canonical methods (${names.join(', ') || 'none declared'}), got ${JSON.stringify(method)}`,
      );
  }
  return { methods: Object.freeze(names), aliases: Object.freeze(Object.fromEntries(entries)) };
}

/**
 * One schema issue, flattened for a failure detail.
 *
 * @example
 * ```ts
 * import type { SchemaIssue } from 'turngate';
 * const issue: SchemaIssue = { path: 'path', message: 'Invalid type: Expected string but received 3' };
 * ```
 */
export interface SchemaIssue {
  /** Where the offending value is, as the project writes places (`items[0].link`; `''` at the root). */
  readonly path: string;
  /** What was wrong. */
  readonly message: string;
}

/**
 * The outcome of validating a value against a Standard Schema: the parsed value, or `failures`
 * holding the schema's issues (at least one).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { validateWith, type SchemaCheck } from 'turngate';
 * const checked: SchemaCheck = validateWith(v.string(), 'a');
 * checked.ok; //=> true
 * ```
 */
export type SchemaCheck = Result<unknown, SchemaIssue>;

/**
 * Validates a value against a Standard Schema v1 object, synchronously. Never throws: a schema
 * that throws (a refinement or transform that throws, a validator that overflows the stack) is
 * reported as an issue.
 *
 * @param schema - The schema.
 * @param value - The value.
 * @returns The parsed value, or `failures` holding the issues (each path written as
 *   `items[0].link`). An asynchronous schema is reported as an issue.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { validateWith } from 'turngate';
 * validateWith(v.object({ path: v.string() }), { path: 3 }).ok; //=> false
 * const checked = validateWith(v.array(v.object({ link: v.string() })), [{ link: 3 }]);
 * checked.ok ? [] : checked.failures.map((issue) => issue.path); //=> ['[0].link']
 * ```
 */
export function validateWith(schema: StandardSchemaV1, value: unknown): SchemaCheck {
  let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  try {
    result = schema['~standard'].validate(value);
  } catch (error) {
    return { ok: false, failures: [{ path: '', message: `the schema threw ${describeThrown(error)}` }] };
  }
  if (result instanceof Promise) {
    result.catch(() => undefined);
    return {
      ok: false,
      failures: [{ path: '', message: 'asynchronous schemas are not supported in a turn; validate synchronously' }],
    };
  }
  if (result.issues === undefined) return { ok: true, value: result.value };
  return {
    ok: false,
    failures: result.issues.map((issue) => ({
      path: schemaIssuePath(issue.path),
      message: issue.message,
    })),
  };
}

/**
 * Formats schema issues as one line: `path: message; path: message`.
 *
 * @param issues - The issues from {@link validateWith} (its `failures`).
 * @returns The line.
 *
 * @example
 * ```ts
 * import { formatIssues } from 'turngate';
 * formatIssues([{ path: 'path', message: 'Invalid type' }]); //=> 'path: Invalid type'
 * ```
 */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((i) => (i.path === '' ? i.message : `${i.path}: ${i.message}`)).join('; ');
}
