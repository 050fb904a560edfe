/**
 * The errors a session store throws: a version conflict, a signal id in use, and a store
 * unavailable for now (a transient failure, a lock held too long).
 *
 * @module
 */
import { own } from '../internal/own-field.ts';

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
  /** Why: always `session_write_conflict`, the error category (sessions §10). */
  readonly code = 'session_write_conflict';
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
  /**
   * Why: always `harness_signal_subscription_failed`, the error category (harness §10): the
   * signal cannot be routed.
   */
  readonly code = 'harness_signal_subscription_failed';
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
 * harness reports it in the `retryable_transient` bucket (the outcome's category still says which
 * step failed: `session_load_failed`, `session_save_failed`, `suspension_persistence_failed`);
 * `code` says why. The driver's error is the `cause`. When the failing call was a save whose outcome the store cannot
 * know (a timeout after the statement was sent), `outcomeUnknown` is true: the save may have
 * committed; a send retried with the same idempotency key finds it. Custom stores throw it (or a
 * subclass) for the same conditions.
 *
 * @example
 * ```ts
 * import { SessionStoreUnavailable } from 'turngate/chat';
 * const error = new SessionStoreUnavailable('timeout', 'save of session "s" timed out after 10000 ms', { outcomeUnknown: true });
 * [error.code, error.outcomeUnknown]; //=> ['timeout', true]
 * ```
 */
export class SessionStoreUnavailable extends Error {
  /** Why the store could not serve the call. */
  readonly code: StoreUnavailableReason;
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
   * @param code - Why.
   * @param message - What failed, for logs.
   * @param options - The driver's error (`cause`); whether a save's outcome is unknown.
   */
  constructor(
    code: StoreUnavailableReason,
    message: string,
    options: { readonly cause?: unknown; readonly outcomeUnknown?: boolean } = {},
  ) {
    super(message, Object.hasOwn(options, 'cause') ? { cause: options.cause } : undefined);
    this.name = 'SessionStoreUnavailable';
    this.code = code;
    this.outcomeUnknown = own(options, 'outcomeUnknown') === true;
  }
}

/**
 * Thrown when a session stays held by another process (a turn, a resume) for longer than the
 * store's `lockTimeoutMs`: the store works, the session is busy (code `busy`).
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
