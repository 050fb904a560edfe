/**
 * A session store on PostgreSQL (node-postgres), exported from `turngate/chat/postgres`, so
 * several Node processes on several machines serve the same sessions. `pg` is an optional peer
 * dependency.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, type PoolConfig } from 'pg';
import { own } from '../internal/own-field.ts';
import { count, ledgerClock, milliseconds } from '../internal/durations.ts';
import type {
  ApprovalLedger,
  EffectClaim,
  EffectEntry,
  EffectLedger,
  EffectLedgerOptions,
  EffectRecord,
} from '../typestate/index.ts';
import { PgDb } from './postgres-db.ts';
import { ignore, storeError, transientReason } from './postgres-errors.ts';
import { PgLeases } from './postgres-lease.ts';
import { readRecord, readSend, readVersion } from './postgres-reads.ts';
import { PgWriter } from './postgres-write.ts';
import { SessionQueue } from './queue.ts';
import { claimOf, type EffectRow, effectRecord, endColumns, startedColumns } from './sql-effects.ts';
import { postgresApprovalLedger } from './sql-approvals.ts';
import { decodeResume, decodeSuspension, sqlTables } from './sql-rows.ts';
import {
  DEFAULT_RESUME_LOG_SIZE,
  DEFAULT_SEND_KEYS_KEPT,
  type ListSuspendedOptions,
  type LockedSession,
  resumePage,
  type SaveOptions,
  type SendRecord,
  type SessionLockOptions,
  type SessionStore,
} from './store.ts';
import type { ResumeLog, SessionRecord, SuspensionRecord } from './session-records.ts';

/**
 * Options of {@link PostgresSessionStore}. Durations are in milliseconds.
 *
 * @example
 * ```ts
 * import { PostgresSessionStore, type PostgresSessionStoreOptions } from 'turngate/chat/postgres';
 * const options: PostgresSessionStoreOptions = { tablePrefix: 'support_chat', maxConnections: 20, statementTimeoutMs: 5_000 };
 * const store = new PostgresSessionStore('postgres://app:secret@127.0.0.1:5432/app', options);
 * await store.close();
 * ```
 */
export interface PostgresSessionStoreOptions {
  /** The prefix of the table names (`<prefix>_sessions`, ...); default `turngate`. */
  readonly tablePrefix?: string;
  /** How many resume log entries to keep (the oldest go first); default 10,000. */
  readonly resumeLogSize?: number;
  /** How many idempotency keys to keep per session (the oldest go first); default 1,000. */
  readonly sendKeysKept?: number;
  /**
   * The pool size when the store makes its own pool (from a connection string or a
   * `PoolConfig`); default 10. A turn borrows a connection for each statement only, never while
   * the graph runs.
   */
  readonly maxConnections?: number;
  /**
   * How long a session held for a turn stays held when its holder stops renewing it (the process
   * died): after this another process may take it. A live holder renews it every third of this.
   * Default 30,000.
   */
  readonly lockLeaseMs?: number;
  /** How long a turn waits for a session another process holds; default 30,000. */
  readonly lockTimeoutMs?: number;
  /** How long to wait for a connection (a new one, or a free one of the pool); default 5,000. */
  readonly connectTimeoutMs?: number;
  /**
   * How long one statement may run: the server cancels it (`statement_timeout`, own pools only)
   * and the client gives up 1,000 ms later (a paused or unreachable server); default 10,000.
   */
  readonly statementTimeoutMs?: number;
}

/**
 * Sessions in PostgreSQL, in the tables of the SQLite store's layout (`<prefix>_sessions`,
 * `_messages`, `_suspensions`, `_resumes`, `_sends`, `_locks`, `_effects`), created on first use
 * (under an advisory lock, so processes starting together do not race).
 *
 * - No transaction and no connection is held while a turn's graph runs. A turn takes its session
 *   with a lease (a holder token and an expiry in the session's row of `<prefix>_locks`, an
 *   unlogged table, so taking it waits for no WAL flush), in one statement that also reads the
 *   version, the history when the caller's copy is stale, and the send's idempotency key; it
 *   runs; and it saves in one statement that checks the version and the holder token (the
 *   fencing token), writes the session, its new messages, its suspension and its idempotency
 *   key, and ends the lease. A steady-state turn is two round trips. A live holder renews its
 *   lease every third of `lockLeaseMs`; a process that dies frees its sessions when the lease
 *   runs out (a server crash empties the lock table, freeing them all). A turn that fails
 *   without saving releases its lease, retrying a release the server could not take (it was
 *   down) with backoff until it succeeds or the lease runs out, so an outage frees its
 *   sessions about a second after the server returns; and a send with an idempotency key holds
 *   under a token of this store object and the key, so its retry takes over its own lease at once.
 * - Turns of one session run one at a time across every process and machine that shares the
 *   database: a turn that finds the session held waits (up to `lockTimeoutMs`, then
 *   {@link SessionLockTimeout}). A save whose lease ran out and was taken elsewhere is refused
 *   (`session_write_conflict`, the message says another turn holds it), so two holders never
 *   both write; a save whose lease was lost while nobody took the session (a server crash
 *   empties the lock table) takes the session again and saves when the version is still the
 *   expected one.
 * - A failed save writes nothing: the stored session is the previous one, whole.
 * - Errors by cause: a server that cannot be reached, is restarting, or does not answer within
 *   `connectTimeoutMs` / `statementTimeoutMs` rejects with {@link SessionStoreUnavailable} (the
 *   harness answers `retryable_transient`); a save whose statement was sent but whose answer
 *   never came is marked `outcomeUnknown` (retry with the send's idempotency key); one that
 *   could not connect (refused, connect timeout) was never sent and is not.
 * - Suspensions live in their own table, keyed by signal id, so `signal()` in any process finds
 *   the session (`findSuspension`) and a signal id awaited twice is refused.
 * - Values are stored as JSON text (`text` columns), so what is loaded is what was saved, byte for
 *   byte (no `jsonb` key reordering, no refusal of `\u0000`).
 *
 * Source: sessions §5 (protocol), §8.2 (optimistic concurrency), §8.3 (locking); suspension §8.6
 * (atomic suspend); PostgreSQL manual "INSERT ... ON CONFLICT", Appendix A (error codes).
 *
 * @example
 * ```ts
 * import { createChatHarness, sequentialGraph } from 'turngate/chat';
 * import { PostgresSessionStore } from 'turngate/chat/postgres';
 * const store = new PostgresSessionStore(process.env['DATABASE_URL'] ?? 'postgres://127.0.0.1/app');
 * const harness = createChatHarness({
 *   graph: sequentialGraph({ entry: 'n', nodes: { n: () => ({ messages: [{ role: 'assistant', content: 'Hi' }] }) }, edges: [] }),
 *   store,
 * });
 * await harness.send('support-1', { role: 'user', content: 'Hello' }, { idempotencyKey: 'msg-1' });
 * await store.close();
 * ```
 */
export class PostgresSessionStore implements SessionStore {
  private readonly db: PgDb;
  private readonly owned: boolean;
  private readonly leases: PgLeases;
  private readonly locks = new SessionQueue();

  /**
   * Creates a store. Nothing is sent to the server until the first call.
   *
   * @param connection - A connection string, a `pg` `PoolConfig`, or a `Pool` you own (not ended
   *   by {@link close}; its connect and server-side statement timeouts are yours to set).
   * @param options - Table prefix, log and key sizes, pool size, lease and timeouts.
   * @throws TypeError for a prefix that is not an identifier, or a duration that is not a finite
   *   number of milliseconds >= 0 (naming the option).
   */
  constructor(connection: string | PoolConfig | Pool, options: PostgresSessionStoreOptions = {}) {
    const owner = 'PostgresSessionStore';
    const prefix = own(options, 'tablePrefix') ?? 'turngate';
    const t = sqlTables(owner, prefix);
    const logSize = own(options, 'resumeLogSize') ?? DEFAULT_RESUME_LOG_SIZE;
    const sendKeysKept = count(owner, 'sendKeysKept', own(options, 'sendKeysKept'), DEFAULT_SEND_KEYS_KEPT);
    const leaseMs = milliseconds(owner, 'lockLeaseMs', own(options, 'lockLeaseMs'), 30_000);
    const lockTimeoutMs = milliseconds(owner, 'lockTimeoutMs', own(options, 'lockTimeoutMs'), 30_000);
    const connectMs = milliseconds(owner, 'connectTimeoutMs', own(options, 'connectTimeoutMs'), 5_000);
    const statementMs = milliseconds(owner, 'statementTimeoutMs', own(options, 'statementTimeoutMs'), 10_000);
    const max = own(options, 'maxConnections') ?? 10;
    this.owned = !(connection instanceof Pool);
    const timeouts = { connectionTimeoutMillis: connectMs, statement_timeout: statementMs };
    const pool =
      connection instanceof Pool
        ? connection
        : new Pool(
            typeof connection === 'string'
              ? { connectionString: connection, max, ...timeouts }
              : { max, ...timeouts, ...connection },
          );
    this.db = new PgDb(pool, t, prefix, statementMs + 1_000);
    this.leases = new PgLeases(this.db, new PgWriter(this.db, logSize, sendKeysKept), leaseMs, lockTimeoutMs);
    if (this.owned) pool.on('error', ignore); // an idle client's error is reported by its next use
  }

  /**
   * Runs `body` holding the session: against other holders in this process (a queue per store
   * object: the whole body, post-save work included), and against other processes with a lease
   * taken in one statement, renewed while `body` runs (no connection held meanwhile), and ended
   * by the one save (atomically with it) or, when nothing was saved, after `body` returns. The
   * version read with the lease stays true until the save.
   *
   * @throws {@link SessionLockTimeout} when another holder keeps the session past `lockTimeoutMs`;
   *   {@link SessionStoreUnavailable} when the server cannot be reached or does not answer.
   */
  withSessionLock<T>(
    sessionId: string,
    body: (session: LockedSession) => Promise<T>,
    options: SessionLockOptions = {},
  ): Promise<T> {
    return this.locks.run(sessionId, () => this.leases.run(sessionId, body, options));
  }

  /** Loads a session record (one statement, so one consistent snapshot). */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    try {
      await this.db.schema();
      return await readRecord(this.db, sessionId);
    } catch (error) {
      throw storeError(error, `loading session ${JSON.stringify(sessionId)}`, false);
    }
  }

  /** The send kept under `key` for the session. */
  async findSend(sessionId: string, key: string): Promise<SendRecord | undefined> {
    try {
      await this.db.schema();
      return await readSend(this.db, sessionId, key);
    } catch (error) {
      throw storeError(error, `reading a send of session ${JSON.stringify(sessionId)}`, false);
    }
  }

  /** Saves a session record in its own statement, holding the session like a turn. */
  save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expectedVersion: number,
    options?: SaveOptions,
  ): Promise<number> {
    return this.withSessionLock(sessionId, (session) => session.save(record, expectedVersion, options));
  }

  /** Deletes a session, its messages, its suspension and its kept sends, holding it like a turn. */
  async delete(sessionId: string): Promise<void> {
    const { t } = this.db;
    await this.withSessionLock(sessionId, async () => {
      try {
        await this.db.q(
          `WITH m AS (DELETE FROM ${t.messages} WHERE session_id = $1 RETURNING 1), ` +
            `s AS (DELETE FROM ${t.suspensions} WHERE session_id = $1 RETURNING 1), ` +
            `k AS (DELETE FROM ${t.sends} WHERE session_id = $1 RETURNING 1), ` +
            `p AS (DELETE FROM ${t.sessions} WHERE session_id = $1 RETURNING 1) ` +
            // The lock row stays (version 0): a turn waiting for it then reads the session as new.
            `UPDATE ${t.locks} SET version = 0 WHERE session_id = $1`,
          [sessionId],
        );
      } catch (error) {
        throw storeError(error, `deleting session ${JSON.stringify(sessionId)}`, true);
      }
    });
  }

  /** The stored version, 0 for a missing session. */
  async version(sessionId: string): Promise<number> {
    try {
      await this.db.schema();
      return await readVersion(this.db, sessionId);
    } catch (error) {
      throw storeError(error, `reading the version of session ${JSON.stringify(sessionId)}`, false);
    }
  }

  /** The suspension waiting on `signalId`. */
  async findSuspension(signalId: string): Promise<SuspensionRecord | undefined> {
    const { t } = this.db;
    try {
      await this.db.schema();
      const row = (
        await this.db.q<{ session_id: string; version: string; suspension: string }>(
          `SELECT s.session_id, p.version, s.suspension FROM ${t.suspensions} s JOIN ${t.sessions} p ON p.session_id = s.session_id WHERE s.signal_id = $1`,
          [signalId],
        )
      )[0];
      return row === undefined ? undefined : decodeSuspension(row.session_id, Number(row.version), row.suspension);
    } catch (error) {
      throw storeError(error, `finding signal ${JSON.stringify(signalId)}`, false);
    }
  }

  /** The suspensions that wait, ordered by signal id (UTF-8 byte order). */
  async listSuspended(options: ListSuspendedOptions = {}): Promise<readonly SuspensionRecord[]> {
    const { t } = this.db;
    try {
      await this.db.schema();
      const rows = await this.db.q<{ session_id: string; version: string; suspension: string }>(
        `SELECT s.session_id, p.version, s.suspension FROM ${t.suspensions} s JOIN ${t.sessions} p ON p.session_id = s.session_id ` +
          'WHERE s.signal_id > $1 AND ($2::text IS NULL OR s.session_id = $2) ORDER BY s.signal_id LIMIT $3',
        [own(options, 'after') ?? '', own(options, 'sessionId') ?? null, own(options, 'limit') ?? null],
      );
      return rows.map((row) => decodeSuspension(row.session_id, Number(row.version), row.suspension));
    } catch (error) {
      throw storeError(error, 'listing suspensions', false);
    }
  }

  /** Resume log entries after `after`. */
  async readResumes(after: number | undefined, limit = 1000): Promise<ResumeLog> {
    const { t } = this.db;
    try {
      await this.db.schema();
      const last = Number(
        (await this.db.q<{ seq: string }>(`SELECT COALESCE(max(seq), 0) AS seq FROM ${t.resumes}`))[0]?.seq ?? 0,
      );
      if (after === undefined) return { entries: [], cursor: last };
      const rows = await this.db.q<{ seq: string; session_id: string; entry: string }>(
        `SELECT seq, session_id, entry FROM ${t.resumes} WHERE seq > $1 ORDER BY seq LIMIT $2`,
        [after, limit],
      );
      const entries = rows.map((r) => decodeResume(Number(r.seq), r.session_id, r.entry));
      return resumePage(after, last, entries);
    } catch (error) {
      throw storeError(error, 'reading the resume log', false);
    }
  }

  /**
   * The effect ledger in this store's database (table `<prefix>_effects`): pass it to
   * `settleMutations` / `admitMutation` (`{ ledger }`) and an effect runs once across replays,
   * retries, processes and machines sharing the database, and restarts. A claim is one
   * `INSERT ... ON CONFLICT DO NOTHING`, so of any number of processes claiming one effect at once
   * exactly one runs it. The claim records its claimant token (the `begin`'s, or one made for the
   * call): a claim whose answer was lost to a connection failure is retried under the same token
   * (with backoff, up to half of `leaseMs`, at most 10 s) and resumed, so the effect runs once
   * rather than never; a caller that retries `begin` itself passes its own token. A `started`
   * effect with no end reads `unknown_after_crash` once older than `leaseMs` (by the claiming
   * process's clock).
   *
   * Source: HARNESS-TYPESTATE §6 (an admitted mutation runs once).
   *
   * @param options - The lease of a started effect, the clock.
   * @returns The ledger.
   * @throws TypeError for a negative or non-finite `leaseMs`; its methods reject with the
   *   driver's error when the database cannot be reached.
   * @example
   * ```ts
   * import { PostgresSessionStore } from 'turngate/chat/postgres';
   * import { MemoryEffectLedger, settleMutations, type JoinClosed } from 'turngate';
   * declare const store: PostgresSessionStore;
   * declare const closed: JoinClosed;
   * await settleMutations(closed, {}, undefined, { ledger: store.effectLedger() });
   * ```
   */
  effectLedger(options: EffectLedgerOptions = {}): EffectLedger {
    const { leaseMs, now } = ledgerClock('PostgresSessionStore.effectLedger', options);
    const { effects } = this.db.t;
    const read = async (key: string): Promise<EffectRecord | undefined> => {
      await this.db.schema();
      const row = (await this.db.pool.query<EffectRow>(`SELECT * FROM ${effects} WHERE effect_key = $1`, [key]))
        .rows[0];
      return row === undefined ? undefined : effectRecord(row, leaseMs, now());
    };
    const claim = async (entry: EffectEntry, claimant: string): Promise<EffectClaim> => {
      await this.db.schema();
      const inserted = await this.db.pool.query(
        `INSERT INTO ${effects} (effect_key, tool_call_id, tool_name, input_digest, join_set_digest, state, outcome, started_at, claimant) ` +
          "VALUES ($1, $2, $3, $4, $5, 'started', NULL, $6, $7) ON CONFLICT (effect_key) DO NOTHING",
        startedColumns(entry, now(), claimant),
      );
      if (inserted.rowCount === 1) return { claimed: true };
      const row = (await this.db.pool.query<EffectRow>(`SELECT * FROM ${effects} WHERE effect_key = $1`, [entry.key]))
        .rows[0];
      if (row === undefined) throw new Error(`PostgresSessionStore.effectLedger: ${entry.key} vanished`);
      return claimOf(row, claimant, leaseMs, now());
    };
    // A claim whose answer was lost (the connection cut after the server stored it) is retried
    // here, under the same claimant token, for up to half the lease (at most 10 s): the retry
    // resumes the claim instead of reading it as another's.
    const retryMs = Math.min(10_000, leaseMs / 2);
    return {
      begin: async (entry, claimant) => {
        const token = claimant ?? randomUUID();
        const started = Date.now();
        for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
          try {
            return await claim(entry, token);
          } catch (error) {
            if (transientReason(error) === undefined || Date.now() - started + wait > retryMs) throw error;
          }
          await sleep(wait);
        }
      },
      finish: async (key, end) => {
        await this.db.schema();
        await this.db.pool.query(
          `UPDATE ${effects} SET state = $1, outcome = $2 WHERE effect_key = $3 AND state = 'started'`,
          [...endColumns(end), key],
        );
      },
      read,
    };
  }

  /**
   * The effect ledger of {@link effectLedger} with approval records beside its effects (table
   * `<prefix>_approvals`, created on first use): pass it to `requestApproval`, `decideApproval`
   * and `beginApproved`, and an approval asked in one process is decided and consumed in any
   * other sharing the database, once. Each step is one statement (an insert `ON CONFLICT DO
   * NOTHING`, an update guarded by the request digest).
   *
   * Source: docs/APPROVALS.md §1.
   *
   * @param options - The lease of a started effect, the clock (as {@link effectLedger}).
   * @returns The ledger.
   * @throws TypeError for a negative or non-finite `leaseMs`; its methods reject with the
   *   driver's error when the database cannot be reached.
   * @example
   * ```ts
   * import { PostgresSessionStore } from 'turngate/chat/postgres';
   * import { readApproval } from 'turngate/approvals';
   * declare const store: PostgresSessionStore;
   * await readApproval(store.approvalLedger(), 'k');
   * ```
   */
  approvalLedger(options: EffectLedgerOptions = {}): ApprovalLedger {
    return postgresApprovalLedger(this.db, this.effectLedger(options));
  }

  /** Ends the pool when this store made it. */
  async close(): Promise<void> {
    this.leases.stop();
    if (this.owned) await this.db.pool.end();
  }
}
