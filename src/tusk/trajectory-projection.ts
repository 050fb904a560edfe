/**
 * The deterministic projection of a trajectory (`premath.harness.trajectory.projection.v1`): the
 * result classes that count as success or ask for a retry, the rows' order, and the projection
 * by mode. Pure.
 *
 * @module
 */
import { compareUtf8, trimWhiteSpace } from '../canonical/index.ts';
import { HarnessInputError } from './errors.ts';
import { compareInstants, parseRfc3339, type Instant } from './time.ts';
import { TRAJECTORY_PROJECTION_KIND, type TrajectoryRow } from './trajectory.ts';
import { quote } from '../internal/display.ts';

/**
 * The projection modes: `latest` (every row), `failed` (rows whose result class is not a
 * success class), `retry-needed` (rows whose result class names a retry, transient, timeout,
 * network or rate-limit outcome). `retry_needed` is accepted as well.
 *
 * @example
 * ```ts
 * import type { TrajectoryProjectionMode } from 'turngate/tusk';
 * const mode: TrajectoryProjectionMode = 'retry-needed';
 * ```
 */
export type TrajectoryProjectionMode = 'latest' | 'failed' | 'retry-needed' | 'retry_needed';

/**
 * The result classes that count as success, after normalizing (trimmed, lowercased, `-` as `_`).
 *
 * Source: premath's trajectory projection and KPI benchmark (the canonical success classes of
 * the Tusk harness contract §13).
 *
 * @example
 * ```ts
 * import { SUCCESS_RESULT_CLASSES } from 'turngate/tusk';
 * SUCCESS_RESULT_CLASSES.includes('completed'); //=> true
 * ```
 */
export const SUCCESS_RESULT_CLASSES: readonly string[] = Object.freeze([
  'accepted',
  'verified_accept',
  'completed',
  'success',
  'ok',
  'passed',
]);

const RETRY_MARKERS = ['retry', 'transient', 'timeout', 'network', 'rate_limit'];

function normalizeResultClass(value: string): string {
  return trimWhiteSpace(value).toLowerCase().replaceAll('-', '_');
}

/**
 * Whether a result class is a success (one of {@link SUCCESS_RESULT_CLASSES} after normalizing).
 *
 * @param resultClass - A row's result class.
 * @returns `true` for a success.
 * @example
 * ```ts
 * import { isSuccessResultClass } from 'turngate/tusk';
 * [isSuccessResultClass(' Verified-Accept '), isSuccessResultClass('failed_check_failed')]; //=> [true, false]
 * ```
 */
export function isSuccessResultClass(resultClass: string): boolean {
  return SUCCESS_RESULT_CLASSES.includes(normalizeResultClass(resultClass));
}

/**
 * Whether a result class asks for a retry: its normalized text contains `retry`, `transient`,
 * `timeout`, `network` or `rate_limit`.
 *
 * @param resultClass - A row's result class.
 * @returns `true` when a retry is needed.
 * @example
 * ```ts
 * import { isRetryNeededResultClass } from 'turngate/tusk';
 * [isRetryNeededResultClass('retry_needed_flaky_io'), isRetryNeededResultClass('Rate-Limited')]; //=> [true, true]
 * ```
 */
export function isRetryNeededResultClass(resultClass: string): boolean {
  const normalized = normalizeResultClass(resultClass);
  return RETRY_MARKERS.some((marker) => normalized.includes(marker));
}

/**
 * The deterministic projection of a trajectory.
 *
 * @example
 * ```ts
 * import type { TrajectoryProjection } from 'turngate/tusk';
 * declare const projection: TrajectoryProjection;
 * const shown = `${projection.count} of ${projection.totalCount}`;
 * ```
 */
export interface TrajectoryProjection {
  /** Always `premath.harness.trajectory.projection.v1`. */
  readonly projectionKind: typeof TRAJECTORY_PROJECTION_KIND;
  /** The mode, as premath writes it: `latest`, `failed` or `retry_needed`. */
  readonly mode: 'latest' | 'failed' | 'retry_needed';
  /** How many items are returned. */
  readonly count: number;
  /** How many rows there are. */
  readonly totalCount: number;
  /** How many rows failed. */
  readonly failedCount: number;
  /** How many rows need a retry. */
  readonly retryNeededCount: number;
  /** The selected rows, newest first, at most `limit`. */
  readonly items: readonly TrajectoryRow[];
}

function instant(row: TrajectoryRow): Instant {
  return parseRfc3339(row.finishedAt) as Instant;
}

/**
 * The projection order: `finishedAt` descending (as instants, so offsets compare correctly),
 * then `stepId` ascending, then `action` ascending (UTF-8 byte order).
 *
 * Source: the Tusk harness contract §12 (ordering); HARNESS-RUNTIME §6.
 *
 * @param a - A row.
 * @param b - Another row.
 * @returns A number whose sign orders them.
 * @example
 * ```ts
 * import { compareTrajectoryRows, normalizeTrajectoryRow } from 'turngate/tusk';
 * const row = (stepId: string, finishedAt: string) => normalizeTrajectoryRow({ stepId, action: 'a', resultClass: 'ok', finishedAt });
 * [row('s-1', '2026-02-22T01:00:00Z'), row('s-2', '2026-02-22T02:00:00+01:00'), row('s-0', '2026-02-22T01:30:00Z')]
 *   .sort(compareTrajectoryRows).map((r) => r.stepId); //=> ['s-0', 's-1', 's-2']
 * ```
 */
export function compareTrajectoryRows(a: TrajectoryRow, b: TrajectoryRow): number {
  return compareInstants(instant(b), instant(a)) || compareUtf8(a.stepId, b.stepId) || compareUtf8(a.action, b.action);
}

/**
 * Projects trajectory rows: sorts them ({@link compareTrajectoryRows}), counts every row, the
 * failed rows and the retry-needed rows, and returns at most `limit` rows of the mode.
 *
 * Source: the Tusk harness contract §12 (deterministic projection); HARNESS-RUNTIME §6.
 *
 * @param rows - Normalized rows (e.g. from {@link parseTrajectoryText}).
 * @param options - The mode (default `latest`) and the limit (default 20).
 * @returns The projection.
 * @throws {@link HarnessInputError} for an unknown mode or a limit that is not a non-negative integer.
 * @example
 * ```ts
 * import { normalizeTrajectoryRow, projectTrajectory } from 'turngate/tusk';
 * const rows = [
 *   normalizeTrajectoryRow({ stepId: 'step-a', action: 'apply.patch', resultClass: 'accepted', finishedAt: '2026-02-22T01:01:00Z' }),
 *   normalizeTrajectoryRow({ stepId: 'step-b', action: 'apply.patch', resultClass: 'transient_failure', finishedAt: '2026-02-22T01:03:00Z' }),
 *   normalizeTrajectoryRow({ stepId: 'step-c', action: 'apply.patch', resultClass: 'policy_reject', finishedAt: '2026-02-22T01:02:00Z' }),
 * ];
 * const failed = projectTrajectory(rows, { mode: 'failed' });
 * [failed.items.map((r) => r.stepId), failed.failedCount, failed.retryNeededCount]; //=> [['step-b', 'step-c'], 2, 1]
 * ```
 */
export function projectTrajectory(
  rows: readonly TrajectoryRow[],
  options: { readonly mode?: TrajectoryProjectionMode; readonly limit?: number } = {},
): TrajectoryProjection {
  const mode = options.mode ?? 'latest';
  if (!['latest', 'failed', 'retry-needed', 'retry_needed'].includes(mode)) {
    throw new HarnessInputError('mode', `expected latest, failed or retry-needed, received ${quote(mode)}`);
  }
  const limit = options.limit ?? 20;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new HarnessInputError('limit', `expected a non-negative integer, received ${String(limit)}`);
  }
  const sorted = [...rows].sort(compareTrajectoryRows);
  const failed = sorted.filter((row) => !isSuccessResultClass(row.resultClass));
  const retryNeeded = sorted.filter((row) => isRetryNeededResultClass(row.resultClass));
  const selected = mode === 'latest' ? sorted : mode === 'failed' ? failed : retryNeeded;
  const items = selected.slice(0, limit);
  return Object.freeze({
    projectionKind: TRAJECTORY_PROJECTION_KIND,
    mode: mode === 'retry-needed' ? 'retry_needed' : mode,
    count: items.length,
    totalCount: sorted.length,
    failedCount: failed.length,
    retryNeededCount: retryNeeded.length,
    items,
  });
}
