/**
 * Session stores: where a chat session's state and its suspension live between turns, and the
 * in-memory store.
 *
 * @module
 */
import { MemoryEffectLedger } from '../typestate/index.ts';
import { compareUtf8 } from '../canonical/index.ts';
import { deepFreeze } from '../internal/freeze.ts';
import { own } from '../internal/own-field.ts';
import { count } from '../internal/durations.ts';
import type { ChatMessage, ToolCall } from './messages.ts';
import type { DispatchPath } from './outcome.ts';
import { SessionQueue } from './queue.ts';

/**
 * A suspension's signal descriptor (suspension §4).
 *
 * @example
 * ```ts
 * import type { SignalDescriptor } from 'turngate/chat';
 * const descriptor: SignalDescriptor = { signal_id: 'approval-001', metadata: { action: 'send_email' } };
 * ```
 */
export interface SignalDescriptor {
  /** The correlation token the signal must carry; unique among the suspensions that wait. */
  readonly signal_id: string;
  /** Application-defined metadata, round-tripped unchanged. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The state of a chat session: `messages` (append reducer) plus any other fields, all JSON data.
 *
 * @example
 * ```ts
 * import type { ChatState } from 'turngate/chat';
 * const state: ChatState = { messages: [{ role: 'user', content: 'hi' }], approved: false };
 * ```
 */
export interface ChatState {
  readonly messages: readonly ChatMessage[];
  readonly [field: string]: unknown;
}

/**
 * A suspended turn (the paused-invocation record of suspension §5, less the state, which is the
 * session's): what it waits for, where it resumes, which tool calls it left open.
 *
 * @example
 * ```ts
 * import type { Suspension } from 'turngate/chat';
 * const suspension: Suspension = {
 *   invocationId: '6f1c...',
 *   node: 'approval',
 *   descriptor: { signal_id: 'refund:A-1001' },
 *   openToolCalls: [{ id: 'call_refund', name: 'orders.refund', arguments: { id: 'A-1001' } }],
 * };
 * ```
 */
export interface Suspension {
  /** The paused invocation's id (stable across suspend and resume). */
  readonly invocationId: string;
  /** The node that suspended; the resumed run continues after it. */
  readonly node: string;
  /** The signal descriptor (suspension §4). */
  readonly descriptor: SignalDescriptor;
  /** Tool calls of the history still awaiting a tool-role reply; the resumed turn must answer them. */
  readonly openToolCalls: readonly ToolCall[];
}

/**
 * A suspension and the session it belongs to: what `findSuspension` and `listSuspended` return.
 *
 * @example
 * ```ts
 * import type { SuspensionRecord } from 'turngate/chat';
 * const record: SuspensionRecord = { sessionId: 'support-1', sessionVersion: 3, invocationId: 'inv-1', node: 'approval', descriptor: { signal_id: 'refund:A-1001' }, openToolCalls: [] };
 * ```
 */
export interface SuspensionRecord extends Suspension {
  /** The session that waits. */
  readonly sessionId: string;
  /** The session's version that holds this suspension (a resume checks it is still current). */
  readonly sessionVersion: number;
}

/**
 * What a store keeps per session.
 *
 * @example
 * ```ts
 * import { InMemorySessionStore } from 'turngate/chat';
 * const store = new InMemorySessionStore();
 * await store.save('s', { state: { messages: [{ role: 'user', content: 'hi' }] } }, 0);
 * (await store.load('s'))?.version; //=> 1
 * ```
 */
export interface SessionRecord {
  /** Incremented by every save; the optimistic-concurrency token (sessions §8.2). */
  readonly version: number;
  /** The session state. */
  readonly state: ChatState;
  /** The suspended turn, when one waits for a signal; saved and removed with the state. */
  readonly suspension?: Suspension;
}

/**
 * A resumed turn that completed, as the store logged it when it saved the turn: how a process
 * learns of a resume another process ran.
 *
 * @example
 * ```ts
 * import type { ResumeEntry } from 'turngate/chat';
 * const entry: ResumeEntry = { seq: 7, sessionId: 'support-1', signalId: 'refund:A-1001', invocationId: 'inv-1', resumedBy: 'harness-2', replies: [{ role: 'assistant', content: 'Refunded.' }] };
 * ```
 */
export interface ResumeEntry {
  /** The log position: increasing, unique per store. */
  readonly seq: number;
  readonly sessionId: string;
  /** The signal that resumed the turn. */
  readonly signalId: string;
  /** The resumed invocation (the suspended one's id). */
  readonly invocationId: string;
  /** The id of the harness that ran the resume. */
  readonly resumedBy: string;
  /** The messages the resumed turn added. */
  readonly replies: readonly ChatMessage[];
}

/**
 * A page of the resume log.
 *
 * @example
 * ```ts
 * import { InMemorySessionStore, type ResumeLog } from 'turngate/chat';
 * const log: ResumeLog = await new InMemorySessionStore().readResumes(undefined);
 * log.entries; //=> []
 * ```
 */
export interface ResumeLog {
  /** Entries after the given position, oldest first. */
  readonly entries: readonly ResumeEntry[];
  /** The position to read after next time (the last entry's `seq`, or the log's end). */
  readonly cursor: number;
}

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
  /** The idempotency key of the send the turn answers: a store may look it up at once. */
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
 * Thrown by `save` when the stored version is not the expected one.
 *
 * @example
 * ```ts
 * import { InMemorySessionStore, SessionWriteConflict } from 'turngate/chat';
 * const store = new InMemorySessionStore();
 * await store.save('s', { state: { messages: [] } }, 0);
 * await store.save('s', { state: { messages: [] } }, 0).catch((e: unknown) => e instanceof SessionWriteConflict); //=> true
 * ```
 */
export class SessionWriteConflict extends Error {
  /** Always `session_write_conflict` (sessions §10). */
  readonly category = 'session_write_conflict';
  /**
   * Creates the error.
   *
   * @param sessionId - The session.
   * @param expected - The version the caller expected.
   * @param actual - The stored version.
   * @param why - What else went wrong, when the version is as expected (a lease that ran out).
   */
  constructor(sessionId: string, expected: number, actual: number, why?: string) {
    super(
      why === undefined
        ? `session ${sessionId} is at version ${actual}, not ${expected}`
        : `session ${sessionId} is at version ${actual}, but ${why}`,
    );
    this.name = 'SessionWriteConflict';
  }
}

/**
 * Thrown by `save` when the record suspends on a signal id another session already waits on.
 *
 * @example
 * ```ts
 * import { InMemorySessionStore, SignalIdInUse } from 'turngate/chat';
 * const store = new InMemorySessionStore();
 * const suspension = { invocationId: 'i', node: 'n', descriptor: { signal_id: 'approval' }, openToolCalls: [] };
 * await store.save('a', { state: { messages: [] }, suspension }, 0);
 * await store.save('b', { state: { messages: [] }, suspension }, 0).catch((e: unknown) => e instanceof SignalIdInUse); //=> true
 * ```
 */
export class SignalIdInUse extends Error {
  /** Always `harness_signal_subscription_failed` (harness §10): the signal cannot be routed. */
  readonly category = 'harness_signal_subscription_failed';
  /**
   * Creates the error.
   *
   * @param signalId - The signal id.
   * @param sessionId - The session that already waits on it.
   */
  constructor(signalId: string, sessionId: string) {
    super(`signal ${signalId} is already awaited by session ${sessionId}`);
    this.name = 'SignalIdInUse';
  }
}

/**
 * Why a store could not serve a call for now: it cannot be reached, it is restarting or shutting
 * down, a call ran past its timeout, or the session is held elsewhere past the lock timeout.
 */
export type StoreUnavailableReason = 'unreachable' | 'restarting' | 'timeout' | 'busy';

/**
 * Thrown by a store that cannot serve a call for now, while the stored sessions are intact: the
 * harness reports it in the `retryable_transient` bucket (the category still says which step
 * failed: `session_load_failed`, `session_save_failed`, `suspension_persistence_failed`). The
 * driver's error is the `cause`. When the failing call was a save whose outcome the store cannot
 * know (a timeout after the statement was sent), `outcomeUnknown` is true: the save may have
 * committed; a send retried with the same idempotency key finds it. Custom stores throw it (or a
 * subclass) for the same conditions.
 *
 * @example
 * ```ts
 * import { SessionStoreUnavailable } from 'turngate/chat';
 * const error = new SessionStoreUnavailable('timeout', 'save of session "s" timed out after 10000 ms', { outcomeUnknown: true });
 * [error.reason, error.outcomeUnknown]; //=> ['timeout', true]
 * ```
 */
export class SessionStoreUnavailable extends Error {
  /** Why the store could not serve the call. */
  readonly reason: StoreUnavailableReason;
  /** True when a save may have committed although it failed. */
  readonly outcomeUnknown: boolean;
  /**
   * An error of the cleanup after the failure (a rollback, a lock release), kept beside the
   * failure rather than in its place.
   */
  cleanupError?: unknown;
  /**
   * Creates the error.
   *
   * @param reason - Why.
   * @param message - What failed, for logs.
   * @param options - The driver's error (`cause`); whether a save's outcome is unknown.
   */
  constructor(
    reason: StoreUnavailableReason,
    message: string,
    options: { readonly cause?: unknown; readonly outcomeUnknown?: boolean } = {},
  ) {
    super(message, Object.hasOwn(options, 'cause') ? { cause: options.cause } : undefined);
    this.name = 'SessionStoreUnavailable';
    this.reason = reason;
    this.outcomeUnknown = own(options, 'outcomeUnknown') === true;
  }
}

/**
 * Thrown when a session stays held by another process (a turn, a resume) for longer than the
 * store's `lockTimeoutMs`: the store works, the session is busy (reason `busy`).
 *
 * @example
 * ```ts
 * import { SessionLockTimeout } from 'turngate/chat';
 * new SessionLockTimeout('conv-1', 30_000).message; //=> 'session "conv-1" is held by another process: waited 30000 ms'
 * ```
 */
export class SessionLockTimeout extends SessionStoreUnavailable {
  /** The session. */
  readonly sessionId: string;
  /**
   * Creates the error.
   *
   * @param sessionId - The session.
   * @param waitedMs - How long the turn waited, in milliseconds.
   */
  constructor(sessionId: string, waitedMs: number) {
    super('busy', `session ${JSON.stringify(sessionId)} is held by another process: waited ${waitedMs} ms`);
    this.name = 'SessionLockTimeout';
    this.sessionId = sessionId;
  }
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

interface StoredSession {
  version: number;
  /** The store's own copies, frozen; shared with loads (they cannot change). */
  messages: ChatMessage[];
  /** The other state fields, copied on save and load. */
  fields: Record<string, unknown>;
  suspension: Suspension | undefined;
  /** Kept sends by idempotency key, oldest first (at most `sendKeysKept`). */
  sends: Map<string, SendRecord>;
}

/**
 * Whether a value is plain data (ordinary objects and arrays, data properties only) frozen all
 * the way down: then nobody can change it, and the store may keep it without a copy.
 */
function isPlainDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== Array.prototype) return false;
  for (const key of Object.keys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor) || !isPlainDeepFrozen(descriptor.value)) return false;
  }
  return true;
}

/** The value itself when it is plain data frozen all the way down (as the harness's are), else a frozen copy. */
function deepFrozenCopy<T>(value: T): T {
  return isPlainDeepFrozen(value) ? value : deepFreeze(structuredClone(value));
}

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
 * The default store: sessions in memory (per process, gone when it exits). Messages are copied
 * once, on the save that adds them, and kept frozen; other state is copied on every save and
 * load. A save whose history extends the previous one costs only its new messages. Its session
 * lock serializes turns of harnesses that share this store object.
 *
 * @example
 * ```ts
 * import { InMemorySessionStore } from 'turngate/chat';
 * const store = new InMemorySessionStore();
 * await store.save('s1', { state: { messages: [] } }, 0); //=> 1
 * ```
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly suspended = new Map<string, string>(); // signal id -> session id
  private readonly resumes: ResumeEntry[] = [];
  private lastSeq = 0;
  private readonly locks = new SessionQueue();
  private readonly resumeLogSize: number;
  private readonly sendKeysKept: number;
  private readonly effects = new MemoryEffectLedger();

  /**
   * Creates an empty store.
   *
   * @param options - `resumeLogSize`: how many resume log entries to keep (default 10,000);
   *   `sendKeysKept`: how many idempotency keys to keep per session (default 1,000).
   */
  constructor(options: { readonly resumeLogSize?: number; readonly sendKeysKept?: number } = {}) {
    this.resumeLogSize = own(options, 'resumeLogSize') ?? DEFAULT_RESUME_LOG_SIZE;
    this.sendKeysKept = count(
      'InMemorySessionStore',
      'sendKeysKept',
      own(options, 'sendKeysKept'),
      DEFAULT_SEND_KEYS_KEPT,
    );
  }

  /**
   * The effect ledger of this store (one per store object, in memory like its sessions): pass it
   * to `settleMutations` / `admitMutation` (`{ ledger }`) and an effect runs once across replays
   * and retries in this process.
   *
   * @returns The store's ledger (the same object on every call).
   * @example
   * ```ts
   * import { InMemorySessionStore } from 'turngate/chat';
   * const store = new InMemorySessionStore();
   * store.effectLedger() === store.effectLedger(); //=> true
   * ```
   */
  effectLedger(): MemoryEffectLedger {
    return this.effects;
  }

  /** Loads the session record (a new record object; messages are shared frozen copies). */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    const stored = this.sessions.get(sessionId);
    if (stored === undefined) return undefined;
    const state = { ...structuredClone(stored.fields), messages: [...stored.messages] };
    return stored.suspension === undefined
      ? { version: stored.version, state }
      : { version: stored.version, state, suspension: stored.suspension };
  }

  /** Saves the record when the stored version is `expectedVersion`. */
  async save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expectedVersion: number,
    options?: SaveOptions,
  ): Promise<number> {
    const stored = this.sessions.get(sessionId);
    const actual = stored?.version ?? 0;
    if (actual !== expectedVersion) throw new SessionWriteConflict(sessionId, expectedVersion, actual);
    const suspension = suspensionOf(record);
    const signalId = suspension?.descriptor.signal_id;
    const holder = signalId === undefined ? undefined : this.suspended.get(signalId);
    if (signalId !== undefined && holder !== undefined && holder !== sessionId)
      throw new SignalIdInUse(signalId, holder);
    // Every copy is made before anything changes, so a value that cannot be copied changes nothing.
    const { messages, ...rest } = record.state;
    const fields = structuredClone(rest);
    const from = appendFrom(options, stored?.messages.length, messages.length);
    const added = messages.slice(from).map((m) => deepFrozenCopy(m));
    const frozenSuspension = suspension === undefined ? undefined : deepFrozenCopy(suspension);
    const resumed = options === undefined ? undefined : own(options, 'resumed');
    const entry = resumed === undefined ? undefined : deepFrozenCopy({ ...resumed, sessionId, seq: this.lastSeq + 1 });
    const send = options === undefined ? undefined : own(options, 'send');
    const sent = send === undefined ? undefined : deepFrozenCopy(send);
    const sends = stored?.sends ?? new Map<string, SendRecord>();
    const kept = from > 0 && stored !== undefined ? stored.messages : [];
    kept.push(...added);
    const version = expectedVersion + 1;
    if (stored?.suspension !== undefined) this.suspended.delete(stored.suspension.descriptor.signal_id);
    if (signalId !== undefined) this.suspended.set(signalId, sessionId);
    if (sent !== undefined) {
      sends.delete(sent.key);
      sends.set(sent.key, sent);
      if (sends.size > this.sendKeysKept) sends.delete(sends.keys().next().value as string);
    }
    this.sessions.set(sessionId, { version, messages: kept, fields, suspension: frozenSuspension, sends });
    if (entry !== undefined) {
      this.lastSeq = entry.seq;
      this.resumes.push(entry);
      if (this.resumes.length > this.resumeLogSize) this.resumes.splice(0, this.resumes.length - this.resumeLogSize);
    }
    return version;
  }

  /** Deletes the session and its suspension. */
  async delete(sessionId: string): Promise<void> {
    const stored = this.sessions.get(sessionId);
    if (stored?.suspension !== undefined) this.suspended.delete(stored.suspension.descriptor.signal_id);
    this.sessions.delete(sessionId);
  }

  /** The stored version, 0 for a missing session. */
  async version(sessionId: string): Promise<number> {
    return this.sessions.get(sessionId)?.version ?? 0;
  }

  /** The send kept under `key` for the session. */
  async findSend(sessionId: string, key: string): Promise<SendRecord | undefined> {
    return this.sessions.get(sessionId)?.sends.get(key);
  }

  /** The suspension waiting on `signalId`. */
  async findSuspension(signalId: string): Promise<SuspensionRecord | undefined> {
    const sessionId = this.suspended.get(signalId);
    const stored = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    if (sessionId === undefined || stored?.suspension === undefined) return undefined;
    return { ...stored.suspension, sessionId, sessionVersion: stored.version };
  }

  /** The suspensions that wait, ordered by signal id. */
  async listSuspended(options: ListSuspendedOptions = {}): Promise<readonly SuspensionRecord[]> {
    const only = own(options, 'sessionId');
    const after = own(options, 'after');
    const limit = own(options, 'limit') ?? Number.POSITIVE_INFINITY;
    const ids = [...this.suspended.keys()].sort(compareUtf8);
    const out: SuspensionRecord[] = [];
    for (const signalId of ids) {
      if (out.length >= limit) break;
      if (after !== undefined && compareUtf8(signalId, after) <= 0) continue;
      const found = await this.findSuspension(signalId);
      if (found !== undefined && (only === undefined || found.sessionId === only)) out.push(found);
    }
    return out;
  }

  /** Resume log entries after `after`. */
  async readResumes(after: number | undefined, limit = 1000): Promise<ResumeLog> {
    if (after === undefined) return { entries: [], cursor: this.lastSeq };
    const entries = this.resumes.filter((entry) => entry.seq > after).slice(0, limit);
    return resumePage(after, this.lastSeq, entries);
  }

  /** Runs `body` with the session held against other users of this store object. */
  withSessionLock<T>(
    sessionId: string,
    body: (session: LockedSession) => Promise<T>,
    _options?: SessionLockOptions,
  ): Promise<T> {
    return this.locks.run(sessionId, () => body(lockedView(this, sessionId)));
  }
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
