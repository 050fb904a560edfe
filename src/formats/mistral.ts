/**
 * The `'mistral'` format's wire types and valibot schemas: Mistral chat completions (`messages`), and the Mistral SDK's camelCase form, as
 * `checkTranscript` reads them (the `mistral` namespace of `turngate/formats`).
 *
 * Source: Mistral, Chat Completion API reference.
 *
 * @module
 */
export {
  MistralMessageSchema,
  MistralMessagesSchema,
  MistralToolCallSchema,
  fromMistralSdk,
  toMistralSdk,
  type MistralContentChunk,
  type MistralMessage,
  type MistralSdkChunk,
  type MistralSdkInput,
  type MistralSdkMessage,
  type MistralSdkThinkingChunk,
  type MistralSdkToolCall,
  type MistralToolCall,
} from '../transcripts/internal.ts';
