/**
 * Error categories -> harness §7 buckets -> harness-chat §10 replies.
 *
 * @module
 */
import type { ChatMessage } from './messages.ts';

/**
 * The three error buckets of harness §7.
 *
 * @example
 * ```ts
 * import { bucketOf, type ErrorBucket } from 'turngate/chat';
 * const bucket: ErrorBucket = bucketOf('provider_invalid_request'); //=> 'user_correctable'
 * ```
 */
export type ErrorBucket = 'session_terminating' | 'retryable_transient' | 'user_correctable';

/**
 * Every error category the specs name, with its bucket. Sources: harness-chat §10, harness §7
 * and §10, sessions §10, suspension §9, llm-provider §7, and this library's closure check.
 * Where harness §7.2 calls `session_save_failed` transient "if transient", harness-chat §10.1
 * lists it as session-terminating; the chat table follows harness-chat.
 *
 * @example
 * ```ts
 * import { ERROR_BUCKETS } from 'turngate/chat';
 * ERROR_BUCKETS.provider_rate_limit; //=> 'retryable_transient'
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
  // turngate: a graph left the history open (a provider would reject it); nothing was saved,
  // so the turn can be retried.
  'tool.result_missing': 'retryable_transient',
  'tool.result_orphan': 'retryable_transient',
  'tool.join_incomplete': 'retryable_transient',
  'tool.schema_invalid': 'retryable_transient',
} as const satisfies Record<string, ErrorBucket>;

/**
 * A category named in {@link ERROR_BUCKETS}.
 *
 * @example
 * ```ts
 * import type { KnownErrorCategory } from 'turngate/chat';
 * declare const value: KnownErrorCategory;
 * void value;
 * ```
 */
export type KnownErrorCategory = keyof typeof ERROR_BUCKETS;

/**
 * The bucket of a category no spec names: the graph failed in a way nobody classified; retrying may help.
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
 * Reply texts per bucket. `user_correctable` receives the upstream diagnostic.
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
 * An error a graph node (or a provider call inside it) raises with a category, so the harness
 * can bucket it. Any thrown value with a string `category` is read the same way.
 *
 * @example
 * ```ts
 * import { ChatError } from 'turngate/chat';
 * throw new ChatError('provider_unavailable', 'upstream model rate limited');
 * ```
 */
export class ChatError extends Error {
  /** The error category (llm-provider §7, sessions §10, ...). */
  readonly category: string;
  /**
   * Creates a categorized error.
   *
   * @param category - The category.
   * @param message - The diagnostic.
   */
  constructor(category: string, message: string) {
    super(message);
    this.name = 'ChatError';
    this.category = category;
  }
}

/**
 * Reads a thrown value's category and diagnostic.
 *
 * @example
 * ```ts
 * import { categorize, ChatError } from 'turngate/chat';
 * categorize(new ChatError('provider_unavailable', '503')); //=> { category: 'provider_unavailable', diagnostic: '503' }
 * ```
 */
export function categorize(error: unknown): { category: string; diagnostic: string } {
  const e = error as { category?: unknown; message?: unknown } | null;
  const category = e !== null && typeof e === 'object' && typeof e.category === 'string' ? e.category : 'graph_error';
  const diagnostic = e !== null && typeof e === 'object' && typeof e.message === 'string' ? e.message : String(error);
  return { category, diagnostic };
}

/**
 * The system reply for a bucket.
 *
 * @example
 * ```ts
 * import { DEFAULT_REPLY_TEMPLATES, replyFor } from 'turngate/chat';
 * replyFor('user_correctable', 'the image is too large', DEFAULT_REPLY_TEMPLATES).role; //=> 'system'
 * ```
 */
export function replyFor(bucket: ErrorBucket, diagnostic: string, templates: ReplyTemplates): ChatMessage {
  const content = bucket === 'user_correctable' ? templates.user_correctable(diagnostic) : templates[bucket]();
  return { role: 'system', content };
}
