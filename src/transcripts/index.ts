/**
 * Provider transcripts (`turngate/transcripts`): the histories users send to Anthropic, OpenAI
 * (Chat Completions and Responses), the AI SDK, Gemini, turngate's own chat and LangChain.js
 * message histories, checked against
 * every rule the providers document or enforce about tool calls and tool results; repaired,
 * converted, trimmed and extended; a sendable brand a guarded provider call requires; and
 * `ChatMessage`, turngate's own format, exported here once (its home: every conversion goes
 * through it, and `turngate/chat` stores it). Each provider's wire types and schemas are in
 * `turngate/formats`, the type-level misuse sentences in `turngate/types`.
 *
 * @module
 */
export { checkTranscript, checkTranscriptJson } from './check.ts';
export type {
  CheckTranscriptOptions,
  Expectation,
  TranscriptReport,
  AcceptedTranscriptReport,
  RejectedTranscriptReport,
  InvalidTranscriptReport,
} from './check.ts';
export { extendTranscript } from './extend.ts';
export type { ExtendTranscriptOptions } from './extend.ts';
export { TranscriptInputError } from './core/report.ts';
export { repairTranscript, repairTranscriptJson } from './repair.ts';
export { toEvidence } from './evidence.ts';
export { toChatMessages, fromChatMessages } from './convert.ts';
export type { Conversion, ConversionResult } from './convert.ts';
export { convertTranscript, convertTranscriptJson } from './convert-transcript.ts';
export type {
  ConvertResult,
  ConvertTranscriptOptions,
  ConvertedMessage,
  ConvertedTranscript,
  ToolCallIdPair,
  TranscriptChange,
} from './convert-transcript.ts';
export type { SystemPrompt, SystemPrompts, SystemPromptFormat } from './convert-system.ts';
export type { ConversionLoss } from './core/convert.ts';
export type { WrittenMessages } from './written.ts';
export type { ToEvidenceOptions, TranscriptEvidence, TurnEvidence } from './evidence.ts';
export type { RepairTranscriptOptions, RepairResult, RepairedTranscript } from './repair.ts';
export { cutPoints, trimTranscript, trimTranscriptJson } from './trim.ts';
export type {
  CutPointsOptions,
  RemovedMessage,
  RemovedToolCall,
  TrimRefusal,
  TrimResult,
  TrimTranscriptOptions,
  TrimmedTranscript,
} from './trim-types.ts';
export { ORPHANED_RESULT_MARK, SYNTHESIZED_RESULT_MARK, isSynthesizedResultText } from './core/repair.ts';
export type { TranscriptRepair, TranscriptRepairAction } from './core/repair.ts';
export type { OpenToolCall } from './core/report.ts';
export type { TranscriptFailure } from './rules.ts';
export { TRANSCRIPT_RULES } from './rules.ts';
export type { TranscriptRule, TranscriptRuleInfo } from './rules.ts';
export { guardSend, isSendableTranscript, UncheckedTranscriptError } from './sendable.ts';
export type { SendableTranscript, SentMessage } from './sendable.ts';
export type { TranscriptMessages, TranscriptMessage, TranscriptRequestBody, BodyMessage } from './messages.ts';
export { TRANSCRIPT_FORMATS } from '../check/index.ts';
export type { TranscriptFormat } from '../check/index.ts';
export {
  AssistantMessageSchema,
  ChatMessageSchema,
  ImageBlockSchema,
  ImageSourceSchema,
  RedactedThinkingBlockSchema,
  SystemMessageSchema,
  TextBlockSchema,
  ThinkingBlockSchema,
  ToolCallSchema,
  ToolMessageSchema,
  UserMessageSchema,
} from './chat-message-schema.ts';
export type {
  AssistantCalls,
  AssistantContentBlock,
  AssistantMessage,
  AssistantReply,
  ChatMessage,
  ContentBlock,
  ImageBlock,
  InlineImageBlock,
  UrlImageBlock,
  RedactedThinkingBlock,
  SystemMessage,
  TextBlock,
  ThinkingBlock,
  ToolCall,
  ToolMessage,
  UserMessage,
} from './chat/message.ts';
export { messageText, validateChatMessage, type ChatMessageCheck } from './chat-message-check.ts';
