/**
 * The Amazon Bedrock Converse `messages` wire shape: the input types (the SDK's `Message` from
 * `@aws-sdk/client-bedrock-runtime` is assignable to them) and the valibot schema the checker's
 * reader agrees with. Content blocks are untyped unions told by their one field; unknown fields
 * and block kinds are kept.
 *
 * Source: Bedrock API reference, `Message`, `ContentBlock`, `ToolUseBlock`, `ToolResultBlock`,
 * `ReasoningContentBlock`.
 *
 * @module
 */
import * as v from 'valibot';
import { jsonObject, ownStructureOf } from '../core/wire-check.ts';

/**
 * A tool call the model made (`ToolUseBlock`): its id (1 to 64 of `[a-zA-Z0-9_-]`), the tool's
 * name and its input (a JSON value, an object for tool specs).
 *
 * @example
 * ```ts
 * import type { TranscriptMessage } from 'turngate/transcripts';
 * const message: TranscriptMessage<'bedrock-converse'> = {
 *   role: 'assistant',
 *   content: [{ toolUse: { toolUseId: 'tooluse_01', name: 'get_weather', input: { city: 'Oslo' } } }],
 * };
 * ```
 */
export interface BedrockToolUse {
  readonly toolUseId?: string | undefined;
  readonly name?: string | undefined;
  readonly input?: unknown;
  /** `server_tool_use` for a tool the API runs itself. */
  readonly type?: string | undefined;
}

/**
 * The result of a tool call (`ToolResultBlock`): the call's id, its content blocks (`text`,
 * `json`, `image`, `document`, ...) and an optional `status` (`success` or `error`).
 *
 * @example
 * ```ts
 * import type { BedrockToolResult } from 'turngate/formats';
 * const result: BedrockToolResult = { toolUseId: 'tooluse_01', content: [{ json: { temperature: 4 } }], status: 'success' };
 * ```
 */
export interface BedrockToolResult {
  readonly toolUseId?: string | undefined;
  readonly content?: readonly { readonly text?: string | undefined; readonly json?: unknown }[] | undefined;
  readonly status?: string | undefined;
}

/**
 * One content block (`ContentBlock`): a union told by its one field (`text`, `toolUse`,
 * `toolResult`, `reasoningContent`, `image`, ...).
 *
 * @example
 * ```ts
 * import type { BedrockContentBlock } from 'turngate/formats';
 * const blocks: BedrockContentBlock[] = [{ text: 'Checking.' }, { toolUse: { toolUseId: 'tooluse_01', name: 'get_weather', input: {} } }];
 * ```
 */
export interface BedrockContentBlock {
  readonly text?: string | undefined;
  readonly toolUse?: BedrockToolUse | undefined;
  readonly toolResult?: BedrockToolResult | undefined;
  /** `{ reasoningText: { text, signature } }` or `{ redactedContent }`. */
  readonly reasoningContent?: unknown;
  readonly image?: unknown;
  readonly document?: unknown;
  readonly cachePoint?: unknown;
  readonly guardContent?: unknown;
}

/**
 * One message of `messages`: `role` `user` or `assistant` (the system prompt is the request's
 * `system` field) and its content blocks. The SDK's `Message` is assignable to it: the SDK's
 * `ConversationRole` also lists `system`, which the API reference does not list for `messages`
 * (the check reads a `system` message as input that is not Converse messages).
 *
 * @example
 * ```ts
 * import type { TranscriptMessage } from 'turngate/transcripts';
 * const messages: TranscriptMessage<'bedrock-converse'>[] = [
 *   { role: 'user', content: [{ text: 'Weather in Oslo?' }] },
 *   { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_01', name: 'get_weather', input: { city: 'Oslo' } } }] },
 *   { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_01', content: [{ text: 'Snow' }], status: 'success' } }] },
 * ];
 * ```
 */
export interface BedrockMessage {
  readonly role?: 'user' | 'assistant' | 'system' | undefined;
  readonly content?: readonly BedrockContentBlock[] | undefined;
}

const ToolUse = jsonObject({ toolUseId: v.string(), name: v.string() });
const ToolResult = jsonObject({ toolUseId: v.string(), content: v.array(jsonObject({})) });
const Block = jsonObject({
  text: v.optional(v.string()),
  toolUse: v.optional(ToolUse),
  toolResult: v.optional(ToolResult),
});

/**
 * One message as the check reads it: `role` `user` or `assistant`, `content` a list of block
 * objects, a `toolUse` with its id and name (in an assistant message), a `toolResult` with its id
 * and a list of content blocks, text that is a string. What the API refuses in a message of this
 * shape (ids outside the grammar, a blank text, an empty content list, a `status` other than
 * `success` and `error`, a `json` result that is no object, the order of roles and results) is a
 * rule of the check, not an input error, so the schema takes it.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { BedrockMessageSchema } from 'turngate/formats';
 * v.is(BedrockMessageSchema, { role: 'assistant', content: [{ text: 'Sunny.' }] }); //=> true
 * v.is(BedrockMessageSchema, { role: 'user', content: [{ toolUse: { toolUseId: 'tooluse_01', name: 'x', input: {} } }] }); //=> false
 * ```
 */
export const BedrockMessageSchema = v.pipe(
  jsonObject({ role: v.picklist(['user', 'assistant']), content: v.array(Block) }),
  v.check(
    (message) => message.content.every((block) => block.toolUse === undefined || block.toolResult === undefined),
    'expected content blocks with one member (toolUse or toolResult, not both)',
  ),
  v.check(
    (message) => message.role === 'assistant' || message.content.every((block) => block.toolUse === undefined),
    'expected no toolUse block in a user message',
  ),
  ownStructureOf('bedrock-converse'),
);

/**
 * The `messages` parameter of `Converse` and `ConverseStream`, each message as
 * {@link BedrockMessageSchema} reads it.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { BedrockMessagesSchema } from 'turngate/formats';
 * v.is(BedrockMessagesSchema, [{ role: 'user', content: [{ text: 'Weather in Oslo?' }] }]); //=> true
 * v.is(BedrockMessagesSchema, [{ role: 'user', content: 'Weather in Oslo?' }]); //=> false
 * ```
 */
export const BedrockMessagesSchema = v.array(BedrockMessageSchema);
