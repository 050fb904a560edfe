/**
 * The signal coordinator's listener side: subscribed listeners per session, and the feed of
 * resumes other processes ran. Internal.
 *
 * @module
 */
import { completedOutcome, type ChatListener, type ChatTurnOutcome } from './outcome.ts';
import type { ChatState, ResumeEntry, SessionStore } from './store.ts';

/**
 * The listeners of one harness (so of one process), per session. A listener that throws does not
 * stop the others, and cannot undo the turn it hears of.
 */
export class Listeners {
  private readonly bySession = new Map<string, Set<ChatListener>>();

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
    for (const listener of [...(this.bySession.get(sessionId) ?? [])]) {
      try {
        listener(outcome);
      } catch {
        // A listener's fault is the listener's: it must not undo a saved turn or stop the others.
      }
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
