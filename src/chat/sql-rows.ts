/**
 * What the SQL stores (SQLite, PostgreSQL) write in their rows, and how they read it back: one
 * layout, so a session moves between them unchanged. Internal.
 *
 * Tables (`<prefix>` defaults to `turngate`):
 * - `<prefix>_sessions`: `session_id` (key), `version`, `message_count`, `record` (JSON: the state
 *   fields other than `messages`, as `{"state": {...}}`);
 * - `<prefix>_messages`: `session_id`, `seq` (0-based), `message` (JSON), keyed by both;
 * - `<prefix>_suspensions`: `signal_id` (key), `session_id` (unique), `suspension` (JSON:
 *   invocation id, node, descriptor, open tool calls), written in the same transaction as the
 *   session row;
 * - `<prefix>_resumes`: `seq` (increasing key), `session_id`, `entry` (JSON: signal id,
 *   invocation id, resumed by, replies), the log of completed resumes;
 * - `<prefix>_sends`: `session_id`, `send_key` (keyed by both), `version` (the session version the
 *   save that kept it wrote), `record` (JSON: message digest and outcome, see {@link encodeSend}),
 *   written in the same transaction as the session row; a session keeps its newest
 *   `sendKeysKept` (by `version`);
 * - `<prefix>_effects`: the effect ledger (see sql-effects.ts);
 * - `<prefix>_locks` (SQLite only): `session_id` (key), `holder`, `expires_at` (ms): a session
 *   held by a process, with the lease it renews.
 *
 * @module
 */
import type { ChatMessage } from './messages.ts';
import type { SaveOptions, SendRecord } from './store.ts';
import type { ResumeEntry, SessionRecord, Suspension, SuspensionRecord } from './session-records.ts';

/** The table names of a prefix. */
export interface SqlTables {
  readonly sessions: string;
  readonly messages: string;
  readonly suspensions: string;
  readonly resumes: string;
  /** The effect ledger's table (see sql-effects.ts). */
  readonly effects: string;
  /** The SQLite store's session locks across processes. */
  readonly locks: string;
  /** Sends kept under their idempotency keys (`SaveOptions.send`). */
  readonly sends: string;
  /** The approval records beside the effects (see sql-approvals.ts). */
  readonly approvals: string;
}

/**
 * The table names for a prefix.
 *
 * @param store - The store's name, for the error.
 * @param prefix - The prefix.
 * @throws TypeError when the prefix is not an SQL identifier (letters, digits, `_`; not a digit first).
 */
export function sqlTables(store: string, prefix: string): SqlTables {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(prefix))
    throw new TypeError(`${store}: table prefix ${JSON.stringify(prefix)} is not an identifier (letters, digits, _)`);
  return {
    sessions: `${prefix}_sessions`,
    messages: `${prefix}_messages`,
    suspensions: `${prefix}_suspensions`,
    resumes: `${prefix}_resumes`,
    effects: `${prefix}_effects`,
    locks: `${prefix}_locks`,
    sends: `${prefix}_sends`,
    approvals: `${prefix}_approvals`,
  };
}

/**
 * The `record` column of a session row: the state without its messages.
 *
 * @param record - The record being saved.
 */
export function encodeRecord(record: Omit<SessionRecord, 'version'>): string {
  const { messages: _messages, ...fields } = record.state;
  return JSON.stringify({ state: fields });
}

/**
 * A session record from its row, its message rows and its suspension row.
 *
 * @param version - The `version` column.
 * @param recordJson - The `record` column.
 * @param history - The messages, parsed from their rows, in `seq` order.
 * @param suspensionJson - The `suspension` column of its suspension row, if any.
 */
export function decodeRecord(
  version: number,
  recordJson: string,
  history: ChatMessage[],
  suspensionJson: string | undefined,
): SessionRecord {
  const { state } = JSON.parse(recordJson) as { state: Record<string, unknown> };
  const full = { ...state, messages: history };
  return suspensionJson === undefined
    ? { version, state: full }
    : { version, state: full, suspension: JSON.parse(suspensionJson) as Suspension };
}

/**
 * The `suspension` column.
 *
 * @param suspension - The suspension.
 */
export function encodeSuspension(suspension: Suspension): string {
  const { invocationId, node, descriptor, openToolCalls } = suspension;
  return JSON.stringify({ invocationId, node, descriptor, openToolCalls });
}

/**
 * A suspension record from its row.
 *
 * @param sessionId - The `session_id` column.
 * @param sessionVersion - The session row's `version`.
 * @param suspensionJson - The `suspension` column.
 */
export function decodeSuspension(sessionId: string, sessionVersion: number, suspensionJson: string): SuspensionRecord {
  return { ...(JSON.parse(suspensionJson) as Suspension), sessionId, sessionVersion };
}

/**
 * The `entry` column of a resume log row.
 *
 * @param resumed - The resume being logged.
 */
export function encodeResume(resumed: NonNullable<SaveOptions['resumed']>): string {
  const { signalId, invocationId, resumedBy, replies } = resumed;
  return JSON.stringify({ signalId, invocationId, resumedBy, replies });
}

/**
 * A resume log entry from its row.
 *
 * @param seq - The `seq` column.
 * @param sessionId - The `session_id` column.
 * @param entryJson - The `entry` column.
 */
export function decodeResume(seq: number, sessionId: string, entryJson: string): ResumeEntry {
  return { ...(JSON.parse(entryJson) as Omit<ResumeEntry, 'seq' | 'sessionId'>), seq, sessionId };
}

/**
 * The `record` column of a kept send: `{"messageDigest": "sha256:...", "outcome": {...}}` (the
 * key is its own column). The outcome is the harness's `StoredSendOutcome`, JSON data.
 *
 * @param send - The send being kept (`SaveOptions.send`).
 */
export function encodeSend(send: SendRecord): string {
  const { messageDigest, outcome } = send;
  return JSON.stringify({ messageDigest, outcome });
}

/**
 * A kept send from its row.
 *
 * @param key - The `send_key` column.
 * @param recordJson - The `record` column.
 */
export function decodeSend(key: string, recordJson: string): SendRecord {
  const { messageDigest, outcome } = JSON.parse(recordJson) as Omit<SendRecord, 'key'>;
  return { key, messageDigest, outcome };
}
