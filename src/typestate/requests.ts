/**
 * The types of the `ToolRequests` state: an admitted call typed by its tool, a refused call, the
 * calls of a turn, and the text adapter profile that admits text-mode calls. `requestTools` and
 * `adaptText` (request-tools.ts) mint the state.
 *
 * @module
 */
import type { Failure } from '../failures/index.ts';
import type { Branded } from './brand.ts';
import type { CallSpec } from './call-spec.ts';
import type { RequestedToolCall } from './inputs.ts';
import type {
  ParsedToolInput,
  ToolDefinitions,
  ToolDefinitionsOf,
  ToolMethod,
  ToolName,
  ToolRegistry,
} from './tools.ts';

/**
 * One admitted tool call, typed by its tool.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolRequest } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.string() } }) {}
 * const request: ToolRequest<Tools, 'read_file'> = { toolCallId: 'toolu_01', toolName: 'read_file', input: { path: 'README.md' }, inputDigest: 'sha256:…' };
 * ```
 */
export interface ToolRequest<
  TTools extends ToolDefinitionsOf<TTools>,
  TName extends ToolName<TTools> = ToolName<TTools>,
> {
  /** The tool call id (from the model, or a literal in scripted turns). */
  readonly toolCallId: string;
  /** The tool. */
  readonly toolName: TName;
  /** The input, as the tool's input schema returned it (plain data). */
  readonly input: ParsedToolInput<TTools, TName>;
  /** The caller (e.g. a `code_execution` block id), when the call was made programmatically. */
  readonly callerId?: string;
  /**
   * The canonical method, when the call named one (an alias resolved to its method; a tool
   * without `methods` keeps the name as called). Always present for a tool that declares methods.
   */
  readonly method?: ToolMethod<TTools, TName>;
  /** The alias the call used, when it used one (`method` is what it resolved to). */
  readonly calledAs?: string;
  /** `sha256:` digest of the input's canonical JSON: what a mutation intent binds. */
  readonly inputDigest: string;
}

/**
 * Any admitted request of a registry: a union discriminated on `toolName`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { AnyToolRequest } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.string() } }) {}
 * declare const request: AnyToolRequest<Tools>;
 * if (request.toolName === 'read_file') request.input.path;
 * ```
 */
export type AnyToolRequest<TTools extends ToolDefinitionsOf<TTools>> = {
  [TName in ToolName<TTools>]: ToolRequest<TTools, TName>;
}[ToolName<TTools>];

/**
 * A call the turn refused before it ran. It must be answered by an error result (`settle`
 * writes one with `errorCode`), and its failure class keeps the turn from any mutation.
 *
 * @example
 * ```ts
 * import type { RefusedToolCall } from 'turngate/types';
 * declare const refused: RefusedToolCall;
 * `${refused.toolCallId}: ${refused.failure.class}`;
 * ```
 */
export interface RefusedToolCall {
  /** The tool call id. */
  readonly toolCallId: string;
  /** The tool name the model used. */
  readonly toolName: string;
  /** The caller, when one was given. */
  readonly callerId?: string;
  /** The method as the call named it, when it named one. */
  readonly method?: string;
  /** The input as given (own data only), or `undefined` when it was not JSON data. */
  readonly input: unknown;
  /** The error code of its answer (see `TOOL_ERROR_CODES`). */
  readonly errorCode:
    | 'unknown_tool'
    | 'caller_not_allowed'
    | 'unknown_method'
    | 'invalid_input'
    | 'parallel_call_refused';
  /**
   * Why: the failure class (`tool.unknown_or_disallowed` for an unknown tool or method,
   * `tool.caller_not_allowed`, `tool.schema_invalid`, `tool.parallel_policy_violation`) and a
   * sentence.
   */
  readonly failure: Failure;
}

/**
 * The calls of a turn, as every later state holds them: its CallSpec, its registry, the admitted
 * calls (typed, in the order given) and the refused ones (with why).
 *
 * @example
 * ```ts
 * import type { TurnCalls } from 'turngate/types';
 * declare const calls: TurnCalls;
 * calls.requests.length + calls.refused.length;
 * ```
 */
export interface TurnCalls<TTools extends ToolDefinitionsOf<TTools> = ToolDefinitions> {
  /** The turn's CallSpec. */
  readonly callSpec: CallSpec;
  /** The registry, as given. */
  readonly tools: ToolRegistry<TTools>;
  /** The admitted calls, typed, in the order given. */
  readonly requests: readonly AnyToolRequest<TTools>[];
  /** The refused calls, in the order given (each answered by an error result). */
  readonly refused: readonly RefusedToolCall[];
}

/**
 * The requested tool calls of a turn: the admitted ones, typed; the refused ones, with why.
 *
 * @example
 * ```ts
 * import type { ToolRequests } from 'turngate';
 * declare const requests: ToolRequests;
 * requests.requests.map((r) => r.toolCallId);
 * requests.refused.map((r) => r.failure.class);
 * ```
 */
export type ToolRequests<TTools extends ToolDefinitionsOf<TTools> = ToolDefinitions> = Branded<
  'ToolRequests',
  TurnCalls<TTools> & {
    /** Every call id, in the order given. */
    readonly callIds: readonly string[];
    /** The registry's definitions type, for type-level queries only: absent at run time. */
    readonly '~tools'?: TTools;
  }
>;

/**
 * A deterministic text adapter profile: turns a text-mode action into structured tool-use
 * blocks. Text mode admits tool requests only through one. Source: HARNESS-TYPESTATE §7.
 *
 * @example
 * ```ts
 * import type { TextAdapterProfile } from 'turngate/types';
 * const profile: TextAdapterProfile = {
 *   profileId: 'json-line.v1',
 *   parse: (text) => text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { toolCallId: string; toolName: string; input: unknown }),
 * };
 * ```
 */
export interface TextAdapterProfile {
  /** The profile id, e.g. `xml-tool-tags.v1`. */
  readonly profileId: string;
  /** Parses the text; must be deterministic (same text, same blocks). */
  readonly parse: (text: string) => readonly RequestedToolCall[];
}
