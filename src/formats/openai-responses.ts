/**
 * The `'openai-responses'` format's wire types and valibot schemas: OpenAI Responses (`input` items), as
 * `checkTranscript` reads them (the `openaiResponses` namespace of `turngate/formats`).
 *
 * Source: OpenAI, Responses API reference.
 *
 * @module
 */
export {
  ResponsesInputItemSchema,
  ResponsesInputSchema,
  type ResponsesFunctionCallItem,
  type ResponsesFunctionCallOutputItem,
  type ResponsesInputItem,
  type ResponsesMessageItem,
  type ResponsesOtherItem,
  type ResponsesReasoningItem,
  type ResponsesWrittenItem,
} from '../transcripts/internal.ts';
