/**
 * Closure by construction for ids from model output: one result per request, one disposition
 * per result.
 *
 * @module
 */
import type { Result } from '../failures/index.ts';
import { expectMinted } from '../typestate/brand.ts';
import {
  recordResults,
  recordUse,
  type AnyToolRequest,
  type ToolErrorEnvelope,
  type ToolResult,
  type ReportedToolResult,
  type ToolResults,
  type ToolRequests,
  type ToolUse,
  type ToolUseInputRow,
} from '../typestate/index.ts';
import type { ToolDefinitions } from '../typestate/tools.ts';
import type { ToolUseDisposition } from '../normalize/index.ts';

/**
 * The error code of a `mutation: true` tool that `settle` refuses to run before `MutationReady`.
 *
 * @example
 * ```ts
 * import { MUTATION_NOT_ADMITTED, type ToolDefinitions, type ToolResult } from 'turngate';
 * declare const result: ToolResult<ToolDefinitions>;
 * const skipped = result.status === 'error' && result.error.errorCode === MUTATION_NOT_ADMITTED;
 * ```
 */
export const MUTATION_NOT_ADMITTED = 'mutation_not_admitted';

function envelopeOf(error: unknown): ToolErrorEnvelope {
  const e = (error ?? {}) as { code?: unknown; errorCode?: unknown; retryable?: unknown; message?: unknown };
  const code =
    typeof e.errorCode === 'string' && e.errorCode.trim() !== ''
      ? e.errorCode
      : typeof e.code === 'string' && e.code.trim() !== ''
        ? e.code
        : 'tool_error';
  return {
    errorCode: code,
    retryable: typeof e.retryable === 'boolean' ? e.retryable : false,
    errorMessage: typeof e.message === 'string' ? e.message : String(error),
  };
}

/**
 * Runs every requested tool call and records exactly one terminal result per request, like
 * `Promise.allSettled`: a returned value is an `ok` result (validated against the tool's output
 * schema), a thrown error becomes an error result with a typed envelope (`errorCode` from the
 * error's `errorCode` or `code`, else `tool_error`; `retryable` from the error, else `false`;
 * `errorMessage` from its message). A `mutation: true` tool is not run: its result is an error
 * `mutation_not_admitted` (side effects wait for `MutationReady`).
 *
 * Failure classes: as `recordResults` (`tool.schema_invalid` for an output that fails its schema).
 *
 * Source: ARCHITECTURE.md "Two ways the types see a turn" (2); HARNESS-TYPESTATE §5.
 *
 * @param requests - `ToolRequests` (ids from model output).
 * @param run - Runs one call; called concurrently for all of them.
 * @returns `ToolResults` with one result per request, or failures.
 * @throws {@link TypestateError} when `requests` was not minted by `requestTools`.
 * @example
 * ```ts
 * import { settle, type ToolRequests } from 'turngate';
 * declare const requests: ToolRequests;
 * const results = await settle(requests, async (request) => ({ echoed: request.toolName }));
 * ```
 */
export async function settle<TTools extends ToolDefinitions>(
  requests: ToolRequests<TTools>,
  run: (request: AnyToolRequest<TTools>) => unknown,
): Promise<Result<ToolResults<TTools>>> {
  expectMinted(requests, 'ToolRequests');
  const settled = await Promise.allSettled(
    requests.requests.map(async (request) => {
      if (requests.tools.definitions[request.toolName]?.mutation === true) {
        throw {
          errorCode: MUTATION_NOT_ADMITTED,
          retryable: false,
          message: `${request.toolName} is a mutation tool: run it with performMutation after admitMutation`,
        };
      }
      return run(request);
    }),
  );
  const results: ReportedToolResult[] = settled.map((outcome, i) => {
    const toolCallId = (requests.requests[i] as AnyToolRequest<TTools>).toolCallId;
    return outcome.status === 'fulfilled'
      ? { toolCallId, status: 'ok', output: outcome.value }
      : { toolCallId, status: 'error', error: envelopeOf(outcome.reason) };
  });
  return recordResults(requests, results);
}

/**
 * A decision about one result: a disposition, or a disposition with reason code and evidence.
 *
 * @example
 * ```ts
 * import type { UseDecision } from 'turngate';
 * const decisions: UseDecision[] = ['observed', { disposition: 'consumed', evidence: { summaryRef: 'summary://1' } }];
 * ```
 */
export type UseDecision = ToolUseDisposition | Omit<ToolUseInputRow, 'toolCallId'>;

/**
 * Records exactly one disposition per result, decided by `decide`.
 *
 * Failure classes: as `recordUse`.
 *
 * Source: ARCHITECTURE.md "Two ways the types see a turn" (2); TOOL-CALLING-HARNESS-TYPESTATE §4.4.
 *
 * @param results - `ToolResults` from {@link settle} or `recordResults`.
 * @param decide - Maps each result to its disposition.
 * @returns `ToolUse`, or failures.
 * @throws {@link TypestateError} when `results` was not minted by `recordResults`.
 * @example
 * ```ts
 * import { useAll, type ToolResults } from 'turngate';
 * declare const results: ToolResults;
 * const use = useAll(results, (r) => (r.status === 'ok' ? { disposition: 'consumed', evidence: { summaryRef: 'summary://1' } } : 'observed'));
 * ```
 */
export function useAll<TTools extends ToolDefinitions>(
  results: ToolResults<TTools>,
  decide: (result: ToolResult<TTools>) => UseDecision,
): Result<ToolUse<TTools>> {
  expectMinted(results, 'ToolResults');
  return recordUse(
    results,
    results.results.map((result) => {
      const decision = decide(result);
      return typeof decision === 'string'
        ? { toolCallId: result.toolCallId, disposition: decision }
        : { ...decision, toolCallId: result.toolCallId };
    }),
  );
}
