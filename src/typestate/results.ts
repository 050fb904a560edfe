/**
 * Typed tool results: the error envelope, a result per tool as a union discriminated on
 * `toolName`, and the exhaustive match over it.
 *
 * @module
 */
import type { ToolDefinitions, ToolName, ToolOutput } from './tools.ts';

/**
 * The machine-readable error envelope of a failed tool call. Source: HARNESS-TYPESTATE §3.2.
 *
 * @example
 * ```ts
 * import type { ToolErrorEnvelope } from 'turngate';
 * declare const value: ToolErrorEnvelope;
 * value.errorCode;
 * ```
 */
export interface ToolErrorEnvelope {
  /** A non-blank error code (e.g. `timeout`). */
  readonly errorCode: string;
  /** Whether a retry may succeed. */
  readonly retryable: boolean;
  /** A human-readable message; digested, never required to parse. */
  readonly errorMessage: string;
}

/**
 * The successful result of tool `TName`.
 *
 * @example
 * ```ts
 * import type { ToolOk } from 'turngate';
 * type Example = ToolOk<never, never>;
 * ```
 */
export interface ToolOk<TTools extends ToolDefinitions, TName extends ToolName<TTools>> {
  readonly toolCallId: string;
  readonly toolName: TName;
  readonly status: 'ok';
  /** The output, as the tool's output schema returned it. */
  readonly output: ToolOutput<TTools, TName>;
  /** `sha256:` digest of the output's canonical JSON. */
  readonly resultDigest: string;
}

/**
 * The failed result of tool `TName`.
 *
 * @example
 * ```ts
 * import type { ToolFailed } from 'turngate';
 * type Example = ToolFailed<never, never>;
 * ```
 */
export interface ToolFailed<TTools extends ToolDefinitions, TName extends ToolName<TTools>> {
  readonly toolCallId: string;
  readonly toolName: TName;
  readonly status: 'error';
  readonly error: ToolErrorEnvelope;
}

/**
 * Any terminal result of a registry: a union discriminated on `toolName` (then `status`), so
 * `match(result).with({ toolName: 'fs.read', status: 'ok' }, ...)...exhaustive()` type-checks
 * only when every tool is handled.
 *
 * @example
 * ```ts
 * import { match } from 'ts-pattern';
 * import * as v from 'valibot';
 * import { defineTools, type ToolResult } from 'turngate';
 * const tools = defineTools({ 'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } });
 * declare const result: ToolResult<typeof tools.definitions>;
 * match(result)
 *   .with({ toolName: 'fs.read', status: 'ok' }, (r) => r.output.text)
 *   .with({ status: 'error' }, (r) => r.error.errorCode)
 *   .exhaustive();
 * ```
 */
export type ToolResult<TTools extends ToolDefinitions> = {
  [TName in ToolName<TTools>]: ToolOk<TTools, TName> | ToolFailed<TTools, TName>;
}[ToolName<TTools>];

/**
 * One handler per tool of a registry, each receiving that tool's result (ok or error).
 *
 * @example
 * ```ts
 * import type { ToolDefinitions, ToolResultHandlers } from 'turngate';
 * declare const handlers: ToolResultHandlers<ToolDefinitions, string>;
 * ```
 */
export type ToolResultHandlers<TTools extends ToolDefinitions, TReturn> = {
  readonly [TName in ToolName<TTools>]: (result: ToolOk<TTools, TName> | ToolFailed<TTools, TName>) => TReturn;
};

/**
 * Matches a tool result exhaustively by tool name: one handler per tool of the registry, so a
 * missing tool is a `tsc` error that names it (`Property 'web.search' is missing`). The cost
 * grows linearly with the number of tools (about 300 instantiations per tool, against tens of
 * thousands for a ts-pattern match over a large result union; see `npm run bench:types`).
 *
 * @param result - A typed tool result.
 * @param handlers - A handler per tool name.
 * @returns What the result's handler returns.
 * @throws TypeError when no handler exists for the result's tool (only possible with a cast).
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, matchToolResult, type ToolResult } from 'turngate';
 * const tools = defineTools({
 *   'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
 *   'web.search': { input: v.object({ query: v.string() }), output: v.object({ hits: v.number() }) },
 * });
 * declare const result: ToolResult<typeof tools.definitions>;
 * const line = matchToolResult(result, {
 *   'fs.read': (r) => (r.status === 'ok' ? r.output.text : r.error.errorCode),
 *   'web.search': (r) => (r.status === 'ok' ? `${r.output.hits} hits` : r.error.errorCode),
 * });
 * ```
 */
export function matchToolResult<TTools extends ToolDefinitions, THandlers extends ToolResultHandlers<TTools, unknown>>(
  result: ToolResult<TTools>,
  handlers: THandlers,
): ReturnType<THandlers[ToolName<TTools>]> {
  type TReturn = ReturnType<THandlers[ToolName<TTools>]>;
  const handler = Object.hasOwn(handlers, result.toolName)
    ? // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
      (handlers as unknown as Record<string, (r: ToolResult<TTools>) => TReturn>)[result.toolName]
    : undefined;
  if (handler === undefined)
    throw new TypeError(`matchToolResult: no handler for tool ${JSON.stringify(result.toolName)}`);
  return handler(result);
}

/**
 * A result as a caller reports it: an output, or an error envelope.
 *
 * @example
 * ```ts
 * import type { ReportedToolResult } from 'turngate';
 * declare const value: ReportedToolResult;
 * void value;
 * ```
 */
export type ReportedToolResult =
  | { readonly toolCallId: string; readonly status: 'ok'; readonly output: unknown }
  | { readonly toolCallId: string; readonly status: 'error'; readonly error: ToolErrorEnvelope };
