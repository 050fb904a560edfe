/**
 * The PostgreSQL session store's saves: a held session's one save, which also ends its lease. The
 * common turn is one statement; the rest (a rewritten history, a logged resume, a row not as
 * expected) is a transaction on one connection.
 *
 * @module
 */
import type { PoolClient, QueryResult } from 'pg';
import { own } from '../internal/own-field.ts';
import type { PgDb } from './postgres-db.ts';
import { endedByServer, ignore, isUniqueViolation, lockKey, sqlState, storeError } from './postgres-errors.ts';
import { fenceRefusal } from './lease.ts';
import { encodeRecord, encodeResume, encodeSend, encodeSuspension } from './sql-rows.ts';
import { type SaveOptions, suspensionOf } from './store.ts';
import type { SessionRecord } from './session-records.ts';
import { SessionStoreUnavailable, SessionWriteConflict, SignalIdInUse } from './store-errors.ts';

/** A query on one client (inside a transaction). */
type Query = (text: string, values?: unknown[]) => Promise<QueryResult>;

/** The saves of one store. */
export class PgWriter {
  /**
   * @param db - The store's connection.
   * @param logSize - How many resume log entries to keep.
   * @param sendKeysKept - How many idempotency keys to keep per session.
   */
  constructor(
    private readonly db: PgDb,
    private readonly logSize: number,
    private readonly sendKeysKept: number,
  ) {}

  /**
   * Saves a held session and ends its lease. The common turn (the stored messages are the hinted
   * prefix, no resume to log) is one statement; a history rewrite, a logged resume, or a row not
   * as expected goes through {@link writeTransaction}, which also tells a conflict apart.
   */
  async write(
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
    return `COALESCE((SELECT version FROM ${this.db.t.sends} WHERE session_id = $1 ORDER BY version DESC OFFSET GREATEST(${kept} - 1, 0) LIMIT 1), -1)`;
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
    const { t } = this.db;
    const history = record.state.messages;
    const { signalId, suspension, sendKey, send } = this.extras(record, options);
    const w = 'EXISTS (SELECT 1 FROM w)';
    const mine = `EXISTS (SELECT 1 FROM ${t.locks} WHERE session_id = $1 AND holder = $7)`;
    const row =
      expected > 0
        ? `UPDATE ${t.sessions} SET version = $2 + 1, message_count = $5, record = $6, updated_at = now() WHERE session_id = $1 AND version = $2 AND message_count = $3 AND ${mine} RETURNING 1`
        : `INSERT INTO ${t.sessions} (session_id, version, message_count, record) SELECT $1, 1, $5, $6 WHERE $2 = 0 AND $3 = 0 AND ${mine} ON CONFLICT (session_id) DO NOTHING RETURNING 1`;
    try {
      const rows = await this.db.q<{ written: string }>(
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
    const { client, query } = await this.begin(sessionId);
    let open = true;
    try {
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
   * A connection with a transaction begun. A pooled connection the server ended while it sat idle
   * (`pg_terminate_backend`, a restart: {@link endedByServer}) fails at `BEGIN`, before anything
   * ran: it is destroyed and the save begins once more on a fresh one.
   */
  private async begin(sessionId: string): Promise<{ client: PoolClient; query: Query }> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.db.connect();
      const query: Query = (text, values = []) => client.query(this.db.config(text, values));
      try {
        await query('BEGIN');
        return { client, query };
      } catch (error) {
        const thrown = await this.abandon(client, query, false, error, sessionId);
        if (attempt > 0 || !endedByServer(error)) throw thrown;
      }
    }
  }

  /**
   * The fence, inside the save's transaction: the session's lock row must name this turn's token.
   * A row nobody holds (the lease was lost: a server crash empties the unlogged table) is taken
   * again, in this transaction, so the version check decides as it would for a fresh lease.
   *
   * @returns The stored version and message count (null for a new session), the row locked.
   * @throws {@link SessionWriteConflict} naming the state when another turn holds the session.
   */
  private async fence(
    query: Query,
    sessionId: string,
    token: string,
    expected: number,
  ): Promise<{ version: string | null; message_count: number | null }> {
    const { t } = this.db;
    const taken = await query(
      `INSERT INTO ${t.locks} AS l (session_id, holder, expires_at, version) ` +
        `VALUES ($1, $2, clock_timestamp() + interval '1 minute', COALESCE((SELECT version FROM ${t.sessions} WHERE session_id = $1), 0)) ` +
        'ON CONFLICT (session_id) DO UPDATE SET holder = EXCLUDED.holder WHERE l.holder IS NULL OR l.holder = EXCLUDED.holder RETURNING 1',
      [sessionId, token],
    );
    const current = (
      await query(
        `SELECT p.version, p.message_count, l.holder FROM ${t.locks} l LEFT JOIN ${t.sessions} p ON p.session_id = l.session_id WHERE l.session_id = $1 FOR UPDATE OF l`,
        [sessionId],
      )
    ).rows[0] as { version: string | null; message_count: number | null; holder: string | null } | undefined;
    if (taken.rowCount !== 1 || current === undefined || current.holder !== token)
      throw fenceRefusal(sessionId, expected, Number(current?.version ?? 0), current?.holder ?? undefined);
    return current;
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
    const { t } = this.db;
    const current = await this.fence(query, sessionId, token, expected);
    const actual = Number(current.version ?? 0);
    if (actual !== expected) throw new SessionWriteConflict(sessionId, expected, actual);
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
      await query(`SELECT pg_advisory_xact_lock(${lockKey('resumes', this.db.prefix)})`);
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
    } else usable = sqlState(error) !== undefined && !endedByServer(error);
    client.off('error', ignore);
    client.release(usable ? undefined : true);
    return error;
  }
}
