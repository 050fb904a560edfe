/**
 * The ChatMessage hub's face inside the transcripts layer: what every format folder may take
 * from `chat/` (the hub every conversion passes through). The `ChatMessage` types, the reader of
 * a `ChatMessage` list (`readChat`, the chat check's own pass) and the pieces the converters to
 * and from `ChatMessage` share. A format folder imports `core/`, this file and itself, nothing
 * else (docs/ARCHITECTURE.md). Internal: the layer's entry is `transcripts/index.ts`.
 *
 * @module
 */
export { readChat } from './check.ts';
export {
  assistantContent,
  assistantTexts,
  ChatBuilder,
  callNames,
  imageFromUrl,
  imageUrl,
  resultText,
  withToolRuns,
} from './convert.ts';
export type {
  AssistantCalls,
  AssistantContentBlock,
  AssistantMessage,
  AssistantReply,
  ChatMessage,
  ContentBlock,
  ImageBlock,
  InlineImageBlock,
  RedactedThinkingBlock,
  SystemMessage,
  TextBlock,
  ThinkingBlock,
  ToolCall,
  ToolMessage,
  UrlImageBlock,
  UserMessage,
} from './message.ts';
