/**
 * The SQLite session store's lock across processes: a row per held session in `<prefix>_locks`,
 * with a lease a live holder renews, taken with waiting and released with retries.
 *
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { isBusy } from './sqlite-errors.ts';
import type { SqliteStatements } from './sqlite-statements.ts';
import { SessionLockTimeout } from './store-errors.ts';

/**
 * The lock rows of one store: taking a session's row (waiting while another holder has it),
 * renewing its lease, releasing it, and the releases still being retried.
 */
export class SqliteLockRows {
  /** Lock rows a release could not drop yet (holder -> session id): retried, and tried again by `close`. */
  private readonly unreleased = new Map<string, string>();

  /**
   * @param db - The store's database.
   * @param stmts - The store's statements.
   * @param leaseMs - How long a row stays held when its holder stops renewing it.
   * @param timeoutMs - How long taking a row waits for another holder.
   */
  constructor(
    private readonly db: Database.Database,
    private readonly stmts: SqliteStatements,
    private readonly leaseMs: number,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Takes the session's lock row for `holder`, waiting (backing off to 25 ms) while another holder
   * has it or the database is busy.
   *
   * @throws {@link SessionLockTimeout} when that lasts longer than the timeout.
   */
  async take(sessionId: string, holder: string): Promise<void> {
    const started = Date.now();
    for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
      const now = Date.now();
      if (this.tryLock(sessionId, holder, now)) return;
      if (now - started >= this.timeoutMs) throw new SessionLockTimeout(sessionId, now - started);
      await sleep(wait);
    }
  }

  /**
   * Renews the holder's lease every third of it until the returned function is called. A renewal
   * that fails (the database is closed or busy) lets the lease run out, as for a process that died.
   *
   * @returns Stops renewing.
   */
  renew(sessionId: string, holder: string): () => void {
    const renew = setInterval(
      () => {
        try {
          this.stmts.renewLock.run(Date.now() + this.leaseMs, sessionId, holder);
        } catch {
          // The database is closed or busy: the lease runs out, as for a process that died.
        }
      },
      Math.max(1, Math.floor(this.leaseMs / 3)),
    );
    renew.unref();
    return () => clearInterval(renew);
  }

  /**
   * One attempt to take the session's lock row: true when this holder has it now. A busy
   * database is a lock not taken yet (the caller waits and tries again).
   */
  private tryLock(sessionId: string, holder: string, now: number): boolean {
    try {
      return this.stmts.takeLock.run(sessionId, holder, now + this.leaseMs, now).changes === 1;
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    }
  }

  /**
   * Releases the session's lock row; never throws. A busy database is retried in the background
   * (backing off to 100 ms) until the release succeeds, the database is closed or the lease has
   * run out anyway; any other failure is left to the lease.
   *
   * @returns The error of the first attempt, or `undefined` when it released the lock.
   */
  release(sessionId: string, holder: string): unknown {
    if (!this.db.open) return undefined;
    try {
      this.stmts.dropLock.run(sessionId, holder);
      return undefined;
    } catch (error) {
      if (isBusy(error)) {
        this.unreleased.set(holder, sessionId);
        const leaseEnds = Date.now() + this.leaseMs;
        const retry = (wait: number) => {
          setTimeout(() => {
            if (!this.unreleased.has(holder) || !this.db.open || Date.now() > leaseEnds) {
              this.unreleased.delete(holder);
              return;
            }
            try {
              this.stmts.dropLock.run(sessionId, holder);
              this.unreleased.delete(holder);
            } catch (again) {
              if (isBusy(again)) retry(Math.min(wait * 2, 100));
              else this.unreleased.delete(holder);
            }
          }, wait).unref();
        };
        retry(1);
      }
      return error;
    }
  }

  /**
   * Drops the rows whose release is still being retried (before the database closes), waiting for
   * the database up to 1,000 ms each when its busy timeout is shorter; a row still busy after that
   * is left to its lease. Stops the retries.
   */
  dropUnreleased(): void {
    if (this.unreleased.size > 0 && this.db.open) {
      const busyTimeout = Number(this.db.pragma('busy_timeout', { simple: true }));
      if (busyTimeout < 1000) this.db.pragma('busy_timeout = 1000');
      for (const [holder, sessionId] of this.unreleased) {
        try {
          this.stmts.dropLock.run(sessionId, holder);
        } catch {
          // Still busy (or failing): the lease runs out.
        }
      }
      if (busyTimeout < 1000) this.db.pragma(`busy_timeout = ${busyTimeout}`);
    }
    this.unreleased.clear();
  }
}
