/**
 * The lease-and-fence protocol of the SQL session stores (SQLite, PostgreSQL): how a turn holds its
 * session against other processes. Each store keeps a row per held session in `<prefix>_locks`
 * (holder token, expiry); its driver (sqlite-lock.ts, postgres-lease.ts) runs the statements, this
 * module decides the rest, once for both:
 * - the holder token: a send with an idempotency key holds under a token of this store object and
 *   the key (the send's, not the connection's), so a retry of that send by the same process takes
 *   over its own lease at once; any other turn holds under a fresh token;
 * - taking: one attempt after another (backing off to the driver's poll interval) while another
 *   holder has the session, up to the lock timeout ({@link SessionLockTimeout});
 * - renewing every third of the lease while the turn runs (a failed renewal lets the lease run out,
 *   as for a process that died);
 * - the fence: a save goes through only while its row names its token; a refusal names what holds
 *   the session now ({@link fenceRefusal});
 * - releasing: a release that fails for a transient reason (the server restarting, a busy
 *   database) is retried in the background with backoff until it succeeds or the lease runs out
 *   anyway, and a later take of the same token stops that retry first.
 *
 * Internal.
 *
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SessionLockTimeout, SessionWriteConflict } from './store-errors.ts';

/** How a store's driver paces the protocol. */
export interface LeasePacing {
  /** The longest pause, in milliseconds, between two attempts to take a held session. */
  readonly pollMs: number;
  /** The first and the longest pause, in milliseconds, between two attempts to release. */
  readonly releaseBackoffMs: readonly [first: number, longest: number];
}

/** A release being retried in the background. */
interface PendingRelease {
  /** Set to stop the retries. */
  stopped: boolean;
  /** The attempt under way, if any (settles, never rejects). */
  attempt: Promise<void> | undefined;
}

/**
 * The leases of one store object: tokens, taking, renewing, releasing with retries. The store's
 * driver supplies each statement as a function.
 */
export class LeaseProtocol {
  /** This store object's part of every send's token. */
  private readonly nonce = randomUUID();
  /** Releases being retried, by session id and token. */
  private readonly pending = new Map<string, PendingRelease>();
  private closed = false;

  /**
   * @param leaseMs - How long a lease lasts unless renewed, in milliseconds.
   * @param timeoutMs - How long taking waits for another holder, in milliseconds.
   * @param pacing - The driver's pauses.
   */
  constructor(
    readonly leaseMs: number,
    private readonly timeoutMs: number,
    private readonly pacing: LeasePacing,
  ) {}

  /**
   * The holder token of a turn: for a send with an idempotency key, this store object's token of
   * that key (the same for every retry of the send from this object); otherwise a fresh one.
   *
   * @param sendKey - The idempotency key of the send the turn answers, if any.
   */
  token(sendKey: string | undefined): string {
    if (sendKey === undefined) return randomUUID();
    return `${this.nonce}:${createHash('sha256').update(sendKey).digest('hex').slice(0, 32)}`;
  }

  /**
   * Takes the session for `token`: stops a release of the same token still being retried (and
   * waits for its attempt under way), then tries `attempt` until it takes the session, backing
   * off from 1 ms to the driver's poll interval.
   *
   * @param sessionId - The session.
   * @param token - The holder token ({@link token}).
   * @param attempt - One attempt: what the take read, or `undefined` while another holder has it.
   * @returns What the successful attempt read.
   * @throws {@link SessionLockTimeout} when another holder keeps it past the lock timeout; what
   *   `attempt` throws.
   */
  async take<H>(sessionId: string, token: string, attempt: () => H | undefined | Promise<H | undefined>): Promise<H> {
    const pending = this.pending.get(pendingKey(sessionId, token));
    if (pending !== undefined) {
      pending.stopped = true;
      await pending.attempt;
    }
    const started = Date.now();
    for (let wait = 1; ; wait = Math.min(wait * 2, this.pacing.pollMs)) {
      const held = await attempt();
      if (held !== undefined) return held;
      const waited = Date.now() - started;
      if (waited >= this.timeoutMs) throw new SessionLockTimeout(sessionId, waited);
      await sleep(Math.min(wait, Math.max(1, this.timeoutMs - waited)));
    }
  }

  /**
   * Renews a lease every third of it until the returned function is called; a failed renewal is
   * dropped (the lease then runs out, as for a process that died).
   *
   * @param renewal - One renewal.
   * @returns Stops renewing.
   */
  renew(renewal: () => unknown): () => void {
    const timer = setInterval(
      () => {
        try {
          Promise.resolve(renewal()).catch(drop);
        } catch {
          // The database is closed or busy: the lease runs out.
        }
      },
      Math.max(1, Math.floor(this.leaseMs / 3)),
    );
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Releases a lease no save ended. When the first attempt fails and `retryable` says the failure
   * is transient, the release is retried in the background (backing off as the driver says) until
   * it succeeds, fails otherwise, the lease has run out, a take of the same token stops it, or the
   * store closes ({@link stop}). Never throws.
   *
   * @param sessionId - The session.
   * @param token - The holder token.
   * @param release - One attempt.
   * @param retryable - Whether a failed attempt is worth another.
   * @returns The first attempt's error, or `undefined` when it released the lease.
   */
  async release(
    sessionId: string,
    token: string,
    release: () => unknown,
    retryable: (error: unknown) => boolean,
  ): Promise<unknown> {
    const first = await attemptOf(release);
    if (first === undefined || this.closed || !retryable(first)) return first;
    const key = pendingKey(sessionId, token);
    const pending: PendingRelease = { stopped: false, attempt: undefined };
    this.pending.set(key, pending);
    const leaseEnds = Date.now() + this.leaseMs;
    const done = () => {
      if (this.pending.get(key) === pending) this.pending.delete(key);
    };
    const [firstWait, longest] = this.pacing.releaseBackoffMs;
    const retry = (wait: number) => {
      setTimeout(() => {
        if (pending.stopped || this.closed || Date.now() > leaseEnds) return done();
        pending.attempt = attemptOf(release).then((error) => {
          pending.attempt = undefined;
          if (error === undefined || pending.stopped || !retryable(error)) done();
          else retry(Math.min(wait * 2, longest));
        });
      }, wait).unref();
    };
    retry(firstWait);
    return first;
  }

  /**
   * Stops every release still being retried (the store is closing).
   *
   * @returns Their session ids and tokens, for a last attempt by the driver.
   */
  stop(): [sessionId: string, token: string][] {
    this.closed = true;
    const left = [...this.pending.keys()].map((key) => key.split('\0') as [string, string]);
    for (const pending of this.pending.values()) pending.stopped = true;
    this.pending.clear();
    return left;
  }
}

/** Drops an error (a renewal's: the lease runs out). */
function drop(): void {}

/** The key of a pending release. */
function pendingKey(sessionId: string, token: string): string {
  return `${sessionId}\0${token}`;
}

/** Runs one attempt: its error, or `undefined` when it succeeded. */
async function attemptOf(attempt: () => unknown): Promise<unknown> {
  try {
    await attempt();
    return undefined;
  } catch (error) {
    return error ?? new Error('the release failed');
  }
}

/**
 * The refusal of a save whose lease no longer names its token (the fence), naming what holds the
 * session now.
 *
 * @param sessionId - The session.
 * @param expected - The version the save expected.
 * @param actual - The stored version.
 * @param holder - The token the session's lock row names now: another holder's, or `undefined`
 *   when nobody holds it (the lease was released or lost, e.g. by a server restart).
 * @returns A {@link SessionWriteConflict} (retryable: a retry takes the session again).
 */
export function fenceRefusal(
  sessionId: string,
  expected: number,
  actual: number,
  holder: string | undefined,
): SessionWriteConflict {
  return new SessionWriteConflict(
    sessionId,
    expected,
    actual,
    holder === undefined
      ? 'its lease was lost (released or cleared, as by a server restart) before the save'
      : 'its lease ran out and another turn holds it',
  );
}
