/**
 * Session stores: where a chat session's state lives between turns.
 *
 * @module
 */
import { deepFreeze } from '../internal/freeze.ts';
import type { ChatMessage, ToolCall } from './messages.ts';

/**
 * A suspended turn waiting for its signal.
 *
 * @example
 * ```ts
 * import type { PausedTurn } from 'turngate/chat';
 * declare const value: PausedTurn;
 * value.invocationId;
 * ```
 */
export interface PausedTurn {
  /** The paused invocation's id (stable across suspend and resume). */
  readonly invocationId: string;
  /** The node that suspended; the resumed run continues after it. */
  readonly node: string;
  /** The signal descriptor (suspension §4). */
  readonly descriptor: SignalDescriptor;
}

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
  /** The correlation token the signal must carry. */
  readonly signal_id: string;
  /** Application-defined metadata, round-tripped unchanged. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * The state of a chat session: `messages` (append reducer) plus any other fields.
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
 * What a store keeps per session.
 *
 * @example
 * ```ts
 * import type { SessionRecord } from 'turngate/chat';
 * declare const value: SessionRecord;
 * value.version;
 * ```
 */
export interface SessionRecord {
  /** Incremented by every save; the optimistic-concurrency token. */
  readonly version: number;
  /** The session state. */
  readonly state: ChatState;
  /** The suspended turn, when one is waiting for a signal. */
  readonly paused?: PausedTurn;
  /** Tool calls of the history still awaiting a tool-role reply (only while suspended). */
  readonly openToolCalls?: readonly ToolCall[];
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
  constructor(sessionId: string, expected: number, actual: number) {
    super(`session ${sessionId} is at version ${actual}, not ${expected}`);
    this.name = 'SessionWriteConflict';
  }
}

/**
 * A session store. `save` is atomic: it writes the whole record or nothing, and refuses (with
 * {@link SessionWriteConflict}) when the stored version is not `expectedVersion` (0 for a new
 * session). What a store returns must not change when a caller changes what it gave or got.
 *
 * Histories only grow, so a caller that knows it may say so: `hint.unchangedPrefix` is the
 * number of leading messages that are exactly the stored messages of `expectedVersion`. A store
 * may then write only the messages after them (it must ignore a hint that does not match its
 * own message count). `version` lets the harness skip loading a session it already holds.
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
    hint?: SaveHint,
  ): Promise<number>;
  /** Deletes a session; deleting a missing session is not an error. */
  delete(sessionId: string): Promise<void>;
  /** The stored version (0 when the session does not exist), without loading the record. */
  version?(sessionId: string): Promise<number>;
}

/**
 * What a caller knows about a save (see {@link SessionStore}).
 *
 * @example
 * ```ts
 * import type { SaveHint } from 'turngate/chat';
 * declare const value: SaveHint;
 * value.unchangedPrefix;
 * ```
 */
export interface SaveHint {
  /** How many leading messages are unchanged since `expectedVersion`. */
  readonly unchangedPrefix: number;
}

interface StoredSession {
  version: number;
  /** The store's own copies, frozen; shared with loads (they cannot change). */
  messages: ChatMessage[];
  rest: Omit<SessionRecord, 'version' | 'state'> & { state: Record<string, unknown> };
}

function deepFrozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

/**
 * The default store: sessions in memory. Messages are copied once, on the save that adds them,
 * and kept frozen; other state is copied on every save and load. A save whose history extends
 * the previous one costs only its new messages.
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

  /** Loads the session record (a new record object; messages are shared frozen copies). */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    const stored = this.sessions.get(sessionId);
    if (stored === undefined) return undefined;
    const rest = structuredClone(stored.rest);
    return { ...rest, version: stored.version, state: { ...rest.state, messages: [...stored.messages] } };
  }

  /** Saves the record when the stored version is `expectedVersion`. */
  async save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expectedVersion: number,
    hint?: SaveHint,
  ): Promise<number> {
    const stored = this.sessions.get(sessionId);
    const actual = stored?.version ?? 0;
    if (actual !== expectedVersion) throw new SessionWriteConflict(sessionId, expectedVersion, actual);
    const { messages, ...fields } = record.state;
    const { state: _state, ...others } = record;
    const rest = structuredClone({ ...others, state: fields });
    const append =
      stored !== undefined &&
      hint !== undefined &&
      hint.unchangedPrefix === stored.messages.length &&
      messages.length >= hint.unchangedPrefix;
    const added = messages.slice(append ? hint.unchangedPrefix : 0).map((m) => deepFrozenCopy(m));
    const kept = append ? stored.messages : [];
    kept.push(...added);
    const version = expectedVersion + 1;
    this.sessions.set(sessionId, { version, messages: kept, rest });
    return version;
  }

  /** Deletes the session. */
  async delete(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }

  /** The stored version, 0 for a missing session. */
  async version(sessionId: string): Promise<number> {
    return this.sessions.get(sessionId)?.version ?? 0;
  }
}
