/**
 * The message types a conversion writes into each format: the shapes `convertTranscript` (and
 * the target's repair after it) put there, written as the target SDK's own message types take
 * them (mutable arrays, literal kinds), so a converted history goes to the SDK without a cast
 * (type-tested against each SDK; a test reads every conversion's output against these shapes).
 *
 * @module
 */
import type { ChatMessage } from './chat/message.ts';
import type { GeminiContent } from './gemini/wire.ts';
import type { MistralMessage } from './mistral/wire.ts';

/** `T` with every array and object field writable, all the way down (what an SDK's mutable types take). */
type Writable<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? Writable<E>[]
    : T extends object
      ? { -readonly [K in keyof T]: Writable<T[K]> }
      : T;

/** A block of an Anthropic message a conversion writes. */
export type AnthropicWrittenBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'url'; url: string } }
  | {
      type: 'image';
      source: { type: 'base64'; media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string };
    }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: true };

/** An Anthropic message a conversion writes (`MessageParam`: never role `system`, which goes to the result's `system`). */
export interface AnthropicWrittenMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicWrittenBlock[];
}

/** A Chat Completions message a conversion writes (`ChatCompletionMessageParam`). */
export type OpenAIChatWrittenMessage =
  | { role: 'system'; content: string }
  | {
      role: 'user';
      content:
        | string
        | (
            | { type: 'text'; text: string }
            | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } }
          )[];
    }
  | {
      role: 'assistant';
      content: string | { type: 'text'; text: string }[] | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A Responses input item a conversion writes (`ResponseInputItem`). */
export type ResponsesWrittenItem =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'user';
      content: (
        | { type: 'input_text'; text: string }
        | { type: 'input_image'; detail: 'auto' | 'low' | 'high'; image_url: string }
      )[];
    }
  | { type: 'message'; role: 'assistant'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

/** A part of an AI SDK message a conversion writes. */
type AISDKWrittenToolResult = {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: { type: 'text' | 'error-text'; value: string };
};

/** An AI SDK message a conversion writes (`ModelMessage`). */
export type AISDKWrittenMessage =
  | { role: 'system'; content: string }
  | {
      role: 'user';
      content: string | ({ type: 'text'; text: string } | { type: 'image'; image: string; mediaType?: string })[];
    }
  | {
      role: 'assistant';
      content: (
        | { type: 'text'; text: string }
        | { type: 'reasoning'; text: string }
        | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
      )[];
    }
  | { role: 'tool'; content: AISDKWrittenToolResult[] };

/** JSON data as the AWS SDK's document type (`__DocumentType`) holds it: a tool use's input. */
export type BedrockDocument = null | boolean | number | string | BedrockDocument[] | { [key: string]: BedrockDocument };

/**
 * A block of a Bedrock Converse message a conversion writes. Image bytes and redacted reasoning
 * are base64 text, as the JSON wire carries them; the AWS SDK's types take `Uint8Array` there,
 * so a history holding them needs its bytes decoded before the SDK sends it.
 */
export type BedrockWrittenBlock =
  | { text: string }
  | { image: { format: 'png' | 'jpeg' | 'gif' | 'webp'; source: { bytes: string } } }
  | { reasoningContent: { reasoningText: { text: string; signature?: string } } }
  | { reasoningContent: { redactedContent: string } }
  | { toolUse: { toolUseId: string; name: string; input: BedrockDocument } }
  | { toolResult: { toolUseId: string; content: { text: string }[]; status?: 'error' } };

/** A Bedrock Converse message a conversion writes (`Message`). */
export interface BedrockWrittenMessage {
  role: 'user' | 'assistant';
  content: BedrockWrittenBlock[];
}

/** A LangChain message a conversion writes: the `toJSON()` form (`SerializedConstructor`, a `BaseMessageLike`). */
export interface LangChainWrittenMessage {
  lc: 1;
  type: 'constructor';
  id: string[];
  kwargs: { [key: string]: unknown };
}

/**
 * The message type a conversion writes into each format. Mistral's are its wire messages:
 * `toMistralSdk` gives them as the SDK's objects.
 *
 * @example
 * ```ts
 * import type { WrittenMessages } from 'turngate/transcripts';
 * const message: WrittenMessages['anthropic'] = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Snow' }] };
 * ```
 */
export interface WrittenMessages {
  readonly anthropic: AnthropicWrittenMessage;
  readonly 'openai-chat': OpenAIChatWrittenMessage;
  readonly 'openai-responses': ResponsesWrittenItem;
  readonly aisdk: AISDKWrittenMessage;
  readonly gemini: Writable<GeminiContent>;
  readonly 'bedrock-converse': BedrockWrittenMessage;
  readonly chat: ChatMessage;
  readonly langchain: LangChainWrittenMessage;
  readonly mistral: MistralMessage;
}
