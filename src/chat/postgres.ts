/**
 * A session store on PostgreSQL (node-postgres), exported from `turngate/chat/postgres`, so
 * several Node processes on several machines serve the same sessions. `pg` is an optional peer
 * dependency.
 *
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, type PoolClient, type PoolConfig, type QueryConfig, type QueryResult, type QueryResultRow } from 'pg';
import { own } from '../internal/own-field.ts';
import { count, ledgerClock, milliseconds } from '../internal/durations.ts';
import type { EffectLedger, EffectLedgerOptions, EffectRecord } from '../typestate/index.ts';
import type { ChatMessage } from './messages.ts';
import { ignore, isUniqueViolation, lockKey, sqlState, storeError, transientReason } from './postgres-errors.ts';
import { SessionQueue } from './queue.ts';
import { type EffectRow, effectRecord, endColumns, startedColumns } from './sql-effects.ts';
import {
  decodeRecord,
  decodeResume,
  decodeSend,
  decodeSuspension,
  encodeRecord,
  encodeResume,
  encodeSend,
  encodeSuspension,
  type SqlTables,
  sqlTables,
} from './sql-rows.ts';
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
  suspensionOf,
} from './store.ts';
import type { ResumeLog, SessionRecord, SuspensionRecord } from './session-records.ts';
import { SessionLockTimeout, SessionStoreUnavailable, SessionWriteConflict, SignalIdInUse } from './store-errors.ts';

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

/** A query on one client (inside a transaction). */
type Query = (text: string, values?: unknown[]) => Promise<QueryResult>;

/** What the statement that takes a session returns. */
interface HoldRow extends QueryResultRow {
  /** The session's version as its lock row knows it (the last save's; 0 for a new session). */
  readonly version: string;
  /** The version this statement's snapshot sees: equal to `version` when the reads below are current. */
  readonly seen: string | null;
  readonly record: string | null;
  readonly suspension: string | null;
  readonly messages: string | null;
  readonly sent: string | null;
}

/** What a held session knows from the statement that took it. */
interface Held {
  readonly token: string;
  readonly version: number;
  /**
   * The record read with the hold (`undefined`: no such session), or `'unread'` when the caller
   * holds it already or the statement's snapshot was not current.
   */
  readonly record: SessionRecord | undefined | 'unread';
  /** Whether the send lookup read with the hold is current. */
  readonly sendRead: boolean;
  readonly sent: SendRecord | undefined;
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
 *   runs out (a server crash empties the lock table, freeing them all).
 * - Turns of one session run one at a time across every process and machine that shares the
 *   database: a turn that finds the session held waits (up to `lockTimeoutMs`, then
 *   {@link SessionLockTimeout}). A save whose lease ran out and was taken elsewhere is refused
 *   (`session_write_conflict`), so two holders never both write.
 * - A failed save writes nothing: the stored session is the previous one, whole.
 * - Errors by cause: a server that cannot be reached, is restarting, or does not answer within
 *   `connectTimeoutMs` / `statementTimeoutMs` rejects with {@link SessionStoreUnavailable} (the
 *   harness answers `retryable_transient`); a save whose answer never came is marked
 *   `outcomeUnknown` (retry with the send's idempotency key).
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
  private readonly pool: Pool;
  private readonly owned: boolean;
  private readonly t: SqlTables;
  private readonly prefix: string;
  private readonly logSize: number;
  private readonly sendKeysKept: number;
  private readonly leaseMs: number;
  private readonly lockTimeoutMs: number;
  private readonly queryTimeoutMs: number;
  private readonly locks = new SessionQueue();
  private ready: Promise<void> | undefined;

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
    this.prefix = own(options, 'tablePrefix') ?? 'turngate';
    this.t = sqlTables(owner, this.prefix);
    this.logSize = own(options, 'resumeLogSize') ?? DEFAULT_RESUME_LOG_SIZE;
    this.sendKeysKept = count(owner, 'sendKeysKept', own(options, 'sendKeysKept'), DEFAULT_SEND_KEYS_KEPT);
    this.leaseMs = milliseconds(owner, 'lockLeaseMs', own(options, 'lockLeaseMs'), 30_000);
    this.lockTimeoutMs = milliseconds(owner, 'lockTimeoutMs', own(options, 'lockTimeoutMs'), 30_000);
    const connectMs = milliseconds(owner, 'connectTimeoutMs', own(options, 'connectTimeoutMs'), 5_000);
    const statementMs = milliseconds(owner, 'statementTimeoutMs', own(options, 'statementTimeoutMs'), 10_000);
    this.queryTimeoutMs = statementMs + 1_000;
    const max = own(options, 'maxConnections') ?? 10;
    this.owned = !(connection instanceof Pool);
    const timeouts = { connectionTimeoutMillis: connectMs, statement_timeout: statementMs };
    this.pool =
      connection instanceof Pool
        ? connection
        : new Pool(
            typeof connection === 'string'
              ? { connectionString: connection, max, ...timeouts }
              : { max, ...timeouts, ...connection },
          );
    if (this.owned) this.pool.on('error', ignore); // an idle client's error is reported by its next use
  }

  /**
   * A statement with the client-side timeout (`query_timeout`: node-postgres reads it per query;
   * its type declarations know it only as a connection option).
   */
  private config(text: string, values: unknown[], prepared = false): QueryConfig {
    const config: QueryConfig & { readonly query_timeout: number } = {
      text,
      values,
      query_timeout: this.queryTimeoutMs,
      // A named statement is parsed and planned once per connection, then only bound and run.
      ...(prepared ? { name: `turngate_${createHash('sha256').update(text).digest('hex').slice(0, 24)}` } : {}),
    };
    return config;
  }

  /** One statement on a pooled connection, with the client-side timeout (`prepared`: a turn's own). */
  private async q<R extends QueryResultRow>(text: string, values: unknown[] = [], prepared = false): Promise<R[]> {
    return (await this.pool.query<R>(this.config(text, values, prepared))).rows;
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
          // Leases are not data: unlogged, so taking one waits for no WAL flush (a crash empties the
          // table, which frees every session; the versions the saves check keep it safe).
          `CREATE UNLOGGED TABLE IF NOT EXISTS ${t.locks} (session_id text PRIMARY KEY, holder text, expires_at timestamptz, version bigint NOT NULL);` +
          `CREATE TABLE IF NOT EXISTS ${t.messages} (session_id text NOT NULL, seq integer NOT NULL, message text NOT NULL, PRIMARY KEY (session_id, seq));` +
          `CREATE TABLE IF NOT EXISTS ${t.suspensions} (signal_id text COLLATE "C" PRIMARY KEY, session_id text NOT NULL UNIQUE, suspension text NOT NULL);` +
          `CREATE TABLE IF NOT EXISTS ${t.resumes} (seq bigserial PRIMARY KEY, session_id text NOT NULL, entry text NOT NULL);` +
          `CREATE TABLE IF NOT EXISTS ${t.sends} (session_id text NOT NULL, send_key text NOT NULL, version bigint NOT NULL, record text NOT NULL, PRIMARY KEY (session_id, send_key));` +
          `CREATE INDEX IF NOT EXISTS ${t.sends}_by_version ON ${t.sends} (session_id, version);` +
          `CREATE TABLE IF NOT EXISTS ${t.effects} (effect_key text PRIMARY KEY, tool_call_id text NOT NULL, tool_name text NOT NULL, input_digest text NOT NULL, join_set_digest text NOT NULL, state text NOT NULL, outcome text, started_at bigint NOT NULL);` +
          'COMMIT;',
      );
    } catch (error) {
      await client.query('ROLLBACK').catch(ignore);
      client.release(true);
      throw error;
    }
    client.release();
  }

  /**
   * Takes the session's lease, waiting while another holder has it. One statement: it inserts or
   * takes the session's row in `<prefix>_locks` (free, or its lease ran out) and returns the
   * version that row holds (each save writes it, in the save's transaction, so it is the latest
   * committed one), with the record when `knownVersion` is not it, and the send kept under
   * `sendKey`. Those reads come from the statement's snapshot; they are used only when the
   * snapshot saw that same version.
   */
  private async hold(sessionId: string, options: SessionLockOptions): Promise<Held> {
    const { t } = this;
    const token = randomUUID();
    const known = own(options, 'knownVersion') ?? -1;
    const key = own(options, 'sendKey') ?? null;
    const fresh = 'p.version <> $4';
    const text =
      `WITH a AS (INSERT INTO ${t.locks} AS l (session_id, holder, expires_at, version) ` +
      `VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond', COALESCE((SELECT version FROM ${t.sessions} WHERE session_id = $1), 0)) ` +
      'ON CONFLICT (session_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at ' +
      'WHERE l.holder IS NULL OR l.expires_at < clock_timestamp() OR l.holder = EXCLUDED.holder RETURNING l.version) ' +
      `SELECT a.version, p.version AS seen, CASE WHEN ${fresh} THEN p.record END AS record, ` +
      `CASE WHEN ${fresh} THEN (SELECT suspension FROM ${t.suspensions} WHERE session_id = $1) END AS suspension, ` +
      `CASE WHEN ${fresh} THEN '[' || COALESCE((SELECT string_agg(message, ',' ORDER BY seq) FROM ${t.messages} WHERE session_id = $1), '') || ']' END AS messages, ` +
      `(SELECT record FROM ${t.sends} WHERE session_id = $1 AND send_key = $5) AS sent ` +
      `FROM a LEFT JOIN ${t.sessions} p ON p.session_id = $1`;
    const started = Date.now();
    let retried = false;
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      let rows: HoldRow[];
      try {
        rows = await this.q<HoldRow>(text, [sessionId, token, this.leaseMs, known, key], true);
      } catch (error) {
        // A pooled connection the server closed (a restart) fails its next query at once: one
        // more try on a fresh connection. The token makes a repeat of a statement that did take
        // the lease harmless: the lease stays this turn's until it runs out.
        if (retried || transientReason(error) !== 'unreachable') throw error;
        retried = true;
        continue;
      }
      const row = rows[0];
      if (row !== undefined) {
        const locked = Number(row.version);
        const current = Number(row.seen ?? 0) === locked;
        // A save committed after this statement's snapshot: read the version again (the lease is held now).
        const version = current ? locked : await this.versionWith(sessionId);
        // A new session (no row) reads as `undefined`; a record the caller knows is not sent.
        const record: SessionRecord | undefined | 'unread' = !current
          ? 'unread'
          : row.seen === null
            ? undefined
            : row.record !== null && row.messages !== null
              ? decodeRecord(
                  version,
                  row.record,
                  JSON.parse(row.messages) as ChatMessage[],
                  row.suspension ?? undefined,
                )
              : 'unread';
        const sent = current && key !== null && row.sent !== null ? decodeSend(key, row.sent) : undefined;
        return { token, version, record, sendRead: current && key !== null, sent };
      }
      const waited = Date.now() - started;
      if (waited >= this.lockTimeoutMs) throw new SessionLockTimeout(sessionId, waited);
      await sleep(Math.min(wait, Math.max(1, this.lockTimeoutMs - waited)));
    }
  }

  /** Ends a lease that no save ended. Failures are ignored (the lease then runs out). */
  private async unhold(sessionId: string, token: string): Promise<void> {
    await this.q(`UPDATE ${this.t.locks} SET holder = NULL, expires_at = NULL WHERE session_id = $1 AND holder = $2`, [
      sessionId,
      token,
    ]).catch(ignore);
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
    return this.locks.run(sessionId, () => this.leased(sessionId, body, options));
  }

  private async leased<T>(
    sessionId: string,
    body: (session: LockedSession) => Promise<T>,
    options: SessionLockOptions,
  ): Promise<T> {
    let held: Held;
    try {
      await this.schema();
      held = await this.hold(sessionId, options);
    } catch (error) {
      throw storeError(error, `taking session ${JSON.stringify(sessionId)}`, false);
    }
    const { token } = held;
    const renew = setInterval(
      () => {
        this.q(
          `UPDATE ${this.t.locks} SET expires_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE session_id = $1 AND holder = $2`,
          [sessionId, token, this.leaseMs],
        ).catch(ignore);
      },
      Math.max(1, Math.floor(this.leaseMs / 3)),
    );
    renew.unref();
    let saving = false;
    let ended = false;
    try {
      return await body({
        load: async () => {
          if (held.record !== 'unread') return held.record;
          try {
            return await this.loadWith(sessionId);
          } catch (error) {
            throw storeError(error, `loading session ${JSON.stringify(sessionId)}`, false);
          }
        },
        version: async () => held.version,
        findSend: async (key) => {
          if (held.sendRead && key === own(options, 'sendKey')) return held.sent;
          try {
            return await this.findSendWith(sessionId, key);
          } catch (error) {
            throw storeError(error, `reading a send of session ${JSON.stringify(sessionId)}`, false);
          }
        },
        save: async (record, expectedVersion, saveOptions) => {
          if (saving) throw new Error('a locked session saves once');
          saving = true;
          clearInterval(renew);
          const version = await this.write(sessionId, token, record, expectedVersion, saveOptions);
          ended = true; // the save ended the lease
          return version;
        },
      });
    } finally {
      clearInterval(renew);
      if (!ended) await this.unhold(sessionId, token);
    }
  }

  /** Loads a session record (one statement, so one consistent snapshot). */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    try {
      await this.schema();
      return await this.loadWith(sessionId);
    } catch (error) {
      throw storeError(error, `loading session ${JSON.stringify(sessionId)}`, false);
    }
  }

  private async loadWith(sessionId: string): Promise<SessionRecord | undefined> {
    const { t } = this;
    const row = (
      await this.q<{ version: string; record: string; suspension: string | null; messages: string }>(
        `SELECT p.version, p.record, (SELECT suspension FROM ${t.suspensions} WHERE session_id = $1) AS suspension, ` +
          `'[' || COALESCE((SELECT string_agg(message, ',' ORDER BY seq) FROM ${t.messages} WHERE session_id = $1), '') || ']' AS messages ` +
          `FROM ${t.sessions} p WHERE p.session_id = $1`,
        [sessionId],
      )
    )[0];
    if (row === undefined) return undefined;
    const history = JSON.parse(row.messages) as ChatMessage[];
    return decodeRecord(Number(row.version), row.record, history, row.suspension ?? undefined);
  }

  private async versionWith(sessionId: string): Promise<number> {
    const rows = await this.q<{ version: string }>(`SELECT version FROM ${this.t.sessions} WHERE session_id = $1`, [
      sessionId,
    ]);
    return Number(rows[0]?.version ?? 0);
  }

  private async findSendWith(sessionId: string, key: string): Promise<SendRecord | undefined> {
    const row = (
      await this.q<{ record: string }>(`SELECT record FROM ${this.t.sends} WHERE session_id = $1 AND send_key = $2`, [
        sessionId,
        key,
      ])
    )[0];
    return row === undefined ? undefined : decodeSend(key, row.record);
  }

  /** The send kept under `key` for the session. */
  async findSend(sessionId: string, key: string): Promise<SendRecord | undefined> {
    try {
      await this.schema();
      return await this.findSendWith(sessionId, key);
    } catch (error) {
      throw storeError(error, `reading a send of session ${JSON.stringify(sessionId)}`, false);
    }
  }

  /**
   * Saves a held session and ends its lease. The common turn (the stored messages are the hinted
   * prefix, no resume to log) is one statement; a history rewrite, a logged resume, or a row not
   * as expected goes through {@link writeTransaction}, which also tells a conflict apart.
   */
  private async write(
    sessionId: string,
    token: string,
    record: Omit<SessionRecord, 'version'>,
    expected: number,
    options: SaveOptions | undefined,
  ): Promise<number> {
    const what = `saving session ${JSON.stringify(sessionId)}`;
    const history = record.state.messages;
    const prefix = options === undefined ? undefined : own(options, 'unchangedPrefix');
    const resumed = options === undefined ? undefined : own(options, 'resumed');
    const from = expected === 0 ? 0 : prefix;
    if (resumed === undefined && from !== undefined && from <= history.length) {
      let written: boolean;
      try {
        written = await this.writeOne(sessionId, token, record, expected, from, options);
      } catch (error) {
        throw storeError(error, what, true);
      }
      if (written) return expected + 1;
    }
    try {
      return await this.writeTransaction(sessionId, token, record, expected, options);
    } catch (error) {
      throw storeError(error, what, true);
    }
  }

  /**
   * The newest version among the kept sends a save with a new key drops: the session's keyed
   * sends beyond the newest `kept - 1` (the new one makes `kept`), as the other stores keep them.
   *
   * @param kept - The SQL parameter holding `sendKeysKept`.
   */
  private oldestDropped(kept: string): string {
    return `COALESCE((SELECT version FROM ${this.t.sends} WHERE session_id = $1 ORDER BY version DESC OFFSET GREATEST(${kept} - 1, 0) LIMIT 1), -1)`;
  }

  /** The parameters of a record's suspension and kept send. */
  private extras(
    record: Omit<SessionRecord, 'version'>,
    options: SaveOptions | undefined,
  ): { signalId: string | null; suspension: string | null; sendKey: string | null; send: string | null } {
    const suspension = suspensionOf(record);
    const send = options === undefined ? undefined : own(options, 'send');
    return {
      signalId: suspension?.descriptor.signal_id ?? null,
      suspension: suspension === undefined ? null : encodeSuspension(suspension),
      sendKey: send?.key ?? null,
      send: send === undefined ? null : encodeSend(send),
    };
  }

  /**
   * The common save in one statement (so one round trip, and atomic on its own): the row is
   * updated only when it holds the expected version, the hinted message count and this lease;
   * then the new messages, the suspension (replaced or removed), the idempotency key (and the
   * pruning of keyed sends beyond the newest `sendKeysKept`) are written and the lease ends. Returns
   * false when the row is not as expected (nothing written).
   *
   * @throws {@link SignalIdInUse} when another session waits on the suspension's signal id.
   */
  private async writeOne(
    sessionId: string,
    token: string,
    record: Omit<SessionRecord, 'version'>,
    expected: number,
    from: number,
    options: SaveOptions | undefined,
  ): Promise<boolean> {
    const { t } = this;
    const history = record.state.messages;
    const { signalId, suspension, sendKey, send } = this.extras(record, options);
    const w = 'EXISTS (SELECT 1 FROM w)';
    const mine = `EXISTS (SELECT 1 FROM ${t.locks} WHERE session_id = $1 AND holder = $7)`;
    const row =
      expected > 0
        ? `UPDATE ${t.sessions} SET version = $2 + 1, message_count = $5, record = $6, updated_at = now() WHERE session_id = $1 AND version = $2 AND message_count = $3 AND ${mine} RETURNING 1`
        : `INSERT INTO ${t.sessions} (session_id, version, message_count, record) SELECT $1, 1, $5, $6 WHERE $2 = 0 AND $3 = 0 AND ${mine} ON CONFLICT (session_id) DO NOTHING RETURNING 1`;
    try {
      const rows = await this.q<{ written: string }>(
        `WITH w AS (${row}), ` +
          `l AS (UPDATE ${t.locks} SET holder = NULL, expires_at = NULL, version = $2 + 1 WHERE session_id = $1 AND holder = $7 AND ${w} RETURNING 1), ` +
          `m AS (INSERT INTO ${t.messages} (session_id, seq, message) SELECT $1, $3 + n - 1, m FROM unnest($4::text[]) WITH ORDINALITY AS u(m, n) WHERE ${w} RETURNING 1), ` +
          `d AS (DELETE FROM ${t.suspensions} WHERE session_id = $1 AND $8::text IS NULL AND ${w} RETURNING 1), ` +
          `i AS (INSERT INTO ${t.suspensions} (signal_id, session_id, suspension) SELECT $8, $1, $9 WHERE $8::text IS NOT NULL AND ${w} ` +
          'ON CONFLICT (session_id) DO UPDATE SET signal_id = EXCLUDED.signal_id, suspension = EXCLUDED.suspension RETURNING 1), ' +
          `k AS (INSERT INTO ${t.sends} (session_id, send_key, version, record) SELECT $1, $10, $2 + 1, $11 WHERE $10::text IS NOT NULL AND ${w} ` +
          'ON CONFLICT (session_id, send_key) DO UPDATE SET version = EXCLUDED.version, record = EXCLUDED.record RETURNING 1), ' +
          `x AS (DELETE FROM ${t.sends} WHERE session_id = $1 AND send_key <> $10 AND ${w} AND version <= ${this.oldestDropped('$12')} RETURNING 1) ` +
          'SELECT count(*) AS written FROM w',
        [
          sessionId,
          expected,
          from,
          history.slice(from).map((m) => JSON.stringify(m)),
          history.length,
          encodeRecord(record),
          token,
          signalId,
          suspension,
          sendKey,
          send,
          this.sendKeysKept,
        ],
        true,
      );
      return Number(rows[0]?.written) === 1;
    } catch (error) {
      if (isUniqueViolation(error) && signalId !== null) throw new SignalIdInUse(signalId, 'another session');
      throw error;
    }
  }

  /**
   * The general save, in a transaction on one connection: checks the row (version, lease), writes
   * the whole history when it was rewritten, the row, the suspension, the kept send, the resume
   * log entry, ends the lease, commits.
   *
   * @throws {@link SessionWriteConflict} when the version is not the expected one, or the lease
   *   ran out and another turn holds the session.
   */
  private async writeTransaction(
    sessionId: string,
    token: string,
    record: Omit<SessionRecord, 'version'>,
    expected: number,
    options: SaveOptions | undefined,
  ): Promise<number> {
    const client = await this.pool.connect();
    client.on('error', ignore);
    const query: Query = (text, values = []) => client.query(this.config(text, values));
    let open = false;
    try {
      await query('BEGIN');
      open = true;
      await this.writeIn(query, sessionId, token, record, expected, options);
      open = false;
      await query('COMMIT');
      client.off('error', ignore);
      client.release();
      return expected + 1;
    } catch (error) {
      throw await this.abandon(client, query, open, error, sessionId);
    }
  }

  /**
   * The statements of {@link writeTransaction} inside its transaction.
   *
   * @throws {@link SessionWriteConflict} when the version is not the expected one, or the lease
   *   ran out and another turn holds the session; {@link SignalIdInUse} when another session waits
   *   on the suspension's signal id.
   */
  private async writeIn(
    query: Query,
    sessionId: string,
    token: string,
    record: Omit<SessionRecord, 'version'>,
    expected: number,
    options: SaveOptions | undefined,
  ): Promise<void> {
    const { t } = this;
    const current = (
      await query(
        `SELECT p.version, p.message_count, l.holder FROM ${t.locks} l LEFT JOIN ${t.sessions} p ON p.session_id = l.session_id WHERE l.session_id = $1 FOR UPDATE OF l`,
        [sessionId],
      )
    ).rows[0] as { version: string | null; message_count: number | null; holder: string | null } | undefined;
    const actual = Number(current?.version ?? 0);
    if (actual !== expected) throw new SessionWriteConflict(sessionId, expected, actual);
    if (current?.holder !== token)
      throw new SessionWriteConflict(sessionId, expected, actual, 'its lease ran out and another turn holds it');
    const history = record.state.messages;
    const prefix = options === undefined ? undefined : own(options, 'unchangedPrefix');
    const from = prefix !== undefined && prefix === current.message_count && history.length >= prefix ? prefix : 0;
    if (from === 0 && current.version !== null)
      await query(`DELETE FROM ${t.messages} WHERE session_id = $1`, [sessionId]);
    const { signalId, suspension, sendKey, send } = this.extras(record, options);
    await query(
      `WITH m AS (INSERT INTO ${t.messages} (session_id, seq, message) SELECT $1, $2 + n - 1, m FROM unnest($3::text[]) WITH ORDINALITY AS u(m, n) RETURNING 1), ` +
        `d AS (DELETE FROM ${t.suspensions} WHERE session_id = $1 RETURNING 1), ` +
        `l AS (UPDATE ${t.locks} SET holder = NULL, expires_at = NULL, version = $4 WHERE session_id = $1 RETURNING 1) ` +
        `INSERT INTO ${t.sessions} (session_id, version, message_count, record) VALUES ($1, $4, $5, $6) ` +
        'ON CONFLICT (session_id) DO UPDATE SET version = EXCLUDED.version, message_count = EXCLUDED.message_count, record = EXCLUDED.record, updated_at = now()',
      [
        sessionId,
        from,
        history.slice(from).map((m) => JSON.stringify(m)),
        expected + 1,
        history.length,
        encodeRecord(record),
      ],
    );
    if (signalId !== null) {
      try {
        await query(`INSERT INTO ${t.suspensions} (signal_id, session_id, suspension) VALUES ($1, $2, $3)`, [
          signalId,
          sessionId,
          suspension,
        ]);
      } catch (error) {
        if (isUniqueViolation(error)) throw new SignalIdInUse(signalId, 'another session');
        throw error;
      }
    }
    if (sendKey !== null) {
      await query(
        `WITH k AS (INSERT INTO ${t.sends} (session_id, send_key, version, record) VALUES ($1, $2, $3, $4) ON CONFLICT (session_id, send_key) DO UPDATE SET version = EXCLUDED.version, record = EXCLUDED.record RETURNING 1) ` +
          `DELETE FROM ${t.sends} WHERE session_id = $1 AND send_key <> $2 AND version <= ${this.oldestDropped('$5')}`,
        [sessionId, sendKey, expected + 1, send, this.sendKeysKept],
      );
    }
    const resumed = options === undefined ? undefined : own(options, 'resumed');
    if (resumed !== undefined) {
      // Log entries take their seq under one lock until commit, so seq order is commit order and
      // a reader never skips an entry committed late.
      await query(`SELECT pg_advisory_xact_lock(${lockKey('resumes', this.prefix)})`);
      const inserted = await query(`INSERT INTO ${t.resumes} (session_id, entry) VALUES ($1, $2) RETURNING seq`, [
        sessionId,
        encodeResume(resumed),
      ]);
      await query(`DELETE FROM ${t.resumes} WHERE seq <= $1`, [
        Number((inserted.rows[0] as { seq: string } | undefined)?.seq) - this.logSize,
      ]);
    }
  }

  /**
   * Ends a failed {@link writeTransaction}: rolls back an open transaction and releases the
   * client (destroyed unless it is known usable). Returns what to throw: the error, or, when the
   * rollback failed too, the store error with the rollback's failure as its `cleanupError`.
   */
  private async abandon(
    client: PoolClient,
    query: Query,
    open: boolean,
    error: unknown,
    sessionId: string,
  ): Promise<unknown> {
    let usable = !open;
    if (open) {
      const rollback = await query('ROLLBACK').then(
        () => undefined,
        (cleanup: unknown) => cleanup ?? new Error('ROLLBACK failed'),
      );
      usable = rollback === undefined;
      if (rollback !== undefined) {
        const failure = storeError(error, `saving session ${JSON.stringify(sessionId)}`, true);
        if (failure instanceof SessionStoreUnavailable) failure.cleanupError = rollback;
        client.off('error', ignore);
        client.release(true);
        return failure;
      }
    } else usable = sqlState(error) !== undefined;
    client.off('error', ignore);
    client.release(usable ? undefined : true);
    return error;
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
    const { t } = this;
    await this.withSessionLock(sessionId, async () => {
      try {
        await this.q(
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
      await this.schema();
      return await this.versionWith(sessionId);
    } catch (error) {
      throw storeError(error, `reading the version of session ${JSON.stringify(sessionId)}`, false);
    }
  }

  /** The suspension waiting on `signalId`. */
  async findSuspension(signalId: string): Promise<SuspensionRecord | undefined> {
    const { t } = this;
    try {
      await this.schema();
      const row = (
        await this.q<{ session_id: string; version: string; suspension: string }>(
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
    const { t } = this;
    try {
      await this.schema();
      const rows = await this.q<{ session_id: string; version: string; suspension: string }>(
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
    const { t } = this;
    try {
      await this.schema();
      const last = Number(
        (await this.q<{ seq: string }>(`SELECT COALESCE(max(seq), 0) AS seq FROM ${t.resumes}`))[0]?.seq ?? 0,
      );
      if (after === undefined) return { entries: [], cursor: last };
      const rows = await this.q<{ seq: string; session_id: string; entry: string }>(
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
