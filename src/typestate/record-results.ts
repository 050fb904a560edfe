/**
 * `ToolResults`: the terminal results of requested calls (`recordResults`).
 *
 * @module
 */
import type { Failure, Result } from '../failures/index.ts';
import { deepFreeze, expectMinted, mint, type Branded } from './brand.ts';
import type { ToolRequests } from './request-tools.ts';
import type { ReportedToolResult, ToolResult } from './results.ts';
import { check, fail, failed, requestRows, resultRows, STAGE_PROTOCOL } from './rows.ts';
import { formatIssues, validateWith, type ToolDefinitions } from './tools.ts';

/**
 * The terminal results recorded so far.
 *
 * @example
 * ```ts
 * import { useAll, type ToolResults } from 'turngate';
 * declare const results: ToolResults;
 * useAll(results, (r) => (r.status === 'ok' ? 'observed' : { disposition: 'discarded_with_reason', reasonCode: r.error.errorCode }));
 * ```
 */
export type ToolResults<TTools extends ToolDefinitions = ToolDefinitions> = Branded<
  'ToolResults',
  { readonly requests: ToolRequests<TTools>; readonly results: readonly ToolResult<TTools>[] }
>;

/**
 * Mints `ToolResults`: the terminal results of requested calls. An `ok` output is validated
 * against its tool's output schema and digested; an error carries the typed envelope.
 *
 * Failure classes (from the join check where it applies): `tool.result_orphan` (a result for a
 * call never requested), `tool.schema_invalid` (output fails its schema or is not JSON; an
 * error envelope with a blank code; two different results for one call).
 *
 * Source: HARNESS-TYPESTATE §3.2, §5; TOOL-CALLING-HARNESS-TYPESTATE §4.3.
 *
 * @param requests - `ToolRequests` from {@link requestTools}.
 * @param results - One result per call answered so far.
 * @returns `ToolResults`, or failures.
 * @throws {@link TypestateError} when `requests` was not minted by {@link requestTools}.
 *
 * @example
 * ```ts
 * import { recordResults, type ToolRequests } from 'turngate';
 * declare const requests: ToolRequests;
 * recordResults(requests, [
 *   { toolCallId: 'toolu_01', status: 'ok', output: { text: '# turngate' } },
 *   { toolCallId: 'toolu_02', status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'no answer in 5 s' } },
 * ]);
 * ```
 */
export function recordResults<TTools extends ToolDefinitions>(
  requests: ToolRequests<TTools>,
  results: readonly ReportedToolResult[],
): Result<ToolResults<TTools>> {
  expectMinted(requests, 'ToolRequests');
  const byId = new Map(requests.requests.map((r) => [r.toolCallId, r]));
  const failures: Failure[] = [];
  const typed: ToolResult<TTools>[] = [];
  for (const result of results) {
    const request = byId.get(result.toolCallId);
    const toolName = request?.toolName ?? '';
    if (result.status === 'ok') {
      const definition = request === undefined ? undefined : requests.tools.definitions[request.toolName];
      const output =
        definition === undefined
          ? { ok: true as const, value: result.output }
          : validateWith(definition.output, result.output);
      if (!output.ok) {
        failures.push(
          fail(
            'tool.schema_invalid',
            `output of ${toolName} does not match its schema: ${formatIssues(output.issues)}`,
            [result.toolCallId],
          ),
        );
        continue;
      }
      // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
      typed.push({
        toolCallId: result.toolCallId,
        toolName,
        status: 'ok',
        output: output.value,
        resultDigest: '',
      } as never);
    } else {
      // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
      typed.push({ toolCallId: result.toolCallId, toolName, status: 'error', error: { ...result.error } } as never);
    }
  }
  if (failures.length > 0) return failed(failures);
  // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
  const draft = { requests, results: typed } as unknown as ToolResults<TTools>;
  const checked = check({
    evidence: {
      callSpec: requests.callSpec.spec,
      toolRequests: requestRows(requests),
      toolResults: resultRows(draft),
      protocolState: STAGE_PROTOCOL,
    },
  });
  if (!checked.ok) return failed([checked.failure]);
  const stage = checked.report.failures.filter(
    (f) => f.class === 'tool.result_orphan' || f.class === 'tool.schema_invalid',
  );
  if (stage.length > 0) return failed([...stage]);
  const digests = new Map((checked.report.normalized.toolResults ?? []).map((r) => [r.toolCallId, r.resultDigest]));
  const bound = typed.map((r) =>
    r.status === 'ok' ? { ...r, resultDigest: digests.get(r.toolCallId) as string } : r,
  ) as ToolResult<TTools>[];
  return { ok: true, value: mint('ToolResults', { requests, results: deepFreeze(bound) }) };
}
