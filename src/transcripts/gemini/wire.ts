/**
 * The Gemini `generateContent` `contents` wire shape: the input types (the SDK's `Content` is
 * assignable to them) and the valibot schema the checker's reader agrees with. Unknown fields
 * and part kinds are kept.
 *
 * Source: Gemini API reference, `Content` and `Part`; the function calling guide.
 *
 * @module
 */
import * as v from 'valibot';
import { jsonObject, ownStructureOf } from '../core/wire-check.ts';

/**
 * A function call the model made; `id` is optional (without it, calls pair with responses by
 * position and name).
 *
 * @example
 * ```ts
 * import type { GeminiFunctionCall } from 'turngate/formats';
 * const call: GeminiFunctionCall = { name: 'get_weather', args: { city: 'Oslo' } };
 * ```
 */
export interface GeminiFunctionCall {
  readonly id?: string;
  readonly name?: string;
  readonly args?: { readonly [key: string]: unknown };
}

/**
 * The response to a function call, with the call's `name` (and `id` when the call had one).
 *
 * @example
 * ```ts
 * import type { GeminiFunctionResponse } from 'turngate/formats';
 * const response: GeminiFunctionResponse = { name: 'get_weather', response: { forecast: 'Snow' } };
 * ```
 */
export interface GeminiFunctionResponse {
  readonly id?: string;
  readonly name?: string;
  readonly response?: { readonly [key: string]: unknown };
}

/**
 * One part of a content: text, a function call, a function response, or any other kind.
 *
 * @example
 * ```ts
 * import type { GeminiPart } from 'turngate/formats';
 * const part: GeminiPart = { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } };
 * ```
 */
export interface GeminiPart {
  readonly text?: string;
  readonly functionCall?: GeminiFunctionCall;
  readonly functionResponse?: GeminiFunctionResponse;
  readonly thought?: boolean;
  readonly thoughtSignature?: string;
}

/**
 * One content of `contents`: `role` `user` or `model`, and its parts. The SDK's `Content` is
 * assignable to it.
 *
 * @example
 * ```ts
 * import type { GeminiContent } from 'turngate/formats';
 * const contents: GeminiContent[] = [
 *   { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
 *   { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
 *   { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { forecast: 'Snow' } } }] },
 * ];
 * ```
 */
export interface GeminiContent {
  readonly role?: string;
  readonly parts?: readonly GeminiPart[];
}

const FunctionCall = jsonObject({ id: v.optional(v.string()), name: v.pipe(v.string(), v.nonEmpty()) });
const FunctionResponse = jsonObject({ id: v.optional(v.string()) });
const Part = jsonObject({ functionCall: v.optional(FunctionCall), functionResponse: v.optional(FunctionResponse) });

/**
 * One content as the check reads it: `role` `user` or `model` (or the legacy `function`, which is
 * `gemini.function_role_unsupported`; or none, with parts: `gemini.content_role_missing` in a
 * conversation), `parts` a list of part objects (absent is
 * `gemini.content_without_parts`), a `functionCall` with a function `name`, ids that are
 * strings. Where a part stands (a `functionCall` in a user content, a `functionResponse` in a
 * model content) and what a `functionResponse` lacks (`name`, an object `response`) are rules of
 * the check, not input errors, so the schema takes them.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { GeminiContentSchema } from 'turngate/formats';
 * v.is(GeminiContentSchema, { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} } }] }); //=> true
 * v.is(GeminiContentSchema, { role: 'model', parts: [{ functionCall: { args: {} } }] }); //=> false
 * v.is(GeminiContentSchema, { role: 'assistant', parts: [{ text: 'Hi' }] }); //=> false
 * ```
 */
export const GeminiContentSchema = v.pipe(
  jsonObject({ role: v.optional(v.picklist(['user', 'model', 'function'])), parts: v.optional(v.array(Part)) }),
  v.check(
    (content) => content.role !== undefined || (content.parts !== undefined && content.parts.length > 0),
    'a content with a role, or with its parts (a content without a role is gemini.content_role_missing)',
  ),
  ownStructureOf('gemini'),
);

/**
 * The `contents` parameter.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { GeminiContentsSchema } from 'turngate/formats';
 * v.is(GeminiContentsSchema, [{ role: 'user', parts: [{ text: 'Hello' }] }]); //=> true
 * ```
 */
export const GeminiContentsSchema = v.array(GeminiContentSchema);
