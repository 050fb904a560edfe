/**
 * The trajectory file: append-only JSONL, one row per line, each append one `write` of the
 * whole line with `O_APPEND` followed by an fsync, serialized per file within a process. A torn
 * last line (a crash mid-append) is detected and reported, never parsed, and appending after it
 * is refused until it is repaired.
 *
 * @module
 */
import { mkdir, open, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { TrajectoryTornTailError, type TornTail } from './errors.ts';
import { readIfExists, withFileLock, writeFileAtomic } from './files.ts';
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

/**
 * Reads a trajectory file: the rows of its complete lines and its torn tail, if any (a missing
 * file is an empty trajectory).
 *
 * Source: the Tusk harness contract §12; HARNESS-RUNTIME §6.
 *
 * @param path - The file (premath's default: `.premath/harness_trajectory.jsonl`).
 * @returns The rows and the torn tail.
 * @throws {@link HarnessInputError} with `path` and `line` for a malformed complete line.
 * @example
 * ```ts
 * import { readTrajectory } from 'turngate/tusk';
 * const { rows, tornTail } = await readTrajectory('.premath/harness_trajectory.jsonl');
 * if (tornTail !== undefined) console.warn(`line ${tornTail.line} was torn by a crash`);
 * ```
 */
export async function readTrajectory(path: string): Promise<TrajectoryRead> {
  const bytes = await readIfExists(path);
  return bytes === undefined ? { rows: [], completeBytes: 0 } : parseTrajectoryText(bytes, path);
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
 * Appends one row: normalizes it first (a bad row writes nothing), refuses a file whose last
 * line is torn, then writes the whole line in one `O_APPEND` write and fsyncs. Appends to one
 * file from one process run one at a time, so concurrent appenders never interleave lines.
 *
 * Source: the Tusk harness contract §12 (append-only rows, normalization); HARNESS-RUNTIME §6.
 *
 * @param path - The file (created, with its directory, when missing).
 * @param row - The row; `finishedAt` defaults to the clock, as RFC 3339 whole seconds.
 * @param options - The clock.
 * @returns The row as written.
 * @throws {@link HarnessInputError} for a bad row; {@link TrajectoryTornTailError} for a torn file.
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
  return withFileLock(path, async () => {
    await mkdir(dirname(path), { recursive: true });
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
  /** Where its bytes were saved (`<path>.torn-<byteOffset>`), so nothing is lost. */
  readonly savedTo?: string;
}

/**
 * Moves a torn last line aside: saves its bytes to `<path>.torn-<byteOffset>` (atomically), then
 * truncates the file to its complete lines. A file without a torn tail is left as it is.
 *
 * Source: the Tusk harness contract §12 (append-only rows); HARNESS-RUNTIME §6.
 *
 * @param path - The trajectory file.
 * @returns What was moved, if anything.
 * @throws {@link HarnessInputError} with `line` when a complete line is malformed (nothing changed).
 * @example
 * ```ts
 * import { repairTrajectory } from 'turngate/tusk';
 * const { tornTail, savedTo } = await repairTrajectory('.premath/harness_trajectory.jsonl');
 * ```
 */
export async function repairTrajectory(path: string): Promise<TrajectoryRepair> {
  return withFileLock(path, async () => {
    const bytes = await readIfExists(path);
    if (bytes === undefined) return {};
    const read = parseTrajectoryText(bytes, path);
    const torn = read.tornTail;
    if (torn === undefined) return {};
    const savedTo = `${path}.torn-${torn.byteOffset}`;
    await writeFileAtomic(savedTo, bytes.subarray(torn.byteOffset));
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
