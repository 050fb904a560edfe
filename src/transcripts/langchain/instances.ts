/**
 * LangChain message instances (`BaseMessage`: `HumanMessage`, `AIMessage`, `ToolMessage`, ...),
 * read through their serialized form: what `toJSON()` gives (`{ lc: 1, type: 'constructor', id,
 * kwargs }`, what LangChain stores and reads back), as JSON data. The format's reader reads the
 * serialized forms only; this is where an instance becomes one.
 *
 * Source: `@langchain/core` `load/serializable` (`Serializable.toJSON`), `messages/utils`
 * (`coerceMessageLikeToMessage` reads the form back).
 *
 * @module
 */
import { isPlainPrototype } from '../../internal/own-data.ts';
import { invalid, isJsonObject } from '../core/input.ts';
import type { LangChainSerializedMessage } from './wire.ts';

/**
 * A LangChain message instance, as far as the transcripts layer reads it: a `Serializable` with
 * its `toJSON()` (`BaseMessage` and every message class of `@langchain/core` is one).
 *
 * @example
 * ```ts
 * import type { LangChainMessageInstance } from 'turngate/formats';
 * const like: LangChainMessageInstance = { lc_serializable: true, lc_namespace: ['langchain_core', 'messages'], toJSON: () => ({}) };
 * ```
 */
export interface LangChainMessageInstance {
  readonly lc_serializable: boolean;
  readonly lc_namespace: readonly string[];
  toJSON(): unknown;
}

/**
 * The form a LangChain message instance is read as: what its `toJSON()` gives (`{ lc: 1, type:
 * 'constructor', id, kwargs }`), typed so LangChain's `BaseMessageLike` takes it: a model's
 * `invoke` reads it back into the message (`coerceMessageLikeToMessage`).
 *
 * @example
 * ```ts
 * import type { LangChainInstanceForm } from 'turngate/formats';
 * const message: LangChainInstanceForm = { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'HumanMessage'], kwargs: { content: 'Hi' } };
 * ```
 */
export type LangChainInstanceForm = LangChainSerializedMessage & {
  lc: 1;
  id: string[];
  kwargs: { [key: string]: unknown };
};

/** Whether `value` is a LangChain `Serializable` instance (not plain data: a class with `toJSON()`). */
function isInstance(value: unknown): value is LangChainMessageInstance {
  if (!isJsonObject(value) || isPlainPrototype(Object.getPrototypeOf(value))) return false;
  const candidate = value as Partial<LangChainMessageInstance>;
  return typeof candidate.toJSON === 'function' && Array.isArray(candidate.lc_namespace);
}

/**
 * The messages with each LangChain instance in its serialized form (JSON data: `toJSON()`, then
 * through JSON text, as a checkpoint stores it); the same array when none is an instance.
 *
 * @throws TranscriptInputError naming the message whose `toJSON()` gives no JSON.
 */
export function serializedInstances(messages: readonly unknown[], field: string): readonly unknown[] {
  if (!messages.some(isInstance)) return messages;
  return messages.map((message, i) => {
    if (!isInstance(message)) return message;
    try {
      return JSON.parse(JSON.stringify(message)) as unknown;
    } catch (error) {
      return invalid(
        `${field}[${i}]`,
        `a LangChain message whose toJSON() gives JSON (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  });
}
