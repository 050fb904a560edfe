/**
 * A durable session store on SQLite (better-sqlite3), exported from `turngate/chat/sqlite` so
 * the core never loads a native module. better-sqlite3 is an optional peer dependency.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { own } from '../internal/own-field.ts';
import { ledgerClock, milliseconds } from '../internal/durations.ts';
import type { EffectLedgerOptions, EffectRecord, SyncEffectLedger } from '../typestate/index.ts';
import type { ChatMessage } from './messages.ts';
import { SessionQueue } from './queue.ts';
import { type EffectRow, effectRecord, endColumns, startedColumns } from './sql-effects.ts';
import {
  decodeRecord,
  decodeResume,
  decodeSuspension,
  encodeRecord,
  encodeResume,
  encodeSuspension,
  sqlTables,
} from './sql-rows.ts';
import {
  appendFrom,
  DEFAULT_RESUME_LOG_SIZE,
  type ListSuspendedOptions,
  type LockedSession,
  lockedView,
  type ResumeLog,
  resumePage,
  type SaveOptions,
  type SessionRecord,
  type SessionStore,
  SessionLockTimeout,
  SessionWriteConflict,
  SignalIdInUse,
  type SuspensionRecord,
  suspensionOf,
} from './store.ts';

/**
 * Options of {@link SqliteSessionStore}.
 *
 * @example
 * ```ts
 * import { SqliteSessionStore, type SqliteSessionStoreOptions } from 'turngate/chat/sqlite';
 * const options: SqliteSessionStoreOptions = { tablePrefix: 'support_chat', resumeLogSize: 1000 };
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
}

export { SessionLockTimeout } from './store.ts';

type Row<T> = T | undefined;

/**
 * Sessions in SQLite: four tables (`<prefix>_sessions`, `_messages`, `_suspensions`, `_resumes`;
 * the layout the PostgreSQL store shares), WAL mode, created on first use. Each save is one
 * transaction that checks the expected version first and writes the session, its new messages,
 * its suspension and its resume log entry, so a save writes everything or nothing: a process
 * killed mid-save leaves the previous record. A save with a matching `unchangedPrefix` inserts
 * only the new messages, so a turn costs about the same at message 10 and message 10,000.
 *
 * Several processes on one file: the session lock holds a session across them (a row in
 * `<prefix>_locks`, with a lease a live holder renews), so turns and resumes of one session run
 * one at a time, and one signal delivered by two processes at once resumes the turn once. A
 * process that dies holding a session frees it when the lease (`lockLeaseMs`) runs out. For
 * several machines, use the PostgreSQL store.
 *
 * Source: harness-chat §4 (history in session state); sessions §8.2 (optimistic concurrency);
 * suspension §8.6 (atomic suspend).
 *
 * @example
 * ```ts
 * import { SqliteSessionStore } from 'turngate/chat/sqlite';
 * import { createChatHarness, sequentialGraph } from 'turngate/chat';
 * const store = new SqliteSessionStore(':memory:');
 * const harness = createChatHarness({ graph: sequentialGraph({ entry: 'n', nodes: { n: () => undefined }, edges: [] }), store });
 * (await harness.send('s', { role: 'user', content: 'Hello' })).outcome; //=> 'completed'
 * store.close();
 * ```
 */
export class SqliteSessionStore implements SessionStore {
  private readonly db: Database.Database;
  private readonly owned: boolean;
  private readonly stmts;
  private readonly locks = new SessionQueue();
  private readonly lockLeaseMs: number;
  private readonly lockTimeoutMs: number;
  private readonly saveTx: Database.Transaction<
    (
      sessionId: string,
      record: Omit<SessionRecord, 'version'>,
      expected: number,
      options: SaveOptions | undefined,
    ) => number
  >;

  /**
   * Opens (or creates) a store.
   *
   * @param database - A file path, `':memory:'`, or an open better-sqlite3 database (not closed by {@link close}).
   * @param options - The table name prefix, the resume log size.
   * @throws TypeError for a prefix that is not an identifier.
   */
  constructor(database: string | Database.Database, options: SqliteSessionStoreOptions = {}) {
    const t = sqlTables('SqliteSessionStore', own(options, 'tablePrefix') ?? 'turngate');
    const logSize = own(options, 'resumeLogSize') ?? DEFAULT_RESUME_LOG_SIZE;
    this.lockLeaseMs = milliseconds('SqliteSessionStore', 'lockLeaseMs', own(options, 'lockLeaseMs'), 30_000);
    this.lockTimeoutMs = milliseconds('SqliteSessionStore', 'lockTimeoutMs', own(options, 'lockTimeoutMs'), 30_000);
    this.owned = typeof database === 'string';
    this.db = typeof database === 'string' ? new Database(database) : database;
    this.db.pragma('journal_mode = WAL');
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${t.sessions} (session_id TEXT PRIMARY KEY, version INTEGER NOT NULL, message_count INTEGER NOT NULL, record TEXT NOT NULL);` +
        `CREATE TABLE IF NOT EXISTS ${t.messages} (session_id TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT NULL, PRIMARY KEY (session_id, seq)) WITHOUT ROWID;` +
        `CREATE TABLE IF NOT EXISTS ${t.suspensions} (signal_id TEXT PRIMARY KEY, session_id TEXT NOT NULL UNIQUE, suspension TEXT NOT NULL);` +
        `CREATE TABLE IF NOT EXISTS ${t.resumes} (seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, entry TEXT NOT NULL);` +
        `CREATE TABLE IF NOT EXISTS ${t.locks} (session_id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;` +
        `CREATE TABLE IF NOT EXISTS ${t.effects} (effect_key TEXT PRIMARY KEY, tool_call_id TEXT NOT NULL, tool_name TEXT NOT NULL, input_digest TEXT NOT NULL, join_set_digest TEXT NOT NULL, state TEXT NOT NULL, outcome TEXT, started_at INTEGER NOT NULL) WITHOUT ROWID;`,
    );
    const db = this.db;
    this.stmts = {
      version: db.prepare<[string], { version: number; message_count: number }>(
        `SELECT version, message_count FROM ${t.sessions} WHERE session_id = ?`,
      ),
      record: db.prepare<[string], { version: number; record: string }>(
        `SELECT version, record FROM ${t.sessions} WHERE session_id = ?`,
      ),
      messages: db.prepare<[string], { message: string }>(
        `SELECT message FROM ${t.messages} WHERE session_id = ? ORDER BY seq`,
      ),
      suspensionOf: db.prepare<[string], { suspension: string }>(
        `SELECT suspension FROM ${t.suspensions} WHERE session_id = ?`,
      ),
      holder: db.prepare<[string], { session_id: string }>(
        `SELECT session_id FROM ${t.suspensions} WHERE signal_id = ?`,
      ),
      findSuspension: db.prepare<[string], { session_id: string; version: number; suspension: string }>(
        `SELECT s.session_id, p.version, s.suspension FROM ${t.suspensions} s JOIN ${t.sessions} p ON p.session_id = s.session_id WHERE s.signal_id = ?`,
      ),
      listSuspended: db.prepare<
        [string, string | null, string | null, number],
        { session_id: string; version: number; suspension: string }
      >(
        `SELECT s.session_id, p.version, s.suspension FROM ${t.suspensions} s JOIN ${t.sessions} p ON p.session_id = s.session_id WHERE s.signal_id > ? AND (? IS NULL OR s.session_id = ?) ORDER BY s.signal_id LIMIT ?`,
      ),
      insertSession: db.prepare<[string, number, number, string]>(
        `INSERT INTO ${t.sessions} (session_id, version, message_count, record) VALUES (?, ?, ?, ?)`,
      ),
      updateSession: db.prepare<[number, number, string, string, number]>(
        `UPDATE ${t.sessions} SET version = ?, message_count = ?, record = ? WHERE session_id = ? AND version = ?`,
      ),
      insertMessage: db.prepare<[string, number, string]>(
        `INSERT INTO ${t.messages} (session_id, seq, message) VALUES (?, ?, ?)`,
      ),
      clearMessages: db.prepare<[string]>(`DELETE FROM ${t.messages} WHERE session_id = ?`),
      clearSuspension: db.prepare<[string]>(`DELETE FROM ${t.suspensions} WHERE session_id = ?`),
      insertSuspension: db.prepare<[string, string, string]>(
        `INSERT INTO ${t.suspensions} (signal_id, session_id, suspension) VALUES (?, ?, ?)`,
      ),
      deleteSession: db.prepare<[string]>(`DELETE FROM ${t.sessions} WHERE session_id = ?`),
      insertResume: db.prepare<[string, string]>(`INSERT INTO ${t.resumes} (session_id, entry) VALUES (?, ?)`),
      pruneResumes: db.prepare<[number | bigint]>(`DELETE FROM ${t.resumes} WHERE seq <= ?`),
      lastResume: db.prepare<[], { seq: number }>(
        `SELECT COALESCE(MAX(seq), (SELECT seq FROM sqlite_sequence WHERE name = '${t.resumes}'), 0) AS seq FROM ${t.resumes}`,
      ),
      readResumes: db.prepare<[number, number], { seq: number; session_id: string; entry: string }>(
        `SELECT seq, session_id, entry FROM ${t.resumes} WHERE seq > ? ORDER BY seq LIMIT ?`,
      ),
      beginEffect: db.prepare<[string, string, string, string, string, number]>(
        `INSERT INTO ${t.effects} (effect_key, tool_call_id, tool_name, input_digest, join_set_digest, state, outcome, started_at) VALUES (?, ?, ?, ?, ?, 'started', NULL, ?) ON CONFLICT (effect_key) DO NOTHING`,
      ),
      finishEffect: db.prepare<[string, string, string]>(
        `UPDATE ${t.effects} SET state = ?, outcome = ? WHERE effect_key = ? AND state = 'started'`,
      ),
      readEffect: db.prepare<[string], EffectRow>(`SELECT * FROM ${t.effects} WHERE effect_key = ?`),
      takeLock: db.prepare<[string, string, number, number]>(
        `INSERT INTO ${t.locks} (session_id, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at WHERE ${t.locks}.expires_at < ?`,
      ),
      renewLock: db.prepare<[number, string, string]>(
        `UPDATE ${t.locks} SET expires_at = ? WHERE session_id = ? AND holder = ?`,
      ),
      dropLock: db.prepare<[string, string]>(`DELETE FROM ${t.locks} WHERE session_id = ? AND holder = ?`),
    };
    this.saveTx = db.transaction(
      (sessionId: string, record: Omit<SessionRecord, 'version'>, expected: number, saveOptions?: SaveOptions) => {
        const { messages: history } = record.state;
        const json = encodeRecord(record);
        const version = expected + 1;
        const current: Row<{ version: number; message_count: number }> = this.stmts.version.get(sessionId);
        if ((current?.version ?? 0) !== expected)
          throw new SessionWriteConflict(sessionId, expected, current?.version ?? 0);
        const suspension = suspensionOf(record);
        if (suspension !== undefined) {
          const holder = this.stmts.holder.get(suspension.descriptor.signal_id)?.session_id;
          if (holder !== undefined && holder !== sessionId)
            throw new SignalIdInUse(suspension.descriptor.signal_id, holder);
        }
        const from = appendFrom(saveOptions, current?.message_count, history.length);
        if (from === 0) this.stmts.clearMessages.run(sessionId);
        for (let seq = from; seq < history.length; seq++)
          this.stmts.insertMessage.run(sessionId, seq, JSON.stringify(history[seq]));
        if (current === undefined) this.stmts.insertSession.run(sessionId, version, history.length, json);
        else this.stmts.updateSession.run(version, history.length, json, sessionId, expected);
        this.stmts.clearSuspension.run(sessionId);
        if (suspension !== undefined)
          this.stmts.insertSuspension.run(suspension.descriptor.signal_id, sessionId, encodeSuspension(suspension));
        const resumed = saveOptions === undefined ? undefined : own(saveOptions, 'resumed');
        if (resumed !== undefined) {
          const { lastInsertRowid } = this.stmts.insertResume.run(sessionId, encodeResume(resumed));
          this.stmts.pruneResumes.run(BigInt(lastInsertRowid) - BigInt(logSize));
        }
        return version;
      },
    );
  }

  /** Loads a session record. */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    const read = this.db.transaction(() => {
      const row = this.stmts.record.get(sessionId);
      if (row === undefined) return undefined;
      const messages = this.stmts.messages.all(sessionId).map((m) => JSON.parse(m.message) as ChatMessage);
      return decodeRecord(row.version, row.record, messages, this.stmts.suspensionOf.get(sessionId)?.suspension);
    });
    return read();
  }

  /** Saves a session record in one transaction when the stored version is `expectedVersion`. */
  async save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expectedVersion: number,
    options?: SaveOptions,
  ): Promise<number> {
    // BEGIN IMMEDIATE: the save reads the version and then writes. A deferred transaction that
    // read first fails at once (SQLITE_BUSY, no waiting) when another process wrote meanwhile;
    // an immediate one takes the write lock first and waits for it (busy timeout).
    return this.saveTx.immediate(sessionId, record, expectedVersion, options);
  }

  /** Deletes a session, its messages and its suspension. */
  async delete(sessionId: string): Promise<void> {
    this.db.transaction(() => {
      this.stmts.clearMessages.run(sessionId);
      this.stmts.clearSuspension.run(sessionId);
      this.stmts.deleteSession.run(sessionId);
    })();
  }

  /** The stored version, 0 for a missing session. */
  async version(sessionId: string): Promise<number> {
    return this.stmts.version.get(sessionId)?.version ?? 0;
  }

  /** The suspension waiting on `signalId`. */
  async findSuspension(signalId: string): Promise<SuspensionRecord | undefined> {
    const row = this.stmts.findSuspension.get(signalId);
    return row === undefined ? undefined : decodeSuspension(row.session_id, row.version, row.suspension);
  }

  /** The suspensions that wait, ordered by signal id. */
  async listSuspended(options: ListSuspendedOptions = {}): Promise<readonly SuspensionRecord[]> {
    const only = own(options, 'sessionId') ?? null;
    const rows = this.stmts.listSuspended.all(own(options, 'after') ?? '', only, only, own(options, 'limit') ?? -1);
    return rows.map((row) => decodeSuspension(row.session_id, row.version, row.suspension));
  }

  /** Resume log entries after `after`. */
  async readResumes(after: number | undefined, limit = 1000): Promise<ResumeLog> {
    const last = this.stmts.lastResume.get()?.seq ?? 0;
    if (after === undefined) return { entries: [], cursor: last };
    const entries = this.stmts.readResumes.all(after, limit).map((r) => decodeResume(r.seq, r.session_id, r.entry));
    return resumePage(after, last, entries);
  }

  /**
   * Runs `body` with the session held against every other holder: harnesses sharing this store
   * object, and other processes on the same file (a lock row with a lease, renewed while `body`
   * runs, released after it).
   *
   * @throws {@link SessionLockTimeout} when another process holds the session longer than `lockTimeoutMs`.
   */
  withSessionLock<T>(sessionId: string, body: (session: LockedSession) => Promise<T>): Promise<T> {
    return this.locks.run(sessionId, async () => {
      const holder = randomUUID();
      const started = Date.now();
      for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
        const now = Date.now();
        if (this.stmts.takeLock.run(sessionId, holder, now + this.lockLeaseMs, now).changes === 1) break;
        if (now - started >= this.lockTimeoutMs) throw new SessionLockTimeout(sessionId, now - started);
        await sleep(wait);
      }
      const renew = setInterval(
        () => {
          try {
            this.stmts.renewLock.run(Date.now() + this.lockLeaseMs, sessionId, holder);
          } catch {
            // The database is closed or busy: the lease runs out, as for a process that died.
          }
        },
        Math.max(1, Math.floor(this.lockLeaseMs / 3)),
      );
      renew.unref();
      try {
        return await body(lockedView(this, sessionId));
      } finally {
        clearInterval(renew);
        if (this.db.open) this.stmts.dropLock.run(sessionId, holder);
      }
    });
  }

  /**
   * The effect ledger in this store's database (table `<prefix>_effects`): pass it to
   * `settleMutations` / `admitMutation` (`{ ledger }`) and an effect runs once across replays,
   * retries, processes on the same file and restarts. A claim is one `INSERT ... ON CONFLICT DO
   * NOTHING`, so of two processes claiming one effect at once exactly one runs it. A `started`
   * effect with no end reads `unknown_after_crash` once older than `leaseMs`.
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
      begin: (entry) => {
        if (beginEffect.run(...startedColumns(entry, now())).changes === 1) return { claimed: true };
        const record = read(entry.key);
        if (record === undefined) throw new Error(`SqliteSessionStore.effectLedger: ${entry.key} vanished`);
        return { claimed: false, record };
      },
      finish: (key, end) => {
        finishEffect.run(...endColumns(end), key);
      },
      read,
    };
  }

  /** Closes the database when this store opened it. */
  close(): void {
    if (this.owned) this.db.close();
  }
}
