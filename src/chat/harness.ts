/**
 * The chat harness: `send()` -> `ChatTurnOutcome`, per-session serialization, durable
 * suspensions resumed by `signal()` in any process, subscribed listeners, error buckets, and
 * closure-checked history. This file wires the parts: the session queue (`queue.ts`), the record
 * cache (`cache.ts`), the turn runner (`turn.ts`), the listeners and resume feed (`signals.ts`),
 * the outcomes (`outcome.ts`).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { deepFreeze } from '../internal/freeze.ts';
import { own } from '../internal/own-field.ts';
import { acceptJson, acceptMessage, chatState, unusableId } from './boundary.ts';
import { RecordCache } from './cache.ts';
import type { ErrorClassifier } from './classify.ts';
import { DEFAULT_REPLY_TEMPLATES, type ReplyTemplates } from './errors.ts';
import type { ChatGraph } from './graph.ts';
import type { ChatMessage } from './messages.ts';
import { type ChatListener, type ChatTurnOutcome, type DispatchPath, ErroredOutcomes } from './outcome.ts';
import { SessionQueue } from './queue.ts';
import { type ListenerErrorHandler, Listeners, ResumeFeed, SignalCoordinator, warnListenerError } from './signals.ts';
import {
  InMemorySessionStore,
  type ListSuspendedOptions,
  type LockedSession,
  type SendRecord,
  type SessionStore,
  suspensionOf,
} from './store.ts';
import type { ResumeEntry, SuspensionRecord } from './session-records.ts';
import { holdSessions, outcomeOf, runTurn, type TurnRunnerDeps } from './turn.ts';
import { digest } from '../canonical/index.ts';
import { oneLine } from '../internal/display.ts';
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
 * Options of one `send`.
 *
 * @example
 * ```ts
 * import type { SendOptions } from 'turngate/chat';
 * const options: SendOptions = { idempotencyKey: 'msg-7f3a' };
 * ```
 */
export interface SendOptions {
  /**
   * Makes the send safe to retry: the store keeps the turn's outcome under this key (per
   * session, in the same atomic save as the turn), and a send with the same key and the same
   * message returns that outcome (`replayed: true`) instead of running the turn again. Use the
   * id your client gives the message (a request id, a message id). The same key with another
   * message is refused (`harness_idempotency_key_reused`). A non-empty string of well-formed
   * text, at most 256 UTF-16 code units. An errored turn saved nothing, so its retry runs.
   */
  readonly idempotencyKey?: string;
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
  const harnessId = randomUUID();
  const deps: TurnRunnerDeps = {
    graph: options.graph,
    cache: new RecordCache(own(options, 'cacheSize') ?? 10_000),
    errors,
    harnessId,
  };
  const queue = new SessionQueue();
  const listeners = new Listeners(own(options, 'onListenerError') ?? warnListenerError);
  const feed = new ResumeFeed(store, harnessId, listeners, async (sessionId) => (await store.load(sessionId))?.state);
  const hasVersion = store.version !== undefined || store.withSessionLock !== undefined;
  const held = holdSessions(queue, store, errors, deps.cache);
  const signals = new SignalCoordinator({ store, turns: deps, hold: held, hasVersion, listeners });
  const pollEvery = own(options, 'pollResumesEveryMs');
  let timer: ReturnType<typeof setInterval> | undefined;

  async function sendTurn(
    session: LockedSession,
    sessionId: string,
    message: ChatMessage,
    send: Omit<SendRecord, 'outcome'> | undefined,
  ): Promise<ChatTurnOutcome> {
    let record: Awaited<ReturnType<RecordCache['load']>>;
    let sent: SendRecord | undefined;
    try {
      record = await deps.cache.load(sessionId, session, hasVersion);
      if (send !== undefined) {
        if (session.findSend === undefined) {
          const detail = 'the session store keeps no idempotency keys (it has no findSend)';
          return errors.refuse('harness_idempotency_unsupported', detail);
        }
        sent = await session.findSend(send.key);
      }
    } catch (error) {
      return errors.make('session_load_failed', undefined, error);
    }
    if (sent !== undefined) {
      if (sent.messageDigest !== send?.messageDigest) {
        const detail = 'the idempotency key was used before with another message';
        return errors.refuse('harness_idempotency_key_reused', detail, { ids: [sent.key] });
      }
      return outcomeOf(sent.outcome, record?.state ?? chatState(initialState, []), true);
    }
    const history = record?.state.messages ?? [];
    const path: DispatchPath = history.length === 0 ? '3.1' : '3.2';
    const suspension = record === undefined ? undefined : suspensionOf(record);
    const open = suspension?.openToolCalls ?? [];
    if (message.role === 'tool') {
      if (!open.some((call) => call.id === message.tool_call_id)) {
        // The id is the sender's own input, so the reply may name it (bounded, controls escaped).
        const detail = `tool_call_id ${oneLine(message.tool_call_id, 80)} answers no open tool call of this conversation`;
        return errors.refuse('chat_message_shape_invalid', detail, { ids: [message.tool_call_id], path });
      }
    } else if (open.length > 0) {
      const detail = 'this conversation is waiting for the result of a tool call';
      const ids = open.map((call) => call.id);
      return errors.refuse('chat_message_shape_invalid', detail, { ids, path });
    } else if (suspension !== undefined) {
      const detail = 'this conversation is waiting for an approval or another event before it can take a new message';
      const ids = [suspension.descriptor.signal_id];
      return errors.refuse('harness_path_classification_ambiguous', detail, { ids, path });
    }
    // One exact copy (concat copies a packed array at once; a spread iterates and regrows).
    const state = chatState(record?.state ?? initialState, history.concat([message]));
    return runTurn(deps, {
      sessionId,
      session,
      record,
      state,
      inbound: [message],
      path,
      invocationId: randomUUID(),
      resume: undefined,
      ...(send === undefined ? {} : { send }),
    });
  }

  const harness: ChatHarness = {
    async send(sessionId, message: unknown, sendOptions?: SendOptions) {
      try {
        if (unusableId(sessionId)) {
          const detail = 'the session id must be a non-empty string of well-formed text';
          return errors.refuse('harness_session_id_unresolved', detail);
        }
        const key = sendOptions === undefined || sendOptions === null ? undefined : own(sendOptions, 'idempotencyKey');
        if (key !== undefined && (unusableId(key) || (key as string).length > 256)) {
          const detail = 'the idempotency key must be a non-empty string of well-formed text, at most 256 characters';
          return errors.refuse('harness_idempotency_key_invalid', detail);
        }
        const accepted = acceptMessage(message, '');
        if (!accepted.ok) {
          const refusal = firstFailure(accepted);
          return errors.refuse('chat_message_shape_invalid', refusal.diagnostic, { full: refusal.detail });
        }
        const inbound = deepFreeze(accepted.value);
        const send = key === undefined ? undefined : { key: key as string, messageDigest: digest(inbound) };
        return await held(sessionId, undefined, (session) => sendTurn(session, sessionId, inbound, send), send?.key);
      } catch (error) {
        return errors.fromError(error);
      }
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
