/**
 * The PostgreSQL session store's reads of one session: its record, its version, a kept send. The
 * store's calls and a held session's both use them.
 *
 * @module
 */
import type { ChatMessage } from './messages.ts';
import type { PgDb } from './postgres-db.ts';
import { decodeRecord, decodeSend } from './sql-rows.ts';
import type { SendRecord } from './store.ts';
import type { SessionRecord } from './session-records.ts';

/**
 * The session's record, or `undefined` (one statement, so one consistent snapshot).
 */
export async function readRecord(db: PgDb, sessionId: string): Promise<SessionRecord | undefined> {
  const { t } = db;
  const row = (
    await db.q<{ version: string; record: string; suspension: string | null; messages: string }>(
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

/** The session's stored version, 0 for a missing session. */
export async function readVersion(db: PgDb, sessionId: string): Promise<number> {
  const rows = await db.q<{ version: string }>(`SELECT version FROM ${db.t.sessions} WHERE session_id = $1`, [
    sessionId,
  ]);
  return Number(rows[0]?.version ?? 0);
}

/** The send kept under `key` for the session, or `undefined`. */
export async function readSend(db: PgDb, sessionId: string, key: string): Promise<SendRecord | undefined> {
  const row = (
    await db.q<{ record: string }>(`SELECT record FROM ${db.t.sends} WHERE session_id = $1 AND send_key = $2`, [
      sessionId,
      key,
    ])
  )[0];
  return row === undefined ? undefined : decodeSend(key, row.record);
}
