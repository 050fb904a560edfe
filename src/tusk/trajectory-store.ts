/**
 * The trajectory file: append-only JSONL, one row per line, each append one `write` of the
 * whole line with `O_APPEND` followed by an fsync. Appends, repairs, and reads that find a last
 * line without its end hold the file's lock (`<file>.lock`, across processes), so no process
 * judges a line torn while another is still writing it, and a repair never cuts a row another
 * process appended. A torn last line (a crash mid-append) is detected and reported, never
 * parsed, and appending after it is refused until it is repaired.
 *
 * @module
 */
import { open, truncate } from 'node:fs/promises';
import { TrajectoryTornTailError, type TornTail } from './errors.ts';
import { withProcessLock } from './file-lock.ts';
import { createFileExclusive, readIfExists } from './files.ts';
import type { StoreClock } from './session-store.ts';
import { formatRfc3339 } from './time.ts';
import {
  normalizeTrajectoryRow,
  parseTrajectoryText,
  renderTrajectoryLine,
  tornTailOf,
  type TrajectoryRead,
  type TrajectoryRow,
  type TrajectoryRowInput,
} from './trajectory.ts';

/** Errors that say this process may not create the lock file (a read-only place). */
const CANNOT_LOCK = new Set(['EACCES', 'EPERM', 'EROFS']);

async function readUnlocked(path: string): Promise<TrajectoryRead> {
  const bytes = await readIfExists(path);
  return bytes === undefined ? { rows: [], completeBytes: 0 } : parseTrajectoryText(bytes, path);
}

/**
 * Reads a trajectory file: the rows of its complete lines and its torn tail, if any (a missing
 * file is an empty trajectory). A last line without its end may be an append another process is
 * still writing: the file is read again holding its lock, so `tornTail` is a line whose writer is
 * gone (or, where this process may not create the lock file, the line as it was found).
 *
 * Source: the Tusk harness contract §12; HARNESS-RUNTIME §6.
 *
 * @param path - The file (premath's default: `.premath/harness_trajectory.jsonl`).
 * @returns The rows and the torn tail.
 * @throws {@link HarnessInputError} with `path` and `line` for a malformed complete line;
 *   {@link TrajectoryLockTimeoutError} when another process keeps the lock past the wait.
 * @example
 * ```ts
 * import { readTrajectory } from 'turngate/tusk';
 * const { rows, tornTail } = await readTrajectory('.premath/harness_trajectory.jsonl');
 * if (tornTail !== undefined) console.warn(`line ${tornTail.line} was torn by a crash`);
 * ```
 */
export async function readTrajectory(path: string): Promise<TrajectoryRead> {
  const read = await readUnlocked(path);
  if (read.tornTail === undefined) return read;
  try {
    return await withProcessLock(path, () => readUnlocked(path));
  } catch (error) {
    if (CANNOT_LOCK.has((error as NodeJS.ErrnoException).code ?? '')) return read;
    throw error;
  }
}

/**
 * A row to append: a {@link TrajectoryRowInput} whose `finishedAt` defaults to the clock.
 *
 * @example
 * ```ts
 * import type { TrajectoryAppend } from 'turngate/tusk';
 * const row: TrajectoryAppend = { stepId: 'w1.bd-7.1', action: 'worker.loop', resultClass: 'completed', witnessRefs: ['ci://run/42'] };
 * ```
 */
export type TrajectoryAppend = Omit<TrajectoryRowInput, 'finishedAt'> & { readonly finishedAt?: string | undefined };

/**
 * Appends one row: normalizes it first (a bad row writes nothing), takes the file's lock, refuses
 * a file whose last line is torn, then writes the whole line in one `O_APPEND` write and fsyncs.
 * Appends to one file run one at a time, in one process and across processes (`<file>.lock`), so
 * concurrent appenders never interleave lines nor find each other's line half written.
 *
 * Source: the Tusk harness contract §12 (append-only rows, normalization); HARNESS-RUNTIME §6.
 *
 * @param path - The file (created, with its directory, when missing).
 * @param row - The row; `finishedAt` defaults to the clock, as RFC 3339 whole seconds.
 * @param options - The clock.
 * @returns The row as written.
 * @throws {@link HarnessInputError} for a bad row; {@link TrajectoryTornTailError} for a torn file;
 *   {@link TrajectoryLockTimeoutError} when another process keeps the lock past the wait.
 * @example
 * ```ts
 * import { appendTrajectoryRow } from 'turngate/tusk';
 * const row = await appendTrajectoryRow('.premath/harness_trajectory.jsonl', { stepId: 'w1.bd-7.1', issueId: 'bd-7', action: 'worker.loop', resultClass: 'completed' });
 * row.finishedAt; // e.g. '2026-02-22T01:05:00Z'
 * ```
 */
export async function appendTrajectoryRow(
  path: string,
  row: TrajectoryAppend,
  options: StoreClock = {},
): Promise<TrajectoryRow> {
  const normalized = normalizeTrajectoryRow({
    ...row,
    finishedAt: row.finishedAt ?? formatRfc3339((options.clock ?? (() => new Date()))()),
  });
  const line = Buffer.from(renderTrajectoryLine(normalized), 'utf8');
  return withProcessLock(path, async () => {
    const handle = await open(path, 'a+');
    try {
      const { size } = await handle.stat();
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) {
          const bytes = await readIfExists(path);
          const torn = bytes === undefined ? undefined : tornTailOf(bytes);
          if (torn !== undefined) throw new TrajectoryTornTailError(path, torn);
        }
      }
      let written = 0;
      while (written < line.length) {
        const { bytesWritten } = await handle.write(line, written, line.length - written);
        written += bytesWritten;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    return normalized;
  });
}

/**
 * What {@link repairTrajectory} did.
 *
 * @example
 * ```ts
 * import type { TrajectoryRepair } from 'turngate/tusk';
 * declare const repair: TrajectoryRepair;
 * const moved = repair.savedTo ?? 'nothing to repair';
 * ```
 */
export interface TrajectoryRepair {
  /** The torn line that was moved aside, or `undefined` when the file had none. */
  readonly tornTail?: TornTail;
  /**
   * Where its bytes were saved, so nothing is lost: `<path>.torn-<byteOffset>`, or
   * `<path>.torn-<byteOffset>-<n>` (n = 2, 3, ...) when an earlier repair saved a tail there.
   */
  readonly savedTo?: string;
}

/** Saves a torn tail to the first free name of `<path>.torn-<offset>`, `-2`, `-3`, ...; never over a file. */
async function saveTornTail(path: string, tail: Uint8Array, offset: number): Promise<string> {
  for (let n = 1; ; n++) {
    const savedTo = n === 1 ? `${path}.torn-${offset}` : `${path}.torn-${offset}-${n}`;
    if (await createFileExclusive(savedTo, tail)) return savedTo;
  }
}

/**
 * Moves a torn last line aside, holding the file's lock (so an append in progress in another
 * process is waited for, not cut): saves its bytes to a new file (`<path>.torn-<byteOffset>`, or
 * with `-2`, `-3`, ... when an earlier repair saved a tail at that offset; never over a file),
 * fsynced, then truncates the file to its complete lines. A file without a torn tail is left as
 * it is.
 *
 * Source: the Tusk harness contract §12 (append-only rows); HARNESS-RUNTIME §6.
 *
 * @param path - The trajectory file.
 * @returns What was moved, if anything.
 * @throws {@link HarnessInputError} with `line` when a complete line is malformed (nothing changed);
 *   {@link TrajectoryLockTimeoutError} when another process keeps the lock past the wait.
 * @example
 * ```ts
 * import { repairTrajectory } from 'turngate/tusk';
 * const { tornTail, savedTo } = await repairTrajectory('.premath/harness_trajectory.jsonl');
 * ```
 */
export async function repairTrajectory(path: string): Promise<TrajectoryRepair> {
  // A file that is complete when read has nothing to repair, and needs no lock.
  if ((await readUnlocked(path)).tornTail === undefined) return {};
  return withProcessLock(path, async () => {
    const bytes = await readIfExists(path);
    if (bytes === undefined) return {};
    const read = parseTrajectoryText(bytes, path);
    const torn = read.tornTail;
    if (torn === undefined) return {};
    const savedTo = await saveTornTail(path, bytes.subarray(torn.byteOffset), torn.byteOffset);
    await truncate(path, torn.byteOffset);
    const handle = await open(path, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    return { tornTail: torn, savedTo };
  });
}
