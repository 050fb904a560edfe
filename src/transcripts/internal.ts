/**
 * The transcripts layer's internals that other layers use (the adapters), reached here rather
 * than through the files that hold them. Not part of the public API.
 *
 * @module
 */
export { runCheck } from './check.ts';
export { checkExtendable, extendChecked, type ExtendSettings } from './extend.ts';
export { runRepair } from './repair.ts';
// One writer of a tool result per format (what repair and conversion write; the adapters' answers).
export { toolResult as aisdkToolResult } from './aisdk/convert.ts';
export { toolResult as anthropicToolResult } from './anthropic/convert.ts';
export { toolResult as geminiToolResult } from './gemini/convert.ts';
export { toolResult as openAIChatToolResult } from './openai-chat/convert.ts';
export { toolResult as responsesToolResult } from './openai-responses/convert.ts';
// Where each format that takes the system prompt outside its messages takes it (the CLI names it).
export { SYSTEM_FIELDS } from './convert-system.ts';
// The wire types and schemas of each format, published by the `turngate/formats` entry rather than
// by this layer's `index.ts`.
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
export type {
  AISDKWrittenMessage,
  AnthropicWrittenBlock,
  AnthropicWrittenMessage,
  BedrockWrittenBlock,
  BedrockWrittenMessage,
  LangChainWrittenMessage,
  OpenAIChatWrittenMessage,
  ResponsesWrittenItem,
} from './written.ts';
// The type-level misuse sentences and helpers, published by the `turngate/types` entry.
export type { RuleOf } from './rules.ts';
export type { Frozen, FrozenList, SenderMisuse } from './sendable.ts';
export type {
  AnyTranscriptInput,
  InputMessage,
  MessagesIssue,
  NotFormatMessage,
  MisnamedOptionMessage,
  OptionMessage,
  SenderFormat,
  SenderIssue,
  TranscriptArgument,
  WrongFormatMessage,
} from './misuse.ts';
