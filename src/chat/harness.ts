/**
 * The chat harness: `send()` -> `ChatTurnOutcome`, per-session serialization, durable
 * suspensions resumed by `signal()` in any process, subscribed listeners, error buckets, and
 * closure-checked history. This file reads the options and wires the parts: the send path
 * (`send.ts`), the session queue (`queue.ts`), the record cache (`cache.ts`), the turn runner
 * (`turn.ts`), the listeners and resume feed (`signals.ts`), the outcomes (`outcome.ts`).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { deepFreeze } from '../internal/freeze.ts';
import { own } from '../internal/own-field.ts';
import { acceptJson } from './boundary.ts';
import { RecordCache } from './cache.ts';
import type { ErrorClassifier } from './classify.ts';
import { DEFAULT_REPLY_TEMPLATES, type ReplyTemplates } from './errors.ts';
import type { ChatGraph } from './graph.ts';
import type { ChatMessage } from './messages.ts';
import { type ChatListener, type ChatTurnOutcome, ErroredOutcomes } from './outcome.ts';
import { SessionQueue } from './queue.ts';
import { type ListenerErrorHandler, Listeners, ResumeFeed, SignalCoordinator, warnListenerError } from './signals.ts';
import { InMemorySessionStore } from './memory-store.ts';
import { type SendContext, type SendOptions, sendMessage } from './send.ts';
import type { ListSuspendedOptions, SessionStore } from './store.ts';
import type { ResumeEntry, SuspensionRecord } from './session-records.ts';
import { holdSessions, type TurnRunnerDeps } from './turn.ts';
import { firstFailure } from '../failures/internal.ts';

/**
 * Options of {@link createChatHarness}.
 *
 * @example
 * ```ts
 * import { createChatHarness, InMemorySessionStore, type ChatGraph, type ChatHarnessOptions } from 'turngate/chat';
 * declare const graph: ChatGraph;
 * const options: ChatHarnessOptions = { graph, store: new InMemorySessionStore(), initialState: { approved: false }, cacheSize: 1000 };
 * createChatHarness(options);
 * ```
 */
export interface ChatHarnessOptions {
  /** The graph each turn invokes. */
  readonly graph: ChatGraph;
  /** Where sessions live; default an {@link InMemorySessionStore}. */
  readonly store?: SessionStore;
  /** The initial state of a new session, JSON data (`messages` is always `[]`). */
  readonly initialState?: Readonly<Record<string, unknown>>;
  /** Reply texts per bucket; default harness-chat §10's. */
  readonly replyTemplates?: ReplyTemplates;
  /** Maps thrown values to error categories before the built-in `classifyError` does. */
  readonly classifyError?: ErrorClassifier;
  /**
   * How many sessions' last records the harness keeps in memory (least recently used first
   * out); default 10,000. A kept session is not reloaded while the store's `version` matches.
   */
  readonly cacheSize?: number;
  /**
   * Told when a listener throws or returns a promise that rejects (an async listener), with the
   * error and the session; the other listeners still run and the turn stays saved. Default: a
   * process warning (`process.emitWarning`, code `TURNGATE_LISTENER_FAILED`). Never an unhandled
   * rejection.
   */
  readonly onListenerError?: ListenerErrorHandler;
  /**
   * When set, the harness calls {@link ChatHarness.pollResumes} every this many milliseconds
   * while it has listeners (the timer does not keep the process alive; `close()` stops it).
   */
  readonly pollResumesEveryMs?: number;
}

/**
 * A chat harness.
 *
 * Listeners are per harness, so per process: `subscribe` registers a listener in this harness
 * only. It fires once for each resumed turn of the session that this harness's `signal()` ran
 * (with the `completed` or `errored` outcome; never for a suspension), and, through
 * `pollResumes`, once for each completed resume another harness ran (another process, or
 * another harness sharing the store). A resume that errored elsewhere saved nothing and is heard
 * of only where it ran; its suspension still waits.
 *
 * @example
 * ```ts
 * import type { ChatHarness } from 'turngate/chat';
 * declare const harness: ChatHarness;
 * const stop = harness.subscribe('conv-1', (outcome) => console.log(outcome.outcome));
 * await harness.send('conv-1', { role: 'user', content: 'Hello' });
 * stop();
 * ```
 */
export interface ChatHarness {
  /**
   * Sends one inbound message on a session and returns the turn's outcome. Never rejects: a bad
   * session id, a message that is not a `ChatMessage` or not JSON data (a cycle, a `BigInt`, a
   * getter or Proxy trap that throws), a store or graph failure, each is an `errored` outcome,
   * and a failed turn leaves the stored session as it was. With `options.idempotencyKey`, a
   * retried send returns the kept outcome instead of running again (see {@link SendOptions}).
   */
  send(sessionId: string, message: ChatMessage, options?: SendOptions): Promise<ChatTurnOutcome>;
  /** Registers a listener for resumed turns of a session; returns the unsubscribe function. */
  subscribe(sessionId: string, listener: ChatListener): () => void;
  /**
   * Delivers a signal: finds the turn suspended on `signalId` in the store (whichever process
   * suspended it), resumes it with `payload` merged into its state, notifies this harness's
   * listeners, and returns the outcome. `undefined` when no turn waits on the signal. A signal
   * delivered twice resumes once: the later delivery finds no suspension (`undefined`) or, if it
   * raced the first, `errored` / `suspension_record_invalid` (across processes too, with a store that
   * holds sessions across processes: PostgreSQL, SQLite). Never rejects.
   */
  signal(signalId: string, payload: Readonly<Record<string, unknown>>): Promise<ChatTurnOutcome | undefined>;
  /** The suspensions waiting in the store: which session waits on which signal, with what open. */
  listSuspended(options?: ListSuspendedOptions): Promise<readonly SuspensionRecord[]>;
  /**
   * Reads the store's resume log since the last poll (or since the harness was created),
   * notifies listeners of resumes other harnesses ran, and returns those entries. Rejects only
   * when the store cannot be read. Needs a store with `readResumes` (all bundled stores).
   */
  pollResumes(): Promise<readonly ResumeEntry[]>;
  /** Stops the `pollResumesEveryMs` timer. */
  close(): void;
}

/** What a harness is made of, read from its options. */
interface HarnessParts {
  readonly store: SessionStore;
  readonly initialState: Readonly<Record<string, unknown>>;
  readonly deps: TurnRunnerDeps;
  readonly listeners: Listeners;
  readonly pollEvery: number | undefined;
}

/**
 * Reads a harness's options (own properties only), with their defaults.
 *
 * @throws TypeError when `initialState` is not a JSON object.
 */
function readOptions(options: ChatHarnessOptions): HarnessParts {
  const store = own(options, 'store') ?? new InMemorySessionStore();
  const initial = acceptJson(own(options, 'initialState') ?? {}, 'initialState', 'initialState');
  if (!initial.ok || initial.value === null || typeof initial.value !== 'object' || Array.isArray(initial.value))
    throw new TypeError(
      `createChatHarness: initialState must be a JSON object (${initial.ok ? 'got another value' : firstFailure(initial).detail})`,
    );
  const initialState = deepFreeze(initial.value as Record<string, unknown>);
  const errors = new ErroredOutcomes(
    own(options, 'replyTemplates') ?? DEFAULT_REPLY_TEMPLATES,
    own(options, 'classifyError'),
  );
  const deps: TurnRunnerDeps = {
    graph: options.graph,
    cache: new RecordCache(own(options, 'cacheSize') ?? 10_000),
    errors,
    harnessId: randomUUID(),
  };
  const listeners = new Listeners(own(options, 'onListenerError') ?? warnListenerError);
  return { store, initialState, deps, listeners, pollEvery: own(options, 'pollResumesEveryMs') };
}

/**
 * Creates a chat harness over a graph and a session store.
 *
 * Per turn, `send(sessionId, message)`:
 * 1. checks the session id and the message before touching the store: the message as JSON data
 *    read from its own properties, then as a `ChatMessage` (failure: `errored`,
 *    `user_correctable`, `harness_session_id_unresolved` / `chat_message_shape_invalid`, with a
 *    reply naming the field);
 * 2. waits for earlier turns of the same session in this process, then holds the session in the
 *    store for the turn (`withSessionLock`, when the store has one: across processes);
 * 3. loads the session (`session_load_failed`), refuses an inbound message that would leave the
 *    history invalid (a tool reply to no open call, a new message while calls are open or a turn
 *    is suspended), appends the message, and invokes the graph (path 3.1 for an empty history,
 *    3.2 otherwise);
 * 4. checks what the graph produced: every new message a `ChatMessage`, the state JSON data, the
 *    new tail join-closed (every tool call answered once, no orphan reply, no repeated id); a
 *    failure is `errored` (`graph_programming_error`, or the failure class with its ids as
 *    `cause`), bucket `session_terminating`, and nothing is saved;
 * 5. saves the state with its suspension in one `save` (`session_save_failed`,
 *    `suspension_persistence_failed`, `session_write_conflict`), and returns `completed` with
 *    the tail, or `suspended` with the pending tail, descriptor and invocation id.
 * A thrown error is classified (`classifyError` option, then the built-in `classifyError`) and
 * kept as the outcome's `cause`; the reply never shows it.
 *
 * Source: harness-chat §3–§10; harness §3, §6, §7; sessions §5, §8; suspension §5–§9.
 *
 * @param options - The graph, the store, the initial state, reply templates, classification hook.
 * @returns The harness.
 * @throws TypeError when `initialState` is not a JSON object.
 * @example
 * ```ts
 * import { createChatHarness, sequentialGraph } from 'turngate/chat';
 * const harness = createChatHarness({
 *   graph: sequentialGraph({ entry: 'reply', nodes: { reply: () => ({ messages: [{ role: 'assistant', content: 'Hi there' }] }) }, edges: [] }),
 * });
 * const outcome = await harness.send('conv-1', { role: 'user', content: 'Hello' });
 * if (outcome.outcome === 'completed') outcome.replies; //=> [{ role: 'assistant', content: 'Hi there' }]
 * ```
 */
export function createChatHarness(options: ChatHarnessOptions): ChatHarness {
  const { store, initialState, deps, listeners, pollEvery } = readOptions(options);
  const queue = new SessionQueue();
  const feed = new ResumeFeed(
    store,
    deps.harnessId,
    listeners,
    async (sessionId) => (await store.load(sessionId))?.state,
  );
  const hasVersion = store.version !== undefined || store.withSessionLock !== undefined;
  const hold = holdSessions(queue, store, deps.errors, deps.cache);
  const signals = new SignalCoordinator({ store, turns: deps, hold, hasVersion, listeners });
  const sends: SendContext = { deps, hold, initialState, hasVersion };
  let timer: ReturnType<typeof setInterval> | undefined;

  const harness: ChatHarness = {
    send(sessionId, message: unknown, sendOptions?: SendOptions) {
      return sendMessage(sends, sessionId, message, sendOptions);
    },

    subscribe(sessionId, listener) {
      const unsubscribe = listeners.subscribe(sessionId, listener);
      if (pollEvery !== undefined && timer === undefined && store.readResumes !== undefined) {
        timer = setInterval(() => {
          if (listeners.size > 0) feed.poll().catch(() => undefined);
        }, pollEvery);
        timer.unref();
      }
      return unsubscribe;
    },

    signal(signalId, payload) {
      return signals.deliver(signalId, payload);
    },

    listSuspended(listOptions) {
      return store.listSuspended(listOptions);
    },

    pollResumes() {
      return feed.poll();
    },

    close() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
  return harness;
}
