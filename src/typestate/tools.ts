/**
 * Typed tools: one input schema and one output schema per tool (any Standard Schema v1 object,
 * valibot's among them), side-effecting tools marked, callers allow-listed.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';

/**
 * One tool: its schemas, whether it has side effects, and who may call it.
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
  /** `true` for a side-effecting tool: it runs only through `performMutation`, never in `settle`. */
  readonly mutation?: boolean;
  /** Caller ids allowed to invoke it (e.g. `code_execution`); absent means any caller. */
  readonly allowedCallers?: readonly string[];
  /** A one-line description for the model. */
  readonly description?: string;
}

/**
 * A map from tool name to its definition.
 *
 * @example
 * ```ts
 * import type { ToolDefinitions } from 'turngate';
 * declare const value: ToolDefinitions;
 * void value;
 * ```
 */
export type ToolDefinitions = { readonly [name: string]: ToolDefinition };

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
export type ToolName<TTools extends ToolDefinitions> = keyof TTools & string;

/**
 * The input type of tool `TName` (what its input schema accepts).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type ToolInput } from 'turngate';
 * const tools = defineTools({ 'fs.read': { input: v.object({ path: v.string() }), output: v.string() } });
 * const input: ToolInput<typeof tools.definitions, 'fs.read'> = { path: 'a.md' };
 * ```
 */
export type ToolInput<TTools extends ToolDefinitions, TName extends ToolName<TTools>> = StandardSchemaV1.InferInput<
  TTools[TName]['input']
>;

/**
 * The output type of tool `TName` (what its output schema returns).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type ToolOutput } from 'turngate';
 * const tools = defineTools({ 'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } });
 * const output: ToolOutput<typeof tools.definitions, 'fs.read'> = { text: '# hi' };
 * ```
 */
export type ToolOutput<TTools extends ToolDefinitions, TName extends ToolName<TTools>> = StandardSchemaV1.InferOutput<
  TTools[TName]['output']
>;

/**
 * A registry of typed tools, made by {@link defineTools}.
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
export interface ToolRegistry<TTools extends ToolDefinitions = ToolDefinitions> {
  /** The definitions, as given. */
  readonly definitions: TTools;
  /** The tool names, sorted. */
  readonly names: readonly ToolName<TTools>[];
}

/**
 * Creates a typed tool registry. Names are literal types, so results form a union discriminated
 * on `toolName` that ts-pattern can match exhaustively.
 *
 * @param definitions - Per tool: `input` and `output` schemas (valibot, or any Standard Schema
 *   v1 object with a synchronous `validate`), optional `mutation: true`, optional
 *   `allowedCallers`.
 * @returns The frozen registry.
 * @throws TypeError when a definition lacks a Standard Schema `input` or `output`.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * const tools = defineTools({
 *   'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
 *   'issues.update': { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true },
 * });
 * tools.names; //=> ['fs.read', 'issues.update']
 * ```
 */
export function defineTools<const TTools extends ToolDefinitions>(definitions: TTools): ToolRegistry<TTools> {
  for (const [name, definition] of Object.entries(definitions)) {
    for (const key of ['input', 'output'] as const) {
      const schema = (definition as Partial<ToolDefinition>)[key];
      if (schema === undefined || typeof schema !== 'object' || typeof schema['~standard']?.validate !== 'function') {
        throw new TypeError(
          `defineTools: tool ${JSON.stringify(name)} needs a Standard Schema v1 \`${key}\` (e.g. a valibot schema)`,
        );
      }
    }
  }
  return Object.freeze({
    definitions,
    names: Object.freeze(Object.keys(definitions).sort()) as readonly ToolName<TTools>[],
  });
}

/**
 * One schema issue, flattened for a failure detail.
 *
 * @example
 * ```ts
 * import type { SchemaIssue } from 'turngate';
 * declare const value: SchemaIssue;
 * value.path;
 * ```
 */
export interface SchemaIssue {
  /** The dotted path of the offending value (`''` at the root). */
  readonly path: string;
  /** What was wrong. */
  readonly message: string;
}

/**
 * The outcome of validating a value against a Standard Schema.
 *
 * @example
 * ```ts
 * import type { SchemaCheck } from 'turngate';
 * declare const value: SchemaCheck;
 * void value;
 * ```
 */
export type SchemaCheck =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/**
 * Validates a value against a Standard Schema v1 object, synchronously.
 *
 * @param schema - The schema.
 * @param value - The value.
 * @returns The parsed value, or the issues. An asynchronous schema is reported as an issue.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { validateWith } from 'turngate';
 * validateWith(v.object({ path: v.string() }), { path: 3 }).ok; //=> false
 * ```
 */
export function validateWith(schema: StandardSchemaV1, value: unknown): SchemaCheck {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) {
    return {
      ok: false,
      issues: [{ path: '', message: 'asynchronous schemas are not supported in a turn; validate synchronously' }],
    };
  }
  if (result.issues === undefined) return { ok: true, value: result.value };
  return {
    ok: false,
    issues: result.issues.map((issue) => ({
      path: (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.'),
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
