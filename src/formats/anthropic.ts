/**
 * The `'anthropic'` format's wire types and valibot schemas: Anthropic Messages API (`messages`), as
 * `checkTranscript` reads them (the `anthropic` namespace of `turngate/formats`).
 *
 * Source: Anthropic, "Messages" API reference.
 *
 * @module
 */
export {
  AnthropicMessageSchema,
  AnthropicMessagesSchema,
  type AnthropicContentBlock,
  type AnthropicMessage,
  type AnthropicOtherBlock,
  type AnthropicServerToolUseBlock,
  type AnthropicTextBlock,
  type AnthropicThinkingBlock,
  type AnthropicToolResultBlock,
  type AnthropicToolUseBlock,
  type AnthropicWrittenBlock,
  type AnthropicWrittenMessage,
} from '../transcripts/internal.ts';
