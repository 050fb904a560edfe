/**
 * `ChatMessage` and its schemas. Their home is the transcripts layer (its `chat` format reads
 * them); `turngate/chat` re-exports every name from here.
 *
 * @module
 */
export {
  TextBlockSchema,
  ImageSourceSchema,
  ImageBlockSchema,
  ThinkingBlockSchema,
  RedactedThinkingBlockSchema,
  ToolCallSchema,
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
  ChatMessageSchema,
  validateChatMessage,
  messageText,
} from '../transcripts/index.ts';
export type {
  TextBlock,
  ImageBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ToolCall,
  ContentBlock,
  AssistantContentBlock,
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  ChatMessage,
  ChatMessageCheck,
} from '../transcripts/index.ts';
