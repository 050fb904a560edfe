/**
 * `ChatTurnOutcome` (harness-chat §5.2) and how the harness builds each variant.
 *
 * @module
 */
import { classifyWith, type ErrorClassifier } from './classify.ts';
import { bucketOf, ChatError, replyFor, type ErrorBucket, type ReplyTemplates } from './errors.ts';
import type { ChatMessage } from './messages.ts';
import type { ChatState, SignalDescriptor } from './session-records.ts';
import { SessionStoreUnavailable } from './store-errors.ts';

/**
 * The inbound dispatch path of a turn (harness §3): 3.1 new session, 3.2 existing, 3.3 signal-resume.
 *
 * @example
 * ```ts
 * import type { DispatchPath } from 'turngate/chat';
 * const path: DispatchPath = '3.3'; // a resumed turn
 * ```
 */
export type DispatchPath = '3.1' | '3.2' | '3.3';

/**
 * A turn that completed: its new messages, in execution order.
 *
 * @example
 * ```ts
 * import { createChatHarness, sequentialGraph, type ChatTurnCompleted } from 'turngate/chat';
 * const harness = createChatHarness({ graph: sequentialGraph({ entry: 'n', nodes: { n: () => ({ messages: [{ role: 'assistant', content: 'Hi' }] }) }, edges: [] }) });
 * const outcome = await harness.send('s', { role: 'user', content: 'Hello' });
 * if (outcome.outcome === 'completed') {
 *   const completed: ChatTurnCompleted = outcome;
 *   completed.finalState.messages.length; //=> 2
 * }
 * ```
 */
export interface ChatTurnCompleted {
  readonly outcome: 'completed';
  /** The messages this turn added (the tail past the pre-invoke history), all roles; may be empty. */
  readonly replies: readonly ChatMessage[];
  /**
   * The session state after the turn (a copy, made when read). For a resume another process ran
   * (`pollResumes`), the state as loaded when the log was read.
   */
  readonly finalState: ChatState;
  readonly dispatchPath: DispatchPath;
  /**
   * Present (true) when this answers a send retried with an idempotency key whose turn was saved
   * earlier: nothing ran now; `replies` are the earlier turn's, `finalState` the session's now.
   */
  readonly replayed?: true;
}

/**
 * A turn that errored: the bucket, the category, a system reply for the end user, and the cause
 * for the application.
 *
 * @example
 * ```ts
 * import { createChatHarness, sequentialGraph } from 'turngate/chat';
 * const graph = sequentialGraph({ entry: 'n', nodes: { n: () => { throw new TypeError('x is undefined'); } }, edges: [] });
 * const outcome = await createChatHarness({ graph }).send('s', { role: 'user', content: 'Hello' });
 * if (outcome.outcome === 'errored') {
 *   outcome.errorCategory; //=> 'graph_programming_error'
 *   outcome.cause instanceof TypeError; //=> true
 *   JSON.stringify(outcome).includes('x is undefined'); //=> false
 * }
 * ```
 */
export interface ChatTurnErrored {
  readonly outcome: 'errored';
  readonly errorBucket: ErrorBucket;
  /** The concrete category (harness §10, sessions §10, suspension §9, llm-provider §7, ...). */
  readonly errorCategory: string;
  /** A system message per harness-chat §10, for the end user; it never shows the cause. */
  readonly reply: ChatMessage;
  /** The dispatch path, when the turn got as far as classifying it. */
  readonly dispatchPath?: DispatchPath;
  /**
   * What went wrong, for the application (logs, alerts): the thrown value (a provider SDK
   * error, a `TypeError`, a `ChatError` with `ids`), a store's error, or a closure
   * failure `{ class, detail, ids }` naming the tool call ids. Not enumerable, so
   * `JSON.stringify(outcome)` and `{ ...outcome }` leave it out: an outcome sent to a client
   * does not leak it.
   */
  readonly cause: unknown;
}

/**
 * A turn that suspended: the descriptor, the pending messages, the paused invocation.
 *
 * @example
 * ```ts
 * import { createChatHarness, sequentialGraph, suspend } from 'turngate/chat';
 * const graph = sequentialGraph({ entry: 'gate', nodes: { gate: () => suspend({ signal_id: 'approval-1' }) }, edges: [] });
 * const outcome = await createChatHarness({ graph }).send('s', { role: 'user', content: 'Delete my account' });
 * if (outcome.outcome === 'suspended') outcome.signalDescriptor.signal_id; //=> 'approval-1'
 * ```
 */
export interface ChatTurnSuspended {
  readonly outcome: 'suspended';
  readonly signalDescriptor: SignalDescriptor;
  /** Messages the graph appended before suspending; may be empty. */
  readonly pendingMessages: readonly ChatMessage[];
  readonly invocationId: string;
  readonly dispatchPath: DispatchPath;
  /** Present (true) when this answers a send retried with an idempotency key: nothing ran now. */
  readonly replayed?: true;
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

/** The state of each completed outcome, read by the one `finalState` getter every outcome shares. */
const FINAL_STATES = new WeakMap<object, ChatState>();

/**
 * `finalState` of a completed outcome: a copy of its state (a new object and message list per
 * read). One function for every outcome, not a closure per outcome: V8 keeps an accessor's
 * functions in the old generation, so a closure per outcome held each turn's whole history
 * until the next full collection, and the young-generation collections grew with the history.
 */
function finalStateOf(this: unknown): ChatState {
  const state = typeof this === 'object' && this !== null ? FINAL_STATES.get(this) : undefined;
  if (state === undefined) throw new TypeError('finalState can only be read from the outcome it belongs to');
  return { ...state, messages: [...state.messages] };
}

/**
 * A completed outcome whose `finalState` is copied when read (the state itself is the harness's
 * frozen record).
 *
 * @param replies - The new messages.
 * @param finalState - The state after the turn.
 * @param dispatchPath - The path.
 * @param replayed - Set when it answers a retried send whose turn ran earlier.
 */
export function completedOutcome(
  replies: readonly ChatMessage[],
  finalState: ChatState,
  dispatchPath: DispatchPath,
  replayed = false,
): ChatTurnCompleted {
  const outcome = replayed
    ? { outcome: 'completed' as const, replies, dispatchPath, replayed: true as const }
    : { outcome: 'completed' as const, replies, dispatchPath };
  FINAL_STATES.set(outcome, finalState);
  Object.defineProperty(outcome, 'finalState', { enumerable: true, get: finalStateOf });
  return outcome as typeof outcome & { readonly finalState: ChatState };
}

/** Builds errored outcomes: classification, bucket, reply. */
export class ErroredOutcomes {
  /**
   * @param templates - The reply texts.
   * @param classifier - The application's classification hook, if any.
   */
  constructor(
    private readonly templates: ReplyTemplates,
    private readonly classifier: ErrorClassifier | undefined,
  ) {}

  /**
   * The errored outcome of a thrown value.
   *
   * @param error - The thrown value (kept as `cause`).
   * @param dispatchPath - The path, when known.
   */
  fromError(error: unknown, dispatchPath?: DispatchPath): ChatTurnErrored {
    const { category, detail } = classifyWith(error, this.classifier);
    return this.make(category, detail, error, dispatchPath);
  }

  /**
   * An errored outcome the harness decides itself (a refused message, a stale signal): the reply
   * shows `detail`; the cause is a {@link ChatError} with the full detail and the ids.
   *
   * @param category - The category.
   * @param detail - The end-user diagnostic.
   * @param about - The ids it concerns, the full detail when it says more, the path.
   */
  refuse(
    category: string,
    detail: string,
    about: { readonly ids?: readonly string[]; readonly full?: string; readonly path?: DispatchPath } = {},
  ): ChatTurnErrored {
    const ids = Object.hasOwn(about, 'ids') ? about.ids : undefined;
    const full = Object.hasOwn(about, 'full') ? about.full : undefined;
    const cause = new ChatError(category, full ?? detail, ids === undefined ? {} : { ids });
    return this.make(category, detail, cause, Object.hasOwn(about, 'path') ? about.path : undefined);
  }

  /**
   * An errored outcome of a known category.
   *
   * @param category - The category.
   * @param detail - The end-user diagnostic (used by `user_correctable` replies), if any.
   * @param cause - What caused it.
   * @param dispatchPath - The path, when known.
   */
  make(category: string, detail: string | undefined, cause: unknown, dispatchPath?: DispatchPath): ChatTurnErrored {
    // A store that is unavailable for now (sessions intact) is transient whatever step it failed.
    const bucket = cause instanceof SessionStoreUnavailable ? 'retryable_transient' : bucketOf(category);
    const reply = replyFor(bucket, detail ?? category.replaceAll('_', ' '), this.templates);
    const outcome =
      dispatchPath === undefined
        ? { outcome: 'errored' as const, errorBucket: bucket, errorCategory: category, reply }
        : { outcome: 'errored' as const, errorBucket: bucket, errorCategory: category, reply, dispatchPath };
    Object.defineProperty(outcome, 'cause', { value: cause, enumerable: false });
    return outcome as typeof outcome & { readonly cause: unknown };
  }
}
