/**
 * `turngate harness-kpi`: the multithread throughput KPI of the Tusk harness contract §13 over
 * a trajectory file, with the flags and report of premath's benchmark.
 *
 * @module
 */
import { resolve } from 'node:path';
import { JsonNumber, formatF64 } from '../canonical/index.ts';
import { DEFAULT_SESSION_PATH, DEFAULT_TRAJECTORY_PATH, computeKpi, readTrajectory } from '../tusk/index.ts';
import {
  failed,
  flags,
  humanLines,
  jsonOutput,
  numberFlag,
  printed,
  type HarnessCommandOutput,
} from './harness-common.ts';
import { firstFailure } from '../failures/internal.ts';

const COMMAND = 'harness-kpi';
const PREFIX = 'harness_kpi_invalid:';

/** The command's help text. */
export const HARNESS_KPI_USAGE = `Usage: turngate harness-kpi [--trajectory-path <file>] [--window-hours <n>] [--target-kpi <x>]
                           [--rollback-kpi <x>] [--min-sample-rows <n>] [--window-end <rfc3339>]
                           [--json] [--fail-on-rollback]

The throughput KPI (premath.multithread.throughput.v1) over the trajectory rows whose
finishedAt falls in the window:
  kpi = throughput_per_worker_per_day * gate_pass_rate
  throughput_per_worker_per_day = completed_rows * (24 / window_hours) / max(active_workers, 1)
  gate_pass_rate = completed_rows / window_rows
Decision: insufficient_data (fewer window rows than the minimum), rollback (kpi < rollback),
watch (kpi < target), pass.

Options:
  --trajectory-path <file>   the trajectory (default ${DEFAULT_TRAJECTORY_PATH})
  --window-hours <n>         the window length (default 24)
  --window-end <rfc3339>     the window end (default: the latest row's finishedAt)
  --target-kpi <x>           the target (default 0.8)
  --rollback-kpi <x>         the rollback threshold (default 0.4)
  --min-sample-rows <n>      the minimum window rows (default 3)
  --session-path <file>      the session, named in the report's refs (default ${DEFAULT_SESSION_PATH})
  --issues-path <file>       the issue memory, named in the report's refs (default .premath/issues.jsonl)
  --json                     print the report as JSON (sorted keys)
  --fail-on-rollback         exit 1 when the decision is rollback

Exit codes: 0 report printed, 1 rollback with --fail-on-rollback or a file could not be read,
2 invalid input or usage (one stderr line starting ${PREFIX}).
`;

/**
 * Runs `turngate harness-kpi ...`.
 *
 * @param argv - The arguments after `harness-kpi`.
 * @returns What to print and the exit code.
 */
export async function harnessKpiCommand(argv: readonly string[]): Promise<HarnessCommandOutput> {
  if (argv.includes('--help') || argv.includes('-h')) return printed(HARNESS_KPI_USAGE);
  const parsed = flags(COMMAND, argv, {
    'trajectory-path': { type: 'string', default: DEFAULT_TRAJECTORY_PATH },
    'session-path': { type: 'string', default: DEFAULT_SESSION_PATH },
    'issues-path': { type: 'string', default: '.premath/issues.jsonl' },
    'window-hours': { type: 'string' },
    'window-end': { type: 'string' },
    'target-kpi': { type: 'string' },
    'rollback-kpi': { type: 'string' },
    'min-sample-rows': { type: 'string' },
    json: { type: 'boolean', default: false },
    'fail-on-rollback': { type: 'boolean', default: false },
  });
  if (!parsed.ok) return firstFailure(parsed);
  const v = parsed.value;
  const windowHours = numberFlag(COMMAND, 'window-hours', v['window-hours'], 24, 'integer');
  if (typeof windowHours !== 'number') return windowHours;
  const minSampleRows = numberFlag(COMMAND, 'min-sample-rows', v['min-sample-rows'], 3, 'integer');
  if (typeof minSampleRows !== 'number') return minSampleRows;
  const targetKpi = numberFlag(COMMAND, 'target-kpi', v['target-kpi'], 0.8, 'number');
  if (typeof targetKpi !== 'number') return targetKpi;
  const rollbackKpi = numberFlag(COMMAND, 'rollback-kpi', v['rollback-kpi'], 0.4, 'number');
  if (typeof rollbackKpi !== 'number') return rollbackKpi;
  try {
    const read = await readTrajectory(v['trajectory-path']);
    const report = computeKpi(read.rows, {
      windowHours,
      minSampleRows,
      targetKpi,
      rollbackKpi,
      ...(v['window-end'] === undefined ? {} : { windowEnd: v['window-end'] }),
    });
    const exitCode = v['fail-on-rollback'] && report.decision.state === 'rollback' ? 1 : 0;
    const warning =
      read.tornTail === undefined
        ? ''
        : humanLines([
            `turngate harness-kpi: ${v['trajectory-path']} line ${read.tornTail.line} is torn (no line end); it was not counted.`,
          ]);
    if (v.json) {
      // Ratios and thresholds are floats in the report (1.0, not 1), as premath's benchmark writes them.
      const float = (x: number) => new JsonNumber(formatF64(x));
      const body = {
        ...report,
        ratios: Object.fromEntries(Object.entries(report.ratios).map(([k, x]) => [k, float(x)])),
        thresholds: {
          ...report.thresholds,
          targetKpi: float(report.thresholds.targetKpi),
          rollbackKpi: float(report.thresholds.rollbackKpi),
        },
        refs: {
          trajectoryPath: resolve(v['trajectory-path']),
          sessionPath: resolve(v['session-path']),
          issuesPath: resolve(v['issues-path']),
        },
        ...(read.tornTail === undefined ? {} : { tornTail: read.tornTail }),
      };
      return printed(jsonOutput(body), exitCode, warning);
    }
    const { counts, ratios, thresholds, decision } = report;
    const text = [
      '[harness-kpi] deterministic throughput benchmark',
      `  window: ${report.windowStart} -> ${report.windowEnd} (${report.windowHours}h)`,
      `  counts: rows=${counts.windowRows} completed=${counts.completedRows} failed=${counts.failedRows} workers=${counts.activeWorkers}`,
      `  ratios: pass_rate=${ratios.gatePassRate} throughput_per_worker_day=${ratios.throughputPerWorkerPerDay} kpi=${ratios.kpi}`,
      `  thresholds: target=${thresholds.targetKpi} rollback=${thresholds.rollbackKpi} min_rows=${thresholds.minSampleRows}`,
      `  decision: ${decision.state} (${decision.reason})`,
    ];
    return printed(humanLines(text), exitCode, warning);
  } catch (error) {
    return failed(PREFIX, error);
  }
}
