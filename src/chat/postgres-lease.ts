/**
 * The PostgreSQL session store's lease driver: the statements of the lease-and-fence protocol
 * (lease.ts) on the session's row of `<prefix>_locks` (holder token, expiry): taken in one
 * statement that also reads what the turn needs, renewed while the turn runs, ended by its save.
 *
 * @module
 */
import type { QueryResultRow } from 'pg';
import { own } from '../internal/own-field.ts';
import type { ChatMessage } from './messages.ts';
import type { PgDb } from './postgres-db.ts';
import { LeaseProtocol } from './lease.ts';
import { storeError, transientReason } from './postgres-errors.ts';
import { readRecord, readSend, readVersion } from './postgres-reads.ts';
import type { PgWriter } from './postgres-write.ts';
import { decodeRecord, decodeSend } from './sql-rows.ts';
import type { LockedSession, SendRecord, SessionLockOptions } from './store.ts';
import type { SessionRecord } from './session-records.ts';

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

/** The leases of one store. */
export class PgLeases {
  private readonly protocol: LeaseProtocol;

  /**
   * @param db - The store's connection.
   * @param writer - The store's saves (a held session's save ends its lease).
   * @param leaseMs - How long a lease lasts unless renewed.
   * @param lockTimeoutMs - How long taking a lease waits for another holder.
   */
  constructor(
    private readonly db: PgDb,
    private readonly writer: PgWriter,
    private readonly leaseMs: number,
    lockTimeoutMs: number,
  ) {
    // A release is retried from 50 ms, backing off to a second: a turn cut off by an outage frees
    // its session within about a second of the server's return.
    this.protocol = new LeaseProtocol(leaseMs, lockTimeoutMs, { pollMs: 50, releaseBackoffMs: [50, 1000] });
  }

  /** Stops the releases still being retried (the store is closing). */
  stop(): void {
    this.protocol.stop();
  }

  /**
   * Runs `body` holding the session against other processes (see
   * `PostgresSessionStore.withSessionLock`): takes the lease, renews it while `body` runs, and ends
   * it with the one save or, when nothing was saved, after `body` returns.
   */
  async run<T>(
    sessionId: string,
    body: (session: LockedSession) => Promise<T>,
    options: SessionLockOptions,
  ): Promise<T> {
    let held: Held;
    try {
      await this.db.schema();
      held = await this.hold(sessionId, options);
    } catch (error) {
      throw storeError(error, `taking session ${JSON.stringify(sessionId)}`, false);
    }
    const { token } = held;
    const stopRenewing = this.protocol.renew(() =>
      this.db.q(
        `UPDATE ${this.db.t.locks} SET expires_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE session_id = $1 AND holder = $2`,
        [sessionId, token, this.leaseMs],
      ),
    );
    let saving = false;
    let ended = false;
    try {
      return await body({
        load: async () => {
          if (held.record !== 'unread') return held.record;
          try {
            return await readRecord(this.db, sessionId);
          } catch (error) {
            throw storeError(error, `loading session ${JSON.stringify(sessionId)}`, false);
          }
        },
        version: async () => held.version,
        findSend: async (key) => {
          if (held.sendRead && key === own(options, 'sendKey')) return held.sent;
          try {
            return await readSend(this.db, sessionId, key);
          } catch (error) {
            throw storeError(error, `reading a send of session ${JSON.stringify(sessionId)}`, false);
          }
        },
        save: async (record, expectedVersion, saveOptions) => {
          if (saving) throw new Error('a locked session saves once');
          saving = true;
          stopRenewing();
          const version = await this.writer.write(sessionId, token, record, expectedVersion, saveOptions);
          ended = true; // the save ended the lease
          return version;
        },
      });
    } finally {
      stopRenewing();
      if (!ended) await this.unhold(sessionId, token);
    }
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
    const { t } = this.db;
    const key = own(options, 'sendKey') ?? null;
    const token = this.protocol.token(key ?? undefined);
    const known = own(options, 'knownVersion') ?? -1;
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
    let retried = false;
    return this.protocol.take(sessionId, token, async (): Promise<Held | undefined> => {
      let rows: HoldRow[];
      try {
        rows = await this.db.q<HoldRow>(text, [sessionId, token, this.leaseMs, known, key], true);
      } catch (error) {
        // A pooled connection the server closed (a restart) fails its next query at once: one
        // more try on a fresh connection. The token makes a repeat of a statement that did take
        // the lease harmless: the statement takes a lease its own token holds.
        if (retried || transientReason(error) !== 'unreachable') throw error;
        retried = true;
        rows = await this.db.q<HoldRow>(text, [sessionId, token, this.leaseMs, known, key], true);
      }
      const row = rows[0];
      if (row !== undefined) {
        const locked = Number(row.version);
        const current = Number(row.seen ?? 0) === locked;
        // A save committed after this statement's snapshot: read the version again (the lease is held now).
        const version = current ? locked : await readVersion(this.db, sessionId);
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
      return undefined;
    });
  }

  /**
   * Ends a lease that no save ended. A transient failure (the server restarting or unreachable)
   * is retried in the background until the release succeeds or the lease runs out (lease.ts), so
   * a turn cut off by an outage frees its session soon after the server returns.
   */
  private async unhold(sessionId: string, token: string): Promise<void> {
    await this.protocol.release(
      sessionId,
      token,
      () =>
        this.db.q(
          `UPDATE ${this.db.t.locks} SET holder = NULL, expires_at = NULL WHERE session_id = $1 AND holder = $2`,
          [sessionId, token],
        ),
      (error) => transientReason(error) !== undefined,
    );
  }
}
