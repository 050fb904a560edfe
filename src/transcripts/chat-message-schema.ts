/**
 * The valibot schemas of `ChatMessage` (chat/message.ts): what `checkTranscript(..., { format:
 * 'chat' })` and `turngate/chat` validate at run time, rule for rule what the hand-written types
 * make a `tsc` error (an assistant message with neither content nor tool calls, an inline image
 * without `media_type`).
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
 * import { TextBlockSchema } from 'turngate/transcripts';
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
 * import { ImageSourceSchema } from 'turngate/transcripts';
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
 * import { ImageBlockSchema } from 'turngate/transcripts';
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
 * import { ThinkingBlockSchema } from 'turngate/transcripts';
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
 * import { RedactedThinkingBlockSchema } from 'turngate/transcripts';
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
 * import { ToolCallSchema } from 'turngate/transcripts';
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
 * import { SystemMessageSchema } from 'turngate/transcripts';
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
 * import { UserMessageSchema } from 'turngate/transcripts';
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
 * import { AssistantMessageSchema } from 'turngate/transcripts';
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
 * import { ToolMessageSchema } from 'turngate/transcripts';
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
 * import { ChatMessageSchema } from 'turngate/transcripts';
 * v.parse(ChatMessageSchema, { role: 'user', content: 'Hello' }).role; //=> 'user'
 * ```
 */
export const ChatMessageSchema = v.variant('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);
