/**
 * Session stores: the interface of where a chat session's state and its suspension live between
 * turns (the records in session-records.ts, the errors in store-errors.ts, the in-memory store in
 * memory-store.ts), and the helpers the bundled stores share.
 *
 * @module
 */
import { own } from '../internal/own-field.ts';
import type { ChatMessage } from './messages.ts';
import type { DispatchPath } from './outcome.ts';
import type {
  ResumeEntry,
  ResumeLog,
  SessionRecord,
  SignalDescriptor,
  Suspension,
  SuspensionRecord,
} from './session-records.ts';
import { SessionWriteConflict, SignalIdInUse } from './store-errors.ts';

/**
 * Options of `save`.
 *
 * @example
 * ```ts
 * import type { SaveOptions } from 'turngate/chat';
 * const options: SaveOptions = { unchangedPrefix: 12 };
 * ```
 */
export interface SaveOptions {
  /**
   * How many leading messages are exactly the stored messages of `expectedVersion`. A store
   * may then write only the messages after them; it must ignore a hint that does not match its
   * own message count.
   */
  readonly unchangedPrefix?: number;
  /** Set when the turn being saved is a completed resume: the store logs it (see `readResumes`). */
  readonly resumed?: Omit<ResumeEntry, 'seq' | 'sessionId'>;
  /**
   * Set when the turn being saved answers a send with an idempotency key: the store keeps the
   * outcome under the key, in the same atomic save, so a retried send finds it (`findSend`).
   */
  readonly send?: SendRecord;
}

/**
 * The outcome of a saved send, as a store keeps it under the send's idempotency key: a completed
 * turn's replies, or a suspended turn's descriptor and pending messages. The session state is not
 * kept with it (a replayed outcome reports the session's state when it is replayed).
 *
 * @example
 * ```ts
 * import type { StoredSendOutcome } from 'turngate/chat';
 * const stored: StoredSendOutcome = { outcome: 'completed', replies: [{ role: 'assistant', content: 'Hi' }], dispatchPath: '3.1' };
 * ```
 */
export type StoredSendOutcome =
  | {
      readonly outcome: 'completed';
      readonly replies: readonly ChatMessage[];
      readonly dispatchPath: DispatchPath;
    }
  | {
      readonly outcome: 'suspended';
      readonly signalDescriptor: SignalDescriptor;
      readonly pendingMessages: readonly ChatMessage[];
      readonly invocationId: string;
      readonly dispatchPath: DispatchPath;
    };

/**
 * A send a store keeps under its idempotency key: the key, the digest of the inbound message it
 * carried (a retry must carry the same message), and its outcome.
 *
 * @example
 * ```ts
 * import type { SendRecord } from 'turngate/chat';
 * const sent: SendRecord = { key: 'msg-7f3a', messageDigest: 'sha256:9b1f...', outcome: { outcome: 'completed', replies: [], dispatchPath: '3.2' } };
 * ```
 */
export interface SendRecord {
  /** The caller's idempotency key. */
  readonly key: string;
  /** `sha256:` digest of the inbound message's canonical JSON (DIGESTS.md). */
  readonly messageDigest: string;
  readonly outcome: StoredSendOutcome;
}

/** How many idempotency keys the bundled stores keep per session by default (the oldest go first). */
export const DEFAULT_SEND_KEYS_KEPT = 1000;

/**
 * Options of `withSessionLock`: what the caller already knows, so a store can read what the turn
 * needs in the same round trip that takes the session.
 *
 * @example
 * ```ts
 * import type { SessionLockOptions } from 'turngate/chat';
 * const options: SessionLockOptions = { knownVersion: 12, sendKey: 'msg-7f3a' };
 * ```
 */
export interface SessionLockOptions {
  /** The version of the record the caller holds: a store need not send that record again. */
  readonly knownVersion?: number;
  /**
   * The idempotency key of the send the turn answers: a store may look it up at once, and may
   * hold the session under a token of the send (the bundled SQL stores do), so a retry of the
   * send from the same store object takes over the lease its failed attempt left at once.
   */
  readonly sendKey?: string;
}

/**
 * Options of `listSuspended`.
 *
 * @example
 * ```ts
 * import type { ListSuspendedOptions } from 'turngate/chat';
 * const page: ListSuspendedOptions = { after: 'refund:A-1001', limit: 100 };
 * ```
 */
export interface ListSuspendedOptions {
  /** Only this session's suspension. */
  readonly sessionId?: string;
  /** Only signal ids after this one (in UTF-8 byte order): the previous page's last. */
  readonly after?: string;
  /** At most this many (default: all). */
  readonly limit?: number;
}

/**
 * A session held exclusively (see `SessionStore.withSessionLock`): its reads and its one save.
 *
 * @example
 * ```ts
 * import { InMemorySessionStore } from 'turngate/chat';
 * const store = new InMemorySessionStore();
 * await store.withSessionLock('s', async (session) => session.save({ state: { messages: [] } }, await session.version())); //=> 1
 * ```
 */
export interface LockedSession {
  /** Loads the session, or `undefined` when it does not exist. */
  load(): Promise<SessionRecord | undefined>;
  /** The stored version (0 when the session does not exist). */
  version(): Promise<number>;
  /** Saves the session as `SessionStore.save` does; at most once per lock. */
  save(record: Omit<SessionRecord, 'version'>, expectedVersion: number, options?: SaveOptions): Promise<number>;
  /** The send kept under `key` (see `SaveOptions.send`), or `undefined`; absent when the store keeps none. */
  findSend?(key: string): Promise<SendRecord | undefined>;
}

/**
 * A session store. `save` is atomic: it writes the whole record (state, suspension, resume log
 * entry) or nothing, and refuses with {@link SessionWriteConflict} when the stored version is not
 * `expectedVersion` (0 for a new session), and with {@link SignalIdInUse} when the record
 * suspends on a signal id another session waits on. What a store returns must not change when a
 * caller changes what it gave or got.
 *
 * Suspensions are part of the record, so they survive a restart and are visible to every
 * process that shares the store: `findSuspension` finds the session a signal resumes,
 * `listSuspended` lists what waits on what.
 *
 * Optional capabilities: `version` lets the harness skip loading a session it already holds;
 * `readResumes` lets a process learn of resumes other processes ran; `withSessionLock` holds a
 * session exclusively for a whole turn, across every process that shares the store (without
 * it, turns of one session from different processes meet as write conflicts); `findSend` keeps
 * sends idempotent (a send retried with its key returns the kept outcome; without it the harness
 * refuses sends that carry a key).
 *
 * Errors: a store that cannot serve a call for now (unreachable, restarting, timed out, the
 * session held elsewhere too long) throws {@link SessionStoreUnavailable}; the harness then
 * answers in the `retryable_transient` bucket. Any other error is taken to mean the session
 * cannot be served (`session_terminating`).
 *
 * Source: sessions §5 (protocol), §8.2 (optimistic concurrency), §8.3 (locking); suspension §5,
 * §8.6 (atomic suspend).
 *
 * @example
 * ```ts
 * import { InMemorySessionStore, type SessionStore } from 'turngate/chat';
 * const store: SessionStore = new InMemorySessionStore();
 * await store.save('conv-1', { state: { messages: [] } }, 0);
 * (await store.load('conv-1'))?.version; //=> 1
 * ```
 */
export interface SessionStore {
  /** Loads a session, or `undefined` when it does not exist. */
  load(sessionId: string): Promise<SessionRecord | undefined>;
  /** Saves a session; returns the new version (`expectedVersion + 1`). */
  save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expectedVersion: number,
    options?: SaveOptions,
  ): Promise<number>;
  /** Deletes a session and its suspension; deleting a missing session is not an error. */
  delete(sessionId: string): Promise<void>;
  /** The suspension waiting on `signalId`, or `undefined`. */
  findSuspension(signalId: string): Promise<SuspensionRecord | undefined>;
  /** The suspensions that wait, ordered by signal id (UTF-8 byte order). */
  listSuspended(options?: ListSuspendedOptions): Promise<readonly SuspensionRecord[]>;
  /** The stored version (0 when the session does not exist), without loading the record. */
  version?(sessionId: string): Promise<number>;
  /**
   * Resume log entries after position `after`, oldest first (at most `limit`, default 1,000);
   * `after` undefined reads nothing and returns the log's end as the cursor.
   */
  readResumes?(after: number | undefined, limit?: number): Promise<ResumeLog>;
  /**
   * Runs `body` holding the session exclusively against every other holder (other turns here,
   * other processes sharing the store); the version read at the start stays true until the one
   * save inside. `options` says what the caller knows, so the store may fetch what the turn needs
   * with the hold.
   */
  withSessionLock?<T>(
    sessionId: string,
    body: (session: LockedSession) => Promise<T>,
    options?: SessionLockOptions,
  ): Promise<T>;
  /** The send kept under `key` for the session (see `SaveOptions.send`), or `undefined`. */
  findSend?(sessionId: string, key: string): Promise<SendRecord | undefined>;
}

/** How many resume log entries the bundled stores keep by default (the oldest go first). */
export const DEFAULT_RESUME_LOG_SIZE = 10_000;

/**
 * A page of the resume log: the entries read after `after`, and where the next read starts (the
 * last entry read, or the log's end when there was nothing new).
 *
 * @param after - Where the read started.
 * @param end - The log's last position.
 * @param entries - The entries read.
 */
export function resumePage(after: number, end: number, entries: readonly ResumeEntry[]): ResumeLog {
  return { entries, cursor: entries.at(-1)?.seq ?? Math.max(after, end) };
}

/**
 * The suspension of a record being saved (own property only: a polluted `Object.prototype` must
 * not invent one).
 *
 * @param record - The record.
 */
export function suspensionOf(record: Omit<SessionRecord, 'version'>): Suspension | undefined {
  return own(record, 'suspension');
}

/**
 * Where saving a record may start writing messages: the hinted unchanged prefix when it matches
 * what is stored, else 0 (rewrite them all).
 *
 * @param options - The save options.
 * @param storedCount - How many messages are stored now (undefined: a new session).
 * @param newCount - How many messages the record has.
 */
export function appendFrom(
  options: SaveOptions | undefined,
  storedCount: number | undefined,
  newCount: number,
): number {
  const prefix = options === undefined ? undefined : own(options, 'unchangedPrefix');
  return prefix !== undefined && storedCount !== undefined && prefix === storedCount && newCount >= prefix ? prefix : 0;
}

/**
 * The {@link LockedSession} of a store that has no transactions of its own: its methods, bound to
 * one session, with one save.
 *
 * @param store - The store.
 * @param sessionId - The session.
 */
export function lockedView(store: SessionStore, sessionId: string): LockedSession {
  let saved = false;
  const findSend = store.findSend;
  return {
    ...(findSend === undefined ? {} : { findSend: (key: string) => findSend.call(store, sessionId, key) }),
    load: () => store.load(sessionId),
    version: async () =>
      store.version !== undefined ? store.version(sessionId) : ((await store.load(sessionId))?.version ?? 0),
    save: (record, expectedVersion, options) => {
      if (saved) return Promise.reject(new Error('a locked session saves once'));
      saved = true;
      return store.save(sessionId, record, expectedVersion, options);
    },
  };
}
