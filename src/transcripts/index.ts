/**
 * Provider transcripts (`turngate/transcripts`): the histories users send to Anthropic, OpenAI
 * (Chat Completions and Responses), the AI SDK, Gemini, turngate's own chat and LangChain.js
 * message histories, checked against
 * every rule the providers document or enforce about tool calls and tool results; a sendable
 * brand a guarded provider call requires.
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
export type {
  AISDKWrittenMessage,
  AnthropicWrittenBlock,
  AnthropicWrittenMessage,
  BedrockWrittenBlock,
  BedrockWrittenMessage,
  LangChainWrittenMessage,
  OpenAIChatWrittenMessage,
  ResponsesWrittenItem,
  WrittenMessages,
} from './written.ts';
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
export type { TranscriptFailure, OpenToolCall, RuleOf } from './core/report.ts';
export { TRANSCRIPT_RULES } from './rules.ts';
export type { TranscriptRule, TranscriptRuleInfo } from './rules.ts';
export { guardSend, isSendableTranscript, UncheckedTranscriptError } from './sendable.ts';
export type { Frozen, FrozenList, SendableTranscript, SenderMisuse, SentMessage } from './sendable.ts';
export type {
  AnyTranscriptInput,
  InputMessage,
  MessagesIssue,
  MisnamedOptionMessage,
  NotFormatMessage,
  OptionMessage,
  SenderFormat,
  SenderIssue,
  TranscriptArgument,
  WrongFormatMessage,
} from './misuse.ts';
export type { TranscriptMessages, TranscriptMessage, TranscriptRequestBody, BodyMessage } from './messages.ts';
export { TRANSCRIPT_FORMATS } from '../check/index.ts';
export type { TranscriptFormat } from '../check/index.ts';
export { AnthropicMessageSchema, AnthropicMessagesSchema } from './anthropic/wire.ts';
export type {
  AnthropicMessage,
  AnthropicContentBlock,
  AnthropicTextBlock,
  AnthropicToolUseBlock,
  AnthropicToolResultBlock,
  AnthropicServerToolUseBlock,
  AnthropicThinkingBlock,
  AnthropicOtherBlock,
} from './anthropic/wire.ts';
export { OpenAIChatMessageSchema, OpenAIChatMessagesSchema, OpenAIChatToolCallSchema } from './openai-chat/wire.ts';
export { MistralMessageSchema, MistralMessagesSchema, MistralToolCallSchema } from './mistral/wire.ts';
export type { MistralMessage, MistralToolCall, MistralContentChunk } from './mistral/wire.ts';
export { fromMistralSdk, toMistralSdk } from './mistral/sdk.ts';
export type { LangChainInstanceForm, LangChainMessageInstance } from './langchain/instances.ts';
export type {
  MistralSdkChunk,
  MistralSdkInput,
  MistralSdkMessage,
  MistralSdkThinkingChunk,
  MistralSdkToolCall,
} from './mistral/sdk.ts';
export { OPENAI_CHAT_DIALECTS } from './core/dialects.ts';
export type { OpenAIChatDialect } from './core/dialects.ts';
export type {
  OpenAIChatMessage,
  OpenAIChatToolCall,
  OpenAIChatCustomToolCall,
  OpenAIChatContentPart,
} from './openai-chat/wire.ts';
export { ResponsesInputItemSchema, ResponsesInputSchema } from './openai-responses/wire.ts';
export type {
  ResponsesInputItem,
  ResponsesMessageItem,
  ResponsesFunctionCallItem,
  ResponsesFunctionCallOutputItem,
  ResponsesReasoningItem,
  ResponsesOtherItem,
} from './openai-responses/wire.ts';
export { AISDKMessageSchema, AISDKMessagesSchema } from './aisdk/wire.ts';
export type {
  AISDKMessage,
  AISDKToolCallPart,
  AISDKToolResultPart,
  AISDKToolApprovalRequestPart,
  AISDKToolApprovalResponsePart,
  AISDKOtherPart,
} from './aisdk/wire.ts';
export { GeminiContentSchema, GeminiContentsSchema } from './gemini/wire.ts';
export { BedrockMessageSchema, BedrockMessagesSchema } from './bedrock-converse/wire.ts';
export type {
  BedrockMessage,
  BedrockContentBlock,
  BedrockToolUse,
  BedrockToolResult,
} from './bedrock-converse/wire.ts';
export type { GeminiContent, GeminiPart, GeminiFunctionCall, GeminiFunctionResponse } from './gemini/wire.ts';
export { LangChainMessageSchema, LangChainMessagesSchema, LangChainToolCallSchema } from './langchain/wire.ts';
export type {
  LangChainContentBlock,
  LangChainMessage,
  LangChainMessageFields,
  LangChainMessageLike,
  LangChainMessageLikeType,
  LangChainSerializedMessage,
  LangChainStoredMessage,
  LangChainToolCall,
} from './langchain/wire.ts';
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
} from './chat-message.ts';
export { messageText, validateChatMessage, type ChatMessageCheck } from './chat-message-check.ts';
