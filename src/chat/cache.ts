/**
 * The harness's cache of each session's last record. Internal.
 *
 * @module
 */
import { deepFreeze } from '../internal/freeze.ts';
import type { LockedSession } from './store.ts';
import type { SessionRecord } from './session-records.ts';

/**
 * Keeps the last record loaded or saved per session (frozen), least recently used out first, so
 * a turn on a session the harness holds costs a version check instead of a load: the history is
 * not read again while the store's version matches. Correct across processes, since every save
 * anywhere changes the version.
 */
export class RecordCache {
  private readonly records = new Map<string, SessionRecord>();

  /** @param capacity - How many sessions to keep (0 keeps none). */
  constructor(private readonly capacity: number) {}

  /**
   * The session's record: the cached one when the store's version still matches, else a load
   * (frozen and kept).
   *
   * @param sessionId - The session.
   * @param session - The session, held for this turn.
   * @param hasVersion - Whether the store can tell its version without a load.
   */
  async load(sessionId: string, session: LockedSession, hasVersion: boolean): Promise<SessionRecord | undefined> {
    const cached = this.records.get(sessionId);
    if (cached !== undefined && hasVersion && (await session.version()) === cached.version) {
      this.touch(sessionId, cached);
      return cached;
    }
    this.records.delete(sessionId);
    const record = await session.load();
    if (record !== undefined) this.remember(sessionId, deepFreeze(record));
    return record;
  }

  /**
   * Keeps a record the harness just saved (its caller froze what it must).
   *
   * @param sessionId - The session.
   * @param record - The record.
   */
  remember(sessionId: string, record: SessionRecord): void {
    if (this.capacity <= 0) return;
    this.touch(sessionId, record);
    if (this.records.size > this.capacity) this.records.delete(this.records.keys().next().value as string);
  }

  /** The version of the session's kept record, or `undefined` when none is kept. */
  versionOf(sessionId: string): number | undefined {
    return this.records.get(sessionId)?.version;
  }

  /** Drops a session (after a failed save, its stored version is unknown). */
  forget(sessionId: string): void {
    this.records.delete(sessionId);
  }

  /** How many sessions are kept. */
  get size(): number {
    return this.records.size;
  }

  private touch(sessionId: string, record: SessionRecord): void {
    this.records.delete(sessionId);
    this.records.set(sessionId, record);
  }
}
