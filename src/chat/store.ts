/**
 * Session stores: where a chat session's state lives between turns.
 *
 * @module
 */
import type { ChatMessage, ToolCall } from './messages.ts';

/** A suspended turn waiting for its signal. */
export interface PausedTurn {
  /** The paused invocation's id (stable across suspend and resume). */
  readonly invocationId: string;
  /** The node that suspended; the resumed run continues after it. */
  readonly node: string;
  /** The signal descriptor (suspension §4). */
  readonly descriptor: SignalDescriptor;
}

/** A suspension's signal descriptor (suspension §4). */
export interface SignalDescriptor {
  /** The correlation token the signal must carry. */
  readonly signal_id: string;
  /** Application-defined metadata, round-tripped unchanged. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** The state of a chat session: `messages` (append reducer) plus any other fields. */
export interface ChatState {
  readonly messages: readonly ChatMessage[];
  readonly [field: string]: unknown;
}

/** What a store keeps per session. */
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

/** Thrown by `save` when the stored version is not the expected one. */
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
 * session). Stores must not keep references to the records they are given or return.
 */
export interface SessionStore {
  /** Loads a session, or `undefined` when it does not exist. */
  load(sessionId: string): Promise<SessionRecord | undefined>;
  /** Saves a session; returns the new version (`expectedVersion + 1`). */
  save(sessionId: string, record: Omit<SessionRecord, 'version'>, expectedVersion: number): Promise<number>;
  /** Deletes a session; deleting a missing session is not an error. */
  delete(sessionId: string): Promise<void>;
}

/**
 * The default store: sessions in memory, copied on the way in and out (`structuredClone`), so
 * no caller can change what is stored except through `save`.
 *
 * @example
 * ```ts
 * import { InMemorySessionStore } from 'turngate/chat';
 * const store = new InMemorySessionStore();
 * await store.save('s1', { state: { messages: [] } }, 0); //=> 1
 * ```
 */
export class InMemorySessionStore implements SessionStore {
  private readonly records = new Map<string, SessionRecord>();

  /** Loads a copy of the session record. */
  async load(sessionId: string): Promise<SessionRecord | undefined> {
    const record = this.records.get(sessionId);
    return record === undefined ? undefined : structuredClone(record);
  }

  /** Saves a copy of the record when the stored version is `expectedVersion`. */
  async save(sessionId: string, record: Omit<SessionRecord, 'version'>, expectedVersion: number): Promise<number> {
    const actual = this.records.get(sessionId)?.version ?? 0;
    if (actual !== expectedVersion) throw new SessionWriteConflict(sessionId, expectedVersion, actual);
    const version = expectedVersion + 1;
    this.records.set(sessionId, structuredClone({ ...record, version }));
    return version;
  }

  /** Deletes the session. */
  async delete(sessionId: string): Promise<void> {
    this.records.delete(sessionId);
  }
}
