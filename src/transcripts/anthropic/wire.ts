/**
 * The Anthropic Messages API `messages` wire shape: the input types (the SDK's `MessageParam`
 * is assignable to them) and the valibot schema the checker's reader agrees with. Unknown
 * fields and block types are kept.
 *
 * Source: Anthropic Messages API reference (`messages`), "Handle tool calls", "Server tools",
 * "Extended thinking".
 *
 * @module
 */
import * as v from 'valibot';
import { ownStructureOf } from '../core/wire-check.ts';
import { ANTHROPIC_SERVER_CALL_TYPES, isAnthropicServerResultType } from './kinds.ts';

/**
 * A text block.
 *
 * @example
 * ```ts
 * import type { AnthropicTextBlock } from 'turngate/formats';
 * const block: AnthropicTextBlock = { type: 'text', text: 'Checking the forecast.' };
 * ```
 */
export interface AnthropicTextBlock {
  readonly type: 'text';
  readonly text: string;
}

/**
 * A client tool call (`tool_use`), in an assistant message.
 *
 * @example
 * ```ts
 * import type { AnthropicToolUseBlock } from 'turngate/formats';
 * const block: AnthropicToolUseBlock = { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Oslo' } };
 * ```
 */
export interface AnthropicToolUseBlock {
  readonly type: 'tool_use';
  /** The call id (`toolu_...`), unique in the request. */
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/**
 * A client tool result (`tool_result`), first in the user message after its `tool_use`.
 *
 * @example
 * ```ts
 * import type { AnthropicToolResultBlock } from 'turngate/formats';
 * const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: 'toolu_01A', content: 'Snow, -3 °C' };
 * ```
 */
export interface AnthropicToolResultBlock {
  readonly type: 'tool_result';
  /** The id of the `tool_use` it answers. */
  readonly tool_use_id: string;
  /** The result: a string or content blocks (text, image, ...); may be absent. */
  readonly content?: string | readonly { readonly type: string }[];
  /** `true` when the tool failed. */
  readonly is_error?: boolean;
}

/**
 * A server tool call (`server_tool_use`, ids `srvtoolu_...`): the API runs it and writes its
 * result block (`web_search_tool_result`, ...) into the same assistant message.
 *
 * @example
 * ```ts
 * import type { AnthropicServerToolUseBlock } from 'turngate/formats';
 * const block: AnthropicServerToolUseBlock = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'Oslo weather' } };
 * ```
 */
export interface AnthropicServerToolUseBlock {
  readonly type: 'server_tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/**
 * A thinking block, passed back unchanged (signature included).
 *
 * @example
 * ```ts
 * import type { AnthropicThinkingBlock } from 'turngate/formats';
 * const block: AnthropicThinkingBlock = { type: 'thinking', thinking: 'The user wants Oslo.', signature: 'EqQBCkgIARAB' };
 * ```
 */
export interface AnthropicThinkingBlock {
  readonly type: 'thinking';
  readonly thinking: string;
  readonly signature: string;
}

/**
 * Any other content block (image, document, redacted thinking, server tool results, ...), by
 * its `type`.
 *
 * @example
 * ```ts
 * import type { AnthropicOtherBlock } from 'turngate/formats';
 * const block: AnthropicOtherBlock = { type: 'redacted_thinking' };
 * ```
 */
export interface AnthropicOtherBlock {
  readonly type: string;
}

/**
 * A content block of a message.
 *
 * @example
 * ```ts
 * import type { AnthropicContentBlock } from 'turngate/formats';
 * const blocks: AnthropicContentBlock[] = [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: { path: 'a.txt' } }];
 * ```
 */
export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicServerToolUseBlock
  | AnthropicThinkingBlock
  | AnthropicOtherBlock;

/**
 * One message of the `messages` parameter. The SDK's `MessageParam` (and the beta
 * `BetaMessageParam`) is assignable to it.
 *
 * @example
 * ```ts
 * import type { AnthropicMessage } from 'turngate/formats';
 * const messages: AnthropicMessage[] = [
 *   { role: 'user', content: 'Weather in Oslo?' },
 *   { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Oslo' } }] },
 *   { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: 'Snow' }] },
 * ];
 * ```
 */
export type AnthropicMessage =
  | { readonly role: 'user' | 'assistant'; readonly content: string | readonly AnthropicContentBlock[] }
  | { readonly role: 'system'; readonly content?: string | readonly AnthropicContentBlock[] };

const CHECKED_TYPES = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result']);
const isCheckedType = (type: string) =>
  CHECKED_TYPES.has(type) || ANTHROPIC_SERVER_CALL_TYPES.has(type) || isAnthropicServerResultType(type);

const TextBlock = v.looseObject({ type: v.literal('text'), text: v.string() });
const ThinkingBlock = v.looseObject({ type: v.literal('thinking'), thinking: v.string() });
const RedactedThinkingBlock = v.looseObject({ type: v.literal('redacted_thinking'), data: v.string() });
const ToolUseBlock = v.looseObject({ type: v.literal('tool_use'), id: v.string(), name: v.string() });
const ServerCallBlock = v.looseObject({
  type: v.picklist([...ANTHROPIC_SERVER_CALL_TYPES]),
  id: v.string(),
  name: v.string(),
});
const ServerResultBlock = v.looseObject({
  type: v.pipe(v.string(), v.check(isAnthropicServerResultType)),
  tool_use_id: v.string(),
});
const ToolResultBlock = v.looseObject({
  type: v.literal('tool_result'),
  tool_use_id: v.string(),
  // Any content reads: content of another shape is a rule failure (tool_result_content_invalid).
  content: v.optional(v.unknown()),
  is_error: v.optional(v.boolean()),
});
const OtherBlock = v.looseObject({
  type: v.pipe(
    v.string(),
    v.check((type) => !isCheckedType(type)),
  ),
});

const assistantBlocks = v.array(
  v.variant('type', [
    TextBlock,
    ThinkingBlock,
    RedactedThinkingBlock,
    ToolUseBlock,
    ServerCallBlock,
    ServerResultBlock,
    OtherBlock,
  ]),
);
const userBlocks = v.array(v.variant('type', [TextBlock, ToolResultBlock, OtherBlock]));

/**
 * One message: `role` and `content`; assistant messages hold calls (`tool_use`, server calls and
 * their results), user messages `tool_result` blocks, system messages text (and no tool blocks;
 * their content may be absent). Unknown fields and other block types are kept.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { AnthropicMessageSchema } from 'turngate/formats';
 * v.is(AnthropicMessageSchema, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A' }] }); //=> true
 * v.is(AnthropicMessageSchema, { role: 'user', content: [{ type: 'tool_result' }] }); //=> false
 * ```
 */
export const AnthropicMessageSchema = v.pipe(
  v.variant('role', [
    v.looseObject({ role: v.literal('assistant'), content: v.union([v.string(), assistantBlocks]) }),
    v.looseObject({ role: v.literal('user'), content: v.union([v.string(), userBlocks]) }),
    v.looseObject({
      role: v.literal('system'),
      content: v.optional(v.union([v.string(), v.array(v.variant('type', [TextBlock, OtherBlock]))])),
    }),
  ]),
  ownStructureOf('anthropic'),
);

/**
 * The `messages` parameter.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { AnthropicMessagesSchema } from 'turngate/formats';
 * v.is(AnthropicMessagesSchema, [{ role: 'user', content: 'Hello' }]); //=> true
 * ```
 */
export const AnthropicMessagesSchema = v.array(AnthropicMessageSchema);
