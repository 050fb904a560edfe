/**
 * `ChatMessage`: the llm-provider §3 message shape, wire field names unchanged (`role`,
 * `content`, `tool_calls`, `tool_call_id`), validated with valibot (chat-message-schema.ts).
 * The transcripts layer's `chat` format reads it; `turngate/chat` re-exports every name.
 *
 * The types are written by hand so that what the valibot refinements check at run time is also
 * a `tsc` error: an assistant message with neither content nor tool calls, an inline image
 * without `media_type`.
 *
 * @module
 */

/**
 * A text block: non-empty `text`, with the provider's `signature` when it gave one.
 *
 * @example
 * ```ts
 * import type { TextBlock } from 'turngate/transcripts';
 * const block: TextBlock = { type: 'text', text: 'The forecast for Oslo is snow.' };
 * ```
 */
export interface TextBlock {
  type: 'text';
  /** The text (non-empty). */
  text: string;
  /** An opaque provider signature, carried back unchanged. */
  signature?: string;
}

/**
 * An image block. An inline (base64) image must say its `media_type`; a URL image may.
 *
 * @example
 * ```ts
 * import type { ImageBlock } from 'turngate/transcripts';
 * const inline: ImageBlock = { type: 'image', source: { type: 'inline', base64_data: 'iVBORw0KGgo=' }, media_type: 'image/png' };
 * // @ts-expect-error -- an inline image needs media_type
 * const broken: ImageBlock = { type: 'image', source: { type: 'inline', base64_data: 'iVBORw0KGgo=' } };
 * ```
 */
export type ImageBlock = UrlImageBlock | InlineImageBlock;

/**
 * An image by URL: one of the two forms of {@link ImageBlock}.
 *
 * @example
 * ```ts
 * import type { UrlImageBlock } from 'turngate/transcripts';
 * const image: UrlImageBlock = { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } };
 * ```
 */
export type UrlImageBlock = {
  type: 'image';
  source: { type: 'url'; url: string };
  media_type?: string;
  detail?: 'auto' | 'low' | 'high';
};

/**
 * An inline (base64) image, which says its `media_type`: one of the two forms of {@link ImageBlock}.
 *
 * @example
 * ```ts
 * import type { InlineImageBlock } from 'turngate/transcripts';
 * const image: InlineImageBlock = { type: 'image', source: { type: 'inline', base64_data: 'iVBORw0KGgo=' }, media_type: 'image/png' };
 * ```
 */
export type InlineImageBlock = {
  type: 'image';
  source: { type: 'inline'; base64_data: string };
  /** The image's media type, e.g. `image/png` (required for inline bytes). */
  media_type: string;
  detail?: 'auto' | 'low' | 'high';
};

/**
 * A thinking block: the model's reasoning text and its signature.
 *
 * @example
 * ```ts
 * import type { ThinkingBlock } from 'turngate/transcripts';
 * const block: ThinkingBlock = { type: 'thinking', text: 'Check the order first.', signature: 'EuYBCkQYAiJA' };
 * ```
 */
export interface ThinkingBlock {
  type: 'thinking';
  /** The reasoning text (non-empty). */
  text: string;
  /** The provider's signature over it, carried back unchanged. */
  signature?: string;
}

/**
 * A redacted thinking block: encrypted reasoning carried back unchanged.
 *
 * @example
 * ```ts
 * import type { RedactedThinkingBlock } from 'turngate/transcripts';
 * const block: RedactedThinkingBlock = { type: 'redacted_thinking', data: 'EqQBCgIYAhIM' };
 * ```
 */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  /** The opaque data (non-empty). */
  data: string;
}

/**
 * An assistant tool call: `id`, tool `name`, `arguments` (an object, or `null`).
 *
 * @example
 * ```ts
 * import type { ToolCall } from 'turngate/transcripts';
 * const call: ToolCall = { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } };
 * ```
 */
export interface ToolCall {
  /** The tool call id (non-empty, unique in the history). */
  id: string;
  /** The tool name (non-empty). */
  name: string;
  /** The arguments object, or `null` for none. */
  arguments: { [key: string]: unknown } | null;
  /** An opaque provider signature, carried back unchanged. */
  signature?: string;
}

/**
 * A content block of any of the four types.
 *
 * @example
 * ```ts
 * import type { ContentBlock } from 'turngate/transcripts';
 * const blocks: ContentBlock[] = [{ type: 'thinking', text: 'Look it up.' }, { type: 'text', text: 'Snow in Oslo.' }];
 * ```
 */
export type ContentBlock = TextBlock | ImageBlock | ThinkingBlock | RedactedThinkingBlock;

/**
 * A content block an assistant message may hold.
 *
 * @example
 * ```ts
 * import type { AssistantContentBlock } from 'turngate/transcripts';
 * const block: AssistantContentBlock = { type: 'redacted_thinking', data: 'EqQBCgIYAhIM' };
 * ```
 */
export type AssistantContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock;

/**
 * A system message.
 *
 * @example
 * ```ts
 * import type { SystemMessage } from 'turngate/transcripts';
 * const message: SystemMessage = { role: 'system', content: 'You answer in one sentence.' };
 * ```
 */
export interface SystemMessage {
  role: 'system';
  /** The instructions (non-empty). */
  content: string;
}

/**
 * A user message: a non-empty string, or at least one text or image block.
 *
 * @example
 * ```ts
 * import type { UserMessage } from 'turngate/transcripts';
 * const message: UserMessage = { role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] };
 * ```
 */
export interface UserMessage {
  role: 'user';
  /** A non-empty string, or at least one block. */
  content: string | [TextBlock | ImageBlock, ...(TextBlock | ImageBlock)[]];
}

/**
 * An assistant message: text, tool calls, or both. With no tool calls it needs content (a
 * string, or at least one block); with at least one tool call content may be absent or empty.
 *
 * @example
 * ```ts
 * import type { AssistantMessage } from 'turngate/transcripts';
 * const calling: AssistantMessage = { role: 'assistant', tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }] };
 * const answering: AssistantMessage = { role: 'assistant', content: 'Snow in Oslo.' };
 * // @ts-expect-error -- neither content nor tool calls
 * const empty: AssistantMessage = { role: 'assistant', content: [] };
 * ```
 */
export type AssistantMessage = AssistantCalls | AssistantReply;

/**
 * An assistant message with at least one tool call (its content may be absent or empty): one
 * of the two forms of {@link AssistantMessage}.
 *
 * @example
 * ```ts
 * import type { AssistantCalls } from 'turngate/transcripts';
 * const calling: AssistantCalls = { role: 'assistant', tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: {} }] };
 * ```
 */
export type AssistantCalls = {
  role: 'assistant';
  content?: string | AssistantContentBlock[];
  /** At least one tool call. */
  tool_calls: [ToolCall, ...ToolCall[]];
};

/**
 * An assistant message with content (a string, or at least one block) and perhaps tool calls:
 * one of the two forms of {@link AssistantMessage}.
 *
 * @example
 * ```ts
 * import type { AssistantReply } from 'turngate/transcripts';
 * const answering: AssistantReply = { role: 'assistant', content: 'Snow in Oslo.' };
 * ```
 */
export type AssistantReply = {
  role: 'assistant';
  /** A string, or at least one block. */
  content: string | [AssistantContentBlock, ...AssistantContentBlock[]];
  tool_calls?: ToolCall[];
};

/**
 * A tool message: the result of the assistant tool call `tool_call_id`, as text.
 *
 * @example
 * ```ts
 * import type { ToolMessage } from 'turngate/transcripts';
 * const message: ToolMessage = { role: 'tool', tool_call_id: 'call_1', content: 'Snow, -3 °C' };
 * ```
 */
export interface ToolMessage {
  role: 'tool';
  /** The id of the tool call it answers. */
  tool_call_id: string;
  /** The result as text. */
  content: string;
}

/**
 * A chat message. Wire field names as llm-provider §3 writes them.
 *
 * @example
 * ```ts
 * import type { ChatMessage } from 'turngate/transcripts';
 * const loop: ChatMessage[] = [
 *   { role: 'assistant', content: [], tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
 *   { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
 * ];
 * ```
 */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
