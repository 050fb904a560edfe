/**
 * The chat harness: `send()` -> `ChatTurnOutcome`, per-session serialization, suspension with
 * subscribed listeners, error buckets, and closure-checked history.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { deepFreeze } from '../internal/freeze.ts';
import { checkClosure } from './closure.ts';
import {
  bucketOf,
  categorize,
  DEFAULT_REPLY_TEMPLATES,
  replyFor,
  type ErrorBucket,
  type ReplyTemplates,
} from './errors.ts';
import type { ChatGraph, GraphOutcome, ResumeRequest } from './graph.ts';
import { validateChatMessage, type ChatMessage, type ToolCall } from './messages.ts';
import {
  InMemorySessionStore,
  type ChatState,
  type SessionRecord,
  type SessionStore,
  type SignalDescriptor,
} from './store.ts';

/**
 * The inbound dispatch path of a turn (harness §3): 3.1 new session, 3.2 existing, 3.3 signal-resume.
 *
 * @example
 * ```ts
 * import type { DispatchPath } from 'turngate/chat';
 * declare const value: DispatchPath;
 * void value;
 * ```
 */
export type DispatchPath = '3.1' | '3.2' | '3.3';

/**
 * A turn that completed: its new messages, in execution order.
 *
 * @example
 * ```ts
 * import type { ChatTurnCompleted } from 'turngate/chat';
 * declare const value: ChatTurnCompleted;
 * value.outcome;
 * ```
 */
export interface ChatTurnCompleted {
  readonly outcome: 'completed';
  /** The messages this turn added (the tail past the pre-invoke history), all roles; may be empty. */
  readonly replies: readonly ChatMessage[];
  /** The session state after the turn (a copy, made when read). */
  readonly finalState: ChatState;
  readonly dispatchPath: DispatchPath;
}

/**
 * A turn that errored: the bucket, the category, and a system reply for the user.
 *
 * @example
 * ```ts
 * import type { ChatTurnErrored } from 'turngate/chat';
 * declare const value: ChatTurnErrored;
 * value.outcome;
 * ```
 */
export interface ChatTurnErrored {
  readonly outcome: 'errored';
  readonly errorBucket: ErrorBucket;
  readonly errorCategory?: string;
  /** A system message per harness-chat §10. */
  readonly reply: ChatMessage;
  /** The dispatch path, when the turn got as far as classifying it. */
  readonly dispatchPath?: DispatchPath;
}

/**
 * A turn that suspended: the descriptor, the pending messages, the paused invocation.
 *
 * @example
 * ```ts
 * import type { ChatTurnSuspended } from 'turngate/chat';
 * declare const value: ChatTurnSuspended;
 * value.outcome;
 * ```
 */
export interface ChatTurnSuspended {
  readonly outcome: 'suspended';
  readonly signalDescriptor: SignalDescriptor;
  /** Messages the graph appended before suspending; may be empty. */
  readonly pendingMessages: readonly ChatMessage[];
  readonly invocationId: string;
  readonly dispatchPath: DispatchPath;
}

/**
 * The outcome of `send()` (harness-chat §5.2), discriminated on `outcome`.
 *
 * @example
 * ```ts
 * import { match } from 'ts-pattern';
 * import type { ChatTurnOutcome } from 'turngate/chat';
 * declare const outcome: ChatTurnOutcome;
 * match(outcome)
 *   .with({ outcome: 'completed' }, (o) => o.replies.length)
 *   .with({ outcome: 'suspended' }, (o) => o.pendingMessages.length)
 *   .with({ outcome: 'errored' }, () => 0)
 *   .exhaustive();
 * ```
 */
export type ChatTurnOutcome = ChatTurnCompleted | ChatTurnErrored | ChatTurnSuspended;

/**
 * A subscribed listener: receives each resumed turn's `completed` or `errored` outcome.
 *
 * @example
 * ```ts
 * import type { ChatListener } from 'turngate/chat';
 * const listener: ChatListener = (outcome) => {
 *   if (outcome.outcome === 'completed') console.log(outcome.replies);
 * };
 * ```
 */
export type ChatListener = (outcome: ChatTurnCompleted | ChatTurnErrored) => void;

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
  /** The initial state of a new session (`messages` is always `[]`). */
  readonly initialState?: Readonly<Record<string, unknown>>;
  /** Reply texts per bucket; default harness-chat §10's. */
  readonly replyTemplates?: ReplyTemplates;
  /**
   * How many sessions' last records the harness keeps in memory (least recently used first
   * out); default 10,000. A kept session is not reloaded while the store's `version` matches.
   */
  readonly cacheSize?: number;
}

/**
 * A chat harness.
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
   * Sends one inbound message on a session and returns the turn's outcome. Never rejects. The
   * message is typed, and validated again at run time (input from outside TypeScript may be
   * passed with a cast: a malformed one is `errored` / `chat_message_shape_invalid`).
   */
  send(sessionId: string, message: ChatMessage): Promise<ChatTurnOutcome>;
  /** Registers a listener for resumed turns of a session; returns the unsubscribe function. */
  subscribe(sessionId: string, listener: ChatListener): () => void;
  /**
   * Delivers a signal (the in-memory signal coordinator): resumes the turn suspended on
   * `signalId` with `payload`, notifies the session's listeners, and returns the outcome
   * (`undefined` when no turn waits for this signal).
   */
  signal(signalId: string, payload: Readonly<Record<string, unknown>>): Promise<ChatTurnOutcome | undefined>;
}

class TurnError extends Error {
  constructor(
    readonly category: string,
    readonly diagnostic: string,
    readonly dispatchPath?: DispatchPath,
  ) {
    super(diagnostic);
  }
}

/**
 * Creates a chat harness over a graph and a session store.
 *
 * Per turn, `send(sessionId, message)`:
 * 1. validates the session id and the message before touching the store (failure: `errored`,
 *    `user_correctable`, `harness_session_id_unresolved` / `chat_message_shape_invalid`);
 * 2. waits for earlier turns of the same session (one at a time per session; sessions run in
 *    parallel);
 * 3. loads the session (`session_load_failed` -> `session_terminating`), refuses an inbound
 *    message that would leave the history invalid (a tool reply to no open call, a new message
 *    while calls are open or a turn is suspended), appends the message, and invokes the graph
 *    (path 3.1 for an empty history, 3.2 otherwise);
 * 4. checks that the new tail is join-closed (every tool call answered once, no orphan reply, no
 *    repeated id); a failure is `errored` with the failure class as `errorCategory`, bucket
 *    `retryable_transient`, and nothing is saved;
 * 5. saves (`session_save_failed` -> `session_terminating`) and returns `completed` with the
 *    tail, or `suspended` with the pending tail, descriptor and invocation id.
 * A graph error is bucketed by its category (see `ERROR_BUCKETS`); nothing is saved, so a failed
 * turn leaves the stored session exactly as it was.
 *
 * Source: harness-chat §3–§10; harness §3, §7; sessions; suspension.
 *
 * @param options - The graph, the store, the initial state, reply templates.
 * @returns The harness.
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
  const store = options.store ?? new InMemorySessionStore();
  const templates = options.replyTemplates ?? DEFAULT_REPLY_TEMPLATES;
  const locks = new Map<string, Promise<unknown>>();
  const listeners = new Map<string, Set<ChatListener>>();
  const waiting = new Map<string, string>(); // signal id -> session id
  const cacheSize = options.cacheSize ?? 10_000;
  const cache = new Map<string, SessionRecord>(); // session id -> last record loaded or saved (frozen)

  /** Keeps the last record of a session; a record loaded from the store is frozen first. */
  function remember(sessionId: string, record: SessionRecord, loaded: boolean): void {
    cache.delete(sessionId);
    cache.set(sessionId, loaded ? deepFreeze(record) : record);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
  }

  function serialized<T>(sessionId: string, body: () => Promise<T>): Promise<T> {
    const previous = locks.get(sessionId) ?? Promise.resolve();
    const run = previous.then(body, body);
    const tail = run.catch(() => undefined);
    locks.set(sessionId, tail);
    void tail.then(() => {
      if (locks.get(sessionId) === tail) locks.delete(sessionId);
    });
    return run;
  }

  function errored(category: string, diagnostic: string, dispatchPath?: DispatchPath): ChatTurnErrored {
    const bucket = bucketOf(category);
    const outcome: ChatTurnErrored = {
      outcome: 'errored',
      errorBucket: bucket,
      errorCategory: category,
      reply: replyFor(bucket, diagnostic, templates),
    };
    return dispatchPath === undefined ? outcome : { ...outcome, dispatchPath };
  }

  async function load(sessionId: string): Promise<SessionRecord | undefined> {
    try {
      const cached = cache.get(sessionId);
      if (cached !== undefined && store.version !== undefined && (await store.version(sessionId)) === cached.version)
        return cached;
      cache.delete(sessionId);
      const record = await store.load(sessionId);
      if (record !== undefined) remember(sessionId, record, true);
      return record;
    } catch (error) {
      throw new TurnError('session_load_failed', categorize(error).diagnostic);
    }
  }

  /**
   * Saves a turn's record. `history` is the history the turn started from (frozen messages
   * from the cache); when the new state keeps it as its prefix, only the new messages are
   * frozen here and the store is told it may append.
   */
  async function save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    version: number,
    path: DispatchPath,
    history: readonly ChatMessage[],
    appendOnly: boolean,
  ): Promise<void> {
    const { messages, ...fields } = record.state;
    let kept = messages.length >= history.length;
    for (let i = 0; kept && !appendOnly && i < history.length; i++) kept = messages[i] === history[i];
    // Messages are frozen once, when a turn adds them. The array itself is not frozen (that
    // costs O(history)); no caller ever holds it: finalState is a copy made on read, and a
    // resumed graph gets a copy of the state.
    for (let i = kept ? history.length : 0; i < messages.length; i++) deepFreeze(messages[i]);
    deepFreeze(fields);
    if (record.paused !== undefined) deepFreeze(record.paused);
    if (record.openToolCalls !== undefined) deepFreeze(record.openToolCalls);
    try {
      const saved = await store.save(
        sessionId,
        record,
        version,
        kept && version > 0 ? { unchangedPrefix: history.length } : undefined,
      );
      remember(sessionId, { ...record, version: saved }, false);
    } catch (error) {
      cache.delete(sessionId);
      const { category, diagnostic } = categorize(error);
      throw new TurnError(category === 'session_write_conflict' ? category : 'session_save_failed', diagnostic, path);
    }
  }

  /** Runs the graph and settles the turn: closure check, save, outcome. */
  async function runTurn(
    sessionId: string,
    record: SessionRecord | undefined,
    state: ChatState,
    preLength: number,
    carriedOpen: readonly ToolCall[],
    inbound: readonly ChatMessage[],
    path: DispatchPath,
    invocationId: string,
    resume?: ResumeRequest,
  ): Promise<ChatTurnOutcome> {
    let result: GraphOutcome;
    try {
      result =
        resume === undefined
          ? await options.graph.invoke(state, { invocationId })
          : await options.graph.invoke(state, { invocationId, resume });
    } catch (error) {
      const { category, diagnostic } = categorize(error);
      return errored(category, diagnostic, path);
    }
    const tail = result.state.messages.slice(preLength);
    const closure = checkClosure(carriedOpen, [...inbound, ...tail], result.outcome === 'suspended');
    if (!closure.ok) return errored(closure.failureClass, closure.detail, path);
    const version = record?.version ?? 0;
    if (result.outcome === 'completed') {
      await save(
        sessionId,
        { state: result.state },
        version,
        path,
        record?.state.messages ?? [],
        result.appendOnly === true,
      );
      const finalState = result.state;
      const outcome = { outcome: 'completed', replies: tail, dispatchPath: path } as Omit<
        ChatTurnCompleted,
        'finalState'
      >;
      Object.defineProperty(outcome, 'finalState', {
        enumerable: true,
        get: () => ({ ...finalState, messages: [...finalState.messages] }),
      });
      return outcome as ChatTurnCompleted;
    }
    const paused = { invocationId, node: result.node, descriptor: result.descriptor };
    const next: Omit<SessionRecord, 'version'> =
      closure.openToolCalls.length > 0
        ? { state: result.state, paused, openToolCalls: closure.openToolCalls }
        : { state: result.state, paused };
    await save(sessionId, next, version, path, record?.state.messages ?? [], result.appendOnly === true);
    waiting.set(result.descriptor.signal_id, sessionId);
    return {
      outcome: 'suspended',
      signalDescriptor: result.descriptor,
      pendingMessages: tail,
      invocationId,
      dispatchPath: path,
    };
  }

  async function sendTurn(sessionId: string, message: ChatMessage): Promise<ChatTurnOutcome> {
    const record = await load(sessionId);
    const history = record?.state.messages ?? [];
    const path: DispatchPath = history.length === 0 ? '3.1' : '3.2';
    const open = record?.openToolCalls ?? [];
    if (message.role === 'tool') {
      if (!open.some((call) => call.id === message.tool_call_id)) {
        return errored(
          'chat_message_shape_invalid',
          `tool_call_id ${message.tool_call_id} answers no open tool call in this session`,
          path,
        );
      }
    } else if (open.length > 0) {
      return errored(
        'chat_message_shape_invalid',
        `tool calls ${open.map((c) => c.id).join(', ')} await their tool replies`,
        path,
      );
    } else if (record?.paused !== undefined) {
      return errored(
        'harness_path_classification_ambiguous',
        `the session is suspended awaiting signal ${record.paused.descriptor.signal_id}`,
        path,
      );
    }
    const base: ChatState = record?.state ?? { ...(options.initialState ?? {}), messages: [] };
    const state: ChatState = { ...base, messages: [...history, message] };
    return runTurn(sessionId, record, state, state.messages.length, open, [message], path, randomUUID());
  }

  function notify(sessionId: string, outcome: ChatTurnOutcome): void {
    if (outcome.outcome === 'suspended') return;
    for (const listener of [...(listeners.get(sessionId) ?? [])]) {
      try {
        listener(outcome);
      } catch {
        // A listener's fault is the listener's: it must not undo a saved turn or stop the others.
      }
    }
  }

  return {
    async send(sessionId, message: unknown) {
      if (typeof sessionId !== 'string' || sessionId.trim() === '') {
        return errored('harness_session_id_unresolved', 'the session id must be a non-empty string');
      }
      const checked = validateChatMessage(message);
      if (!checked.ok) return errored('chat_message_shape_invalid', checked.diagnostic);
      return serialized(sessionId, async () => {
        try {
          return await sendTurn(sessionId, checked.message);
        } catch (error) {
          if (error instanceof TurnError) return errored(error.category, error.diagnostic, error.dispatchPath);
          const { category, diagnostic } = categorize(error);
          return errored(category, diagnostic);
        }
      });
    },

    subscribe(sessionId, listener) {
      let set = listeners.get(sessionId);
      if (set === undefined) {
        set = new Set();
        listeners.set(sessionId, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },

    async signal(signalId, payload) {
      const sessionId = waiting.get(signalId);
      if (sessionId === undefined) return undefined;
      let resumedTurn = false;
      const outcome = await serialized(sessionId, async (): Promise<ChatTurnOutcome> => {
        try {
          const record = await load(sessionId);
          const paused = record?.paused;
          if (record === undefined || paused === undefined || paused.descriptor.signal_id !== signalId) {
            // The turn was answered another way (a tool message) or the session is gone: no
            // turn resumes, so no listener hears of it.
            waiting.delete(signalId);
            return errored(
              'suspension_record_invalid',
              `no turn of session ${sessionId} is suspended on signal ${signalId}`,
              '3.3',
            );
          }
          resumedTurn = true;
          const state = { ...record.state, messages: [...record.state.messages] };
          const resumed = await runTurn(
            sessionId,
            record,
            state,
            record.state.messages.length,
            record.openToolCalls ?? [],
            [],
            '3.3',
            paused.invocationId,
            {
              invocationId: paused.invocationId,
              node: paused.node,
              signalPayload: payload,
            },
          );
          const stillWaiting =
            resumed.outcome === 'errored' ||
            (resumed.outcome === 'suspended' && resumed.signalDescriptor.signal_id === signalId);
          if (!stillWaiting) waiting.delete(signalId);
          return resumed;
        } catch (error) {
          if (error instanceof TurnError) return errored(error.category, error.diagnostic, '3.3');
          const { category, diagnostic } = categorize(error);
          return errored(category, diagnostic, '3.3');
        }
      });
      if (resumedTurn) notify(sessionId, outcome);
      return outcome;
    },
  };
}
