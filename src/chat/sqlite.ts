/**
 * A durable session store on SQLite (better-sqlite3), exported from `turngate/chat/sqlite` so
 * the core never loads a native module. better-sqlite3 is an optional peer dependency.
 *
 * @module
 */
import Database from 'better-sqlite3';
import { own } from '../internal/own-field.ts';
import { count, ledgerClock, milliseconds } from '../internal/durations.ts';
import type { ApprovalLedger, EffectLedgerOptions, EffectRecord, SyncEffectLedger } from '../typestate/index.ts';
import type { ChatMessage } from './messages.ts';
import { SessionQueue } from './queue.ts';
import { claimOf, effectRecord, endColumns, startedColumns } from './sql-effects.ts';
import { sqliteApprovalLedger } from './sql-approvals.ts';
import { decodeRecord, decodeResume, decodeSend, decodeSuspension, sqlTables } from './sql-rows.ts';
import { served } from './sqlite-errors.ts';
import { SqliteLockRows } from './sqlite-lock.ts';
import { saveIn } from './sqlite-save.ts';
import { createTables, prepareStatements, type SqliteStatements } from './sqlite-statements.ts';
import {
  DEFAULT_RESUME_LOG_SIZE,
  DEFAULT_SEND_KEYS_KEPT,
  type ListSuspendedOptions,
  type LockedSession,
  lockedView,
  resumePage,
  type SaveOptions,
  type SendRecord,
  type SessionLockOptions,
  type SessionStore,
} from './store.ts';
import type { ResumeLog, SessionRecord, SuspensionRecord } from './session-records.ts';
import { SessionStoreUnavailable } from './store-errors.ts';

/**
 * Options of {@link SqliteSessionStore}.
 *
 * @example
 * ```ts
 * import { SqliteSessionStore, type SqliteSessionStoreOptions } from 'turngate/chat/sqlite';
 * const options: SqliteSessionStoreOptions = { tablePrefix: 'support_chat', resumeLogSize: 1000, sendKeysKept: 100 };
 * new SqliteSessionStore(':memory:', options).close();
 * ```
 */
export interface SqliteSessionStoreOptions {
  /** The prefix of the table names (`<prefix>_sessions`, ...); default `turngate`. */
  readonly tablePrefix?: string;
  /** How many resume log entries to keep (the oldest go first); default 10,000. */
  readonly resumeLogSize?: number;
  /**
   * How long, in milliseconds, a session held by a process (a turn, a resume) stays held when that
   * process stops renewing it (it died): after this another process may take it; default 30,000.
   * A live holder renews it every third of this.
   */
  readonly lockLeaseMs?: number;
  /** How long, in milliseconds, a turn waits for a session another process holds; default 30,000. */
  readonly lockTimeoutMs?: number;
  /**
   * How long, in milliseconds, one statement waits for a database another connection is writing
   * (SQLite's `busy_timeout`) before the call fails with `SessionStoreUnavailable` (`busy`).
   * Default: better-sqlite3's 5,000 for a database the store opens; a database you pass in keeps
   * its own unless this is given.
   */
  readonly busyTimeoutMs?: number;
  /**
   * How many idempotency keys to keep per session (`SaveOptions.send`): the keys of the session's
   * newest this many keyed sends (saves without a key, such as resumes, do not count); older
   * keys are forgotten, oldest first, in the save that keeps a new one. An integer >= 0;
   * default 1,000 (`DEFAULT_SEND_KEYS_KEPT`).
   */
  readonly sendKeysKept?: number;
}

export { SessionLockTimeout } from './store-errors.ts';

/**
 * Sessions in SQLite: tables `<prefix>_sessions`, `_messages`, `_suspensions`, `_resumes`,
 * `_sends` (the layout the PostgreSQL store shares, see sql-rows.ts), `_locks` and `_effects`, WAL
 * mode, created on first use. Each save is one transaction (`BEGIN IMMEDIATE`) that checks the
 * expected version first and writes the session, its new messages, its suspension, its resume
 * log entry and its kept send, so a save writes everything or nothing: a process killed mid-save
 * leaves the previous record. A save with a matching `unchangedPrefix` inserts only the new
 * messages, so a turn costs about the same at message 10 and message 10,000.
 *
 * Idempotent sends: a save with `SaveOptions.send` keeps the send's record (key, message digest,
 * outcome; JSON) in `<prefix>_sends` in the same transaction, and `findSend` (on the store and on
 * the session its lock hands out) finds it, so `harness.send(id, message, { idempotencyKey })`
 * retried after any failure, in any process on the file or after a restart, returns the kept
 * outcome (`replayed: true`) instead of running the turn again. Each session keeps the keys of
 * its newest `sendKeysKept` keyed sends (default 1,000); `delete` forgets them with the session.
 *
 * Several processes on one file: the session lock holds a session across them (a row in
 * `<prefix>_locks`, with a lease a live holder renews), so turns and resumes of one session run
 * one at a time, and one signal delivered by two processes at once resumes the turn once (the
 * other delivery finds nothing waiting: `undefined` or `suspension_record_invalid`). A process
 * that dies holding a session frees it when the lease (`lockLeaseMs`) runs out. A turn's save
 * checks its holder token (the fence, as the PostgreSQL store's does): a process blocked or
 * stopped past its lease, whose session another process took, is refused
 * (`session_write_conflict`) and the holder saves. For several machines, use the PostgreSQL store.
 *
 * Errors by cause: SQLite's `SQLITE_BUSY` / `SQLITE_LOCKED` (and their extended codes), which a
 * call meets when another connection holds the database past the busy timeout (`busyTimeoutMs`;
 * default better-sqlite3's 5,000 ms), are thrown as {@link SessionStoreUnavailable} (reason `busy`, the
 * SQLite error as `cause`; for a save `outcomeUnknown` is false: the transaction rolled back), so
 * the harness answers them in the `retryable_transient` bucket. While taking the session lock, a
 * busy database counts as the session still being held: the turn waits, up to `lockTimeoutMs`
 * ({@link SessionLockTimeout}). A failure to release the lock (a busy database) is retried
 * in the background and never replaces the turn's outcome. Any other SQLite error
 * (`SQLITE_IOERR*`, `SQLITE_FULL`, `SQLITE_CANTOPEN`, `SQLITE_CORRUPT`) and a closed database are
 * thrown as they are: the harness answers them as `session_terminating`.
 *
 * Source: harness-chat §4 (history in session state); sessions §8.2 (optimistic concurrency);
 * suspension §8.6 (atomic suspend); SQLite result codes (https://www.sqlite.org/rescode.html).
 *
 * @example
 * ```ts
 * import { SqliteSessionStore } from 'turngate/chat/sqlite';
 * import { createChatHarness, sequentialGraph } from 'turngate/chat';
 * const store = new SqliteSessionStore(':memory:');
 * const harness = createChatHarness({ graph: sequentialGraph({ entry: 'n', nodes: { n: () => undefined }, edges: [] }), store });
 * (await harness.send('s', { role: 'user', content: 'Hello' })).outcome; //=> 'completed'
 * // A send with an idempotency key, retried: the kept outcome, the graph not run again.
 * await harness.send('s', { role: 'user', content: 'Refund A-1' }, { idempotencyKey: 'req-7' });
 * 'replayed' in (await harness.send('s', { role: 'user', content: 'Refund A-1' }, { idempotencyKey: 'req-7' })); //=> true
 * (await store.findSend('s', 'req-7'))?.outcome.outcome; //=> 'completed'
 * store.close();
 * ```
 */
export class SqliteSessionStore implements SessionStore {
  private readonly db: Database.Database;
  private readonly owned: boolean;
  private readonly stmts: SqliteStatements;
  private readonly approvalTable: string;
  private readonly locks = new SessionQueue();
  private readonly lockRows: SqliteLockRows;
  private readonly saveTx: Database.Transaction<
    (
      sessionId: string,
      record: Omit<SessionRecord, 'version'>,
      expected: number,
      options: SaveOptions | undefined,
      holder: string | undefined,
    ) => number
  >;

  /**
   * Opens (or creates) a store.
   *
   * @param database - A file path, `':memory:'`, or an open better-sqlite3 database (not closed by {@link close}).
   * @param options - The table name prefix, the resume log size, the lock's lease and timeout, the
   *   idempotency keys kept per session.
   * @throws TypeError for a prefix that is not an identifier, a duration that is not milliseconds
   *   >= 0, a `sendKeysKept` that is not an integer >= 0 (the message names the option); the
   *   SQLite error when the file cannot be opened or its tables created.
   */
  constructor(database: string | Database.Database, options: SqliteSessionStoreOptions = {}) {
    const t = sqlTables('SqliteSessionStore', own(options, 'tablePrefix') ?? 'turngate');
    const logSize = own(options, 'resumeLogSize') ?? DEFAULT_RESUME_LOG_SIZE;
    const lockLeaseMs = milliseconds('SqliteSessionStore', 'lockLeaseMs', own(options, 'lockLeaseMs'), 30_000);
    const lockTimeoutMs = milliseconds('SqliteSessionStore', 'lockTimeoutMs', own(options, 'lockTimeoutMs'), 30_000);
    const sendKeysKept = count(
      'SqliteSessionStore',
      'sendKeysKept',
      own(options, 'sendKeysKept'),
      DEFAULT_SEND_KEYS_KEPT,
    );
    this.owned = typeof database === 'string';
    const busyTimeoutMs = own(options, 'busyTimeoutMs');
    const busy =
      busyTimeoutMs === undefined ? undefined : milliseconds('SqliteSessionStore', 'busyTimeoutMs', busyTimeoutMs, 0);
    this.db = typeof database === 'string' ? new Database(database) : database;
    if (busy !== undefined) this.db.pragma(`busy_timeout = ${Math.min(Math.round(busy), 2 ** 31 - 1)}`);
    this.db.pragma('journal_mode = WAL');
    createTables(this.db, t);
    const stmts = prepareStatements(this.db, t);
    this.stmts = stmts;
    this.approvalTable = t.approvals;
    this.lockRows = new SqliteLockRows(this.db, stmts, lockLeaseMs, lockTimeoutMs);
    this.saveTx = this.db.transaction(
      (
        sessionId: string,
        record: Omit<SessionRecord, 'version'>,
        expected: number,
        saveOptions: SaveOptions | undefined,
        holder: string | undefined,
      ) => saveIn(stmts, { logSize, sendKeysKept }, sessionId, record, expected, saveOptions, holder),
    );
  }

  /**
   * Loads a session record (one read transaction).
   *
   * @throws {@link SessionStoreUnavailable} (`busy`) when the database is busy.
   */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    const read = this.db.transaction(() => {
      const row = this.stmts.record.get(sessionId);
      if (row === undefined) return undefined;
      const messages = this.stmts.messages.all(sessionId).map((m) => JSON.parse(m.message) as ChatMessage);
      return decodeRecord(row.version, row.record, messages, this.stmts.suspensionOf.get(sessionId)?.suspension);
    });
    return served(`load of session ${JSON.stringify(sessionId)}`, read);
  }

  /**
   * Saves a session record in one transaction when the stored version is `expectedVersion`, with
   * its suspension, its resume log entry (`options.resumed`) and its kept send (`options.send`).
   *
   * @returns The new version.
   * @throws {@link SessionWriteConflict} for another stored version; {@link SignalIdInUse} when the
   *   record suspends on a signal id another session waits on; {@link SessionStoreUnavailable}
   *   (`busy`, `outcomeUnknown` false: nothing was written) when the database stayed busy past
   *   the busy timeout.
   */
  async save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expectedVersion: number,
    options?: SaveOptions,
  ): Promise<number> {
    // BEGIN IMMEDIATE: the save reads the version and then writes. A deferred transaction that
    // read first fails at once (SQLITE_BUSY, no waiting) when another process wrote meanwhile;
    // an immediate one takes the write lock first and waits for it (busy timeout).
    return served(`save of session ${JSON.stringify(sessionId)}`, () =>
      this.saveTx.immediate(sessionId, record, expectedVersion, options, undefined),
    );
  }

  /**
   * Deletes a session, its messages, its suspension and its kept sends.
   *
   * @throws {@link SessionStoreUnavailable} (`busy`) when the database is busy.
   */
  async delete(sessionId: string): Promise<void> {
    const remove = this.db.transaction(() => {
      this.stmts.clearMessages.run(sessionId);
      this.stmts.clearSuspension.run(sessionId);
      this.stmts.clearSends.run(sessionId);
      this.stmts.deleteSession.run(sessionId);
    });
    served(`delete of session ${JSON.stringify(sessionId)}`, () => remove.immediate());
  }

  /**
   * The stored version, 0 for a missing session.
   *
   * @throws {@link SessionStoreUnavailable} (`busy`) when the database is busy.
   */
  async version(sessionId: string): Promise<number> {
    return served(
      `version of session ${JSON.stringify(sessionId)}`,
      () => this.stmts.version.get(sessionId)?.version ?? 0,
    );
  }

  /**
   * The send kept under `key` for the session (see `SaveOptions.send`), or `undefined`: a key
   * never saved, forgotten (beyond `sendKeysKept`), or of a deleted session.
   *
   * @throws {@link SessionStoreUnavailable} (`busy`) when the database is busy.
   */
  async findSend(sessionId: string, key: string): Promise<SendRecord | undefined> {
    const row = served(`send lookup of session ${JSON.stringify(sessionId)}`, () =>
      this.stmts.findSend.get(sessionId, key),
    );
    return row === undefined ? undefined : decodeSend(key, row.record);
  }

  /**
   * The suspension waiting on `signalId`.
   *
   * @throws {@link SessionStoreUnavailable} (`busy`) when the database is busy.
   */
  async findSuspension(signalId: string): Promise<SuspensionRecord | undefined> {
    const row = served(`lookup of signal ${JSON.stringify(signalId)}`, () => this.stmts.findSuspension.get(signalId));
    return row === undefined ? undefined : decodeSuspension(row.session_id, row.version, row.suspension);
  }

  /**
   * The suspensions that wait, ordered by signal id.
   *
   * @throws {@link SessionStoreUnavailable} (`busy`) when the database is busy.
   */
  async listSuspended(options: ListSuspendedOptions = {}): Promise<readonly SuspensionRecord[]> {
    const only = own(options, 'sessionId') ?? null;
    const rows = served('list of suspensions', () =>
      this.stmts.listSuspended.all(own(options, 'after') ?? '', only, only, own(options, 'limit') ?? -1),
    );
    return rows.map((row) => decodeSuspension(row.session_id, row.version, row.suspension));
  }

  /**
   * Resume log entries after `after`.
   *
   * @throws {@link SessionStoreUnavailable} (`busy`) when the database is busy.
   */
  async readResumes(after: number | undefined, limit = 1000): Promise<ResumeLog> {
    return served('read of the resume log', () => {
      const last = this.stmts.lastResume.get()?.seq ?? 0;
      if (after === undefined) return { entries: [], cursor: last };
      const entries = this.stmts.readResumes.all(after, limit).map((r) => decodeResume(r.seq, r.session_id, r.entry));
      return resumePage(after, last, entries);
    });
  }

  /**
   * Runs `body` with the session held against every other holder: harnesses sharing this store
   * object, and other processes on the same file (a lock row with a lease, renewed while `body`
   * runs, released after it). The session it hands `body` has `findSend`, and its save is fenced:
   * it is refused ({@link SessionWriteConflict}) when the lock row names another holder (this
   * turn's lease ran out, as for a process blocked or stopped past `lockLeaseMs`, and another
   * turn took the session), so the holder saves, never the one that lost the session. Of
   * `options`, only `sendKey` is read: a send with an idempotency key holds under a token of
   * this store object and the key, so its retry takes over its own lease at once.
   *
   * A busy database while taking the lock counts as the session being held (the turn waits). A
   * release that fails because the database is busy is retried in the background until it
   * succeeds or the lease runs out; it never replaces what `body` returned or threw (a
   * {@link SessionStoreUnavailable} from `body` keeps the release's error as `cleanupError`).
   *
   * @throws {@link SessionLockTimeout} when another process holds the session (or the database)
   *   longer than `lockTimeoutMs`; whatever `body` throws.
   */
  withSessionLock<T>(
    sessionId: string,
    body: (session: LockedSession) => Promise<T>,
    options?: SessionLockOptions,
  ): Promise<T> {
    return this.locks.run(sessionId, async () => {
      const holder = this.lockRows.token(options === undefined ? undefined : own(options, 'sendKey'));
      await this.lockRows.take(sessionId, holder);
      const stopRenewing = this.lockRows.renew(sessionId, holder);
      let saved = false;
      const session: LockedSession = {
        ...lockedView(this, sessionId),
        save: async (record, expectedVersion, saveOptions) => {
          if (saved) throw new Error('a locked session saves once');
          saved = true;
          return served(`save of session ${JSON.stringify(sessionId)}`, () =>
            this.saveTx.immediate(sessionId, record, expectedVersion, saveOptions, holder),
          );
        },
      };
      let failure: unknown;
      try {
        return await body(session);
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        stopRenewing();
        const unreleased = await this.lockRows.release(sessionId, holder);
        if (unreleased !== undefined && failure instanceof SessionStoreUnavailable) failure.cleanupError ??= unreleased;
      }
    });
  }

  /**
   * The effect ledger in this store's database (table `<prefix>_effects`): pass it to
   * `settleMutations` / `admitMutation` (`{ ledger }`) and an effect runs once across replays,
   * retries, processes on the same file and restarts. A claim is one `INSERT ... ON CONFLICT DO
   * NOTHING`, so of two processes claiming one effect at once exactly one runs it; it records the
   * `begin`'s claimant token, and a `begin` with the same token resumes that claim while it is
   * `started`. A `started` effect with no end reads `unknown_after_crash` once older than `leaseMs`.
   *
   * Source: HARNESS-TYPESTATE §6 (an admitted mutation runs once).
   *
   * @param options - The lease of a started effect, the clock.
   * @returns The ledger (its methods run synchronously).
   * @throws TypeError for a negative or non-finite `leaseMs`.
   * @example
   * ```ts
   * import { SqliteSessionStore } from 'turngate/chat/sqlite';
   * const store = new SqliteSessionStore(':memory:');
   * const ledger = store.effectLedger();
   * ledger.begin({ key: 'k', toolCallId: 'toolu_05', toolName: 'send_email', inputDigest: 'sha256:0', joinSetDigest: 'sha256:1' }).claimed; //=> true
   * ledger.begin({ key: 'k', toolCallId: 'toolu_05', toolName: 'send_email', inputDigest: 'sha256:0', joinSetDigest: 'sha256:1' }).claimed; //=> false
   * store.close();
   * ```
   */
  effectLedger(options: EffectLedgerOptions = {}): SyncEffectLedger {
    const { leaseMs, now } = ledgerClock('SqliteSessionStore.effectLedger', options);
    const { beginEffect, finishEffect, readEffect } = this.stmts;
    const read = (key: string): EffectRecord | undefined => {
      const row = readEffect.get(key);
      return row === undefined ? undefined : effectRecord(row, leaseMs, now());
    };
    return {
      begin: (entry, claimant) => {
        if (beginEffect.run(...startedColumns(entry, now(), claimant)).changes === 1) return { claimed: true };
        const row = readEffect.get(entry.key);
        if (row === undefined) throw new Error(`SqliteSessionStore.effectLedger: ${entry.key} vanished`);
        return claimOf(row, claimant, leaseMs, now());
      },
      finish: (key, end) => {
        finishEffect.run(...endColumns(end), key);
      },
      read,
    };
  }

  /**
   * The effect ledger of {@link effectLedger} with approval records beside its effects (table
   * `<prefix>_approvals`, created on the first call): pass it to `requestApproval`,
   * `decideApproval` and `beginApproved`, and an approval asked in one process is decided and
   * consumed in any other on the same file, once. Each step is one statement (an insert `ON
   * CONFLICT DO NOTHING`, an update guarded by the request digest).
   *
   * Source: docs/APPROVALS.md §1.
   *
   * @param options - The lease of a started effect, the clock (as {@link effectLedger}).
   * @returns The ledger (its methods run synchronously).
   * @throws TypeError for a negative or non-finite `leaseMs`.
   * @example
   * ```ts
   * import { requestApproval } from 'turngate/approvals';
   * import { SqliteSessionStore } from 'turngate/chat/sqlite';
   * const store = new SqliteSessionStore(':memory:');
   * const asked = await requestApproval(store.approvalLedger(), { key: 'k', toolCallId: 'c1', toolName: 'send_email', inputDigest: 'sha256:0', policyVersion: 'v1', schemaDigest: 'sha256:1', reason: '', createdAt: 0, expiresAt: 60_000 });
   * asked.ok && asked.value.state; //=> 'awaiting_approval'
   * store.close();
   * ```
   */
  approvalLedger(options: EffectLedgerOptions = {}): SyncEffectLedger & ApprovalLedger {
    return sqliteApprovalLedger(this.db, this.approvalTable, this.effectLedger(options));
  }

  /**
   * Closes the database when this store opened it. Lock rows whose release is still being
   * retried (the database was busy) are dropped first, waiting for the database up to 1,000 ms
   * each when its busy timeout is shorter; a row still busy after that is left to its lease.
   */
  close(): void {
    this.lockRows.dropUnreleased();
    if (this.owned) this.db.close();
  }
}
