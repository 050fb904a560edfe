/**
 * The chat harness (`turngate/chat`): `send()` -> `ChatTurnOutcome`, session stores with durable
 * suspensions, subscribed listeners, error buckets and classification, closure-checked history,
 * and a small graph runner with conditional edges. Its messages are `ChatMessage`s, exported once
 * by `turngate/transcripts` (their home: the format every conversion goes through).
 *
 * Source: OpenArmature harness-chat.
 *
 * @module
 */
export {
  bucketOf,
  ChatError,
  DEFAULT_REPLY_TEMPLATES,
  ERROR_BUCKETS,
  GRAPH_PROGRAMMING_ERROR,
  replyFor,
  UNKNOWN_CATEGORY_BUCKET,
} from './errors.ts';
export type { ChatErrorOptions, ErrorBucket, KnownErrorCategory, ReplyTemplates } from './errors.ts';
export { classifyError } from './classify.ts';
export type { ErrorClassification, ErrorClassifier } from './classify.ts';
export { InMemorySessionStore } from './memory-store.ts';
export { DEFAULT_SEND_KEYS_KEPT } from './store.ts';
export { SessionLockTimeout, SessionStoreUnavailable, SessionWriteConflict, SignalIdInUse } from './store-errors.ts';
export type {
  ListSuspendedOptions,
  LockedSession,
  SaveOptions,
  SendRecord,
  SessionLockOptions,
  SessionStore,
  StoredSendOutcome,
} from './store.ts';
export type {
  ChatState,
  ResumeEntry,
  ResumeLog,
  SessionRecord,
  SignalDescriptor,
  Suspension,
  SuspensionRecord,
} from './session-records.ts';
export type { StoreUnavailableReason } from './store-errors.ts';
export { sequentialGraph, suspend, END } from './graph.ts';
export type {
  ChatGraph,
  ChatNode,
  NodeContext,
  GraphEdge,
  GraphOutcome,
  ResumeRequest,
  Router,
  SequentialGraphDefinition,
} from './graph.ts';
export { createChatHarness } from './harness.ts';
export type { ChatHarness, ChatHarnessOptions } from './harness.ts';
export type { SendOptions } from './send.ts';
export type { ListenerErrorHandler } from './signals.ts';
export type {
  ChatListener,
  ChatTurnCompleted,
  ChatTurnErrored,
  ChatTurnOutcome,
  ChatTurnSuspended,
  DispatchPath,
} from './outcome.ts';
export { chatApprovals } from './approvals.ts';
export type { ChatApprovalNodes, ChatApprovalOptions, ChatDecision } from './approvals.ts';
