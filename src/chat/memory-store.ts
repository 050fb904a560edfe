/**
 * The in-memory session store, the harness's default: sessions in a map of this process.
 *
 * @module
 */
import { MemoryEffectLedger } from '../typestate/index.ts';
import { compareUtf8 } from '../canonical/index.ts';
import { deepFreeze } from '../internal/freeze.ts';
import { own } from '../internal/own-field.ts';
import { count } from '../internal/durations.ts';
import type { ChatMessage } from './messages.ts';
import { SessionQueue } from './queue.ts';
import type { ResumeEntry, ResumeLog, SessionRecord, Suspension, SuspensionRecord } from './session-records.ts';
import {
  appendFrom,
  DEFAULT_RESUME_LOG_SIZE,
  DEFAULT_SEND_KEYS_KEPT,
  type ListSuspendedOptions,
  type LockedSession,
  lockedView,
  resumePage,
  type SaveOptions,
  type SendRecord,
  type SessionLockOptions,
  type SessionStore,
  suspensionOf,
} from './store.ts';
import { SessionWriteConflict, SignalIdInUse } from './store-errors.ts';

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

  /**
   * The same ledger as {@link effectLedger}: a `MemoryEffectLedger` keeps approval records too
   * (docs/APPROVALS.md), so an approval asked in one turn is decided and consumed in another of
   * this process.
   *
   * @returns The store's ledger.
   * @example
   * ```ts
   * import { InMemorySessionStore } from 'turngate/chat';
   * const store = new InMemorySessionStore();
   * store.approvalLedger() === store.effectLedger(); //=> true
   * ```
   */
  approvalLedger(): MemoryEffectLedger {
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
