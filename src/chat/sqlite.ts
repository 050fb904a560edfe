/**
 * A durable session store on SQLite (better-sqlite3), exported from `turngate/chat/sqlite` so
 * the core never loads a native module. better-sqlite3 is an optional peer dependency.
 *
 * @module
 */
import Database from 'better-sqlite3';
import { SessionWriteConflict, type SessionRecord, type SessionStore } from './store.ts';

/** Options of {@link SqliteSessionStore}. */
export interface SqliteSessionStoreOptions {
  /** The table name; default `turngate_sessions`. Letters, digits and `_` only. */
  readonly table?: string;
}

/**
 * Sessions in one SQLite table: `session_id` (primary key), `version`, `record` (JSON). The
 * database runs in WAL mode; the table is created on first use; each save is one transaction
 * that checks the expected version first, so a save writes the whole record or nothing.
 * Session state must be JSON (messages always are).
 *
 * Source: harness-chat §4 (history in session state); sessions §8.2 (optimistic concurrency).
 *
 * @example
 * ```ts
 * import { SqliteSessionStore } from 'turngate/chat/sqlite';
 * import { createChatHarness, sequentialGraph } from 'turngate/chat';
 * const store = new SqliteSessionStore(':memory:');
 * const harness = createChatHarness({ graph: sequentialGraph({ entry: 'n', nodes: { n: () => undefined }, edges: [] }), store });
 * store.close();
 * ```
 */
export class SqliteSessionStore implements SessionStore {
  private readonly db: Database.Database;
  private readonly owned: boolean;
  private readonly selectStmt: Database.Statement<[string], { version: number; record: string }>;
  private readonly insertStmt: Database.Statement<[string, number, string]>;
  private readonly updateStmt: Database.Statement<[number, string, string, number]>;
  private readonly deleteStmt: Database.Statement<[string]>;
  private readonly saveTx: (sessionId: string, record: Omit<SessionRecord, 'version'>, expected: number) => number;

  /**
   * Opens (or creates) a store.
   *
   * @param database - A file path, `':memory:'`, or an open better-sqlite3 database (not closed by {@link close}).
   * @param options - The table name.
   * @throws TypeError for a table name that is not an identifier.
   */
  constructor(database: string | Database.Database, options: SqliteSessionStoreOptions = {}) {
    const table = options.table ?? 'turngate_sessions';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) throw new TypeError(`SqliteSessionStore: table name ${JSON.stringify(table)} is not an identifier`);
    this.owned = typeof database === 'string';
    this.db = typeof database === 'string' ? new Database(database) : database;
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (session_id TEXT PRIMARY KEY, version INTEGER NOT NULL, record TEXT NOT NULL)`);
    this.selectStmt = this.db.prepare(`SELECT version, record FROM ${table} WHERE session_id = ?`);
    this.insertStmt = this.db.prepare(`INSERT INTO ${table} (session_id, version, record) VALUES (?, ?, ?)`);
    this.updateStmt = this.db.prepare(`UPDATE ${table} SET version = ?, record = ? WHERE session_id = ? AND version = ?`);
    this.deleteStmt = this.db.prepare(`DELETE FROM ${table} WHERE session_id = ?`);
    this.saveTx = this.db.transaction((sessionId: string, record: Omit<SessionRecord, 'version'>, expected: number) => {
      const json = JSON.stringify(record);
      const version = expected + 1;
      if (expected === 0) {
        const existing = this.selectStmt.get(sessionId);
        if (existing !== undefined) throw new SessionWriteConflict(sessionId, expected, existing.version);
        this.insertStmt.run(sessionId, version, json);
      } else if (this.updateStmt.run(version, json, sessionId, expected).changes !== 1) {
        throw new SessionWriteConflict(sessionId, expected, this.selectStmt.get(sessionId)?.version ?? 0);
      }
      return version;
    });
  }

  /** Loads a session record. */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    const row = this.selectStmt.get(sessionId);
    return row === undefined ? undefined : { ...(JSON.parse(row.record) as Omit<SessionRecord, 'version'>), version: row.version };
  }

  /** Saves a session record in one transaction when the stored version is `expectedVersion`. */
  async save(sessionId: string, record: Omit<SessionRecord, 'version'>, expectedVersion: number): Promise<number> {
    return this.saveTx(sessionId, record, expectedVersion);
  }

  /** Deletes a session. */
  async delete(sessionId: string): Promise<void> {
    this.deleteStmt.run(sessionId);
  }

  /** Closes the database when this store opened it. */
  close(): void {
    if (this.owned) this.db.close();
  }
}
