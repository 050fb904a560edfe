/**
 * The signal coordinator (harness §6): delivering a signal to the turn suspended on it, wherever
 * it suspended; the listeners of this harness, per session; and the feed of resumes other
 * processes ran. Internal.
 *
 * @module
 */
import { acceptJson, chatState, unusableId } from './boundary.ts';
import { completedOutcome, type ChatListener, type ChatTurnOutcome } from './outcome.ts';
import { type LockedSession, type SessionStore, suspensionOf } from './store.ts';
import type { ChatState, ResumeEntry, SuspensionRecord } from './session-records.ts';
import { type Hold, runTurn, type TurnRunnerDeps } from './turn.ts';
import { firstFailure } from '../failures/internal.ts';
import { describeThrown } from '../internal/display.ts';
import { isPromiseLike } from '../internal/promise.ts';

/**
 * Told of a listener that threw or whose returned promise rejected: the error and the session.
 * The harness's `onListenerError` option.
 *
 * @example
 * ```ts
 * import type { ListenerErrorHandler } from 'turngate/chat';
 * const onListenerError: ListenerErrorHandler = (error, sessionId) => console.error(`listener of ${sessionId} failed`, error);
 * ```
 */
export type ListenerErrorHandler = (error: unknown, sessionId: string) => void;

/**
 * The default {@link ListenerErrorHandler}: a process warning (`TURNGATE_LISTENER_FAILED`), so the
 * failure shows in the log without ending the process.
 */
export function warnListenerError(error: unknown, sessionId: string): void {
  process.emitWarning(`a chat listener of session ${JSON.stringify(sessionId)} failed: ${describeThrown(error)}`, {
    code: 'TURNGATE_LISTENER_FAILED',
  });
}

/**
 * The listeners of one harness (so of one process), per session. A listener that throws does not
 * stop the others, and cannot undo the turn it hears of.
 */
export class Listeners {
  private readonly bySession = new Map<string, Set<ChatListener>>();

  /** @param onError - Told of a listener that threw or whose promise rejected. */
  constructor(private readonly onError: ListenerErrorHandler) {}

  /**
   * Adds a listener; returns the function that removes it.
   *
   * @param sessionId - The session.
   * @param listener - The listener.
   */
  subscribe(sessionId: string, listener: ChatListener): () => void {
    let set = this.bySession.get(sessionId);
    if (set === undefined) {
      set = new Set();
      this.bySession.set(sessionId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.bySession.get(sessionId) === set) this.bySession.delete(sessionId);
    };
  }

  /**
   * Tells a session's listeners of a resumed turn's outcome (never of a suspension).
   *
   * @param sessionId - The session.
   * @param outcome - The outcome.
   */
  notify(sessionId: string, outcome: ChatTurnOutcome): void {
    if (outcome.outcome === 'suspended') return;
    // A listener's fault is the listener's: it must not undo a saved turn or stop the others, nor
    // (an async listener that rejects) end the process as an unhandled rejection.
    for (const listener of [...(this.bySession.get(sessionId) ?? [])]) {
      try {
        const returned: unknown = listener(outcome);
        if (isPromiseLike(returned)) returned.then(undefined, (error: unknown) => this.report(error, sessionId));
      } catch (error) {
        this.report(error, sessionId);
      }
    }
  }

  private report(error: unknown, sessionId: string): void {
    try {
      this.onError(error, sessionId);
    } catch {
      // The handler's own fault has nowhere left to go.
    }
  }

  /** Whether a session has listeners. */
  has(sessionId: string): boolean {
    return this.bySession.has(sessionId);
  }

  /** How many sessions have listeners. */
  get size(): number {
    return this.bySession.size;
  }
}

/**
 * Reads the store's resume log from where it last stopped (the log's end when the feed was
 * created) and tells the listeners of each resume another harness ran. Polls run one at a time.
 */
export class ResumeFeed {
  /** Where to read next; `undefined` for a store without a log, `null` when its end is not known yet. */
  private cursor: Promise<number | null | undefined>;
  private running: Promise<readonly ResumeEntry[]> | undefined;

  /**
   * @param store - The store (without `readResumes`, the feed reads nothing).
   * @param harnessId - This harness's id: its own resumes were already told.
   * @param listeners - Whom to tell.
   * @param loadState - The session's current state, for the outcome's `finalState`.
   */
  constructor(
    private readonly store: SessionStore,
    private readonly harnessId: string,
    private readonly listeners: Listeners,
    private readonly loadState: (sessionId: string) => Promise<ChatState | undefined>,
  ) {
    this.cursor = this.start();
  }

  private async start(): Promise<number | null | undefined> {
    if (this.store.readResumes === undefined) return undefined;
    try {
      return (await this.store.readResumes(undefined)).cursor;
    } catch {
      // The store could not be read: find the log's end on the next poll (never replay old entries).
      return null;
    }
  }

  /** Reads new entries, notifies, and returns the entries of resumes other harnesses ran. */
  poll(): Promise<readonly ResumeEntry[]> {
    this.running ??= this.read().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async read(): Promise<readonly ResumeEntry[]> {
    const after = await this.cursor;
    if (after === null) {
      this.cursor = this.start();
      return [];
    }
    if (after === undefined || this.store.readResumes === undefined) return [];
    const log = await this.store.readResumes(after);
    this.cursor = Promise.resolve(log.cursor);
    const elsewhere = log.entries.filter((entry) => entry.resumedBy !== this.harnessId);
    for (const entry of elsewhere) {
      if (!this.listeners.has(entry.sessionId)) continue;
      const state = (await this.loadState(entry.sessionId)) ?? { messages: [] };
      this.listeners.notify(entry.sessionId, completedOutcome(entry.replies, state, '3.3'));
    }
    return elsewhere;
  }
}

/** What the coordinator needs of its harness. */
export interface SignalCoordinatorDeps {
  readonly store: SessionStore;
  readonly turns: TurnRunnerDeps;
  readonly hold: Hold;
  /** Whether the store can tell a session's version without loading it. */
  readonly hasVersion: boolean;
  readonly listeners: Listeners;
}

/**
 * Delivers signals: finds the suspension in the store (so a turn suspended by any process, before
 * any restart, is found), holds its session, checks that the suspension is still the one found
 * (a delivery that raced an earlier one resumes nothing), resumes the turn, and tells this
 * harness's listeners. Never rejects.
 */
export class SignalCoordinator {
  /** @param deps - The store, the turn runner, how sessions are held, the listeners. */
  constructor(private readonly deps: SignalCoordinatorDeps) {}

  /**
   * Delivers a signal; `undefined` when no turn waits on it.
   *
   * @param signalId - The signal id.
   * @param payload - The payload, a JSON object merged into the suspended turn's state.
   */
  async deliver(signalId: unknown, payload: unknown): Promise<ChatTurnOutcome | undefined> {
    const { errors } = this.deps.turns;
    try {
      if (unusableId(signalId))
        return errors.refuse(
          'harness_signal_correlation_failed',
          'the signal id must be a non-empty string of well-formed text',
          { path: '3.3' },
        );
      const id = signalId as string;
      const accepted = acceptJson(payload, 'payload', 'the signal payload');
      const value = accepted.ok ? accepted.value : undefined;
      if (!accepted.ok || value === null || typeof value !== 'object' || Array.isArray(value)) {
        const refusal = accepted.ok ? undefined : firstFailure(accepted);
        const detail = refusal?.diagnostic ?? 'the signal payload must be an object';
        const full = refusal?.detail ?? detail;
        return errors.refuse('suspension_resume_payload_invalid', detail, { full, path: '3.3' });
      }
      let found: SuspensionRecord | undefined;
      try {
        found = await this.deps.store.findSuspension(id);
      } catch (error) {
        return errors.make('session_load_failed', undefined, error, '3.3');
      }
      if (found === undefined) return undefined;
      const suspended = found;
      let resumed = false;
      const outcome = await this.deps.hold(suspended.sessionId, '3.3', async (session) => {
        const result = await this.resume(session, suspended, id, value as Readonly<Record<string, unknown>>);
        resumed = result.resumed;
        return result.outcome;
      });
      if (resumed) this.deps.listeners.notify(suspended.sessionId, outcome);
      return outcome;
    } catch (error) {
      return errors.fromError(error, '3.3');
    }
  }

  private async resume(
    session: LockedSession,
    found: SuspensionRecord,
    signalId: string,
    payload: Readonly<Record<string, unknown>>,
  ): Promise<{ readonly outcome: ChatTurnOutcome; readonly resumed: boolean }> {
    const { turns, hasVersion } = this.deps;
    const { sessionId } = found;
    let record: Awaited<ReturnType<TurnRunnerDeps['cache']['load']>>;
    try {
      record = await turns.cache.load(sessionId, session, hasVersion);
    } catch (error) {
      return { outcome: turns.errors.make('session_load_failed', undefined, error, '3.3'), resumed: false };
    }
    const suspension = record === undefined ? undefined : suspensionOf(record);
    if (
      record === undefined ||
      suspension === undefined ||
      suspension.descriptor.signal_id !== signalId ||
      record.version !== found.sessionVersion
    ) {
      // Resumed or answered meanwhile (here or in another process): no turn resumes, no listener hears of it.
      const detail = 'nothing waits for this signal any more';
      const outcome = turns.errors.refuse('suspension_record_invalid', detail, { ids: [signalId], path: '3.3' });
      return { outcome, resumed: false };
    }
    const outcome = await runTurn(turns, {
      sessionId,
      session,
      record,
      state: chatState(record.state, [...record.state.messages]),
      inbound: [],
      path: '3.3',
      invocationId: suspension.invocationId,
      resume: { invocationId: suspension.invocationId, node: suspension.node, signalPayload: payload, signalId },
    });
    return { outcome, resumed: true };
  }
}
