/**
 * A session store on PostgreSQL (node-postgres), exported from `turngate/chat/postgres`, so
 * several Node processes on several machines serve the same sessions. `pg` is an optional peer
 * dependency.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { escapeLiteral, Pool, type PoolClient, type PoolConfig } from 'pg';
import { own } from '../internal/own-field.ts';
import { ledgerClock } from '../internal/durations.ts';
import type { EffectLedger, EffectLedgerOptions, EffectRecord } from '../typestate/index.ts';
import type { ChatMessage } from './messages.ts';
import { type EffectRow, effectRecord, endColumns, startedColumns } from './sql-effects.ts';
import {
  decodeRecord,
  decodeResume,
  decodeSuspension,
  encodeRecord,
  encodeResume,
  encodeSuspension,
  type SqlTables,
  sqlTables,
} from './sql-rows.ts';
import {
  appendFrom,
  DEFAULT_RESUME_LOG_SIZE,
  type ListSuspendedOptions,
  type LockedSession,
  type ResumeLog,
  resumePage,
  type SaveOptions,
  type SessionRecord,
  type SessionStore,
  SessionWriteConflict,
  SignalIdInUse,
  type SuspensionRecord,
  suspensionOf,
} from './store.ts';

/**
 * Options of {@link PostgresSessionStore}.
 *
 * @example
 * ```ts
 * import { PostgresSessionStore, type PostgresSessionStoreOptions } from 'turngate/chat/postgres';
 * const options: PostgresSessionStoreOptions = { tablePrefix: 'support_chat', maxConnections: 20 };
 * const store = new PostgresSessionStore('postgres://app:secret@127.0.0.1:5432/app', options);
 * await store.close();
 * ```
 */
export interface PostgresSessionStoreOptions {
  /** The prefix of the table names (`<prefix>_sessions`, ...); default `turngate`. */
  readonly tablePrefix?: string;
  /** How many resume log entries to keep (the oldest go first); default 10,000. */
  readonly resumeLogSize?: number;
  /**
   * The pool size when the store makes its own pool (from a connection string or a
   * `PoolConfig`); default 10. A turn holds one connection from its lock to its save.
   */
  readonly maxConnections?: number;
}

function ignore(): void {}

/** A unique-key violation (SQLSTATE 23505). */
function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '23505';
}

/**
 * Sessions in PostgreSQL, in the four tables of the SQLite store's layout (`<prefix>_sessions`,
 * `_messages`, `_suspensions`, `_resumes`), created on first use (under an advisory lock, so
 * processes starting together do not race).
 *
 * - One transaction per turn: `withSessionLock` takes an advisory lock keyed on the session id
 *   (so turns of one session run one at a time across every process and machine that shares the
 *   database; held until the turn's body returns, its post-save work included, and released when
 *   a connection dies), begins a transaction, and the turn's `save` writes the session, its new
 *   messages, its suspension and its resume log entry, then commits.
 *   A turn that fails, or a process that dies mid-turn, rolls back: the stored session is the
 *   previous one, whole.
 * - Optimistic versions as in the other stores (`session_write_conflict`); a save outside a lock
 *   takes the same advisory lock for its own transaction.
 * - Suspensions live in their own table, keyed by signal id, so `signal()` in any process finds
 *   the session (`findSuspension`) and a signal id awaited twice is refused.
 * - Values are stored as JSON text (`text` columns), so what is loaded is what was saved, byte for
 *   byte (no `jsonb` key reordering, no refusal of `\u0000`).
 *
 * Source: sessions §5 (protocol), §8.2 (optimistic concurrency), §8.3 (locking); suspension §8.6
 * (atomic suspend); PostgreSQL manual "Advisory Locks" (§13.3.5).
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
 * await harness.send('support-1', { role: 'user', content: 'Hello' });
 * await store.close();
 * ```
 */
export class PostgresSessionStore implements SessionStore {
  private readonly pool: Pool;
  private readonly owned: boolean;
  private readonly t: SqlTables;
  private readonly prefix: string;
  private readonly logSize: number;
  private ready: Promise<void> | undefined;

  /**
   * Creates a store. Nothing is sent to the server until the first call.
   *
   * @param connection - A connection string, a `pg` `PoolConfig`, or a `Pool` you own (not ended by {@link close}).
   * @param options - Table prefix, resume log size, pool size.
   * @throws TypeError for a prefix that is not an identifier.
   */
  constructor(connection: string | PoolConfig | Pool, options: PostgresSessionStoreOptions = {}) {
    this.prefix = own(options, 'tablePrefix') ?? 'turngate';
    this.t = sqlTables('PostgresSessionStore', this.prefix);
    this.logSize = own(options, 'resumeLogSize') ?? DEFAULT_RESUME_LOG_SIZE;
    const max = own(options, 'maxConnections') ?? 10;
    this.owned = !(connection instanceof Pool);
    this.pool =
      connection instanceof Pool
        ? connection
        : new Pool(typeof connection === 'string' ? { connectionString: connection, max } : { max, ...connection });
    if (this.owned) this.pool.on('error', () => undefined); // an idle client's error is reported by its next use
  }

  /** Creates the tables on first use; a failed attempt is retried by the next call. */
  private schema(): Promise<void> {
    this.ready ??= this.createSchema().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async createSchema(): Promise<void> {
    const { t } = this;
    const client = await this.pool.connect();
    try {
      await client.query(
        `BEGIN; SELECT pg_advisory_xact_lock(${lockKey('schema', this.prefix)});` +
          `CREATE TABLE IF NOT EXISTS ${t.sessions} (session_id text PRIMARY KEY, version bigint NOT NULL, message_count integer NOT NULL, record text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());` +
          `CREATE TABLE IF NOT EXISTS ${t.messages} (session_id text NOT NULL, seq integer NOT NULL, message text NOT NULL, PRIMARY KEY (session_id, seq));` +
          `CREATE TABLE IF NOT EXISTS ${t.suspensions} (signal_id text COLLATE "C" PRIMARY KEY, session_id text NOT NULL UNIQUE, suspension text NOT NULL);` +
          `CREATE TABLE IF NOT EXISTS ${t.resumes} (seq bigserial PRIMARY KEY, session_id text NOT NULL, entry text NOT NULL);` +
          `CREATE TABLE IF NOT EXISTS ${t.effects} (effect_key text PRIMARY KEY, tool_call_id text NOT NULL, tool_name text NOT NULL, input_digest text NOT NULL, join_set_digest text NOT NULL, state text NOT NULL, outcome text, started_at bigint NOT NULL);` +
          'COMMIT;',
      );
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Runs `body` holding the session's advisory lock (session-level, taken before the transaction
   * and released after the body returns), in a transaction that commits only through `save`. The
   * version read at the start stays true while the lock is held.
   */
  private async locked<T>(
    sessionId: string,
    body: (client: PoolClient, version: number, commit: () => void) => Promise<T>,
  ): Promise<T> {
    await this.schema();
    const client = await this.pool.connect();
    // A connection that drops between queries reports it as an event; the next query then fails
    // and the turn rolls back. Without a listener the event would end the process.
    client.on('error', ignore);
    const key = lockKey('session', this.prefix, sessionId);
    let held = false;
    let open = false;
    let committed = false;
    let usable = true;
    try {
      // A session-level advisory lock, not a transaction-scoped one: the turn's save commits
      // inside the body, and the session must stay held until the body has returned (its
      // post-save work included), as the in-memory and SQLite stores hold it. The connection
      // ending releases it too, so a process that dies mid-turn frees the session.
      await client.query(`SELECT pg_advisory_lock(${key})`);
      held = true;
      // Several statements in one query: pg answers with one result per statement.
      const results: unknown = await client.query(
        `BEGIN; SELECT version FROM ${this.t.sessions} WHERE session_id = ${escapeLiteral(sessionId)}`,
      );
      open = true;
      const last: unknown = Array.isArray(results) ? results[1] : undefined;
      const row: unknown = (last as { rows?: unknown[] } | undefined)?.rows?.[0];
      const version = Number((row as { version?: string } | undefined)?.version ?? 0);
      const result = await body(client, version, () => {
        committed = true;
      });
      if (!committed) await client.query('ROLLBACK');
      return result;
    } catch (error) {
      if (open && !committed) {
        // A failed rollback leaves the connection unusable: destroy it rather than return it.
        usable = await client.query('ROLLBACK').then(
          () => true,
          () => false,
        );
      } else if (!held) usable = false;
      throw error;
    } finally {
      if (held && usable) {
        // An unlock that fails leaves the lock with the connection: destroy it, which releases it.
        usable = await client.query(`SELECT pg_advisory_unlock(${key})`).then(
          () => true,
          () => false,
        );
      }
      client.off('error', ignore);
      client.release(usable ? undefined : true);
    }
  }

  /** Loads a session record (one statement, so one consistent snapshot). */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    await this.schema();
    return this.loadWith(this.pool, sessionId);
  }

  private async loadWith(db: Pool | PoolClient, sessionId: string): Promise<SessionRecord | undefined> {
    const { t } = this;
    const result = await db.query<{ version: string; record: string; suspension: string | null; messages: string }>(
      `SELECT p.version, p.record, (SELECT suspension FROM ${t.suspensions} WHERE session_id = $1) AS suspension, ` +
        `'[' || COALESCE((SELECT string_agg(message, ',' ORDER BY seq) FROM ${t.messages} WHERE session_id = $1), '') || ']' AS messages ` +
        `FROM ${t.sessions} p WHERE p.session_id = $1`,
      [sessionId],
    );
    const row = result.rows[0];
    if (row === undefined) return undefined;
    const history = JSON.parse(row.messages) as ChatMessage[];
    return decodeRecord(Number(row.version), row.record, history, row.suspension ?? undefined);
  }

  private async versionWith(db: Pool | PoolClient, sessionId: string): Promise<number> {
    const result = await db.query<{ version: string }>(`SELECT version FROM ${this.t.sessions} WHERE session_id = $1`, [
      sessionId,
    ]);
    return Number(result.rows[0]?.version ?? 0);
  }

  /**
   * Writes the common turn in one statement: an existing session whose stored messages are the
   * hinted prefix (append the new ones, update the row, drop any suspension), or a new session.
   * Returns false when the stored row is not as expected (the general path then decides).
   */
  private async writeFast(
    client: PoolClient,
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expected: number,
    options: SaveOptions | undefined,
  ): Promise<boolean> {
    const { t } = this;
    const history = record.state.messages;
    const prefix = options === undefined ? undefined : own(options, 'unchangedPrefix');
    if (expected > 0 && (prefix === undefined || prefix > history.length)) return false;
    const from = expected > 0 ? (prefix as number) : 0;
    const added = history.slice(from).map((m) => JSON.stringify(m));
    const json = encodeRecord(record);
    const row =
      expected > 0
        ? `UPDATE ${t.sessions} SET version = $2 + 1, message_count = $5, record = $6, updated_at = now() WHERE session_id = $1 AND version = $2 AND message_count = $3 RETURNING 1`
        : `INSERT INTO ${t.sessions} (session_id, version, message_count, record) SELECT $1, 1, $5, $6 WHERE $2 = 0 AND $3 = 0 ON CONFLICT (session_id) DO NOTHING RETURNING 1`;
    const result = await client.query<{ written: string }>(
      `WITH w AS (${row}), ` +
        `m AS (INSERT INTO ${t.messages} (session_id, seq, message) SELECT $1, $3 + n - 1, m FROM unnest($4::text[]) WITH ORDINALITY AS u(m, n) WHERE EXISTS (SELECT 1 FROM w) RETURNING 1), ` +
        `d AS (DELETE FROM ${t.suspensions} WHERE session_id = $1 AND EXISTS (SELECT 1 FROM w) RETURNING 1) ` +
        'SELECT count(*) AS written FROM w',
      [sessionId, expected, from, added, history.length, json],
    );
    return Number(result.rows[0]?.written) === 1;
  }

  /** Writes a record inside the caller's transaction (which holds the session's lock), then commits. */
  private async write(
    client: PoolClient,
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expected: number,
    options: SaveOptions | undefined,
  ): Promise<number> {
    const { t } = this;
    const version = expected + 1;
    if (await this.writeFast(client, sessionId, record, expected, options)) {
      await this.writeSuspensionAndLog(client, sessionId, record, options);
      await client.query('COMMIT');
      return version;
    }
    const history = record.state.messages;
    const json = encodeRecord(record);
    const current = (
      await client.query<{ version: string; message_count: number }>(
        `SELECT version, message_count FROM ${t.sessions} WHERE session_id = $1`,
        [sessionId],
      )
    ).rows[0];
    const actual = Number(current?.version ?? 0);
    if (actual !== expected) throw new SessionWriteConflict(sessionId, expected, actual);
    const from = appendFrom(options, current?.message_count, history.length);
    if (from === 0 && current !== undefined)
      await client.query(`DELETE FROM ${t.messages} WHERE session_id = $1`, [sessionId]);
    if (from < history.length) {
      await client.query(
        `INSERT INTO ${t.messages} (session_id, seq, message) SELECT $1, $2 + n - 1, m FROM unnest($3::text[]) WITH ORDINALITY AS u(m, n)`,
        [sessionId, from, history.slice(from).map((m) => JSON.stringify(m))],
      );
    }
    if (current === undefined)
      await client.query(
        `INSERT INTO ${t.sessions} (session_id, version, message_count, record) VALUES ($1, $2, $3, $4)`,
        [sessionId, version, history.length, json],
      );
    else
      await client.query(
        `UPDATE ${t.sessions} SET version = $2, message_count = $3, record = $4, updated_at = now() WHERE session_id = $1`,
        [sessionId, version, history.length, json],
      );
    if (current !== undefined) await client.query(`DELETE FROM ${t.suspensions} WHERE session_id = $1`, [sessionId]);
    await this.writeSuspensionAndLog(client, sessionId, record, options);
    await client.query('COMMIT');
    return version;
  }

  /** Inserts the record's suspension and logs a completed resume (after any old suspension is gone). */
  private async writeSuspensionAndLog(
    client: PoolClient,
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    options: SaveOptions | undefined,
  ): Promise<void> {
    const { t } = this;
    const suspension = suspensionOf(record);
    if (suspension !== undefined) {
      const signalId = suspension.descriptor.signal_id;
      try {
        await client.query(`INSERT INTO ${t.suspensions} (signal_id, session_id, suspension) VALUES ($1, $2, $3)`, [
          signalId,
          sessionId,
          encodeSuspension(suspension),
        ]);
      } catch (error) {
        if (isUniqueViolation(error)) throw new SignalIdInUse(signalId, 'another session');
        throw error;
      }
    }
    const resumed = options === undefined ? undefined : own(options, 'resumed');
    if (resumed !== undefined) {
      // Log entries take their seq under one lock until commit, so seq order is commit order and
      // a reader never skips an entry committed late.
      await client.query(`SELECT pg_advisory_xact_lock(${lockKey('resumes', this.prefix)})`);
      const inserted = await client.query<{ seq: string }>(
        `INSERT INTO ${t.resumes} (session_id, entry) VALUES ($1, $2) RETURNING seq`,
        [sessionId, encodeResume(resumed)],
      );
      await client.query(`DELETE FROM ${t.resumes} WHERE seq <= $1`, [Number(inserted.rows[0]?.seq) - this.logSize]);
    }
  }

  /** Saves a session record in its own transaction, under the session's lock. */
  async save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expectedVersion: number,
    options?: SaveOptions,
  ): Promise<number> {
    return this.locked(sessionId, async (client, _version, commit) => {
      const version = await this.write(client, sessionId, record, expectedVersion, options);
      commit();
      return version;
    });
  }

  /** Holds the session for a turn: one transaction, the session's advisory lock, one save that commits. */
  withSessionLock<T>(sessionId: string, body: (session: LockedSession) => Promise<T>): Promise<T> {
    return this.locked(sessionId, (client, version, commit) => {
      let saved = false;
      return body({
        load: () => this.loadWith(client, sessionId),
        version: async () => version,
        save: async (record, expectedVersion, options) => {
          if (saved) throw new Error('a locked session saves once');
          saved = true;
          const version = await this.write(client, sessionId, record, expectedVersion, options);
          commit();
          return version;
        },
      });
    });
  }

  /** Deletes a session, its messages and its suspension, under the session's lock. */
  async delete(sessionId: string): Promise<void> {
    const { t } = this;
    await this.locked(sessionId, async (client, _version, commit) => {
      await client.query(`DELETE FROM ${t.messages} WHERE session_id = $1`, [sessionId]);
      await client.query(`DELETE FROM ${t.suspensions} WHERE session_id = $1`, [sessionId]);
      await client.query(`DELETE FROM ${t.sessions} WHERE session_id = $1`, [sessionId]);
      await client.query('COMMIT');
      commit();
    });
  }

  /** The stored version, 0 for a missing session. */
  async version(sessionId: string): Promise<number> {
    await this.schema();
    return this.versionWith(this.pool, sessionId);
  }

  /** The suspension waiting on `signalId`. */
  async findSuspension(signalId: string): Promise<SuspensionRecord | undefined> {
    await this.schema();
    const { t } = this;
    const row = (
      await this.pool.query<{ session_id: string; version: string; suspension: string }>(
        `SELECT s.session_id, p.version, s.suspension FROM ${t.suspensions} s JOIN ${t.sessions} p ON p.session_id = s.session_id WHERE s.signal_id = $1`,
        [signalId],
      )
    ).rows[0];
    return row === undefined ? undefined : decodeSuspension(row.session_id, Number(row.version), row.suspension);
  }

  /** The suspensions that wait, ordered by signal id (UTF-8 byte order). */
  async listSuspended(options: ListSuspendedOptions = {}): Promise<readonly SuspensionRecord[]> {
    await this.schema();
    const { t } = this;
    const rows = (
      await this.pool.query<{ session_id: string; version: string; suspension: string }>(
        `SELECT s.session_id, p.version, s.suspension FROM ${t.suspensions} s JOIN ${t.sessions} p ON p.session_id = s.session_id ` +
          'WHERE s.signal_id > $1 AND ($2::text IS NULL OR s.session_id = $2) ORDER BY s.signal_id LIMIT $3',
        [own(options, 'after') ?? '', own(options, 'sessionId') ?? null, own(options, 'limit') ?? null],
      )
    ).rows;
    return rows.map((row) => decodeSuspension(row.session_id, Number(row.version), row.suspension));
  }

  /** Resume log entries after `after`. */
  async readResumes(after: number | undefined, limit = 1000): Promise<ResumeLog> {
    await this.schema();
    const { t } = this;
    const last = Number(
      (await this.pool.query<{ seq: string }>(`SELECT COALESCE(max(seq), 0) AS seq FROM ${t.resumes}`)).rows[0]?.seq ??
        0,
    );
    if (after === undefined) return { entries: [], cursor: last };
    const rows = (
      await this.pool.query<{ seq: string; session_id: string; entry: string }>(
        `SELECT seq, session_id, entry FROM ${t.resumes} WHERE seq > $1 ORDER BY seq LIMIT $2`,
        [after, limit],
      )
    ).rows;
    const entries = rows.map((r) => decodeResume(Number(r.seq), r.session_id, r.entry));
    return resumePage(after, last, entries);
  }

  /**
   * The effect ledger in this store's database (table `<prefix>_effects`): pass it to
   * `settleMutations` / `admitMutation` (`{ ledger }`) and an effect runs once across replays,
   * retries, processes and machines sharing the database, and restarts. A claim is one
   * `INSERT ... ON CONFLICT DO NOTHING`, so of any number of processes claiming one effect at once
   * exactly one runs it. A `started` effect with no end reads `unknown_after_crash` once older
   * than `leaseMs` (by the claiming process's clock).
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
    const { effects } = this.t;
    const read = async (key: string): Promise<EffectRecord | undefined> => {
      await this.schema();
      const row = (await this.pool.query<EffectRow>(`SELECT * FROM ${effects} WHERE effect_key = $1`, [key])).rows[0];
      return row === undefined ? undefined : effectRecord(row, leaseMs, now());
    };
    return {
      begin: async (entry) => {
        await this.schema();
        const inserted = await this.pool.query(
          `INSERT INTO ${effects} (effect_key, tool_call_id, tool_name, input_digest, join_set_digest, state, outcome, started_at) ` +
            "VALUES ($1, $2, $3, $4, $5, 'started', NULL, $6) ON CONFLICT (effect_key) DO NOTHING",
          startedColumns(entry, now()),
        );
        if (inserted.rowCount === 1) return { claimed: true };
        const record = await read(entry.key);
        if (record === undefined) throw new Error(`PostgresSessionStore.effectLedger: ${entry.key} vanished`);
        return { claimed: false, record };
      },
      finish: async (key, end) => {
        await this.schema();
        await this.pool.query(
          `UPDATE ${effects} SET state = $1, outcome = $2 WHERE effect_key = $3 AND state = 'started'`,
          [...endColumns(end), key],
        );
      },
      read,
    };
  }

  /** Ends the pool when this store made it. */
  async close(): Promise<void> {
    if (this.owned) await this.pool.end();
  }
}

/**
 * A 64-bit advisory lock key (the first 8 bytes of the SHA-256 of its parts, each ended by a NUL),
 * as an SQL literal: what it locks (`session`, `schema`, `resumes`), the table prefix, and the
 * session id, so different prefixes (deployments, tests) lock apart.
 */
function lockKey(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return BigInt.asIntN(64, hash.digest().readBigUInt64BE(0)).toString();
}
