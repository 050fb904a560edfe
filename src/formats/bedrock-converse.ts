/**
 * The `'bedrock-converse'` format's wire types and valibot schemas: Amazon Bedrock Converse (`messages`), as
 * `checkTranscript` reads them (the `bedrockConverse` namespace of `turngate/formats`).
 *
 * Source: AWS, Bedrock Converse API reference.
 *
 * @module
 */
export {
  BedrockMessageSchema,
  BedrockMessagesSchema,
  type BedrockContentBlock,
  type BedrockMessage,
  type BedrockToolResult,
  type BedrockToolUse,
  type BedrockWrittenBlock,
  type BedrockWrittenMessage,
} from '../transcripts/internal.ts';
