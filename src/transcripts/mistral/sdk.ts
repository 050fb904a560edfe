/**
 * The Mistral SDK's own message objects (`@mistralai/mistralai`, camelCase: `toolCalls`,
 * `toolCallId`, `imageUrl`, ...) and the wire messages the API takes (snake_case, what the check
 * reads): `fromMistralSdk` writes what the SDK's serializer sends (`ChatCompletionRequest$outboundSchema`:
 * its field renames and its defaults), `toMistralSdk` the objects its client takes back. The SDK
 * is no dependency: these are its shapes, type-tested against it.
 *
 * Source: `@mistralai/mistralai` 2.x, `src/models/components/` (`AssistantMessage`, `ToolMessage`,
 * `ToolCall`, the content chunks and their `remap$` tables).
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../core/input.ts';
import type { MistralMessage } from './wire.ts';

/**
 * A tool call as the SDK's `ToolCall` holds it: `id` and `type` may be left out (the SDK sends
 * `"null"` and `"function"`).
 *
 * @example
 * ```ts
 * import type { MistralSdkToolCall } from 'turngate/formats';
 * const call: MistralSdkToolCall = { id: 'D681PevKs', function: { name: 'get_weather', arguments: { city: 'Oslo' } } };
 * ```
 */
export interface MistralSdkToolCall {
  id?: string | undefined;
  type?: 'function' | undefined;
  function: { name: string; arguments: string | { [key: string]: unknown } };
  index?: number | undefined;
}

/** A chunk of a `thinking` chunk's `thinking` (text, a reference, a tool reference). */
export type MistralSdkThinkingChunk =
  | { type?: 'text' | undefined; text: string }
  | { type?: 'reference' | undefined; referenceIds: (number | string)[] }
  | {
      type?: 'tool_reference' | undefined;
      tool: string;
      title: string;
      url?: string | null | undefined;
      favicon?: string | null | undefined;
      description?: string | null | undefined;
    };

/** The SDK's `text` and `thinking` chunks: what a system message holds. */
export type MistralSdkSystemChunk =
  | { type: 'text'; text: string }
  | {
      type: 'thinking';
      thinking: MistralSdkThinkingChunk[];
      signature?: string | null | undefined;
      closed?: boolean | undefined;
    };

/**
 * A content chunk as the SDK's `ContentChunk` holds it, of the kinds it names (`text`,
 * `thinking`, `image_url` with `imageUrl`, `document_url` with `documentUrl`, `reference` with
 * `referenceIds`, `file` with `fileId`, `input_audio` with `inputAudio`).
 *
 * @example
 * ```ts
 * import type { MistralSdkChunk } from 'turngate/formats';
 * const chunk: MistralSdkChunk = { type: 'image_url', imageUrl: 'https://example.com/cat.png' };
 * ```
 */
export type MistralSdkChunk =
  | MistralSdkSystemChunk
  | { type: 'image_url'; imageUrl: string | { url: string } }
  | { type: 'document_url'; documentUrl: string; documentName?: string | null | undefined }
  | { type: 'reference'; referenceIds: (number | string)[] }
  | { type: 'file'; fileId: string }
  | { type: 'input_audio'; inputAudio: string };

/**
 * One message as the SDK's client takes it (`ChatCompletionRequestMessage`: `SystemMessage`,
 * `UserMessage`, `AssistantMessage`, `ToolMessage`, camelCase): what {@link toMistralSdk}
 * returns. A chunk of a kind the SDK does not name passes at run time as it is.
 *
 * @example
 * ```ts
 * import type { MistralSdkMessage } from 'turngate/formats';
 * const messages: MistralSdkMessage[] = [
 *   { role: 'user', content: 'Weather in Oslo?' },
 *   { role: 'assistant', content: null, toolCalls: [{ id: 'D681PevKs', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
 *   { role: 'tool', toolCallId: 'D681PevKs', name: 'get_weather', content: 'Snow' },
 * ];
 * ```
 */
export type MistralSdkMessage =
  | { role: 'system'; content: string | MistralSdkSystemChunk[] }
  | { role: 'user'; content: string | MistralSdkChunk[] | null }
  | {
      role: 'assistant';
      content?: string | MistralSdkChunk[] | null | undefined;
      toolCalls?: MistralSdkToolCall[] | null | undefined;
      prefix?: boolean | undefined;
    }
  | {
      role: 'tool';
      content: string | MistralSdkChunk[] | null;
      toolCallId?: string | null | undefined;
      name?: string | null | undefined;
    };

/** Content as the SDK's messages hold it, read broadly: a string, or chunks of any kind. */
type InputContent = string | readonly { readonly type: string }[] | null;

/**
 * What {@link fromMistralSdk} takes: the SDK's messages (`ChatCompletionRequestMessage`, and its
 * standalone `AssistantMessage`, whose `role` may be left out), chunks of any kind.
 *
 * @example
 * ```ts
 * import type { MistralSdkInput } from 'turngate/formats';
 * const reply: MistralSdkInput = { content: 'Snow in Oslo.' };
 * ```
 */
export type MistralSdkInput =
  | { readonly role: 'system'; readonly content: string | readonly { readonly type: string }[] }
  | { readonly role: 'user'; readonly content: InputContent }
  | {
      readonly role?: 'assistant' | undefined;
      readonly content?: InputContent | undefined;
      readonly toolCalls?:
        | readonly {
            readonly id?: string | undefined;
            readonly type?: string | undefined;
            readonly function: {
              readonly name: string;
              readonly arguments: string | { readonly [key: string]: unknown };
            };
            readonly index?: number | undefined;
          }[]
        | null
        | undefined;
      readonly prefix?: boolean | undefined;
    }
  | {
      readonly role: 'tool';
      readonly content: InputContent;
      readonly toolCallId?: string | null | undefined;
      readonly name?: string | null | undefined;
    };

/** The SDK's camelCase field names and the wire's (the SDK's `remap$` tables). */
const WIRE_NAMES: Readonly<Record<string, string>> = {
  toolCalls: 'tool_calls',
  toolCallId: 'tool_call_id',
  imageUrl: 'image_url',
  documentUrl: 'document_url',
  documentName: 'document_name',
  referenceIds: 'reference_ids',
  fileId: 'file_id',
  inputAudio: 'input_audio',
};
const SDK_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(WIRE_NAMES).map(([sdk, wire]) => [wire, sdk]),
);

/** An object with its fields renamed by `names`; `nested` rewrites the value of a field (or keeps it). */
function renamed(
  value: JsonObject,
  names: Readonly<Record<string, string>>,
  nested: (key: string, item: unknown) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    out[Object.hasOwn(names, key) ? (names[key] as string) : key] = nested(key, item);
  }
  return out;
}

/** The kind of an SDK chunk that leaves out its `type` (the SDK's standalone chunk types default it), by the field it holds. */
const KIND_BY_FIELD: readonly (readonly [string, string])[] = [
  ['text', 'text'],
  ['thinking', 'thinking'],
  ['imageUrl', 'image_url'],
  ['documentUrl', 'document_url'],
  ['referenceIds', 'reference'],
  ['fileId', 'file'],
  ['inputAudio', 'input_audio'],
  ['tool', 'tool_reference'],
];

/** Content (a string, or chunks whose `thinking` holds chunks) with each chunk's fields renamed; `typed`: a left-out `type` written. */
function content(value: unknown, names: Readonly<Record<string, string>>, typed: boolean): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((chunk) => {
    if (!isJsonObject(chunk)) return chunk;
    const kind =
      typed && chunk['type'] === undefined ? KIND_BY_FIELD.find(([field]) => field in chunk)?.[1] : undefined;
    const out = renamed(chunk, names, (key, item) => (key === 'thinking' ? content(item, names, typed) : item));
    return kind === undefined ? out : { type: kind, ...out };
  });
}

/** A message's fields renamed, its content's too; tool calls (whose `arguments` are the caller's data) as `call` writes them. */
function message(
  value: unknown,
  names: Readonly<Record<string, string>>,
  call: (c: JsonObject) => Record<string, unknown>,
  typed: boolean,
): unknown {
  if (!isJsonObject(value)) return value;
  return renamed(value, names, (key, item) => {
    if (key === 'content') return content(item, names, typed);
    if ((key === 'toolCalls' || key === 'tool_calls') && Array.isArray(item))
      return item.map((c) => (isJsonObject(c) ? call(c) : c));
    return item;
  });
}

/**
 * The Mistral SDK's messages as the API takes them on the wire, which the check, repair and
 * conversion read (`format: 'mistral'`): what the SDK's own serializer sends. Fields renamed to
 * snake_case (`toolCalls` to `tool_calls`, `toolCallId` to `tool_call_id`, a chunk's `imageUrl`
 * to `image_url`, ...) and the serializer's defaults written: an assistant message's left-out
 * `role` and `prefix: false`, a chunk's left-out `type`, a tool call's left-out `type`
 * (`"function"`), `index` (`0`) and `id` (`"null"`, as the SDK sends it: the check then reports
 * the id). Fields it does not know are kept as they are; a value that is no message is
 * passed on for the check to refuse.
 *
 * @param messages - The SDK's messages (`ChatCompletionRequestMessage[]`, `AssistantMessage`, ...).
 * @returns The wire messages (new objects; `arguments` objects shared with the input).
 * @example
 * ```ts
 * import { checkTranscript } from 'turngate/transcripts';
 * import { fromMistralSdk } from 'turngate/formats';
 * const wire = fromMistralSdk([
 *   { role: 'user', content: 'Weather in Oslo?' },
 *   { role: 'assistant', toolCalls: [{ id: 'D681PevKs', function: { name: 'get_weather', arguments: { city: 'Oslo' } } }] },
 *   { role: 'tool', toolCallId: 'D681PevKs', name: 'get_weather', content: 'Snow' },
 * ]);
 * wire[2]; //=> { role: 'tool', tool_call_id: 'D681PevKs', name: 'get_weather', content: 'Snow' }
 * checkTranscript(wire, { format: 'mistral' }).result; //=> 'accepted'
 * ```
 */
export function fromMistralSdk(messages: readonly MistralSdkInput[]): MistralMessage[] {
  return messages.map((value) => {
    const wire = message(
      value,
      WIRE_NAMES,
      (c) => ({ ...c, id: c['id'] ?? 'null', type: c['type'] ?? 'function', index: c['index'] ?? 0 }),
      true,
    );
    if (!isJsonObject(wire) || (wire['role'] !== undefined && wire['role'] !== 'assistant'))
      return wire as MistralMessage;
    return { role: 'assistant', ...wire, prefix: wire['prefix'] ?? false } as MistralMessage;
  });
}

/**
 * Wire messages of the `mistral` format (a repaired or converted history) as the Mistral SDK's
 * client takes them (`ChatCompletionRequestMessage[]`): the inverse of {@link fromMistralSdk}'s
 * renames. Chunks of kinds the SDK does not name pass as they are.
 *
 * @param messages - Wire messages (`MistralMessage[]`), e.g. `convertTranscript(...).value.messages`.
 * @returns The SDK's messages (new objects).
 * @example
 * ```ts
 * import { toMistralSdk } from 'turngate/formats';
 * toMistralSdk([{ role: 'tool', tool_call_id: 'D681PevKs', content: 'Snow' }]);
 * //=> [{ role: 'tool', toolCallId: 'D681PevKs', content: 'Snow' }]
 * ```
 */
export function toMistralSdk(messages: readonly MistralMessage[]): MistralSdkMessage[] {
  return messages.map((value) => message(value, SDK_NAMES, (c) => ({ ...c }), false) as MistralSdkMessage);
}
