/**
 * The Mistral chat completions `messages` wire shape (the JSON the API takes, snake_case:
 * `tool_calls`, `tool_call_id`), the input types and the valibot schema the checker's reader
 * agrees with. Unknown fields are kept.
 *
 * The SDK (`@mistralai/mistralai`) names the same fields in camelCase in its TypeScript types
 * (`AssistantMessage.toolCalls`, `ToolMessage.toolCallId`) and writes them in snake_case when it
 * sends a request: its `AssistantMessage`, `ToolMessage`, ... are not the wire shape and are not
 * taken here; its `*$Outbound` types (`AssistantMessage$Outbound`, ...) are, and are assignable
 * to `MistralMessage`. A history of SDK objects is the wire JSON after
 * `ChatCompletionRequest$outboundSchema.parse` (the SDK's own serializer).
 *
 * Source: Mistral API reference, "Chat Completion" (`messages`: SystemMessage, UserMessage,
 * AssistantMessage, ToolMessage); the function calling guide.
 *
 * @module
 */
import * as v from 'valibot';
import { isJsonObject } from '../core/input.ts';
import { ownStructureOf } from '../core/wire-check.ts';

/**
 * A tool call on an assistant message: `arguments` is the arguments object, or its JSON text
 * (Mistral takes both).
 *
 * @example
 * ```ts
 * import type { MistralToolCall } from 'turngate/formats';
 * const call: MistralToolCall = { id: 'D681PevKs', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } };
 * ```
 */
export interface MistralToolCall {
  readonly id: string;
  readonly type?: string | undefined;
  readonly function: { readonly name: string; readonly arguments: string | { readonly [key: string]: unknown } };
  readonly index?: number | undefined;
}

/**
 * A content chunk (`text`, `image_url`, `document_url`, `thinking`, ...), by its `type`.
 *
 * @example
 * ```ts
 * import type { MistralContentChunk } from 'turngate/formats';
 * const chunk: MistralContentChunk = { type: 'text' };
 * ```
 */
export interface MistralContentChunk {
  readonly type: string;
}

/**
 * One message of the `messages` parameter, as the API takes it.
 *
 * @example
 * ```ts
 * import type { MistralMessage } from 'turngate/formats';
 * const messages: MistralMessage[] = [
 *   { role: 'user', content: 'Weather in Oslo?' },
 *   { role: 'assistant', content: null, tool_calls: [{ id: 'D681PevKs', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
 *   { role: 'tool', tool_call_id: 'D681PevKs', name: 'get_weather', content: 'Snow' },
 * ];
 * ```
 */
export type MistralMessage =
  | { readonly role: 'system'; readonly content: string | readonly MistralContentChunk[] }
  | { readonly role: 'user'; readonly content: string | readonly MistralContentChunk[] | null }
  | {
      readonly role: 'assistant';
      readonly content?: string | readonly MistralContentChunk[] | null | undefined;
      readonly tool_calls?: readonly MistralToolCall[] | null | undefined;
      readonly prefix?: boolean | undefined;
      /** The SDK's TypeScript name of `tool_calls`: not the wire's, refused. */
      readonly toolCalls?: never;
    }
  | {
      readonly role: 'tool';
      readonly content: string | readonly MistralContentChunk[] | null;
      readonly tool_call_id?: string | null | undefined;
      readonly name?: string | null | undefined;
      /** The SDK's TypeScript name of `tool_call_id`: not the wire's, refused. */
      readonly toolCallId?: never;
    };

const chunks = v.array(v.looseObject({ type: v.string() }));
const content = v.union([v.string(), chunks]);

/**
 * A tool call of an assistant message as the check reads it: a string `id`, a `function` object
 * with a string `name` and `arguments` an object or a string. What the API further requires (an
 * id of exactly 9 of `a-z A-Z 0-9`, a name of 1 to 64 of `a-z A-Z 0-9 _ -`) is a rule the check
 * reports (`mistral.tool_call_id_invalid`, `mistral.function_name_invalid`).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { MistralToolCallSchema } from 'turngate/formats';
 * v.is(MistralToolCallSchema, { id: 'D681PevKs', function: { name: 'f', arguments: {} } }); //=> true
 * v.is(MistralToolCallSchema, { id: 'D681PevKs' }); //=> false (no function object)
 * ```
 */
export const MistralToolCallSchema = v.looseObject({
  id: v.string(),
  function: v.looseObject({
    name: v.string(),
    arguments: v.union([
      v.string(),
      v.custom<{ readonly [key: string]: unknown }>(isJsonObject, 'an arguments object'),
    ]),
  }),
});

/**
 * One message, as the check reads it. A `tool` message's `tool_call_id` is read when present;
 * its absence is a rule failure (`mistral.tool_message_missing_id`), not an input error. The
 * SDK's camelCase fields (`toolCalls`, `toolCallId`) are not the wire's: the check refuses them
 * as input errors naming the wire field.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { MistralMessageSchema } from 'turngate/formats';
 * v.is(MistralMessageSchema, { role: 'tool', tool_call_id: 'D681PevKs', content: 'Snow' }); //=> true
 * v.is(MistralMessageSchema, { role: 'developer', content: 'Hi' }); //=> false
 * ```
 */
export const MistralMessageSchema = v.pipe(
  v.variant('role', [
    v.looseObject({ role: v.literal('system'), content }),
    v.looseObject({ role: v.literal('user'), content: v.nullable(content) }),
    v.looseObject({
      role: v.literal('assistant'),
      content: v.nullish(content),
      tool_calls: v.nullish(v.array(MistralToolCallSchema)),
      toolCalls: v.optional(v.never()),
    }),
    v.looseObject({
      role: v.literal('tool'),
      tool_call_id: v.nullish(v.string()),
      name: v.nullish(v.string()),
      content: v.nullish(content),
      toolCallId: v.optional(v.never()),
    }),
  ]),
  ownStructureOf('mistral'),
);

/**
 * The `messages` parameter.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { MistralMessagesSchema } from 'turngate/formats';
 * v.is(MistralMessagesSchema, [{ role: 'user', content: 'Hello' }]); //=> true
 * ```
 */
export const MistralMessagesSchema = v.array(MistralMessageSchema);
