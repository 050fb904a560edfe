/**
 * The SQLite session store's save: the statements one save runs inside its transaction.
 *
 * @module
 */
import { own } from '../internal/own-field.ts';
import { fenceRefusal } from './lease.ts';
import type { SqliteStatements } from './sqlite-statements.ts';
import { encodeRecord, encodeResume, encodeSend, encodeSuspension } from './sql-rows.ts';
import { appendFrom, type SaveOptions, suspensionOf } from './store.ts';
import type { SessionRecord } from './session-records.ts';
import { SessionWriteConflict, SignalIdInUse } from './store-errors.ts';

/** How much of the logs a save keeps. */
export interface SaveLimits {
  /** Resume log entries kept (the oldest go first). */
  readonly logSize: number;
  /** Idempotency keys kept per session (the oldest go first). */
  readonly sendKeysKept: number;
}

/**
 * One save, inside its transaction: checks the holder (the fence), the expected version and the suspension's signal id,
 * then writes the session's new messages (all of them when the hinted prefix does not match), its
 * row, its suspension, its resume log entry and its kept send, pruning both logs.
 *
 * @param stmts - The store's statements.
 * @param limits - What the logs keep.
 * @param sessionId - The session.
 * @param record - The record to save.
 * @param expected - The version the session must have now (0: a new session).
 * @param saveOptions - The save's options.
 * @param holder - The holder token of the turn saving (a save inside the session lock): the save
 *   is refused when the session's lock row names another holder (its lease ran out and another
 *   turn took the session).
 * @returns The new version.
 * @throws {@link SessionWriteConflict} for another stored version, or another holder; {@link SignalIdInUse} when the
 *   record suspends on a signal id another session waits on.
 */
export function saveIn(
  stmts: SqliteStatements,
  limits: SaveLimits,
  sessionId: string,
  record: Omit<SessionRecord, 'version'>,
  expected: number,
  saveOptions: SaveOptions | undefined,
  holder?: string,
): number {
  const { messages: history } = record.state;
  const json = encodeRecord(record);
  const version = expected + 1;
  const current: { version: number; message_count: number } | undefined = stmts.version.get(sessionId);
  if (holder !== undefined) {
    // The fence (lease.ts): another holder's row refuses the save; a row nobody holds (released)
    // leaves it to the version check, as a fresh lease would.
    const now = stmts.lockHolder.get(sessionId)?.holder;
    if (now !== undefined && now !== holder) throw fenceRefusal(sessionId, expected, current?.version ?? 0, now);
  }
  if ((current?.version ?? 0) !== expected) throw new SessionWriteConflict(sessionId, expected, current?.version ?? 0);
  const suspension = suspensionOf(record);
  if (suspension !== undefined) {
    const holder = stmts.holder.get(suspension.descriptor.signal_id)?.session_id;
    if (holder !== undefined && holder !== sessionId) throw new SignalIdInUse(suspension.descriptor.signal_id, holder);
  }
  const from = appendFrom(saveOptions, current?.message_count, history.length);
  if (from === 0) stmts.clearMessages.run(sessionId);
  for (let seq = from; seq < history.length; seq++)
    stmts.insertMessage.run(sessionId, seq, JSON.stringify(history[seq]));
  if (current === undefined) stmts.insertSession.run(sessionId, version, history.length, json);
  else stmts.updateSession.run(version, history.length, json, sessionId, expected);
  stmts.clearSuspension.run(sessionId);
  if (suspension !== undefined)
    stmts.insertSuspension.run(suspension.descriptor.signal_id, sessionId, encodeSuspension(suspension));
  const resumed = saveOptions === undefined ? undefined : own(saveOptions, 'resumed');
  if (resumed !== undefined) {
    const { lastInsertRowid } = stmts.insertResume.run(sessionId, encodeResume(resumed));
    stmts.pruneResumes.run(BigInt(lastInsertRowid) - BigInt(limits.logSize));
  }
  const send = saveOptions === undefined ? undefined : own(saveOptions, 'send');
  if (send !== undefined) {
    stmts.keepSend.run(sessionId, send.key, version, encodeSend(send));
    stmts.pruneSends.run({ session: sessionId, kept: limits.sendKeysKept });
  }
  return version;
}
