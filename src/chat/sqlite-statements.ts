/**
 * The SQLite session store's tables and statements: the schema it creates on first use (the layout
 * the PostgreSQL store shares, see sql-rows.ts, plus `_locks` and `_effects`), and every statement
 * it runs, prepared once per store.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import type { EffectRow } from './sql-effects.ts';
import type { SqlTables } from './sql-rows.ts';

/**
 * Creates the store's tables and indexes when they do not exist (one `exec`, idempotent).
 *
 * @param db - The open database.
 * @param t - The table names.
 */
export function createTables(db: Database.Database, t: SqlTables): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${t.sessions} (session_id TEXT PRIMARY KEY, version INTEGER NOT NULL, message_count INTEGER NOT NULL, record TEXT NOT NULL);` +
      `CREATE TABLE IF NOT EXISTS ${t.messages} (session_id TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT NULL, PRIMARY KEY (session_id, seq)) WITHOUT ROWID;` +
      `CREATE TABLE IF NOT EXISTS ${t.suspensions} (signal_id TEXT PRIMARY KEY, session_id TEXT NOT NULL UNIQUE, suspension TEXT NOT NULL);` +
      `CREATE TABLE IF NOT EXISTS ${t.resumes} (seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, entry TEXT NOT NULL);` +
      `CREATE TABLE IF NOT EXISTS ${t.locks} (session_id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;` +
      `CREATE TABLE IF NOT EXISTS ${t.effects} (effect_key TEXT PRIMARY KEY, tool_call_id TEXT NOT NULL, tool_name TEXT NOT NULL, input_digest TEXT NOT NULL, join_set_digest TEXT NOT NULL, state TEXT NOT NULL, outcome TEXT, started_at INTEGER NOT NULL, claimant TEXT) WITHOUT ROWID;` +
      `CREATE TABLE IF NOT EXISTS ${t.sends} (session_id TEXT NOT NULL, send_key TEXT NOT NULL, version INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (session_id, send_key)) WITHOUT ROWID;` +
      `CREATE INDEX IF NOT EXISTS ${t.sends}_by_version ON ${t.sends} (session_id, version);`,
  );
  // A table made before effect claims recorded their claimant gets the column.
  const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${t.effects}')`).all();
  if (!columns.some((c) => c.name === 'claimant')) db.exec(`ALTER TABLE ${t.effects} ADD COLUMN claimant TEXT`);
}

/** The store's prepared statements: the parameters each binds and the rows it reads. */
export interface SqliteStatements {
  readonly version: Database.Statement<[string], { version: number; message_count: number }>;
  readonly record: Database.Statement<[string], { version: number; record: string }>;
  readonly messages: Database.Statement<[string], { message: string }>;
  readonly suspensionOf: Database.Statement<[string], { suspension: string }>;
  readonly holder: Database.Statement<[string], { session_id: string }>;
  readonly findSuspension: Database.Statement<[string], { session_id: string; version: number; suspension: string }>;
  readonly listSuspended: Database.Statement<
    [string, string | null, string | null, number],
    { session_id: string; version: number; suspension: string }
  >;
  readonly insertSession: Database.Statement<[string, number, number, string]>;
  readonly updateSession: Database.Statement<[number, number, string, string, number]>;
  readonly insertMessage: Database.Statement<[string, number, string]>;
  readonly clearMessages: Database.Statement<[string]>;
  readonly clearSuspension: Database.Statement<[string]>;
  readonly insertSuspension: Database.Statement<[string, string, string]>;
  readonly deleteSession: Database.Statement<[string]>;
  readonly findSend: Database.Statement<[string, string], { record: string }>;
  readonly keepSend: Database.Statement<[string, string, number, string]>;
  readonly pruneSends: Database.Statement<{ session: string; kept: number }>;
  readonly clearSends: Database.Statement<[string]>;
  readonly insertResume: Database.Statement<[string, string]>;
  readonly pruneResumes: Database.Statement<[number | bigint]>;
  readonly lastResume: Database.Statement<[], { seq: number }>;
  readonly readResumes: Database.Statement<[number, number], { seq: number; session_id: string; entry: string }>;
  readonly beginEffect: Database.Statement<[string, string, string, string, string, number, string | null]>;
  readonly finishEffect: Database.Statement<[string, string, string]>;
  readonly readEffect: Database.Statement<[string], EffectRow>;
  readonly takeLock: Database.Statement<[string, string, number, number]>;
  readonly renewLock: Database.Statement<[number, string, string]>;
  readonly dropLock: Database.Statement<[string, string]>;
  readonly lockHolder: Database.Statement<[string], { holder: string }>;
}

/**
 * Prepares the store's statements on its tables (created first, see {@link createTables}).
 *
 * @param db - The open database.
 * @param t - The table names.
 */
export function prepareStatements(db: Database.Database, t: SqlTables): SqliteStatements {
  return {
    version: db.prepare(`SELECT version, message_count FROM ${t.sessions} WHERE session_id = ?`),
    record: db.prepare(`SELECT version, record FROM ${t.sessions} WHERE session_id = ?`),
    messages: db.prepare(`SELECT message FROM ${t.messages} WHERE session_id = ? ORDER BY seq`),
    suspensionOf: db.prepare(`SELECT suspension FROM ${t.suspensions} WHERE session_id = ?`),
    holder: db.prepare(`SELECT session_id FROM ${t.suspensions} WHERE signal_id = ?`),
    findSuspension: db.prepare(
      `SELECT s.session_id, p.version, s.suspension FROM ${t.suspensions} s JOIN ${t.sessions} p ON p.session_id = s.session_id WHERE s.signal_id = ?`,
    ),
    listSuspended: db.prepare(
      `SELECT s.session_id, p.version, s.suspension FROM ${t.suspensions} s JOIN ${t.sessions} p ON p.session_id = s.session_id WHERE s.signal_id > ? AND (? IS NULL OR s.session_id = ?) ORDER BY s.signal_id LIMIT ?`,
    ),
    insertSession: db.prepare(
      `INSERT INTO ${t.sessions} (session_id, version, message_count, record) VALUES (?, ?, ?, ?)`,
    ),
    updateSession: db.prepare(
      `UPDATE ${t.sessions} SET version = ?, message_count = ?, record = ? WHERE session_id = ? AND version = ?`,
    ),
    insertMessage: db.prepare(`INSERT INTO ${t.messages} (session_id, seq, message) VALUES (?, ?, ?)`),
    clearMessages: db.prepare(`DELETE FROM ${t.messages} WHERE session_id = ?`),
    clearSuspension: db.prepare(`DELETE FROM ${t.suspensions} WHERE session_id = ?`),
    insertSuspension: db.prepare(`INSERT INTO ${t.suspensions} (signal_id, session_id, suspension) VALUES (?, ?, ?)`),
    deleteSession: db.prepare(`DELETE FROM ${t.sessions} WHERE session_id = ?`),
    findSend: db.prepare(`SELECT record FROM ${t.sends} WHERE session_id = ? AND send_key = ?`),
    keepSend: db.prepare(
      `INSERT INTO ${t.sends} (session_id, send_key, version, record) VALUES (?, ?, ?, ?) ON CONFLICT (session_id, send_key) DO UPDATE SET version = excluded.version, record = excluded.record`,
    ),
    // The (kept + 1)th newest send and every older one go: the session keeps its newest `kept`.
    pruneSends: db.prepare(
      `DELETE FROM ${t.sends} WHERE session_id = @session AND version <= (SELECT version FROM ${t.sends} WHERE session_id = @session ORDER BY version DESC LIMIT 1 OFFSET @kept)`,
    ),
    clearSends: db.prepare(`DELETE FROM ${t.sends} WHERE session_id = ?`),
    insertResume: db.prepare(`INSERT INTO ${t.resumes} (session_id, entry) VALUES (?, ?)`),
    pruneResumes: db.prepare(`DELETE FROM ${t.resumes} WHERE seq <= ?`),
    lastResume: db.prepare(
      `SELECT COALESCE(MAX(seq), (SELECT seq FROM sqlite_sequence WHERE name = '${t.resumes}'), 0) AS seq FROM ${t.resumes}`,
    ),
    readResumes: db.prepare(`SELECT seq, session_id, entry FROM ${t.resumes} WHERE seq > ? ORDER BY seq LIMIT ?`),
    beginEffect: db.prepare(
      `INSERT INTO ${t.effects} (effect_key, tool_call_id, tool_name, input_digest, join_set_digest, state, outcome, started_at, claimant) VALUES (?, ?, ?, ?, ?, 'started', NULL, ?, ?) ON CONFLICT (effect_key) DO NOTHING`,
    ),
    finishEffect: db.prepare(
      `UPDATE ${t.effects} SET state = ?, outcome = ? WHERE effect_key = ? AND state = 'started'`,
    ),
    readEffect: db.prepare(`SELECT * FROM ${t.effects} WHERE effect_key = ?`),
    takeLock: db.prepare(
      `INSERT INTO ${t.locks} (session_id, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at WHERE ${t.locks}.expires_at < ? OR ${t.locks}.holder = excluded.holder`,
    ),
    renewLock: db.prepare(`UPDATE ${t.locks} SET expires_at = ? WHERE session_id = ? AND holder = ?`),
    dropLock: db.prepare(`DELETE FROM ${t.locks} WHERE session_id = ? AND holder = ?`),
    lockHolder: db.prepare(`SELECT holder FROM ${t.locks} WHERE session_id = ?`),
  };
}
