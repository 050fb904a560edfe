/**
 * A durable session store on SQLite (better-sqlite3), exported from `turngate/chat/sqlite` so
 * the core never loads a native module. better-sqlite3 is an optional peer dependency.
 *
 * @module
 */
import Database from 'better-sqlite3';
import type { ChatMessage } from './messages.ts';
import { SessionWriteConflict, type SaveHint, type SessionRecord, type SessionStore } from './store.ts';

/**
 * Options of {@link SqliteSessionStore}.
 *
 * @example
 * ```ts
 * import type { SqliteSessionStoreOptions } from 'turngate/chat/sqlite';
 * declare const value: SqliteSessionStoreOptions;
 * value.tablePrefix;
 * ```
 */
export interface SqliteSessionStoreOptions {
  /** The prefix of the two table names (`<prefix>_sessions`, `<prefix>_messages`); default `turngate`. */
  readonly tablePrefix?: string;
}

/**
 * Sessions in two SQLite tables: `<prefix>_sessions` (`session_id`, `version`,
 * `message_count`, the rest of the record as JSON) and `<prefix>_messages` (`session_id`,
 * `seq`, the message as JSON). WAL mode; tables created on first use; each save is one
 * transaction that checks the expected version first, so a save writes everything or nothing.
 * A save with a matching `unchangedPrefix` hint inserts only the new messages, so a turn costs
 * about the same at message 10 and message 10,000. Session state must be JSON.
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
  private readonly stmts;
  private readonly saveTx: (
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expected: number,
    hint: SaveHint | undefined,
  ) => number;

  /**
   * Opens (or creates) a store.
   *
   * @param database - A file path, `':memory:'`, or an open better-sqlite3 database (not closed by {@link close}).
   * @param options - The table name prefix.
   * @throws TypeError for a prefix that is not an identifier.
   */
  constructor(database: string | Database.Database, options: SqliteSessionStoreOptions = {}) {
    const prefix = options.tablePrefix ?? 'turngate';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix))
      throw new TypeError(`SqliteSessionStore: table prefix ${JSON.stringify(prefix)} is not an identifier`);
    const sessions = `${prefix}_sessions`;
    const messages = `${prefix}_messages`;
    this.owned = typeof database === 'string';
    this.db = typeof database === 'string' ? new Database(database) : database;
    this.db.pragma('journal_mode = WAL');
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS ${sessions} (session_id TEXT PRIMARY KEY, version INTEGER NOT NULL, message_count INTEGER NOT NULL, record TEXT NOT NULL);` +
        `CREATE TABLE IF NOT EXISTS ${messages} (session_id TEXT NOT NULL, seq INTEGER NOT NULL, message TEXT NOT NULL, PRIMARY KEY (session_id, seq)) WITHOUT ROWID;`,
    );
    this.stmts = {
      version: this.db.prepare<[string], { version: number; message_count: number }>(
        `SELECT version, message_count FROM ${sessions} WHERE session_id = ?`,
      ),
      record: this.db.prepare<[string], { version: number; record: string }>(
        `SELECT version, record FROM ${sessions} WHERE session_id = ?`,
      ),
      messages: this.db.prepare<[string], { message: string }>(
        `SELECT message FROM ${messages} WHERE session_id = ? ORDER BY seq`,
      ),
      insertSession: this.db.prepare<[string, number, number, string]>(
        `INSERT INTO ${sessions} (session_id, version, message_count, record) VALUES (?, ?, ?, ?)`,
      ),
      updateSession: this.db.prepare<[number, number, string, string, number]>(
        `UPDATE ${sessions} SET version = ?, message_count = ?, record = ? WHERE session_id = ? AND version = ?`,
      ),
      insertMessage: this.db.prepare<[string, number, string]>(
        `INSERT INTO ${messages} (session_id, seq, message) VALUES (?, ?, ?)`,
      ),
      clearMessages: this.db.prepare<[string]>(`DELETE FROM ${messages} WHERE session_id = ?`),
      deleteSession: this.db.prepare<[string]>(`DELETE FROM ${sessions} WHERE session_id = ?`),
    };
    this.saveTx = this.db.transaction(
      (sessionId: string, record: Omit<SessionRecord, 'version'>, expected: number, hint: SaveHint | undefined) => {
        const { messages: history, ...fields } = record.state;
        const { state: _state, ...others } = record;
        const json = JSON.stringify({ ...others, state: fields });
        const version = expected + 1;
        const current = this.stmts.version.get(sessionId);
        if ((current?.version ?? 0) !== expected)
          throw new SessionWriteConflict(sessionId, expected, current?.version ?? 0);
        let from =
          hint !== undefined &&
          current !== undefined &&
          hint.unchangedPrefix === current.message_count &&
          history.length >= hint.unchangedPrefix
            ? hint.unchangedPrefix
            : -1;
        if (from < 0) {
          this.stmts.clearMessages.run(sessionId);
          from = 0;
        }
        for (let seq = from; seq < history.length; seq++)
          this.stmts.insertMessage.run(sessionId, seq, JSON.stringify(history[seq]));
        if (current === undefined) this.stmts.insertSession.run(sessionId, version, history.length, json);
        else this.stmts.updateSession.run(version, history.length, json, sessionId, expected);
        return version;
      },
    );
  }

  /** Loads a session record. */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    const row = this.stmts.record.get(sessionId);
    if (row === undefined) return undefined;
    const rest = JSON.parse(row.record) as Omit<SessionRecord, 'version'> & { state: Record<string, unknown> };
    const history = this.stmts.messages.all(sessionId).map((m) => JSON.parse(m.message) as ChatMessage);
    return { ...rest, version: row.version, state: { ...rest.state, messages: history } };
  }

  /** Saves a session record in one transaction when the stored version is `expectedVersion`. */
  async save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expectedVersion: number,
    hint?: SaveHint,
  ): Promise<number> {
    return this.saveTx(sessionId, record, expectedVersion, hint);
  }

  /** Deletes a session and its messages. */
  async delete(sessionId: string): Promise<void> {
    this.db.transaction(() => {
      this.stmts.clearMessages.run(sessionId);
      this.stmts.deleteSession.run(sessionId);
    })();
  }

  /** The stored version, 0 for a missing session. */
  async version(sessionId: string): Promise<number> {
    return this.stmts.version.get(sessionId)?.version ?? 0;
  }

  /** Closes the database when this store opened it. */
  close(): void {
    if (this.owned) this.db.close();
  }
}
