/**
 * `ToolUse`: one disposition per result (`recordUse`).
 *
 * @module
 */
import type { Result } from '../failures/index.ts';
import type { ToolUseDisposition } from '../normalize/index.ts';
import { deepFreeze, expectMinted, mint, type Branded } from './brand.ts';
import type { ToolResults } from './record-results.ts';
import { check, failed, requestRows, resultRows, STAGE_PROTOCOL, useRows } from './rows.ts';
import type { ToolDefinitions } from './tools.ts';

/**
 * Provenance of a `consumed` result: what it was consumed into. `admitMutation` requires one of
 * these refs on every consumed row. Source: TOOL-CALLING-HARNESS-TYPESTATE §4.4.
 *
 * @example
 * ```ts
 * import type { UseEvidence } from 'turngate';
 * declare const value: UseEvidence;
 * value.summaryRef;
 * ```
 */
export interface UseEvidence {
  /** The summary that used the result. */
  readonly summaryRef?: string;
  /** The handoff packet that carried it. */
  readonly handoffRef?: string;
  /** The mutation input built from it. */
  readonly mutationInputRef?: string;
}

/**
 * What the turn did with one result.
 *
 * @example
 * ```ts
 * import type { ToolUseInputRow } from 'turngate';
 * declare const value: ToolUseInputRow;
 * value.toolCallId;
 * ```
 */
export interface ToolUseInputRow {
  readonly toolCallId: string;
  readonly disposition: ToolUseDisposition;
  /** Required for `discarded_with_reason`. */
  readonly reasonCode?: string;
  /** For `consumed`: what the result was consumed into. */
  readonly evidence?: UseEvidence;
}

/**
 * A recorded tool-use row, bound to the digest of the result it used.
 *
 * @example
 * ```ts
 * import type { ToolUseRow } from 'turngate';
 * declare const value: ToolUseRow;
 * value.resultDigest;
 * ```
 */
export interface ToolUseRow extends ToolUseInputRow {
  /** The digest of the result used, when the result was `ok`. */
  readonly resultDigest?: string;
}

/**
 * The tool-use dispositions of the results.
 *
 * @example
 * ```ts
 * import { closeJoin, type ToolUse } from 'turngate';
 * declare const use: ToolUse;
 * closeJoin(use, { protocolState: { stopReason: 'end_turn' } });
 * ```
 */
export type ToolUse<TTools extends ToolDefinitions = ToolDefinitions> = Branded<
  'ToolUse',
  { readonly results: ToolResults<TTools>; readonly uses: readonly ToolUseRow[] }
>;

/**
 * Mints `ToolUse`: one disposition per result. `consumed` rows are bound to the digest of the
 * result they used.
 *
 * Failure classes: `tool.use_without_result` (a disposition for a call without a result),
 * `tool.schema_invalid` (an unknown disposition, a `discarded_with_reason` row without
 * `reasonCode`, two different dispositions for one call).
 *
 * Source: HARNESS-TYPESTATE §5; TOOL-CALLING-HARNESS-TYPESTATE §4.4.
 *
 * @param results - `ToolResults` from {@link recordResults}.
 * @param uses - The dispositions.
 * @returns `ToolUse`, or failures.
 * @throws {@link TypestateError} when `results` was not minted by {@link recordResults}.
 *
 * @example
 * ```ts
 * import { recordUse, type ToolResults } from 'turngate';
 * declare const results: ToolResults;
 * recordUse(results, [
 *   { toolCallId: 'toolu_01', disposition: 'consumed', evidence: { summaryRef: 'summary://turn-1' } },
 *   { toolCallId: 'toolu_02', disposition: 'discarded_with_reason', reasonCode: 'stale' },
 * ]);
 * ```
 */
export function recordUse<TTools extends ToolDefinitions>(
  results: ToolResults<TTools>,
  uses: readonly ToolUseInputRow[],
): Result<ToolUse<TTools>> {
  expectMinted(results, 'ToolResults');
  const digests = new Map(results.results.map((r) => [r.toolCallId, r.status === 'ok' ? r.resultDigest : undefined]));
  const rows: ToolUseRow[] = uses.map((u) => {
    const digest = digests.get(u.toolCallId);
    return digest === undefined ? { ...u } : { ...u, resultDigest: digest };
  });
  // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
  const draft = { results, uses: rows } as unknown as ToolUse<TTools>;
  const checked = check({
    evidence: {
      callSpec: results.requests.callSpec.spec,
      toolRequests: requestRows(results.requests),
      toolResults: resultRows(results),
      toolUse: useRows(draft),
      protocolState: STAGE_PROTOCOL,
    },
  });
  if (!checked.ok) return failed([checked.failure]);
  const stage = checked.report.failures.filter((f) => f.class === 'tool.use_without_result');
  if (stage.length > 0) return failed([...stage]);
  return { ok: true, value: mint('ToolUse', { results, uses: deepFreeze(rows) }) };
}
