/**
 * LangChain.js message histories as they are held and stored: the message types (the
 * `StoredMessage` and `SerializedConstructor` types of `@langchain/core` are assignable to
 * them) and the valibot schema the checker's reader agrees with. Unknown fields are kept.
 *
 * Three serialized forms, each one LangChain reads back (a history may mix them):
 * - the `toJSON()` form of a message (`Serializable.toJSON`, `load/serializable.ts`), what
 *   `JSON.stringify` and LangGraph checkpoints write: `{ lc: 1, type: 'constructor', id:
 *   ['langchain_core', 'messages', 'AIMessage'], kwargs: { content, tool_calls, ... } }`
 *   (classes `HumanMessage`, `AIMessage`, `SystemMessage`, `ToolMessage`, `FunctionMessage`,
 *   `ChatMessage` and their `...Chunk`s; read back by `load()` and `coerceMessageLikeToMessage`);
 * - the `StoredMessage` form (`BaseMessage.toDict()`, `mapChatMessagesToStoredMessages`):
 *   `{ type: 'ai', data: { content, tool_calls, ... } }` (types `human`, `ai`, `system`,
 *   `tool`, `function`, `generic`; read back by `mapStoredMessagesToChatMessages`);
 * - the message-like object `coerceMessageLikeToMessage` takes: `{ type: 'ai', content,
 *   tool_calls }` (types `human`/`user`, `ai`/`assistant`, `system`, `developer`, `tool`).
 *
 * Source: `@langchain/core` `messages/base.ts` (`StoredMessage`, `toDict`), `messages/utils.ts`
 * (`coerceMessageLikeToMessage`, `mapStoredMessageToChatMessage`), `messages/tool.ts`
 * (`ToolCall`, `ToolMessage`), `messages/ai.ts` (`AIMessage`).
 *
 * @module
 */
import * as v from 'valibot';
import { isJsonObject } from '../core/input.ts';
import { ownStructureOf } from '../core/wire-check.ts';

/**
 * A tool call of an `AIMessage` (`ToolCall` of `@langchain/core`): `args` is an object.
 *
 * @example
 * ```ts
 * import type { LangChainToolCall } from 'turngate/formats';
 * const call: LangChainToolCall = { id: 'call_1', name: 'get_weather', args: { city: 'Oslo' }, type: 'tool_call' };
 * ```
 */
export interface LangChainToolCall {
  readonly id?: string;
  readonly name: string;
  readonly args: { readonly [key: string]: unknown };
  readonly type?: 'tool_call';
}

/**
 * A content block (`text`, `image_url`, `tool_use`, `reasoning`, ...), by its `type`.
 *
 * @example
 * ```ts
 * import type { LangChainContentBlock } from 'turngate/formats';
 * const block: LangChainContentBlock = { type: 'text', text: 'Hello' };
 * ```
 */
export interface LangChainContentBlock {
  readonly type: string;
  readonly [key: string]: unknown;
}

/**
 * The fields of a message (the `kwargs` of the `toJSON()` form, the `data` of a
 * `StoredMessage`, or the message-like object itself).
 *
 * @example
 * ```ts
 * import type { LangChainMessageFields } from 'turngate/formats';
 * const fields: LangChainMessageFields = { content: '', tool_calls: [{ id: 'call_1', name: 'f', args: {} }] };
 * ```
 */
export interface LangChainMessageFields {
  readonly content?: string | readonly LangChainContentBlock[];
  readonly tool_calls?: readonly LangChainToolCall[];
  readonly invalid_tool_calls?: readonly { readonly [key: string]: unknown }[];
  readonly tool_call_id?: string | undefined;
  readonly status?: 'success' | 'error';
  readonly artifact?: unknown;
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  /** A ChatMessage's (`generic`) role. */
  readonly role?: string | undefined;
  readonly additional_kwargs?: { readonly [key: string]: unknown };
  readonly response_metadata?: { readonly [key: string]: unknown };
  readonly usage_metadata?: { readonly [key: string]: unknown };
}

/**
 * A message in the `toJSON()` form (`SerializedConstructor` of `@langchain/core`).
 *
 * @example
 * ```ts
 * import type { LangChainSerializedMessage } from 'turngate/formats';
 * const m: LangChainSerializedMessage = { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'HumanMessage'], kwargs: { content: 'Hi' } };
 * ```
 */
export interface LangChainSerializedMessage {
  readonly lc: number;
  readonly type: 'constructor';
  readonly id: readonly string[];
  readonly kwargs: LangChainMessageFields;
}

/**
 * A message in the `StoredMessage` form (`BaseMessage.toDict()`).
 *
 * @example
 * ```ts
 * import type { LangChainStoredMessage } from 'turngate/formats';
 * const m: LangChainStoredMessage = { type: 'tool', data: { content: 'Snow', tool_call_id: 'call_1' } };
 * ```
 */
export interface LangChainStoredMessage {
  readonly type: string;
  readonly data: LangChainMessageFields;
}

/**
 * The `type` of a message-like object `coerceMessageLikeToMessage` takes (`@langchain/core`
 * `messages/utils.ts`): `human`/`user`, `ai`/`assistant`, `system`/`developer`, `tool`.
 *
 * @example
 * ```ts
 * import type { LangChainMessageLikeType } from 'turngate/formats';
 * const type: LangChainMessageLikeType = 'human';
 * ```
 */
export type LangChainMessageLikeType = 'human' | 'user' | 'ai' | 'assistant' | 'system' | 'developer' | 'tool';

/**
 * A message-like object (`{ type, content, ... }`, as `coerceMessageLikeToMessage` takes it).
 *
 * @example
 * ```ts
 * import type { LangChainMessageLike } from 'turngate/formats';
 * const m: LangChainMessageLike = { type: 'ai', content: '', tool_calls: [{ id: 'call_1', name: 'f', args: {} }] };
 * ```
 */
export interface LangChainMessageLike extends LangChainMessageFields {
  readonly type: LangChainMessageLikeType;
}

/**
 * One message of a LangChain.js history, in any of the three serialized forms.
 *
 * @example
 * ```ts
 * import type { LangChainMessage } from 'turngate/formats';
 * const history: LangChainMessage[] = [
 *   { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'HumanMessage'], kwargs: { content: 'Weather in Oslo?' } },
 *   { type: 'ai', data: { content: '', tool_calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Oslo' } }] } },
 *   { type: 'tool', content: 'Snow', tool_call_id: 'call_1' },
 * ];
 * ```
 */
export type LangChainMessage = LangChainSerializedMessage | LangChainStoredMessage | LangChainMessageLike;

/** What each message is, whatever its form. Internal. */
export type LangChainKind = 'human' | 'ai' | 'system' | 'tool' | 'function' | 'generic';

/** The message classes of the `toJSON()` form (the last element of `id`), by kind. Internal. */
export const CLASS_KINDS: ReadonlyMap<string, LangChainKind> = new Map([
  ['HumanMessage', 'human'],
  ['HumanMessageChunk', 'human'],
  ['AIMessage', 'ai'],
  ['AIMessageChunk', 'ai'],
  ['SystemMessage', 'system'],
  ['SystemMessageChunk', 'system'],
  ['ToolMessage', 'tool'],
  ['ToolMessageChunk', 'tool'],
  ['FunctionMessage', 'function'],
  ['FunctionMessageChunk', 'function'],
  ['ChatMessage', 'generic'],
  ['ChatMessageChunk', 'generic'],
]);

/** The `type`s of the `StoredMessage` form (`mapStoredMessageToChatMessage`), by kind. Internal. */
export const STORED_KINDS: ReadonlyMap<string, LangChainKind> = new Map([
  ['human', 'human'],
  ['ai', 'ai'],
  ['system', 'system'],
  ['tool', 'tool'],
  ['function', 'function'],
  ['generic', 'generic'],
]);

/** The `type`s of a message-like object (`coerceMessageLikeToMessage`), by kind. Internal. */
export const LIKE_KINDS: ReadonlyMap<string, LangChainKind> = new Map<LangChainMessageLikeType, LangChainKind>([
  ['human', 'human'],
  ['user', 'human'],
  ['ai', 'ai'],
  ['assistant', 'ai'],
  ['system', 'system'],
  ['developer', 'system'],
  ['tool', 'tool'],
]);

const content = v.nullish(v.union([v.string(), v.array(v.looseObject({ type: v.string() }))]));

/**
 * A tool call as the check reads it: an object with a string `name`; `id` a string when present.
 * A missing id and `args` that are not an object are rules the check reports
 * (`langchain.tool_call_id_missing`, `langchain.tool_call_args_not_object`); the
 * `LangChainToolCall` type states the strict shape.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { LangChainToolCallSchema } from 'turngate/formats';
 * v.is(LangChainToolCallSchema, { id: 'call_1', name: 'f', args: {} }); //=> true
 * v.is(LangChainToolCallSchema, { id: 'call_1', args: {} }); //=> false
 * ```
 */
export const LangChainToolCallSchema = v.looseObject({ name: v.string(), id: v.nullish(v.string()) });

const FIELDS: Readonly<Record<LangChainKind, v.GenericSchema>> = {
  human: v.looseObject({ content }),
  system: v.looseObject({ content }),
  ai: v.looseObject({ content, tool_calls: v.nullish(v.array(LangChainToolCallSchema)) }),
  tool: v.looseObject({
    content,
    tool_call_id: v.nullish(v.string()),
    status: v.nullish(v.picklist(['success', 'error'])),
  }),
  function: v.looseObject({ content, name: v.string() }),
  generic: v.looseObject({ content, role: v.string() }),
};

const fieldsOf = (kinds: ReadonlyMap<string, LangChainKind>, key: unknown, fields: unknown): boolean => {
  const kind = typeof key === 'string' ? kinds.get(key) : undefined;
  return kind !== undefined && v.is(FIELDS[kind], fields);
};

const absent = v.optional(v.undefined());
/** An object that is not an array (valibot's object schemas take arrays, and copy them into objects). */
const record = v.custom<{ readonly [key: string]: unknown }>(isJsonObject, 'an object');

/**
 * One message, as the check reads it: a `toJSON()` form (`lc` present), a `StoredMessage`
 * (`data` present), or a message-like object, with the fields its kind has. A ToolMessage
 * without `tool_call_id` is a rule failure (`langchain.tool_message_missing_id`), not an input
 * error.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { LangChainMessageSchema } from 'turngate/formats';
 * v.is(LangChainMessageSchema, { type: 'tool', data: { content: 'Snow', tool_call_id: 'call_1' } }); //=> true
 * v.is(LangChainMessageSchema, { type: 'robot', content: 'Hi' }); //=> false
 * ```
 */
export const LangChainMessageSchema = v.pipe(
  v.union([
    v.pipe(
      v.looseObject({
        lc: v.literal(1),
        type: v.literal('constructor'),
        id: v.pipe(v.array(v.string()), v.minLength(1)),
        kwargs: record,
      }),
      v.check((m) => fieldsOf(CLASS_KINDS, m.id[m.id.length - 1], m.kwargs), 'a message class with its fields'),
    ),
    v.pipe(
      v.looseObject({ lc: absent, type: v.string(), data: record }),
      v.check((m) => fieldsOf(STORED_KINDS, m.type, m.data), 'a stored message type with its fields'),
    ),
    v.pipe(
      v.looseObject({ lc: absent, data: absent, type: v.string() }),
      v.check((m) => fieldsOf(LIKE_KINDS, m.type, m), 'a message-like type with its fields'),
    ),
  ]),
  ownStructureOf('langchain'),
);

/**
 * A LangChain.js history (a LangGraph `messages` state value, serialized).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { LangChainMessagesSchema } from 'turngate/formats';
 * v.is(LangChainMessagesSchema, [{ type: 'human', content: 'Hello' }]); //=> true
 * ```
 */
export const LangChainMessagesSchema = v.array(LangChainMessageSchema);
