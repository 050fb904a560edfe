/**
 * The OpenAI Responses API `input` items: the input types (the SDK's `ResponseInputItem` is
 * assignable to them) and the valibot schema the checker's reader agrees with. Unknown fields
 * and item types are kept.
 *
 * Source: OpenAI API reference, "Create a model response" (`input` items); the function calling
 * guide; the reasoning guide.
 *
 * @module
 */
import * as v from 'valibot';
import { ownStructureOf } from '../core/wire-check.ts';
import { RESPONSES_CALL_TYPES, RESPONSES_OUTPUT_TYPES } from './kinds.ts';

/**
 * An input message (`type: 'message'` may be left out).
 *
 * @example
 * ```ts
 * import type { ResponsesMessageItem } from 'turngate/formats';
 * const item: ResponsesMessageItem = { role: 'user', content: 'Weather in Oslo?' };
 * ```
 */
export interface ResponsesMessageItem {
  readonly type?: 'message';
  readonly role: 'user' | 'assistant' | 'system' | 'developer';
  readonly content: string | readonly { readonly type: string }[];
  readonly id?: string;
}

/**
 * A function call the model made; `arguments` is a JSON string.
 *
 * @example
 * ```ts
 * import type { ResponsesFunctionCallItem } from 'turngate/formats';
 * const item: ResponsesFunctionCallItem = { type: 'function_call', id: 'fc_01', call_id: 'call_01', name: 'get_weather', arguments: '{"city":"Oslo"}' };
 * ```
 */
export interface ResponsesFunctionCallItem {
  readonly type: 'function_call';
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
  readonly id?: string;
}

/**
 * The output of a function call, paired by `call_id`.
 *
 * @example
 * ```ts
 * import type { ResponsesFunctionCallOutputItem } from 'turngate/formats';
 * const item: ResponsesFunctionCallOutputItem = { type: 'function_call_output', call_id: 'call_01', output: 'Snow' };
 * ```
 */
export interface ResponsesFunctionCallOutputItem {
  readonly type: 'function_call_output';
  readonly call_id?: string | null;
  readonly output: string | readonly { readonly type: string }[];
  readonly id?: string | null;
}

/**
 * A reasoning item; it travels with the item that followed it in the response.
 *
 * @example
 * ```ts
 * import type { ResponsesReasoningItem } from 'turngate/formats';
 * const item: ResponsesReasoningItem = { type: 'reasoning', id: 'rs_01', summary: [] };
 * ```
 */
export interface ResponsesReasoningItem {
  readonly type: 'reasoning';
  readonly id: string;
  readonly summary: readonly unknown[];
  readonly encrypted_content?: string | null;
}

/**
 * Any other item (custom tool calls and their outputs, computer, shell and apply-patch calls,
 * hosted tool calls, item references, ...), by its `type`.
 *
 * @example
 * ```ts
 * import type { ResponsesOtherItem } from 'turngate/formats';
 * const item: ResponsesOtherItem = { type: 'item_reference', id: 'msg_01' };
 * ```
 */
export interface ResponsesOtherItem {
  readonly type?: string | null;
  readonly id?: string | null;
}

/**
 * One item of `input`. The SDK's `ResponseInputItem` is assignable to it.
 *
 * @example
 * ```ts
 * import type { ResponsesInputItem } from 'turngate/formats';
 * const input: ResponsesInputItem[] = [
 *   { role: 'user', content: 'Weather in Oslo?' },
 *   { type: 'function_call', call_id: 'call_01', name: 'get_weather', arguments: '{"city":"Oslo"}' },
 *   { type: 'function_call_output', call_id: 'call_01', output: 'Snow' },
 * ];
 * ```
 */
export type ResponsesInputItem =
  | ResponsesMessageItem
  | ResponsesFunctionCallItem
  | ResponsesFunctionCallOutputItem
  | ResponsesReasoningItem
  | ResponsesOtherItem;

const MESSAGE_ROLES = ['user', 'assistant', 'system', 'developer'] as const;
const content = v.union([v.string(), v.array(v.looseObject({ type: v.string() }))]);
const isOtherType = (type: string) =>
  type !== 'message' &&
  type !== 'item_reference' &&
  type !== 'reasoning' &&
  !RESPONSES_CALL_TYPES.has(type) &&
  !RESPONSES_OUTPUT_TYPES.has(type);

/**
 * One `input` item the checker can read: messages (with or without `type`), item references
 * (their `id` a string), client calls (their `call_id` and, for function and custom tool calls,
 * `name` strings), outputs, reasoning, and any other item type. Fields whose wrong shape is a
 * rule failure rather than unreadable input are not constrained here: item `id`s (rule
 * `openai-responses.item_id_invalid`), an output's `call_id` and `output`
 * (`openai-responses.output_missing_field`, `openai-responses.output_not_content`) and a call's
 * `arguments` (`openai-responses.function_call_arguments_not_string`).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ResponsesInputItemSchema } from 'turngate/formats';
 * v.is(ResponsesInputItemSchema, { type: 'function_call', call_id: 'call_01', name: 'f', arguments: '{}' }); //=> true
 * v.is(ResponsesInputItemSchema, { type: 'function_call', call_id: 7, name: 'f', arguments: '{}' }); //=> false
 * ```
 */
export const ResponsesInputItemSchema = v.pipe(
  v.union([
    v.looseObject({ type: v.optional(v.literal('message')), role: v.picklist(MESSAGE_ROLES), content }),
    v.looseObject({ type: v.nullish(v.literal('item_reference')), id: v.string(), role: v.optional(v.never()) }),
    v.looseObject({ type: v.literal('reasoning') }),
    v.looseObject({ type: v.picklist(['function_call', 'custom_tool_call']), call_id: v.string(), name: v.string() }),
    v.looseObject({
      type: v.picklist([...RESPONSES_CALL_TYPES].filter((t) => t !== 'function_call' && t !== 'custom_tool_call')),
      call_id: v.string(),
    }),
    v.looseObject({ type: v.picklist([...RESPONSES_OUTPUT_TYPES]) }),
    v.looseObject({ type: v.pipe(v.string(), v.check(isOtherType)) }),
  ]),
  ownStructureOf('openai-responses'),
);

/**
 * The `input` parameter as a list of items.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ResponsesInputSchema } from 'turngate/formats';
 * v.is(ResponsesInputSchema, [{ role: 'user', content: 'Hello' }]); //=> true
 * ```
 */
export const ResponsesInputSchema = v.array(ResponsesInputItemSchema);
