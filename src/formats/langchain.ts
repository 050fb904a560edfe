/**
 * The `'langchain'` format's wire types and valibot schemas: LangChain.js message histories (serialized, stored, message-like, and instances), as
 * `checkTranscript` reads them (the `langchain` namespace of `turngate/formats`).
 *
 * Source: LangChain.js, `BaseMessage` reference.
 *
 * @module
 */
export {
  LangChainMessageSchema,
  LangChainMessagesSchema,
  LangChainToolCallSchema,
  type LangChainContentBlock,
  type LangChainInstanceForm,
  type LangChainMessage,
  type LangChainMessageFields,
  type LangChainMessageInstance,
  type LangChainMessageLike,
  type LangChainMessageLikeType,
  type LangChainSerializedMessage,
  type LangChainStoredMessage,
  type LangChainToolCall,
  type LangChainWrittenMessage,
} from '../transcripts/internal.ts';
