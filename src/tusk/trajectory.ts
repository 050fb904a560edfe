/**
 * `HarnessTrajectory` rows (`premath.harness.step.v1`): normalization, reading JSONL text with
 * torn-tail detection, and the deterministic projection. Pure.
 *
 * @module
 */
import { compareUtf8, trimWhiteSpace, isBlank } from '../canonical/index.ts';
import {
  compact,
  exactString,
  inOrder,
  objectAt,
  optionalString,
  optionalTimestamp,
  parseJsonText,
  refList,
  requiredString,
  requiredTimestamp,
  schemaOne,
} from './decode.ts';
import { HarnessInputError, type TornTail } from './errors.ts';
import { compareInstants, parseRfc3339, type Instant } from './time.ts';
import { quote } from '../internal/display.ts';

/** The row kind. Source: the Tusk harness contract §12. */
export const STEP_KIND = 'premath.harness.step.v1';
/** The projection kind. Source: the Tusk harness contract §12. */
export const TRAJECTORY_PROJECTION_KIND = 'premath.harness.trajectory.projection.v1';
/** The trajectory's default path. Source: the Tusk harness contract §12. */
export const DEFAULT_TRAJECTORY_PATH = '.premath/harness_trajectory.jsonl';

/**
 * One step outcome, one JSONL line: witness-linked refs, no payloads.
 *
 * Source: the Tusk harness contract §12; HARNESS-RUNTIME §6.
 *
 * @example
 * ```ts
 * import type { TrajectoryRow } from 'turngate/tusk';
 * const row: TrajectoryRow = { schema: 1, stepKind: 'premath.harness.step.v1', stepId: 'w1.bd-7.1', issueId: 'bd-7',
 *   action: 'worker.loop', resultClass: 'completed', witnessRefs: ['ci://run/42'], finishedAt: '2026-02-22T01:05:00Z' };
 * ```
 */
export interface TrajectoryRow {
  /** Always 1. */
  readonly schema: 1;
  /** Always `premath.harness.step.v1`. */
  readonly stepKind: typeof STEP_KIND;
  /** The step id (the harness writes `<worker>.<item>.<n>`). */
  readonly stepId: string;
  /** The issue the step worked on. */
  readonly issueId?: string;
  /** The action label (e.g. `apply.patch`, `worker.loop`). */
  readonly action: string;
  /** The result class (`completed`, `retry_needed_<class>`, `failed_<class>`, ...). */
  readonly resultClass: string;
  /** Instruction refs, sorted and deduplicated. */
  readonly instructionRefs?: readonly string[];
  /** Witness refs, sorted and deduplicated. */
  readonly witnessRefs?: readonly string[];
  /** Site lineage refs, sorted and deduplicated. */
  readonly lineageRefs?: readonly string[];
  /** When the step started (RFC 3339). */
  readonly startedAt?: string;
  /** When the step finished (RFC 3339). */
  readonly finishedAt: string;
}

/**
 * A row as given to {@link normalizeTrajectoryRow}: `schema` and `stepKind` may be left out.
 *
 * @example
 * ```ts
 * import type { TrajectoryRowInput } from 'turngate/tusk';
 * const input: TrajectoryRowInput = { stepId: 'w1.bd-7.1', action: 'worker.loop', resultClass: 'completed', finishedAt: '2026-02-22T01:05:00Z' };
 * ```
 */
export interface TrajectoryRowInput {
  /** 1 when given. */
  readonly schema?: 1;
  /** `premath.harness.step.v1` when given. */
  readonly stepKind?: string;
  /** The step id. */
  readonly stepId: string;
  /** The issue. */
  readonly issueId?: string | undefined;
  /** The action label. */
  readonly action: string;
  /** The result class. */
  readonly resultClass: string;
  /** Instruction refs. */
  readonly instructionRefs?: readonly string[] | undefined;
  /** Witness refs. */
  readonly witnessRefs?: readonly string[] | undefined;
  /** Lineage refs. */
  readonly lineageRefs?: readonly string[] | undefined;
  /** When the step started. */
  readonly startedAt?: string | undefined;
  /** When the step finished. */
  readonly finishedAt: string;
}

const FIELDS = [
  'schema',
  'stepKind',
  'stepId',
  'issueId',
  'action',
  'resultClass',
  'instructionRefs',
  'witnessRefs',
  'lineageRefs',
  'startedAt',
  'finishedAt',
] as const;

type OptionalField = 'issueId' | 'instructionRefs' | 'witnessRefs' | 'lineageRefs' | 'startedAt';
type RowFields = Pick<TrajectoryRow, 'stepId' | 'action' | 'resultClass' | 'finishedAt'> & {
  readonly [K in OptionalField]-?: TrajectoryRow[K] | undefined;
};

function build(f: RowFields): TrajectoryRow {
  return compact<TrajectoryRow>({
    schema: 1,
    stepKind: STEP_KIND,
    stepId: f.stepId,
    issueId: f.issueId,
    action: f.action,
    resultClass: f.resultClass,
    instructionRefs: f.instructionRefs,
    witnessRefs: f.witnessRefs,
    lineageRefs: f.lineageRefs,
    startedAt: f.startedAt,
    finishedAt: f.finishedAt,
  });
}

/**
 * Normalizes one trajectory row: `schema` must be 1 and `stepKind` the step kind when given;
 * required strings are trimmed and must be non-blank; blank optional values are dropped; refs are
 * trimmed, sorted and deduplicated; `finishedAt` (required) and `startedAt` must be RFC 3339.
 *
 * Source: the Tusk harness contract §12 (normalization rules); HARNESS-RUNTIME §6.
 *
 * @param input - A row from JSON (parsed) or built in code.
 * @returns The normalized row.
 * @throws {@link HarnessInputError} naming the field (`row.finishedAt`, ...).
 * @example
 * ```ts
 * import { normalizeTrajectoryRow } from 'turngate/tusk';
 * normalizeTrajectoryRow({ stepId: ' s-1 ', action: 'apply.patch', resultClass: 'accepted', issueId: ' ',
 *   witnessRefs: ['w2', 'w1', 'w2', ''], finishedAt: '2026-02-22T01:01:00Z' });
 * //=> { schema: 1, stepKind: 'premath.harness.step.v1', stepId: 's-1', action: 'apply.patch', resultClass: 'accepted', finishedAt: '2026-02-22T01:01:00Z', witnessRefs: ['w1', 'w2'] }
 * ```
 */
export function normalizeTrajectoryRow(input: TrajectoryRowInput | unknown): TrajectoryRow {
  return normalizeRow(input, false);
}

/** Normalizes a row; a row read from a file must carry `schema` and `stepKind` (serde requires them). */
function normalizeRow(input: unknown, fromFile: boolean): TrajectoryRow {
  const f = objectAt(input, 'row', FIELDS, 'a trajectory row');
  if (fromFile || f.value['schema'] !== undefined) schemaOne(f);
  if (fromFile || f.value['stepKind'] !== undefined) exactString(f, 'stepKind', STEP_KIND);
  return build({
    stepId: requiredString(f, 'stepId'),
    issueId: optionalString(f, 'issueId'),
    action: requiredString(f, 'action'),
    resultClass: requiredString(f, 'resultClass'),
    instructionRefs: refList(f, 'instructionRefs'),
    witnessRefs: refList(f, 'witnessRefs'),
    lineageRefs: refList(f, 'lineageRefs'),
    startedAt: optionalTimestamp(f, 'startedAt'),
    finishedAt: requiredTimestamp(f, 'finishedAt'),
  });
}

/**
 * One row as a JSONL line: compact JSON in premath's field order, with its line end (the
 * bytes premath's `harness-trajectory append` writes).
 *
 * @param row - A normalized row.
 * @returns The line, ending in `\n`.
 * @example
 * ```ts
 * import { normalizeTrajectoryRow, renderTrajectoryLine } from 'turngate/tusk';
 * renderTrajectoryLine(normalizeTrajectoryRow({ stepId: 's-1', action: 'a', resultClass: 'ok', finishedAt: '2026-02-22T01:01:00Z' }));
 * //=> '{"schema":1,"stepKind":"premath.harness.step.v1","stepId":"s-1","action":"a","resultClass":"ok","finishedAt":"2026-02-22T01:01:00Z"}\n'
 * ```
 */
export function renderTrajectoryLine(row: TrajectoryRow): string {
  return `${JSON.stringify(inOrder(row, FIELDS))}\n`;
}

/**
 * What {@link parseTrajectoryText} read.
 *
 * @example
 * ```ts
 * import type { TrajectoryRead } from 'turngate/tusk';
 * declare const read: TrajectoryRead;
 * const torn = read.tornTail?.line;
 * ```
 */
export interface TrajectoryRead {
  /** The rows of every complete line, in file order. */
  readonly rows: readonly TrajectoryRow[];
  /** The torn last line (no line end), when there is one; its bytes were not parsed. */
  readonly tornTail?: TornTail;
  /** The size of the file's complete lines, in bytes (where a repair truncates to). */
  readonly completeBytes: number;
}

const NEWLINE = 0x0a;

/**
 * The torn last line of trajectory bytes: a non-blank tail after the last line end (an append a
 * crash cut short), or `undefined` when the bytes end in a complete line (or only blanks).
 *
 * @param bytes - The file's bytes.
 * @returns Where the torn line is, or `undefined`.
 * @example
 * ```ts
 * import { tornTailOf } from 'turngate/tusk';
 * tornTailOf(new TextEncoder().encode('{"a":1}\n{"sche')); //=> { line: 2, byteOffset: 8, byteLength: 6 }
 * ```
 */
export function tornTailOf(bytes: Uint8Array): TornTail | undefined {
  const start = bytes.lastIndexOf(NEWLINE) + 1;
  const rest = bytes.subarray(start);
  if (rest.every((b) => b === 0x20 || b === 0x09 || b === 0x0d)) return undefined;
  let line = 1;
  for (let i = 0; i < start; i++) if (bytes[i] === NEWLINE) line++;
  return { line, byteOffset: start, byteLength: rest.length };
}

/**
 * Reads trajectory JSONL: each complete (newline-terminated) non-blank line is one row,
 * normalized; a malformed line is refused with its line number. A non-blank last line without a
 * line end is a torn append: it is reported as `tornTail` and never parsed.
 *
 * Source: the Tusk harness contract §12; HARNESS-RUNTIME §6.
 *
 * @param bytes - The file's bytes (UTF-8).
 * @param path - The file's path, for errors.
 * @returns The rows and the torn tail, if any.
 * @throws {@link HarnessInputError} with `path` and `line` for a malformed complete line.
 * @example
 * ```ts
 * import { parseTrajectoryText } from 'turngate/tusk';
 * const text = '{"schema":1,"stepKind":"premath.harness.step.v1","stepId":"s-1","action":"a","resultClass":"ok","finishedAt":"2026-02-22T01:01:00Z"}\n{"schema":1,"step';
 * const read = parseTrajectoryText(new TextEncoder().encode(text), 'trajectory.jsonl');
 * [read.rows.length, read.tornTail?.line]; //=> [1, 2]
 * ```
 */
export function parseTrajectoryText(bytes: Uint8Array, path: string): TrajectoryRead {
  const tornTail = tornTailOf(bytes);
  const completeBytes = tornTail?.byteOffset ?? bytes.length;
  const rows: TrajectoryRow[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  let line = 0;
  while (start < completeBytes) {
    line++;
    let end = bytes.indexOf(NEWLINE, start);
    if (end === -1 || end > completeBytes) end = completeBytes;
    const lineBytes = bytes.subarray(start, end);
    start = end + 1;
    let text: string;
    try {
      text = decoder.decode(lineBytes);
    } catch {
      throw new HarnessInputError('row', 'expected UTF-8 text', { path, line });
    }
    if (isBlank(text)) continue;
    try {
      rows.push(normalizeRow(parseJsonText(text, 'row'), true));
    } catch (error) {
      if (error instanceof HarnessInputError) throw new HarnessInputError(error.field, error.expected, { path, line });
      throw error;
    }
  }
  return tornTail === undefined ? { rows, completeBytes } : { rows, tornTail, completeBytes };
}

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
