/**
 * `turngate harness-trajectory append|query|repair`: the trajectory of the Tusk harness
 * contract §12 on the command line, with premath's flags and `--json` output.
 *
 * @module
 */
import {
  DEFAULT_TRAJECTORY_PATH,
  appendTrajectoryRow,
  projectTrajectory,
  readTrajectory,
  repairTrajectory,
  type TornTail,
} from '../tusk/index.ts';
import {
  failed,
  flags,
  humanLines,
  jsonOutput,
  numberFlag,
  printed,
  runVerb,
  usage,
  type HarnessCommandOutput,
} from './harness-common.ts';
import { quote } from '../internal/display.ts';
import { firstFailure } from '../failures/internal.ts';

const COMMAND = 'harness-trajectory';
const PREFIX = 'harness_trajectory_invalid:';

/** The command's help text. */
export const HARNESS_TRAJECTORY_USAGE = `Usage: turngate harness-trajectory append --step-id <id> --action <action> --result-class <class> [options] [--json]
       turngate harness-trajectory query [--mode latest|failed|retry-needed] [--limit <n>] [--path <file>] [--json]
       turngate harness-trajectory repair [--path <file>] [--json]

The harness trajectory (premath.harness.step.v1 rows, JSONL, append-only). Appends are one
line each, fsynced; a last line torn by a crash is reported by query, refused by append, and
moved aside by repair (to a new file <file>.torn-<offset>, or <file>.torn-<offset>-<n> when one
exists). Appends, repairs, and queries that find a line without its end hold the file's lock
(<file>.lock) across processes: a line another process is still writing is waited for, never
judged torn or cut. A lock whose holder on this machine is gone is broken; one held by a live
process for more than 30 s is an error (exit 1) naming the holder.

Options:
  --path <file>              the trajectory (default ${DEFAULT_TRAJECTORY_PATH})
  --json                     print premath's JSON output (sorted keys)
append:
  --step-id <id>             the step id (required)
  --action <action>          the action label, e.g. apply.patch (required)
  --result-class <class>     the result class, e.g. completed (required)
  --issue-id <id>            the issue
  --instruction-ref <ref>    an instruction ref (repeatable)
  --witness-ref <ref>        a witness ref, e.g. lease://handoff/... (repeatable)
  --lineage-ref <ref>        a site lineage ref (repeatable)
  --started-at <rfc3339>     when the step started
  --finished-at <rfc3339>    when it finished (default: now)
query:
  --mode <mode>              latest (default), failed, or retry-needed
  --limit <n>                the most rows to list (default 20)

Exit codes: 0 done (query also with a torn last line, reported on stderr and as tornTail),
1 a file could not be read or written, or its lock stayed held, 2 invalid input or usage, or
append to a torn file (one stderr line starting ${PREFIX}).
`;

function tornWarning(path: string, tail: TornTail): string {
  return humanLines([
    `turngate harness-trajectory: ${path} line ${tail.line} is torn (${tail.byteLength} bytes, no line end); it was not read. Run \`turngate harness-trajectory repair --path ${path}\`.`,
  ]);
}

async function append(args: readonly string[]): Promise<HarnessCommandOutput> {
  const parsed = flags(COMMAND, args, {
    path: { type: 'string', default: DEFAULT_TRAJECTORY_PATH },
    'step-id': { type: 'string' },
    action: { type: 'string' },
    'result-class': { type: 'string' },
    'issue-id': { type: 'string' },
    'instruction-ref': { type: 'string', multiple: true },
    'witness-ref': { type: 'string', multiple: true },
    'lineage-ref': { type: 'string', multiple: true },
    'started-at': { type: 'string' },
    'finished-at': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (!parsed.ok) return firstFailure(parsed);
  const v = parsed.value;
  for (const name of ['step-id', 'action', 'result-class'] as const) {
    if (v[name] === undefined) return usage(COMMAND, `append needs --${name}`);
  }
  try {
    const row = await appendTrajectoryRow(v.path, {
      stepId: v['step-id'] ?? '',
      action: v.action ?? '',
      resultClass: v['result-class'] ?? '',
      issueId: v['issue-id'],
      instructionRefs: v['instruction-ref'],
      witnessRefs: v['witness-ref'],
      lineageRefs: v['lineage-ref'],
      startedAt: v['started-at'],
      finishedAt: v['finished-at'],
    });
    if (v.json) return printed(jsonOutput({ action: 'harness-trajectory.append', path: v.path, row }));
    return printed(
      humanLines([
        'turngate harness-trajectory append',
        `  Step ID: ${row.stepId}`,
        `  Result Class: ${row.resultClass}`,
        `  Path: ${v.path}`,
      ]),
    );
  } catch (error) {
    return failed(PREFIX, error);
  }
}

async function query(args: readonly string[]): Promise<HarnessCommandOutput> {
  const parsed = flags(COMMAND, args, {
    path: { type: 'string', default: DEFAULT_TRAJECTORY_PATH },
    mode: { type: 'string', default: 'latest' },
    limit: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (!parsed.ok) return firstFailure(parsed);
  const v = parsed.value;
  if (v.mode !== 'latest' && v.mode !== 'failed' && v.mode !== 'retry-needed') {
    return usage(COMMAND, `--mode expects latest, failed or retry-needed, received ${quote(v.mode)}`);
  }
  const limit = numberFlag(COMMAND, 'limit', v.limit, 20, 'integer');
  if (typeof limit !== 'number') return limit;
  try {
    const read = await readTrajectory(v.path);
    const projection = projectTrajectory(read.rows, { mode: v.mode, limit });
    const warning = read.tornTail === undefined ? '' : tornWarning(v.path, read.tornTail);
    if (v.json) {
      const body = { action: 'harness-trajectory.query', path: v.path, ...projection };
      return printed(jsonOutput(read.tornTail === undefined ? body : { ...body, tornTail: read.tornTail }), 0, warning);
    }
    const lines = [
      'turngate harness-trajectory query',
      `  Path: ${v.path}`,
      `  Mode: ${projection.mode}`,
      `  Count: ${projection.count} (total=${projection.totalCount}, failed=${projection.failedCount}, retry_needed=${projection.retryNeededCount})`,
      ...projection.items.map((row) => `  - ${row.stepId} [${row.resultClass}] ${row.action} (${row.finishedAt})`),
    ];
    return printed(humanLines(lines), 0, warning);
  } catch (error) {
    return failed(PREFIX, error);
  }
}

async function repair(args: readonly string[]): Promise<HarnessCommandOutput> {
  const parsed = flags(COMMAND, args, {
    path: { type: 'string', default: DEFAULT_TRAJECTORY_PATH },
    json: { type: 'boolean', default: false },
  });
  if (!parsed.ok) return firstFailure(parsed);
  const { path, json } = parsed.value;
  try {
    const done = await repairTrajectory(path);
    if (json) {
      return printed(
        jsonOutput({
          action: 'harness-trajectory.repair',
          path,
          repaired: done.tornTail !== undefined,
          tornTail: done.tornTail ?? null,
          savedTo: done.savedTo ?? null,
        }),
      );
    }
    const what =
      done.tornTail === undefined
        ? '  Nothing to repair: the last line is complete.'
        : `  Moved torn line ${done.tornTail.line} (${done.tornTail.byteLength} bytes) to ${done.savedTo}`;
    return printed(humanLines(['turngate harness-trajectory repair', `  Path: ${path}`, what]));
  } catch (error) {
    return failed(PREFIX, error);
  }
}

/**
 * Runs `turngate harness-trajectory <verb> ...`.
 *
 * @param argv - The arguments after `harness-trajectory`.
 * @returns What to print and the exit code.
 */
export async function harnessTrajectoryCommand(argv: readonly string[]): Promise<HarnessCommandOutput> {
  return runVerb(COMMAND, HARNESS_TRAJECTORY_USAGE, { append, query, repair }, argv);
}
