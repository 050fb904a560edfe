/**
 * `HarnessTrajectory` rows (`premath.harness.step.v1`): normalization and reading JSONL text with
 * torn-tail detection (the projection is in trajectory-projection.ts). Pure.
 *
 * @module
 */
import { isBlank } from '../canonical/index.ts';
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
