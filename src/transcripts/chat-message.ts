/**
 * `ChatMessage`: the llm-provider §3 message shape, wire field names unchanged (`role`,
 * `content`, `tool_calls`, `tool_call_id`), validated with valibot. The transcripts layer's
 * `chat` format reads it; `turngate/chat` re-exports every name.
 *
 * The types are written by hand so that what the valibot refinements check at run time is also
 * a `tsc` error: an assistant message with neither content nor tool calls, an inline image
 * without `media_type`.
 *
 * @module
 */
import * as v from 'valibot';
import { ownEntries } from '../internal/entries.ts';

const nonEmpty = v.pipe(v.string(), v.minLength(1, 'expected a non-empty string'));

/**
 * A text block (llm-provider §3.1.1).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { TextBlockSchema } from 'turngate/chat';
 * v.is(TextBlockSchema, { type: 'text', text: 'hi' }); //=> true
 * ```
 */
export const TextBlockSchema = v.object(
  ownEntries({ type: v.literal('text'), text: nonEmpty, signature: v.optional(v.string()) }),
);
/**
 * An image source: a URL, or inline base64 bytes (llm-provider §3.1.3).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ImageSourceSchema } from 'turngate/chat';
 * v.is(ImageSourceSchema, { type: 'url', url: 'https://example.com/a.png' }); //=> true
 * ```
 */
export const ImageSourceSchema = v.variant('type', [
  v.object(ownEntries({ type: v.literal('url'), url: nonEmpty })),
  v.object(ownEntries({ type: v.literal('inline'), base64_data: nonEmpty })),
]);
/**
 * An image block (llm-provider §3.1.2); `media_type` is required for inline sources.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ImageBlockSchema } from 'turngate/chat';
 * v.is(ImageBlockSchema, { type: 'image', source: { type: 'inline', base64_data: 'iVBORw0' } }); //=> false (needs media_type)
 * ```
 */
export const ImageBlockSchema = v.pipe(
  v.object(
    ownEntries({
      type: v.literal('image'),
      source: ImageSourceSchema,
      media_type: v.optional(nonEmpty),
      detail: v.optional(v.picklist(['auto', 'low', 'high'])),
    }),
  ),
  v.check(
    (block) => block.source.type !== 'inline' || block.media_type !== undefined,
    'an inline image needs media_type',
  ),
);
/**
 * A thinking block (llm-provider §3.1.4).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ThinkingBlockSchema } from 'turngate/chat';
 * v.is(ThinkingBlockSchema, { type: 'thinking', text: 'Let me check the order first.' }); //=> true
 * ```
 */
export const ThinkingBlockSchema = v.object(
  ownEntries({
    type: v.literal('thinking'),
    text: nonEmpty,
    signature: v.optional(v.string()),
  }),
);
/**
 * A redacted thinking block (llm-provider §3.1.5).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { RedactedThinkingBlockSchema } from 'turngate/chat';
 * v.is(RedactedThinkingBlockSchema, { type: 'redacted_thinking', data: 'EqQBCgIYAhIM' }); //=> true
 * ```
 */
export const RedactedThinkingBlockSchema = v.object(
  ownEntries({ type: v.literal('redacted_thinking'), data: nonEmpty }),
);

/**
 * A tool call on an assistant message (llm-provider §3): `id`, `name`, `arguments`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ToolCallSchema } from 'turngate/chat';
 * v.is(ToolCallSchema, { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }); //=> true
 * ```
 */
export const ToolCallSchema = v.object(
  ownEntries({
    id: nonEmpty,
    name: nonEmpty,
    arguments: v.nullable(v.record(v.string(), v.unknown())),
    signature: v.optional(v.string()),
  }),
);

const userBlocks = v.pipe(
  v.array(v.variant('type', [TextBlockSchema, ImageBlockSchema])),
  v.minLength(1, 'expected at least one content block'),
);
const assistantBlocks = v.pipe(
  v.array(v.variant('type', [TextBlockSchema, ThinkingBlockSchema, RedactedThinkingBlockSchema])),
  v.minLength(1, 'expected at least one content block'),
);

/**
 * A system message: non-empty string content.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { SystemMessageSchema } from 'turngate/chat';
 * v.is(SystemMessageSchema, { role: 'system', content: '' }); //=> false (content must be non-empty)
 * ```
 */
export const SystemMessageSchema = v.strictObject(ownEntries({ role: v.literal('system'), content: nonEmpty }));
/**
 * A user message: a non-empty string, or text and image blocks.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { UserMessageSchema } from 'turngate/chat';
 * v.is(UserMessageSchema, { role: 'user', content: [{ type: 'text', text: 'Hello' }] }); //=> true
 * ```
 */
export const UserMessageSchema = v.strictObject(
  ownEntries({ role: v.literal('user'), content: v.union([nonEmpty, userBlocks]) }),
);
/**
 * An assistant message: text (string or text/thinking blocks), and/or `tool_calls`; content may
 * be empty (`''` or `[]`) only when `tool_calls` is non-empty.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { AssistantMessageSchema } from 'turngate/chat';
 * v.is(AssistantMessageSchema, { role: 'assistant', content: [], tool_calls: [{ id: 'c', name: 'n', arguments: {} }] }); //=> true
 * ```
 */
export const AssistantMessageSchema = v.pipe(
  v.strictObject(
    ownEntries({
      role: v.literal('assistant'),
      content: v.optional(
        v.union([
          v.string(),
          v.array(v.variant('type', [TextBlockSchema, ThinkingBlockSchema, RedactedThinkingBlockSchema])),
        ]),
      ),
      tool_calls: v.optional(v.array(ToolCallSchema)),
    }),
  ),
  v.check((m) => {
    const calls = m.tool_calls ?? [];
    if (calls.length > 0) return true;
    return (
      (typeof m.content === 'string' && m.content !== '') ||
      (Array.isArray(m.content) && v.is(assistantBlocks, m.content))
    );
  }, 'an assistant message without tool_calls needs non-empty content'),
  v.check(
    (m) => new Set((m.tool_calls ?? []).map((c) => c.id)).size === (m.tool_calls ?? []).length,
    'tool call ids must be unique within the message',
  ),
);
/**
 * A tool message: string content answering the assistant tool call `tool_call_id`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ToolMessageSchema } from 'turngate/chat';
 * v.is(ToolMessageSchema, { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' }); //=> true
 * ```
 */
export const ToolMessageSchema = v.strictObject(
  ownEntries({
    role: v.literal('tool'),
    tool_call_id: nonEmpty,
    content: v.string(),
  }),
);

/**
 * Any chat message, discriminated on `role` (harness-chat §3; llm-provider §3).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ChatMessageSchema } from 'turngate/chat';
 * v.parse(ChatMessageSchema, { role: 'user', content: 'Hello' }).role; //=> 'user'
 * ```
 */
export const ChatMessageSchema = v.variant('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);

/**
 * A text block: non-empty `text`, with the provider's `signature` when it gave one.
 *
 * @example
 * ```ts
 * import type { TextBlock } from 'turngate/chat';
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
 * import type { ImageBlock } from 'turngate/chat';
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
 * import type { ThinkingBlock } from 'turngate/chat';
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
 * import type { RedactedThinkingBlock } from 'turngate/chat';
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
 * import type { ToolCall } from 'turngate/chat';
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
 * import type { ContentBlock } from 'turngate/chat';
 * const blocks: ContentBlock[] = [{ type: 'thinking', text: 'Look it up.' }, { type: 'text', text: 'Snow in Oslo.' }];
 * ```
 */
export type ContentBlock = TextBlock | ImageBlock | ThinkingBlock | RedactedThinkingBlock;

/**
 * A content block an assistant message may hold.
 *
 * @example
 * ```ts
 * import type { AssistantContentBlock } from 'turngate/chat';
 * const block: AssistantContentBlock = { type: 'redacted_thinking', data: 'EqQBCgIYAhIM' };
 * ```
 */
export type AssistantContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock;

/**
 * A system message.
 *
 * @example
 * ```ts
 * import type { SystemMessage } from 'turngate/chat';
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
 * import type { UserMessage } from 'turngate/chat';
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
 * import type { AssistantMessage } from 'turngate/chat';
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
 * import type { ToolMessage } from 'turngate/chat';
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
 * import type { ChatMessage } from 'turngate/chat';
 * const loop: ChatMessage[] = [
 *   { role: 'assistant', content: [], tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
 *   { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
 * ];
 * ```
 */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
