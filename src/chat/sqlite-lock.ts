/**
 * The SQLite session store's lease driver: the statements of the lease-and-fence protocol
 * (lease.ts) on a row per held session in `<prefix>_locks` (holder token, expiry), taken with
 * waiting, renewed while the turn runs, released with retries.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { LeaseProtocol } from './lease.ts';
import { isBusy } from './sqlite-errors.ts';
import type { SqliteStatements } from './sqlite-statements.ts';

/**
 * The lock rows of one store: taking a session's row (waiting while another holder has it),
 * renewing its lease, releasing it, and the releases still being retried.
 */
export class SqliteLockRows {
  private readonly protocol: LeaseProtocol;

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
    timeoutMs: number,
  ) {
    this.protocol = new LeaseProtocol(leaseMs, timeoutMs, { pollMs: 25, releaseBackoffMs: [1, 100] });
  }

  /**
   * The holder token of a turn (lease.ts): the send's when it has an idempotency key.
   *
   * @param sendKey - The idempotency key of the send the turn answers, if any.
   */
  token(sendKey: string | undefined): string {
    return this.protocol.token(sendKey);
  }

  /**
   * Takes the session's lock row for `holder`, waiting (backing off to 25 ms) while another holder
   * has it or the database is busy. A row `holder` already has (a retry of the same send) is
   * taken at once.
   *
   * @throws {@link SessionLockTimeout} when that lasts longer than the timeout.
   */
  async take(sessionId: string, holder: string): Promise<void> {
    await this.protocol.take(sessionId, holder, () => (this.tryLock(sessionId, holder, Date.now()) ? true : undefined));
  }

  /**
   * Renews the holder's lease every third of it until the returned function is called. A renewal
   * that fails (the database is closed or busy) lets the lease run out, as for a process that died.
   *
   * @returns Stops renewing.
   */
  renew(sessionId: string, holder: string): () => void {
    return this.protocol.renew(() => this.stmts.renewLock.run(Date.now() + this.leaseMs, sessionId, holder));
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
  release(sessionId: string, holder: string): Promise<unknown> {
    return this.protocol.release(
      sessionId,
      holder,
      () => {
        if (this.db.open) this.stmts.dropLock.run(sessionId, holder);
      },
      isBusy,
    );
  }

  /**
   * Drops the rows whose release is still being retried (before the database closes), waiting for
   * the database up to 1,000 ms each when its busy timeout is shorter; a row still busy after that
   * is left to its lease. Stops the retries.
   */
  dropUnreleased(): void {
    const unreleased = this.protocol.stop();
    if (unreleased.length === 0 || !this.db.open) return;
    const busyTimeout = Number(this.db.pragma('busy_timeout', { simple: true }));
    if (busyTimeout < 1000) this.db.pragma('busy_timeout = 1000');
    for (const [sessionId, holder] of unreleased) {
      try {
        this.stmts.dropLock.run(sessionId, holder);
      } catch {
        // Still busy (or failing): the lease runs out.
      }
    }
    if (busyTimeout < 1000) this.db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}
