/**
 * Typed tools: one input schema and one output schema per tool (any Standard Schema v1 object,
 * valibot's among them), side-effecting tools marked, callers allow-listed. A registry is a
 * frozen copy of the definitions, so no definition changes under a minted state.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { sortUtf8 } from '../canonical/index.ts';
import { describeThrown } from '../internal/display.ts';
import { formatPath } from '../internal/path.ts';

/**
 * One tool: its schemas, whether it has side effects, and who may call it. Extra fields (for
 * example `methods` or `aliases` metadata) are kept as they are, in the types and at run time.
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
  const { input, output, mutation, allowedCallers } = copy;
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
    (!Array.isArray(allowedCallers) || !allowedCallers.every((c) => typeof c === 'string' && c.trim() !== ''))
  ) {
    throw new TypeError(
      `defineTools: allowedCallers of tool ${JSON.stringify(name)} must be a list of non-blank caller ids`,
    );
  }
  const frozen: ToolDefinition = {
    ...copy,
    input: input as StandardSchemaV1,
    output: output as StandardSchemaV1,
    ...(allowedCallers === undefined ? {} : { allowedCallers: Object.freeze([...(allowedCallers as string[])]) }),
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
 *   `allowedCallers`, optional `description`, any other metadata.
 * @returns The frozen registry.
 * @throws TypeError when a definition lacks a Standard Schema `input` or `output`, has a
 *   non-boolean `mutation` or an `allowedCallers` that is not a list of non-blank strings, or a
 *   field defined by a getter (or a Proxy trap that throws).
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
export function defineTools<const TTools extends ToolDefinitionsOf<TTools>>(definitions: TTools): ToolRegistry<TTools> {
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
 * The outcome of validating a value against a Standard Schema.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { validateWith, type SchemaCheck } from 'turngate';
 * const checked: SchemaCheck = validateWith(v.string(), 'a');
 * checked.ok; //=> true
 * ```
 */
export type SchemaCheck =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/** One step of a Standard Schema issue path as `formatPath` takes it: an index stays a number. */
function pathSegment(step: PropertyKey | StandardSchemaV1.PathSegment): string | number {
  const key = typeof step === 'object' ? step.key : step;
  return typeof key === 'number' ? key : String(key);
}

/**
 * Validates a value against a Standard Schema v1 object, synchronously. Never throws: a schema
 * that throws (a refinement or transform that throws, a validator that overflows the stack) is
 * reported as an issue.
 *
 * @param schema - The schema.
 * @param value - The value.
 * @returns The parsed value, or the issues (each path written as `items[0].link`). An
 *   asynchronous schema is reported as an issue.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { validateWith } from 'turngate';
 * validateWith(v.object({ path: v.string() }), { path: 3 }).ok; //=> false
 * const checked = validateWith(v.array(v.object({ link: v.string() })), [{ link: 3 }]);
 * checked.ok ? [] : checked.issues.map((issue) => issue.path); //=> ['[0].link']
 * ```
 */
export function validateWith(schema: StandardSchemaV1, value: unknown): SchemaCheck {
  let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  try {
    result = schema['~standard'].validate(value);
  } catch (error) {
    return { ok: false, issues: [{ path: '', message: `the schema threw ${describeThrown(error)}` }] };
  }
  if (result instanceof Promise) {
    result.catch(() => undefined);
    return {
      ok: false,
      issues: [{ path: '', message: 'asynchronous schemas are not supported in a turn; validate synchronously' }],
    };
  }
  if (result.issues === undefined) return { ok: true, value: result.value };
  return {
    ok: false,
    issues: result.issues.map((issue) => ({
      path: formatPath((issue.path ?? []).map(pathSegment)),
      message: issue.message,
    })),
  };
}

/**
 * Formats schema issues as one line: `path: message; path: message`.
 *
 * @param issues - The issues from {@link validateWith}.
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
