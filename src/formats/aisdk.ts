/**
 * The `'aisdk'` format's wire types and valibot schemas: the AI SDK (`ModelMessage[]`), as
 * `checkTranscript` reads them (the `aisdk` namespace of `turngate/formats`).
 *
 * Source: AI SDK, "ModelMessage" reference.
 *
 * @module
 */
export {
  AISDKMessageSchema,
  AISDKMessagesSchema,
  type AISDKMessage,
  type AISDKOtherPart,
  type AISDKToolApprovalRequestPart,
  type AISDKToolApprovalResponsePart,
  type AISDKToolCallPart,
  type AISDKToolResultPart,
  type AISDKWrittenMessage,
} from '../transcripts/internal.ts';
