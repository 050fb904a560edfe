/**
 * Typed tool results: the error envelope and its documented codes, a result per tool as a
 * union discriminated on `toolName`, and the exhaustive match over it.
 *
 * @module
 */
import type { ToolUseDisposition } from '../normalize/index.ts';
import type { FailureClass } from '../failures/index.ts';
import type { HandlerMapCheck } from './message-checks.ts';
import type { ToolDefinitionsOf, ToolName, ToolOutput } from './tools.ts';

/**
 * The error codes turngate itself writes into a tool call's error result, with what each means,
 * whether a retry may succeed, and the failure class it reports for the turn (when the call was
 * refused before it ran). A tool that throws gives its own `errorCode` (or `code`) when it has
 * one; `tool_error` otherwise.
 *
 * Source: HARNESS-TYPESTATE §3.2 (error rows carry `errorCode`, `retryable`, `errorMessage`);
 * TOOL-CALLING-HARNESS-TYPESTATE §4.3, §7.
 *
 * @example
 * ```ts
 * import { TOOL_ERROR_CODES } from 'turngate';
 * TOOL_ERROR_CODES.unknown_tool.failureClass; //=> 'tool.unknown_or_disallowed'
 * TOOL_ERROR_CODES.mutation_pending.retryable; //=> true
 * ```
 */
export const TOOL_ERROR_CODES = {
  unknown_tool: {
    retryable: false,
    failureClass: 'tool.unknown_or_disallowed',
    meaning: 'The model called a tool that is not in the registry; it did not run.',
  },
  caller_not_allowed: {
    retryable: false,
    failureClass: 'tool.caller_not_allowed',
    meaning: "The caller (callerId) is not in the tool's allowedCallers; it did not run.",
  },
  unknown_method: {
    retryable: false,
    failureClass: 'tool.unknown_or_disallowed',
    meaning:
      "The call named a method that is neither one of the tool's canonical methods nor an alias (or named none where the tool declares methods); it did not run.",
  },
  invalid_input: {
    retryable: false,
    failureClass: 'tool.schema_invalid',
    meaning: "The input fails the tool's input schema, or is not JSON data; it did not run.",
  },
  parallel_call_refused: {
    retryable: false,
    failureClass: 'tool.parallel_policy_violation',
    meaning: 'A json-mode turn allows one tool call per action; this later call did not run.',
  },
  no_handler: {
    retryable: false,
    failureClass: undefined,
    meaning: 'settle was given no handler for this tool; it did not run.',
  },
  tool_error: {
    retryable: false,
    failureClass: undefined,
    meaning: "The handler threw (its own errorCode or code replaces this code; retryable is the error's, else false).",
  },
  invalid_output: {
    retryable: false,
    failureClass: undefined,
    meaning: "The handler returned an output that fails the tool's output schema, or is not JSON data.",
  },
  mutation_pending: {
    retryable: true,
    failureClass: undefined,
    meaning:
      'A mutation tool call waits for the mutation gate (phase 1); the gate replaces this result with what ran (phase 2).',
  },
  mutation_not_admitted: {
    retryable: false,
    failureClass: undefined,
    meaning: 'The mutation gate refused the turn (the failure classes are in the message); the mutation did not run.',
  },
  mutation_not_performed: {
    retryable: false,
    failureClass: undefined,
    meaning: 'The turn was re-closed before this admitted mutation ran; it did not run.',
  },
  mutation_failed: {
    retryable: false,
    failureClass: undefined,
    meaning:
      'The mutation ran and threw, or returned an output that fails its schema (its own errorCode or code wins).',
  },
  effect_outcome_unknown: {
    retryable: false,
    failureClass: undefined,
    meaning:
      'The effect ledger holds this mutation as started with no recorded end (running elsewhere, or its process ended), or the step was aborted after it started: it was not run again; its outcome is unknown, so check before retrying.',
  },
  aborted: {
    retryable: true,
    failureClass: undefined,
    meaning: 'The step was aborted (its AbortSignal) before this call started: it did not run and can be retried.',
  },
  approval_missing: {
    retryable: false,
    failureClass: 'approval.missing',
    meaning: 'The mutation needs an approval and none is recorded (or its record is unreadable); it did not run.',
  },
  approval_pending: {
    retryable: false,
    failureClass: 'approval.pending',
    meaning: 'The mutation waits for a decision on its approval; it did not run.',
  },
  approval_denied: {
    retryable: false,
    failureClass: 'approval.denied',
    meaning: 'The approval of the mutation was declined (by a person or by the policy); it did not run.',
  },
  approval_intent_mismatch: {
    retryable: false,
    failureClass: 'approval.intent_mismatch',
    meaning: 'The approval names another call, input or tool definition; the mutation did not run.',
  },
  approval_policy_changed: {
    retryable: false,
    failureClass: 'approval.policy_changed',
    meaning: 'The approval was given under another policy version; the mutation did not run until asked again.',
  },
  approval_expired: {
    retryable: false,
    failureClass: 'approval.expired',
    meaning: 'The approval, or its request, expired; the mutation did not run.',
  },
  approval_decision_conflict: {
    retryable: false,
    failureClass: 'approval.decision_conflict',
    meaning: 'A decision conflicts with the one recorded first; nothing changed.',
  },
  approval_token_invalid: {
    retryable: false,
    failureClass: 'approval.token_invalid',
    meaning: 'The signed approval token does not verify; the mutation did not run.',
  },
} as const satisfies Readonly<
  Record<
    string,
    { readonly retryable: boolean; readonly failureClass: FailureClass | undefined; readonly meaning: string }
  >
>;

/**
 * One of the error codes turngate writes (see {@link TOOL_ERROR_CODES}).
 *
 * @example
 * ```ts
 * import type { ToolErrorCode } from 'turngate/types';
 * const code: ToolErrorCode = 'invalid_output';
 * ```
 */
export type ToolErrorCode = keyof typeof TOOL_ERROR_CODES;

/**
 * The machine-readable error envelope of a failed tool call. Source: HARNESS-TYPESTATE §3.2.
 *
 * @example
 * ```ts
 * import type { ToolErrorEnvelope } from 'turngate/types';
 * const error: ToolErrorEnvelope = { errorCode: 'timeout', retryable: true, errorMessage: 'no answer in 5 s' };
 * ```
 */
export interface ToolErrorEnvelope {
  /** A non-blank error code: one of {@link TOOL_ERROR_CODES}, or the tool's own (e.g. `timeout`). */
  readonly errorCode: string;
  /** Whether a retry may succeed. */
  readonly retryable: boolean;
  /** A non-blank human-readable message; digested, never required to parse. */
  readonly errorMessage: string;
}

/**
 * The successful result of tool `TName`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolOk } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } }) {}
 * declare const result: ToolOk<Tools, 'read_file'>;
 * result.output.text;
 * ```
 */
export interface ToolOk<TTools extends ToolDefinitionsOf<TTools>, TName extends ToolName<TTools>> {
  /** The tool call this result answers. */
  readonly toolCallId: string;
  /** The tool. */
  readonly toolName: TName;
  /** Always `ok`. */
  readonly status: 'ok';
  /** The output, as the tool's output schema returned it. */
  readonly output: ToolOutput<TTools, TName>;
  /** `sha256:` digest of the output's canonical JSON. */
  readonly resultDigest: string;
  /**
   * The validation record the result was reported with (e.g. `turngate/outcome`'s
   * `ValidationRecord`), as JSON data. Kept for observability; never part of the join check's
   * evidence or of any digest.
   */
  readonly validation?: unknown;
}

/**
 * The failed result of tool `TName`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ToolFailed } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } }) {}
 * declare const result: ToolFailed<Tools, 'read_file'>;
 * result.error.errorCode;
 * ```
 */
export interface ToolFailed<TTools extends ToolDefinitionsOf<TTools>, TName extends ToolName<TTools>> {
  /** The tool call this result answers. */
  readonly toolCallId: string;
  /** The tool (the name the model used, for a call to an unknown tool). */
  readonly toolName: TName;
  /** Always `error`. */
  readonly status: 'error';
  /** The typed error envelope. */
  readonly error: ToolErrorEnvelope;
  /** The validation record the result was reported with; never part of the evidence or a digest. */
  readonly validation?: unknown;
  /**
   * The only dispositions `recordUse` accepts for this result, when it was reported with a list
   * (a call that broke its contract: `discarded_with_reason` or `retry_scheduled`).
   */
  readonly admissibleDispositions?: readonly ToolUseDisposition[];
}

/**
 * Any terminal result of a registry: a union discriminated on `toolName` (then `status`), so
 * `match(result).with({ toolName: 'read_file', status: 'ok' }, ...)...exhaustive()` type-checks
 * only when every tool is handled.
 *
 * @example
 * ```ts
 * import { match } from 'ts-pattern';
 * import * as v from 'valibot';
 * import { defineTools, type ToolResult } from 'turngate';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } }) {}
 * declare const result: ToolResult<Tools>;
 * match(result)
 *   .with({ toolName: 'read_file', status: 'ok' }, (r) => r.output.text)
 *   .with({ status: 'error' }, (r) => r.error.errorCode)
 *   .exhaustive();
 * ```
 */
export type ToolResult<TTools extends ToolDefinitionsOf<TTools>> = [TTools] extends [never]
  ? never
  : {
      [TName in ToolName<TTools>]: ToolOk<TTools, TName> | ToolFailed<TTools, TName>;
    }[ToolName<TTools>];

/**
 * One handler per tool of a registry, each receiving that tool's result (ok or error).
 *
 * @example
 * ```ts
 * import type { ToolDefinitions } from 'turngate';
 * import type { ToolResultHandlers } from 'turngate/types';
 * const handlers: ToolResultHandlers<ToolDefinitions, string> = {};
 * ```
 */
export type ToolResultHandlers<TTools extends ToolDefinitionsOf<TTools>, TReturn> = {
  readonly [TName in ToolName<TTools>]: (result: ToolOk<TTools, TName> | ToolFailed<TTools, TName>) => TReturn;
};

/**
 * Matches a tool result exhaustively by tool name: one handler per tool of the registry, so a
 * missing tool is a `tsc` error that names it (`Property 'search_repo' is missing`), and a
 * handler for a name that is not in the registry is one that names the failure class
 * (`tool.unknown_or_disallowed: delete_file is not in the registry`, see `HandlerMapCheck`). The cost
 * grows linearly with the number of tools (about 430 instantiations per tool, against tens of
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
 * class Tools extends defineTools({
 *   read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
 *   search_repo: { input: v.object({ query: v.string() }), output: v.object({ hits: v.number() }) },
 * }) {}
 * const result: ToolResult<Tools> = { toolCallId: 'toolu_01', toolName: 'search_repo', status: 'ok', output: { hits: 3 }, resultDigest: 'sha256:…' };
 * matchToolResult(result, {
 *   read_file: (r) => (r.status === 'ok' ? r.output.text : r.error.errorCode),
 *   search_repo: (r) => (r.status === 'ok' ? `${r.output.hits} hits` : r.error.errorCode),
 * }); //=> '3 hits'
 * ```
 */
export function matchToolResult<
  TTools extends ToolDefinitionsOf<TTools>,
  THandlers extends ToolResultHandlers<TTools, unknown>,
>(result: ToolResult<TTools>, handlers: HandlerMapCheck<THandlers, TTools>): ReturnType<THandlers[ToolName<TTools>]> {
  const handler: unknown = Object.hasOwn(handlers, result.toolName)
    ? (handlers as Record<string, unknown>)[result.toolName]
    : undefined;
  if (typeof handler !== 'function')
    throw new TypeError(`matchToolResult: no handler for tool ${JSON.stringify(result.toolName)}`);
  return handler(result);
}

/**
 * A result as a caller reports it to `recordResults`: an output, an error envelope, or (for a
 * `mutation: true` tool only) `pending`, which records the call as waiting for the mutation
 * gate (error code `mutation_pending`).
 *
 * @example
 * ```ts
 * import type { ReportedToolResult } from 'turngate/types';
 * const rows: ReportedToolResult[] = [
 *   { toolCallId: 'toolu_01', status: 'ok', output: { text: '# turngate' } },
 *   { toolCallId: 'toolu_02', status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'no answer in 5 s' } },
 *   { toolCallId: 'toolu_03', status: 'pending' },
 * ];
 * ```
 */
export type ReportedToolResult =
  | { readonly toolCallId: string; readonly status: 'ok'; readonly output: unknown; readonly validation?: unknown }
  | {
      readonly toolCallId: string;
      readonly status: 'error';
      readonly error: ToolErrorEnvelope;
      /** A validation record (JSON data), kept on the typed result, never in the evidence. */
      readonly validation?: unknown;
      /** The only dispositions this result admits (at least one); `recordUse` enforces them. */
      readonly admissibleDispositions?: readonly ToolUseDisposition[];
    }
  | { readonly toolCallId: string; readonly status: 'pending' };

/** @internal The envelope turngate writes for one of its own codes. */
export function ownError(code: ToolErrorCode, errorMessage: string): ToolErrorEnvelope {
  return { errorCode: code, retryable: TOOL_ERROR_CODES[code].retryable, errorMessage };
}

/** @internal Whether a typed result is a mutation call waiting for the gate. */
export function isPendingMutation(result: {
  readonly status: string;
  readonly error?: { readonly errorCode: string };
}): boolean {
  return result.status === 'error' && result.error?.errorCode === 'mutation_pending';
}
