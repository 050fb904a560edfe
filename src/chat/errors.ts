/**
 * Error categories -> harness §7 buckets -> harness-chat §10 replies, and the error a node throws
 * to name its category.
 *
 * @module
 */
import type { ChatMessage } from './messages.ts';

/**
 * The three error buckets of harness §7: `session_terminating` (intervention required, no
 * automatic retry), `retryable_transient` (a retry may succeed), `user_correctable` (the caller
 * must change the input).
 *
 * @example
 * ```ts
 * import { bucketOf, type ErrorBucket } from 'turngate/chat';
 * const bucket: ErrorBucket = bucketOf('provider_invalid_request'); //=> 'user_correctable'
 * ```
 */
export type ErrorBucket = 'session_terminating' | 'retryable_transient' | 'user_correctable';

/**
 * The category of a programming error in the graph: a node threw a `TypeError`,
 * `ReferenceError`, `RangeError`, `SyntaxError`, `EvalError` or `URIError`; a node produced a
 * message that is not a `ChatMessage` or state that is not JSON data; an edge or routing
 * function named no node; a run did not end within its step limit.
 *
 * Its bucket is `session_terminating`, decided as follows. It is not `retryable_transient`: the
 * same history meets the same code, so "try again in a moment" fails again, and an automatic
 * retry (which harness §7.2 permits) would repeat whatever the node did before it failed. It is
 * not `user_correctable`: the end user cannot change the code, and the reply would have to show
 * internal detail. `session_terminating` says what is true (harness §7.1: do not retry
 * automatically; a person must act). Nothing of the failed turn is saved, so once the code is
 * fixed the same session can continue.
 *
 * @example
 * ```ts
 * import { bucketOf, GRAPH_PROGRAMMING_ERROR } from 'turngate/chat';
 * bucketOf(GRAPH_PROGRAMMING_ERROR); //=> 'session_terminating'
 * ```
 */
export const GRAPH_PROGRAMMING_ERROR = 'graph_programming_error';

/**
 * Every error category the specs name, with its bucket. Sources: harness-chat §10, harness §7
 * and §10, sessions §10, suspension §9, llm-provider §7, and this library's own: the closure
 * check's failure classes and {@link GRAPH_PROGRAMMING_ERROR}.
 *
 * Decisions where the specs leave room:
 * - `session_save_failed` is session-terminating (harness-chat §10.1), although harness §7.2
 *   calls it transient "if transient".
 * - The closure failure classes (`tool.result_missing`, ...) are programming errors of the graph
 *   (it left a tool call unanswered, answered one twice, or answered none): session-terminating,
 *   for the reasons given at {@link GRAPH_PROGRAMMING_ERROR}.
 * - `provider_authentication` (HTTP 401 and 403) and `provider_invalid_model` stay
 *   user-correctable, as harness §7.3 lists them: not retried, and the session survives the fix.
 *   The reply then carries a diagnostic without internal detail (see `classifyError`).
 *
 * @example
 * ```ts
 * import { ERROR_BUCKETS } from 'turngate/chat';
 * ERROR_BUCKETS.provider_rate_limited; //=> 'retryable_transient'
 * ```
 */
export const ERROR_BUCKETS = {
  // harness-chat §10.1 / harness §7.1 / sessions §10 / suspension §9 / harness §10
  session_load_failed: 'session_terminating',
  session_save_failed: 'session_terminating',
  session_state_migration_chain_ambiguous: 'session_terminating',
  session_state_migration_missing: 'session_terminating',
  session_state_migration_failed: 'session_terminating',
  suspension_persistence_failed: 'session_terminating',
  harness_session_id_unresolved: 'session_terminating',
  // turngate: the application's send options are wrong (an idempotency key); nothing ran.
  harness_idempotency_key_invalid: 'session_terminating',
  harness_idempotency_key_reused: 'session_terminating',
  harness_idempotency_unsupported: 'session_terminating',
  // harness-chat §10.2 / harness §7.2 / llm-provider §7 (transient)
  provider_unavailable: 'retryable_transient',
  provider_timeout: 'retryable_transient',
  provider_rate_limited: 'retryable_transient',
  provider_rate_limit: 'retryable_transient',
  provider_model_not_loaded: 'retryable_transient',
  harness_signal_subscription_failed: 'retryable_transient',
  session_write_conflict: 'retryable_transient',
  // harness-chat §10.3, §10.4 / harness §7.3 / llm-provider §7 (non-transient) / suspension §9
  provider_invalid_request: 'user_correctable',
  provider_invalid_response: 'user_correctable',
  provider_authentication: 'user_correctable',
  provider_invalid_model: 'user_correctable',
  provider_unsupported_content_block: 'user_correctable',
  structured_output_invalid: 'user_correctable',
  chat_message_shape_invalid: 'user_correctable',
  suspension_resume_payload_invalid: 'user_correctable',
  suspension_record_invalid: 'user_correctable',
  suspension_in_unsupported_context: 'user_correctable',
  harness_signal_correlation_failed: 'user_correctable',
  harness_path_classification_ambiguous: 'user_correctable',
  // turngate: the graph is wrong (see GRAPH_PROGRAMMING_ERROR); nothing was saved.
  [GRAPH_PROGRAMMING_ERROR]: 'session_terminating',
  'tool.result_missing': 'session_terminating',
  'tool.result_orphan': 'session_terminating',
  'tool.join_incomplete': 'session_terminating',
  'tool.schema_invalid': 'session_terminating',
} as const satisfies Record<string, ErrorBucket>;

/**
 * A category named in {@link ERROR_BUCKETS}.
 *
 * @example
 * ```ts
 * import type { KnownErrorCategory } from 'turngate/chat';
 * const category: KnownErrorCategory = 'provider_timeout';
 * ```
 */
export type KnownErrorCategory = keyof typeof ERROR_BUCKETS;

/**
 * The bucket of a category no spec names: something failed in a way nobody classified; a retry
 * may help.
 *
 * @example
 * ```ts
 * import { bucketOf, UNKNOWN_CATEGORY_BUCKET } from 'turngate/chat';
 * bucketOf('something_new') === UNKNOWN_CATEGORY_BUCKET; //=> true
 * ```
 */
export const UNKNOWN_CATEGORY_BUCKET: ErrorBucket = 'retryable_transient';

/**
 * The bucket of an error category; categories no spec names go to {@link UNKNOWN_CATEGORY_BUCKET}.
 *
 * @param category - An error category, e.g. `provider_unavailable`.
 * @returns Its bucket.
 * @example
 * ```ts
 * import { bucketOf } from 'turngate/chat';
 * bucketOf('session_load_failed'); //=> 'session_terminating'
 * ```
 */
export function bucketOf(category: string): ErrorBucket {
  return Object.hasOwn(ERROR_BUCKETS, category)
    ? ERROR_BUCKETS[category as KnownErrorCategory]
    : UNKNOWN_CATEGORY_BUCKET;
}

/**
 * Reply texts per bucket. `user_correctable` receives a diagnostic written for the end user
 * (never a stack, an internal id or a provider's raw message).
 *
 * @example
 * ```ts
 * import type { ReplyTemplates } from 'turngate/chat';
 * const fr: ReplyTemplates = {
 *   session_terminating: () => 'Cette conversation ne peut pas continuer.',
 *   retryable_transient: () => 'Réessayez dans un instant.',
 *   user_correctable: (d) => `Demande impossible : ${d}. Modifiez votre message.`,
 * };
 * ```
 */
export interface ReplyTemplates {
  readonly session_terminating: () => string;
  readonly retryable_transient: () => string;
  readonly user_correctable: (diagnostic: string) => string;
}

/**
 * The harness-chat §10 default replies.
 *
 * @example
 * ```ts
 * import { createChatHarness, DEFAULT_REPLY_TEMPLATES, type ChatGraph } from 'turngate/chat';
 * declare const graph: ChatGraph;
 * createChatHarness({ graph, replyTemplates: { ...DEFAULT_REPLY_TEMPLATES, retryable_transient: () => 'Un instant, je réessaie.' } });
 * ```
 */
export const DEFAULT_REPLY_TEMPLATES: ReplyTemplates = {
  session_terminating: () => "This conversation can't continue. Please start a new one.",
  retryable_transient: () => 'I had trouble responding. Try again in a moment.',
  user_correctable: (diagnostic) =>
    `That request couldn't be processed: ${diagnostic}. Please adjust your message and try again.`,
};

/**
 * Options of a {@link ChatError}.
 *
 * @example
 * ```ts
 * import { ChatError, type ChatErrorOptions } from 'turngate/chat';
 * const options: ChatErrorOptions = { ids: ['call_7'], cause: new Error('socket hang up') };
 * new ChatError('provider_unavailable', 'the model is unreachable', options).ids; //=> ['call_7']
 * ```
 */
export interface ChatErrorOptions {
  /** What caused it (kept as the standard `Error.cause`). */
  readonly cause?: unknown;
  /** The ids it concerns (tool call ids, a signal id), for the application; never shown to the user. */
  readonly ids?: readonly string[];
}

/**
 * An error whose `code` is its category, thrown by a node (or a provider call inside it) so the
 * harness can bucket it; any other thrown value with an own string `category` is read the same
 * way. The message is the diagnostic a `user_correctable` reply shows the end user, so write it
 * for them; put internal detail in `cause` or `ids`, which only the application sees (on the
 * errored outcome's `cause`).
 *
 * @example
 * ```ts
 * import { ChatError } from 'turngate/chat';
 * const error = new ChatError('provider_invalid_request', 'the attached file is too large');
 * error.code; //=> 'provider_invalid_request'
 * ```
 */
export class ChatError extends Error {
  /** Why: the error category (llm-provider §7, sessions §10, ...). */
  readonly code: string;
  /** The ids it concerns, when any. */
  readonly ids?: readonly string[];
  /**
   * Creates a categorized error.
   *
   * @param code - The category.
   * @param message - The diagnostic, written for the end user.
   * @param options - The cause and the ids it concerns.
   */
  constructor(code: string, message: string, options: ChatErrorOptions = {}) {
    super(message, Object.hasOwn(options, 'cause') ? { cause: options.cause } : undefined);
    this.name = 'ChatError';
    this.code = code;
    const ids = Object.hasOwn(options, 'ids') ? options.ids : undefined;
    if (ids !== undefined) this.ids = Object.freeze([...ids]);
  }
}

/**
 * The system reply for a bucket.
 *
 * @param bucket - The bucket.
 * @param diagnostic - The end-user diagnostic, used by `user_correctable` only.
 * @param templates - The reply texts.
 * @returns A system message.
 * @example
 * ```ts
 * import { DEFAULT_REPLY_TEMPLATES, replyFor } from 'turngate/chat';
 * replyFor('user_correctable', 'the image is too large', DEFAULT_REPLY_TEMPLATES).content;
 * //=> "That request couldn't be processed: the image is too large. Please adjust your message and try again."
 * ```
 */
export function replyFor(bucket: ErrorBucket, diagnostic: string, templates: ReplyTemplates): ChatMessage {
  const content = bucket === 'user_correctable' ? templates.user_correctable(diagnostic) : templates[bucket]();
  return { role: 'system', content };
}
