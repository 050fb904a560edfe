/**
 * The providers' wire formats (`turngate/formats`): each transcript format's message types (what
 * a history of the format is, and what turngate writes into one) and its valibot schemas, every
 * name prefixed with its format (`Anthropic...`, `OpenAIChat...`, `Responses...`, `AISDK...`,
 * `Gemini...`, `Bedrock...`, `LangChain...`, `Mistral...`), and the Mistral SDK's camelCase form
 * with its two conversions. The verbs that take these histories (`checkTranscript`,
 * `repairTranscript`, `convertTranscript`, `trimTranscript`, `extendTranscript`) are in
 * `turngate/transcripts`, with turngate's own format, `ChatMessage`.
 *
 * Source: each provider's API reference, cited on each type (docs/FORMATS.md).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { AnthropicMessagesSchema, type AnthropicMessage } from 'turngate/formats';
 * const history: AnthropicMessage[] = [{ role: 'user', content: 'hi' }];
 * v.is(AnthropicMessagesSchema, history); //=> true
 * ```
 *
 * @module
 */
export {
  AISDKMessageSchema,
  AISDKMessagesSchema,
  AnthropicMessageSchema,
  AnthropicMessagesSchema,
  BedrockMessageSchema,
  BedrockMessagesSchema,
  fromMistralSdk,
  GeminiContentSchema,
  GeminiContentsSchema,
  LangChainMessageSchema,
  LangChainMessagesSchema,
  LangChainToolCallSchema,
  MistralMessageSchema,
  MistralMessagesSchema,
  MistralToolCallSchema,
  OPENAI_CHAT_DIALECTS,
  OpenAIChatMessageSchema,
  OpenAIChatMessagesSchema,
  OpenAIChatToolCallSchema,
  ResponsesInputItemSchema,
  ResponsesInputSchema,
  toMistralSdk,
} from './transcripts/internal.ts';
export type {
  AISDKMessage,
  AISDKOtherPart,
  AISDKToolApprovalRequestPart,
  AISDKToolApprovalResponsePart,
  AISDKToolCallPart,
  AISDKToolResultPart,
  AISDKWrittenMessage,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicOtherBlock,
  AnthropicServerToolUseBlock,
  AnthropicTextBlock,
  AnthropicThinkingBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
  AnthropicWrittenBlock,
  AnthropicWrittenMessage,
  BedrockContentBlock,
  BedrockMessage,
  BedrockToolResult,
  BedrockToolUse,
  BedrockWrittenBlock,
  BedrockWrittenMessage,
  GeminiContent,
  GeminiFunctionCall,
  GeminiFunctionResponse,
  GeminiPart,
  LangChainContentBlock,
  LangChainInstanceForm,
  LangChainMessage,
  LangChainMessageFields,
  LangChainMessageInstance,
  LangChainMessageLike,
  LangChainMessageLikeType,
  LangChainSerializedMessage,
  LangChainStoredMessage,
  LangChainToolCall,
  LangChainWrittenMessage,
  MistralContentChunk,
  MistralMessage,
  MistralSdkChunk,
  MistralSdkInput,
  MistralSdkMessage,
  MistralSdkThinkingChunk,
  MistralSdkToolCall,
  MistralToolCall,
  OpenAIChatContentPart,
  OpenAIChatCustomToolCall,
  OpenAIChatDialect,
  OpenAIChatMessage,
  OpenAIChatToolCall,
  OpenAIChatWrittenMessage,
  ResponsesFunctionCallItem,
  ResponsesFunctionCallOutputItem,
  ResponsesInputItem,
  ResponsesMessageItem,
  ResponsesOtherItem,
  ResponsesReasoningItem,
  ResponsesWrittenItem,
} from './transcripts/internal.ts';
