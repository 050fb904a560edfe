/**
 * The `'openai-chat'` format's wire types and valibot schemas: OpenAI Chat Completions (`messages`), and the dialects of the same wire (DeepSeek, Kimi, Groq, xAI), as
 * `checkTranscript` reads them (the `openaiChat` namespace of `turngate/formats`).
 *
 * Source: OpenAI, Chat Completions API reference.
 *
 * @module
 */
export {
  OPENAI_CHAT_DIALECTS,
  OpenAIChatMessageSchema,
  OpenAIChatMessagesSchema,
  OpenAIChatToolCallSchema,
  type OpenAIChatContentPart,
  type OpenAIChatCustomToolCall,
  type OpenAIChatDialect,
  type OpenAIChatMessage,
  type OpenAIChatToolCall,
  type OpenAIChatWrittenMessage,
} from '../transcripts/internal.ts';
