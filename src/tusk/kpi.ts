/**
 * The multithread throughput KPI (`premath.multithread.throughput.v1`) over trajectory rows:
 * formula, window, thresholds and one decision state. Pure: the window end is a parameter.
 *
 * @module
 */
import { compareUtf8 } from '../canonical/index.ts';
import { HarnessInputError } from './errors.ts';
import { addHours, compareInstants, formatInstant, parseRfc3339, type Instant } from './time.ts';
import { isSuccessResultClass } from './trajectory-projection.ts';
import type { TrajectoryRow } from './trajectory.ts';
import { quote } from '../internal/display.ts';

/** The KPI kind. Source: the Tusk harness contract §13. */
export const KPI_KIND = 'premath.multithread.throughput.v1';

/**
 * The decision states: `pass` (KPI >= target), `watch` (rollback <= KPI < target), `rollback`
 * (KPI < rollback: pause expansion until remediation is recorded), `insufficient_data` (fewer
 * window rows than the minimum sample).
 *
 * @example
 * ```ts
 * import type { KpiDecisionState } from 'turngate/tusk';
 * const state: KpiDecisionState = 'watch';
 * ```
 */
export type KpiDecisionState = 'pass' | 'watch' | 'rollback' | 'insufficient_data';

/**
 * The KPI's parameters; every field has the contract's default.
 *
 * @example
 * ```ts
 * import type { KpiOptions } from 'turngate/tusk';
 * const options: KpiOptions = { windowHours: 24, targetKpi: 0.8, rollbackKpi: 0.4, minSampleRows: 3 };
 * ```
 */
export interface KpiOptions {
  /** The window length in hours, a positive integer (default 24). */
  readonly windowHours?: number;
  /** The target KPI, > 0 (default 0.8). */
  readonly targetKpi?: number;
  /** The rollback KPI, > 0 and below the target (default 0.4). */
  readonly rollbackKpi?: number;
  /** The minimum window rows for a threshold decision, a positive integer (default 3). */
  readonly minSampleRows?: number;
  /**
   * The window end (RFC 3339). Default: the latest row's `finishedAt` (1970-01-01T00:00:00Z
   * when there are no rows), so the same trajectory always gives the same report.
   */
  readonly windowEnd?: string;
}

/**
 * The KPI report, in the fields of premath's benchmark report (ratios rounded to 6 decimals,
 * half to even).
 *
 * @example
 * ```ts
 * import type { KpiReport } from 'turngate/tusk';
 * declare const report: KpiReport;
 * const paused = report.decision.state === 'rollback';
 * ```
 */
export interface KpiReport {
  /** Always 1. */
  readonly schema: 1;
  /** Always `premath.multithread.throughput.v1`. */
  readonly kpiKind: typeof KPI_KIND;
  /** The window length in hours. */
  readonly windowHours: number;
  /** The window start (RFC 3339, UTC). */
  readonly windowStart: string;
  /** The window end (RFC 3339, UTC). */
  readonly windowEnd: string;
  /** The counts. */
  readonly counts: {
    /** Rows with `windowStart <= finishedAt <= windowEnd`. */
    readonly windowRows: number;
    /** Window rows with an `issueId` and a success result class. */
    readonly completedRows: number;
    /** Window rows that are not completed. */
    readonly failedRows: number;
    /** Distinct workers (the `stepId` before its first `.`) among window rows with an `issueId`. */
    readonly activeWorkers: number;
    /** Those workers, sorted. */
    readonly workerIds: readonly string[];
  };
  /** The ratios. */
  readonly ratios: {
    /** `completed_rows / window_rows` (0 when there are no window rows). */
    readonly gatePassRate: number;
    /** `completed_rows * (24 / window_hours) / max(active_workers, 1)`. */
    readonly throughputPerWorkerPerDay: number;
    /** `throughput_per_worker_per_day * gate_pass_rate`. */
    readonly kpi: number;
  };
  /** The thresholds applied. */
  readonly thresholds: { readonly targetKpi: number; readonly rollbackKpi: number; readonly minSampleRows: number };
  /** The decision. */
  readonly decision: { readonly state: KpiDecisionState; readonly reason: string };
}

/** Rounds to 6 decimals with ties to even, as Python's `round(x, 6)` does. */
function round6(x: number): number {
  const exact = x.toFixed(100);
  const point = exact.indexOf('.');
  const rest = exact.slice(point + 7);
  if (/^50*$/.test(rest)) {
    const truncated = exact.slice(0, point + 7);
    const last = Number(truncated[truncated.length - 1]);
    if (last % 2 === 0) return Number(truncated);
  }
  return Number(x.toFixed(6));
}

function positiveInteger(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new HarnessInputError(field, `expected a positive integer, received ${String(value)}`);
  }
  return value;
}

function positive(value: number, field: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new HarnessInputError(field, `expected a number above 0, received ${String(value)}`);
  }
  return value;
}

function workerOf(stepId: string): string {
  return stepId.split('.', 1)[0] || 'unknown';
}

/**
 * Computes the throughput KPI over a trajectory:
 * `kpi = throughput_per_worker_per_day * gate_pass_rate`, with
 * `throughput_per_worker_per_day = completed_rows_per_day / max(active_workers, 1)`,
 * `completed_rows_per_day = completed_rows * (24 / window_hours)` and
 * `gate_pass_rate = completed_rows / window_rows`, over the rows whose `finishedAt` falls in the
 * window; then one decision state (`insufficient_data`, else `rollback`, `watch` or `pass`).
 *
 * Source: the Tusk harness contract §13 (formula, procedure, thresholds, decision states).
 *
 * @param rows - Normalized trajectory rows.
 * @param options - Window and thresholds.
 * @returns The report.
 * @throws {@link HarnessInputError} for a bad option (`windowHours`, `targetKpi`, ...).
 * @example
 * ```ts
 * import { computeKpi, normalizeTrajectoryRow } from 'turngate/tusk';
 * const row = (stepId: string, resultClass: string, finishedAt: string) =>
 *   normalizeTrajectoryRow({ stepId, issueId: 'bd-1', action: 'worker.loop', resultClass, finishedAt });
 * const report = computeKpi([
 *   row('w1.bd-1.1', 'completed', '2026-02-22T10:00:00Z'),
 *   row('w1.bd-2.1', 'completed', '2026-02-22T11:00:00Z'),
 *   row('w2.bd-3.1', 'failed_check_failed', '2026-02-22T12:00:00Z'),
 * ]);
 * [report.ratios.gatePassRate, report.ratios.kpi, report.decision.state]; //=> [0.666667, 0.666667, 'watch']
 * ```
 */
export function computeKpi(rows: readonly TrajectoryRow[], options: KpiOptions = {}): KpiReport {
  const windowHours = positiveInteger(options.windowHours ?? 24, 'windowHours');
  const minSampleRows = positiveInteger(options.minSampleRows ?? 3, 'minSampleRows');
  const targetKpi = positive(options.targetKpi ?? 0.8, 'targetKpi');
  const rollbackKpi = positive(options.rollbackKpi ?? 0.4, 'rollbackKpi');
  if (targetKpi <= rollbackKpi) {
    throw new HarnessInputError(
      'targetKpi',
      `expected a target above the rollback KPI ${rollbackKpi}, received ${targetKpi}`,
    );
  }
  const timed = rows.map((row) => ({ row, at: parseRfc3339(row.finishedAt) as Instant }));
  let windowEnd: Instant;
  if (options.windowEnd !== undefined) {
    const end = parseRfc3339(options.windowEnd);
    if (end === undefined) {
      throw new HarnessInputError('windowEnd', `expected an RFC 3339 timestamp, received ${quote(options.windowEnd)}`);
    }
    windowEnd = end;
  } else {
    windowEnd = timed.reduce<Instant>(
      (latest, { at }) => (compareInstants(at, latest) > 0 ? at : latest),
      timed[0]?.at ?? { seconds: 0, nanos: 0 },
    );
  }
  const windowStart = addHours(windowEnd, -windowHours);
  const inWindow = timed
    .filter(({ at }) => compareInstants(windowStart, at) <= 0 && compareInstants(at, windowEnd) <= 0)
    .map(({ row }) => row);
  const windowRows = inWindow.length;
  const completedRows = inWindow.filter(
    (row) => row.issueId !== undefined && isSuccessResultClass(row.resultClass),
  ).length;
  const workerIds = [
    ...new Set(inWindow.filter((row) => row.issueId !== undefined).map((row) => workerOf(row.stepId))),
  ].sort(compareUtf8);
  const gatePassRate = windowRows > 0 ? completedRows / windowRows : 0;
  const completedPerDay = completedRows * (24 / windowHours);
  const throughputPerWorkerPerDay = completedPerDay / Math.max(workerIds.length, 1);
  const kpi = throughputPerWorkerPerDay * gatePassRate;
  const decision: KpiReport['decision'] =
    windowRows < minSampleRows
      ? { state: 'insufficient_data', reason: 'window row count below minimum sample threshold' }
      : kpi < rollbackKpi
        ? { state: 'rollback', reason: 'kpi below rollback threshold' }
        : kpi < targetKpi
          ? { state: 'watch', reason: 'kpi below target threshold' }
          : { state: 'pass', reason: 'kpi at or above target threshold' };
  return Object.freeze({
    schema: 1,
    kpiKind: KPI_KIND,
    windowHours,
    windowStart: formatInstant(windowStart),
    windowEnd: formatInstant(windowEnd),
    counts: {
      windowRows,
      completedRows,
      failedRows: windowRows - completedRows,
      activeWorkers: workerIds.length,
      workerIds,
    },
    ratios: {
      gatePassRate: round6(gatePassRate),
      throughputPerWorkerPerDay: round6(throughputPerWorkerPerDay),
      kpi: round6(kpi),
    },
    thresholds: { targetKpi: round6(targetKpi), rollbackKpi: round6(rollbackKpi), minSampleRows },
    decision,
  });
}
