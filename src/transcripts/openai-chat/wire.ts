/**
 * The OpenAI Chat Completions `messages` wire shape: the input types (the SDK's
 * `ChatCompletionMessageParam` is assignable to them) and the valibot schema the checker's
 * reader agrees with. Unknown fields are kept.
 *
 * Source: OpenAI API reference, "Create chat completion" (`messages`); the function calling guide.
 *
 * @module
 */
import * as v from 'valibot';
import { ownStructureOf } from '../core/wire-check.ts';

/**
 * A function tool call on an assistant message; `arguments` is a JSON string.
 *
 * @example
 * ```ts
 * import type { OpenAIChatToolCall } from 'turngate/formats';
 * const call: OpenAIChatToolCall = { id: 'call_8fk2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } };
 * ```
 */
export interface OpenAIChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/**
 * A custom tool call (free-form `input`).
 *
 * @example
 * ```ts
 * import type { OpenAIChatCustomToolCall } from 'turngate/formats';
 * const call: OpenAIChatCustomToolCall = { id: 'call_2', type: 'custom', custom: { name: 'run_sql', input: 'select 1' } };
 * ```
 */
export interface OpenAIChatCustomToolCall {
  readonly id: string;
  readonly type: 'custom';
  readonly custom: { readonly name: string; readonly input: string };
}

/**
 * A content part (`text`, `image_url`, `refusal`, ...), by its `type`.
 *
 * @example
 * ```ts
 * import type { OpenAIChatContentPart } from 'turngate/formats';
 * const part: OpenAIChatContentPart = { type: 'text' };
 * ```
 */
export interface OpenAIChatContentPart {
  readonly type: string;
}

/**
 * One message of the `messages` parameter. The SDK's `ChatCompletionMessageParam` is
 * assignable to it.
 *
 * @example
 * ```ts
 * import type { OpenAIChatMessage } from 'turngate/formats';
 * const messages: OpenAIChatMessage[] = [
 *   { role: 'developer', content: 'Answer briefly.' },
 *   { role: 'user', content: 'Weather in Oslo?' },
 *   { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
 *   { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
 * ];
 * ```
 */
export type OpenAIChatMessage =
  | {
      readonly role: 'system' | 'developer' | 'user';
      readonly content: string | readonly OpenAIChatContentPart[];
      readonly name?: string;
    }
  | {
      readonly role: 'assistant';
      readonly content?: string | readonly OpenAIChatContentPart[] | null;
      readonly tool_calls?: readonly (OpenAIChatToolCall | OpenAIChatCustomToolCall)[];
      readonly refusal?: string | null;
      readonly name?: string;
    }
  | {
      readonly role: 'tool';
      readonly tool_call_id: string;
      readonly content: string | readonly OpenAIChatContentPart[];
    }
  | { readonly role: 'function'; readonly name: string; readonly content: string | null };

const parts = v.array(v.looseObject({ type: v.string() }));
const content = v.union([v.string(), parts]);

/**
 * A tool call of an assistant message as the check reads it: a custom call (`type: 'custom'`,
 * `custom.name` and `custom.input` strings), or a function call (a `function` object with a
 * string `name`). What the API further requires of a function call (`type: 'function'`,
 * `arguments` a JSON string, a name of 1 to 64 of `a-z A-Z 0-9 _ -`) is a rule the check
 * reports (`openai-chat.tool_call_type_invalid`, `openai-chat.tool_call_arguments_not_string`,
 * `openai-chat.function_name_invalid`), so repair can fix it; the `OpenAIChatToolCall` type
 * states the strict shape.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { OpenAIChatToolCallSchema } from 'turngate/formats';
 * v.is(OpenAIChatToolCallSchema, { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }); //=> true
 * v.is(OpenAIChatToolCallSchema, { id: 'call_1', type: 'function' }); //=> false (no function object)
 * ```
 */
export const OpenAIChatToolCallSchema = v.union([
  v.looseObject({
    id: v.string(),
    type: v.literal('custom'),
    custom: v.looseObject({ name: v.string(), input: v.string() }),
  }),
  v.pipe(
    v.looseObject({
      id: v.string(),
      type: v.optional(v.unknown()),
      function: v.looseObject({ name: v.string(), arguments: v.optional(v.unknown()) }),
    }),
    v.check((call) => call.type !== 'custom', "a call of type 'custom' holds a custom object"),
  ),
]);

/**
 * One message, as the check reads it. A `tool` message's `tool_call_id` and `content` are read
 * when present; their absence is a rule failure (`openai-chat.tool_message_missing_field`), and
 * so is content that is not text (`openai-chat.tool_message_content_not_text`,
 * `openai-chat.tool_message_non_text_part`), not an input error.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { OpenAIChatMessageSchema } from 'turngate/formats';
 * v.is(OpenAIChatMessageSchema, { role: 'tool', tool_call_id: 'call_1', content: 'Snow' }); //=> true
 * v.is(OpenAIChatMessageSchema, { role: 'robot', content: 'Hi' }); //=> false
 * ```
 */
export const OpenAIChatMessageSchema = v.pipe(
  v.variant('role', [
    v.looseObject({ role: v.picklist(['system', 'developer', 'user']), content }),
    v.looseObject({
      role: v.literal('assistant'),
      content: v.nullish(content),
      tool_calls: v.nullish(v.array(OpenAIChatToolCallSchema)),
    }),
    v.looseObject({ role: v.literal('tool'), tool_call_id: v.nullish(v.string()), content: v.optional(v.unknown()) }),
    // A function message without its name is read: `openai-chat.function_message_name_missing`.
    v.looseObject({
      role: v.literal('function'),
      name: v.nullish(v.string()),
      content: v.nullable(v.string()),
    }),
  ]),
  ownStructureOf('openai-chat'),
);

/**
 * The `messages` parameter.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { OpenAIChatMessagesSchema } from 'turngate/formats';
 * v.is(OpenAIChatMessagesSchema, [{ role: 'user', content: 'Hello' }]); //=> true
 * ```
 */
export const OpenAIChatMessagesSchema = v.array(OpenAIChatMessageSchema);
