/**
 * One holder at a time per file across processes: the lock file `<file>.lock`, created
 * exclusively (a temp file linked into place, so it is absent or whole) and holding its holder's
 * pid, host, boot and a nonce. The trajectory's appends, repairs and reads of a line without its
 * end take it. Internal.
 *
 * A lock whose holder is gone is broken: its holder ran on this machine and no process with its
 * pid runs, or it ran before the last boot, or the file is not a lock this code wrote. Breakers
 * take turns through `<file>.lock.break` (a breaker's file whose writer is gone, or older than
 * 10 s, is removed), and remove the lock only while it is still the one they judged gone, so a
 * lock taken since is left alone. A lock held by a live process, or by one on another machine,
 * is waited for until the timeout, then reported with its holder. The holder removes the lock
 * when done, if it is still its own.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { lstat, realpath, rm, stat } from 'node:fs/promises';
import { hostname, uptime } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { TrajectoryLockTimeoutError, type TrajectoryLockHolder } from './errors.ts';
import { createFileExclusive, readIfExists, removeStrayTemps, withFileLock } from './files.ts';
import { processIsAlive } from './process.ts';

/** How long a lock is waited for by default, in milliseconds. */
export const LOCK_TIMEOUT_MS = 30_000;
/** How old a breaker's file must be to count as abandoned (breaking takes a few file operations). */
const ABANDONED_BREAKER_MS = 10_000;
/** How far two readings of the boot time may differ, in seconds, and still be the same boot. */
const BOOT_SLACK_S = 120;
/** The longest pause between two tries, in milliseconds. */
const MAX_PAUSE_MS = 50;

interface Holder extends TrajectoryLockHolder {
  readonly boot: number;
}

/** This machine's boot time, in whole seconds since the epoch. */
const bootTime = (): number => Math.round(Date.now() / 1000 - uptime());
/** This process's start, in ms since the epoch. */
const processStart = (): number => Date.now() - process.uptime() * 1000;

function holderOf(bytes: Uint8Array): Holder | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (value === null || typeof value !== 'object') return undefined;
    const { pid, host, boot, acquiredAt } = value as Record<string, unknown>;
    if (!Number.isSafeInteger(pid) || typeof host !== 'string' || typeof acquiredAt !== 'string') return undefined;
    if (typeof boot !== 'number' || !Number.isFinite(boot)) return undefined;
    return { pid: pid as number, host, boot, acquiredAt };
  } catch {
    return undefined;
  }
}

/**
 * Whether the holder is gone (see the module's comment). A holder with this process's pid is a
 * thread of this process when it took the lock after this process started, else an earlier
 * process that had the same pid (a container restarted, where the pid is the same every time).
 */
function isGone(holder: Holder | undefined): boolean {
  if (holder === undefined) return true;
  if (holder.host !== hostname()) return false;
  if (Math.abs(holder.boot - bootTime()) > BOOT_SLACK_S) return true;
  if (holder.pid === process.pid) return Date.parse(holder.acquiredAt) < processStart() - 1000;
  return !processIsAlive(holder.pid);
}

/** The lock file of `path`: beside the file a symbolic link at `path` points to, else beside `path`. */
async function lockPathOf(path: string): Promise<string> {
  try {
    if ((await lstat(path)).isSymbolicLink()) return `${await realpath(path)}.lock`;
  } catch {
    // Missing or unreadable: the lock goes beside the path as given.
  }
  return `${path}.lock`;
}

/** Removes the lock at `lockPath` if it still holds `judged`; `false` when another breaker is at work. */
async function breakLock(lockPath: string, judged: Uint8Array): Promise<boolean> {
  const breaker = `${lockPath}.break`;
  const me = `${JSON.stringify({ pid: process.pid, host: hostname(), boot: bootTime(), acquiredAt: new Date().toISOString() })}\n`;
  if (!(await createFileExclusive(breaker, me, false))) {
    try {
      const found = await readIfExists(breaker);
      const old = Date.now() - (await stat(breaker)).mtimeMs > ABANDONED_BREAKER_MS;
      if (old || (found !== undefined && isGone(holderOf(found)))) await rm(breaker, { force: true });
    } catch {
      // The breaker finished meanwhile.
    }
    return false;
  }
  try {
    const current = await readIfExists(lockPath);
    if (current !== undefined && Buffer.from(current).equals(judged)) await rm(lockPath, { force: true });
    await removeStrayTemps(lockPath);
    return true;
  } finally {
    await rm(breaker, { force: true });
  }
}

/**
 * Runs `task` holding the lock of `path`: after every earlier task of this process for the same
 * file (`withFileLock`), and while no other process holds `<path>.lock`. Waits for a live holder,
 * breaks the lock of a gone one, and removes the lock when `task` settles.
 *
 * @param path - The file to lock (its directory is created when missing).
 * @param task - What to do holding the lock.
 * @param timeoutMs - How long to wait for another holder (default {@link LOCK_TIMEOUT_MS}).
 * @returns What `task` returns.
 * @throws {@link TrajectoryLockTimeoutError} when another holder kept the lock past `timeoutMs`;
 *   the I/O error when the lock file cannot be created.
 */
export function withProcessLock<T>(path: string, task: () => Promise<T>, timeoutMs = LOCK_TIMEOUT_MS): Promise<T> {
  return withFileLock(path, async () => {
    const lockPath = await lockPathOf(path);
    const body = Buffer.from(
      `${JSON.stringify({
        pid: process.pid,
        host: hostname(),
        boot: bootTime(),
        acquiredAt: new Date().toISOString(),
        nonce: randomBytes(8).toString('hex'),
      })}\n`,
    );
    const started = Date.now();
    let pause = 1;
    while (!(await createFileExclusive(lockPath, body, false))) {
      const found = await readIfExists(lockPath);
      if (found === undefined) continue;
      const holder = holderOf(found);
      if (isGone(holder) && (await breakLock(lockPath, found))) continue;
      const waited = Date.now() - started;
      if (waited >= timeoutMs) throw new TrajectoryLockTimeoutError(path, lockPath, holder, waited);
      await sleep(Math.min(pause * (0.5 + Math.random()), timeoutMs - waited));
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
    try {
      return await task();
    } finally {
      const current = await readIfExists(lockPath).catch(() => undefined);
      if (current !== undefined && Buffer.from(current).equals(body)) await rm(lockPath, { force: true });
    }
  });
}
