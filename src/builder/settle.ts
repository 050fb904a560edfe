/**
 * Closure by construction for ids from model output: `settle` answers every call once,
 * `useAll` disposes of every result once.
 *
 * @module
 */
import type { Result } from '../failures/index.ts';
import type { ToolUseDisposition } from '../normalize/index.ts';
import { expectMinted } from '../typestate/internal.ts';
import type { StateArgument, ToolsOf, UseDecisionCheck, UseDecisionRow } from '../typestate/index.ts';
import { thrownEnvelope } from '../typestate/internal.ts';
import { checkOutput, mintResults, pendingError, type TypedRow } from '../typestate/internal.ts';
import { ownError, isPendingMutation } from '../typestate/internal.ts';
import type { ToolDefinitions } from '../typestate/index.ts';
import { registryDefinitions } from '../typestate/internal.ts';
import {
  recordUse,
  type ParsedToolInput,
  type ReadToolName,
  type ToolDefinitionsOf,
  type ToolOutput,
  type ToolRequests,
  type ToolResult,
  type ToolResults,
  type ToolUse,
  type ToolUseInputRow,
} from '../typestate/index.ts';
import { firstFailure } from '../failures/internal.ts';

/**
 * What a tool handler is told about the call it runs.
 *
 * @example
 * ```ts
 * import type { ToolCallInfo } from 'turngate/types';
 * const info: ToolCallInfo = { toolCallId: 'toolu_01', toolName: 'read_file' };
 * ```
 */
export interface ToolCallInfo {
  /** The tool call id. */
  readonly toolCallId: string;
  /** The tool. */
  readonly toolName: string;
  /** The caller, for a programmatic call. */
  readonly callerId?: string;
  /** The canonical method, when the call named one (an alias already resolved). */
  readonly method?: string;
  /** The alias the call used, when it used one. */
  readonly calledAs?: string;
}

/**
 * One handler per tool that `settle` runs (every tool not `mutation: true`), typed by the tool:
 * it takes the parsed input and returns (or resolves to) the tool's output. A missing handler
 * or one that returns the wrong shape is a `tsc` error.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, type ToolHandlers } from 'turngate';
 * class Tools extends defineTools({
 *   read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
 *   update_issue: { input: v.object({ id: v.string() }), output: v.object({ ok: v.boolean() }), mutation: true },
 * }) {}
 * const handlers: ToolHandlers<Tools> = { read_file: async ({ path }) => ({ text: `contents of ${path}` }) };
 * ```
 */
export type ToolHandlers<TTools extends ToolDefinitionsOf<TTools>> = {
  readonly [TName in ReadToolName<TTools>]: (
    input: ParsedToolInput<TTools, TName>,
    call: ToolCallInfo,
  ) => ToolOutput<TTools, TName> | Promise<ToolOutput<TTools, TName>>;
};

/**
 * The handler of `toolName` in a handler map: its own property only (a planted prototype field
 * is not one), `undefined` when absent or when reading it throws (a getter, a Proxy trap).
 * Internal: every place that runs a tool's handler by name reads it here.
 */
export function handlerOf(handlers: object, toolName: string): unknown {
  try {
    return Object.hasOwn(handlers, toolName) ? (handlers as Record<string, unknown>)[toolName] : undefined;
  } catch {
    return undefined;
  }
}

async function runOne(
  handler: unknown,
  toolName: string,
  input: unknown,
  info: ToolCallInfo,
): Promise<Result<unknown, unknown>> {
  if (typeof handler !== 'function') return { ok: false, failures: [undefined] };
  try {
    return { ok: true, value: await handler(input, info) };
  } catch (error) {
    return { ok: false, failures: [error ?? new Error(`${toolName} threw ${String(error)}`)] };
  }
}

/**
 * Runs every admitted call of a turn with its tool's handler and records exactly one terminal
 * result per call, like `Promise.allSettled`, so the turn can always close:
 * - a returned output that passes the tool's output schema (and is JSON data) is an `ok` result;
 * - anything else is that call's error result, never a failure of the batch (codes in
 *   `TOOL_ERROR_CODES`): `tool_error` when the handler throws (even `new Error('')`, a string or
 *   `undefined`; the error's own string `errorCode` or `code` wins, its boolean `retryable` is
 *   kept), `invalid_output` when the output fails its schema or is not JSON data (a cycle, a
 *   throwing getter, nesting deeper than a payload may), `no_handler` when no handler is given;
 * - a refused call is answered with its refusal (`unknown_tool`, `caller_not_allowed`,
 *   `unknown_method`, `invalid_input`, `parallel_call_refused`);
 * - a `mutation: true` call is not run: it is recorded pending (`mutation_pending`), for the
 *   mutation gate (`settleMutations`, or `admitMutation` then `performMutationTool`).
 * Handlers run concurrently.
 *
 * Source: ARCHITECTURE.md "Two ways the types see a turn" (2); HARNESS-TYPESTATE §3.2, §5.
 *
 * @param requests - `ToolRequests` (ids from model output).
 * @param handlers - One handler per tool that is not `mutation: true`.
 * @returns `ToolResults` with one result per call (a failure only if the join check itself
 *   refuses the rows, which these rows cannot make it do).
 * @throws {@link TypestateError} when `requests` was not minted by `requestTools`.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { callSpec, defineTools, requestTools, settle } from 'turngate';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } }) {}
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'claude-sonnet-4-5', actionMode: 'code' });
 * const requests = spec.ok ? requestTools(spec.value, Tools, [{ toolCallId: 'toolu_01', toolName: 'read_file', input: { path: 'a.md' } }]) : spec;
 * if (requests.ok) {
 *   const results = await settle(requests.value, { read_file: async () => { throw new Error(''); } });
 *   if (results.ok) results.value.results[0]?.status; //=> 'error'
 * }
 * ```
 */
export function settle<TRequests>(
  requests: StateArgument<TRequests, 'ToolRequests', 'call requestTools(spec, tools, calls) first'>,
  // NoInfer: the handlers are typed (contextually) by the registry, so a literal output keeps its
  // literal type (`{ state: 'green' }` for a picklist) instead of being widened, then compared.
  handlers: NoInfer<ToolHandlers<ToolsOf<TRequests>>>,
): Promise<Result<ToolResults<ToolsOf<TRequests>>>>;
export async function settle(requests: ToolRequests, handlers: object): Promise<Result<ToolResults>> {
  expectMinted(requests, 'ToolRequests');
  const definitions = registryDefinitions(requests.tools);
  const admitted = new Map(requests.requests.map((r) => [r.toolCallId, r]));
  const refused = new Map(requests.refused.map((r) => [r.toolCallId, r]));
  const rows = await Promise.all(
    requests.callIds.map(async (toolCallId): Promise<TypedRow> => {
      const no = refused.get(toolCallId);
      if (no !== undefined) {
        return { toolCallId, toolName: no.toolName, status: 'error', error: ownError(no.errorCode, no.failure.detail) };
      }
      const request = admitted.get(toolCallId);
      const toolName: string = request?.toolName ?? '';
      const definition = definitions[toolName];
      if (request === undefined || definition === undefined) {
        return {
          toolCallId,
          toolName,
          status: 'error',
          error: ownError('unknown_tool', `${toolName} is not in the registry`),
        };
      }
      if (definition.mutation === true) return { toolCallId, toolName, status: 'error', error: pendingError(toolName) };
      const info: ToolCallInfo = {
        toolCallId,
        toolName,
        ...(request.callerId === undefined ? {} : { callerId: request.callerId }),
        ...(request.method === undefined ? {} : { method: request.method }),
        ...(request.calledAs === undefined ? {} : { calledAs: request.calledAs }),
      };
      const handler = handlerOf(handlers, toolName);
      if (typeof handler !== 'function') {
        return {
          toolCallId,
          toolName,
          status: 'error',
          error: ownError('no_handler', `settle was given no handler for ${toolName}`),
        };
      }
      const ran = await runOne(handler, toolName, request.input, info);
      if (!ran.ok)
        return {
          toolCallId,
          toolName,
          status: 'error',
          error: thrownEnvelope(firstFailure(ran), 'tool_error', toolName),
        };
      const output = checkOutput(definition, toolName, ran.value);
      return output.ok
        ? { toolCallId, toolName, status: 'ok', output: output.value }
        : { toolCallId, toolName, status: 'error', error: ownError('invalid_output', firstFailure(output)) };
    }),
  );
  return mintResults(requests, rows);
}

/**
 * A decision about one result: a disposition that needs nothing more, or a row with what its
 * disposition needs (`consumed` needs evidence naming what the result was consumed into;
 * `discarded_with_reason` needs a `reasonCode`).
 *
 * @example
 * ```ts
 * import type { UseDecision } from 'turngate/types';
 * const decisions: UseDecision[] = ['observed', { disposition: 'consumed', evidence: { summaryRef: 'summary://1' } }];
 * ```
 */
export type UseDecision =
  | Exclude<ToolUseDisposition, 'consumed' | 'discarded_with_reason'>
  | Omit<ToolUseInputRow, 'toolCallId'>;

/**
 * Records exactly one disposition per result, decided by `decide`. A pending mutation call
 * (`mutation_pending`) is disposed of as `retry_scheduled` (reason `mutation_pending`) without
 * asking `decide`: the gate answers it.
 *
 * Failure classes: as `recordUse` (`mutation.use_evidence_missing` for a `consumed` decision
 * without evidence, `tool.schema_invalid` for `discarded_with_reason` without `reasonCode`).
 *
 * Source: ARCHITECTURE.md "Two ways the types see a turn" (2); TOOL-CALLING-HARNESS-TYPESTATE §4.4.
 *
 * @param results - `ToolResults` from {@link settle} or `recordResults`.
 * @param decide - Maps each result to its disposition.
 * @returns `ToolUse`, or failures.
 * @throws {@link TypestateError} when `results` was not minted by `recordResults`; whatever
 *   `decide` throws.
 * @example
 * ```ts
 * import { useAll, type ToolResults } from 'turngate';
 * declare const results: ToolResults;
 * const use = useAll(results, (r) => (r.status === 'ok' ? { disposition: 'consumed', evidence: { summaryRef: 'summary://1' } } : 'observed'));
 * ```
 */
export function useAll<TResults, const TDecision extends ToolUseDisposition | UseDecisionRow>(
  results: StateArgument<
    TResults,
    'ToolResults',
    'call settle(requests, handlers) or recordResults(requests, results) first'
  >,
  // The decisions, or (shown on the returned expression) the rule a decision breaks.
  decide: (result: ToolResult<ToolsOf<TResults>>) => UseDecisionCheck<TDecision>,
): Result<ToolUse<ToolsOf<TResults>>>;
export function useAll(
  results: ToolResults,
  decide: (result: ToolResult<ToolDefinitions>) => unknown,
): Result<ToolUse> {
  expectMinted(results, 'ToolResults');
  return recordUse(
    results,
    results.results.map((result): ToolUseInputRow => {
      if (isPendingMutation(result)) {
        return { toolCallId: result.toolCallId, disposition: 'retry_scheduled', reasonCode: 'mutation_pending' };
      }
      // The overload's type checks each decision; recordUse checks it again at run time.
      const decision = decide(result) as ToolUseDisposition | UseDecisionRow;
      return typeof decision === 'string'
        ? { toolCallId: result.toolCallId, disposition: decision }
        : { ...decision, toolCallId: result.toolCallId };
    }),
  );
}
