/**
 * The shape of a `tool-call` input and of a `tool-result` output, in one place: what the reader
 * classifies (a JSON-string input, an AI SDK 4 `result`, an output that is no `ToolResultOutput`)
 * and what repair writes instead. Internal.
 *
 * Source: AI SDK reference, `ModelMessage` (`ToolCallPart.input`: a JSON-serializable object;
 * `ToolResultPart.output`: `ToolResultOutput`); migration guide 4.x to 5.0 (`args` / `result` became
 * `input` / `output`).
 *
 * @module
 */
import type { AISDKRule } from './rules.ts';
import { isJsonObject, type JsonObject } from '../core/input.ts';

/** The item types a `content` output may hold, over AI SDK 5 to 7 (`media` is 5's, the `*-reference` types 7's). */
const CONTENT_ITEM_TYPES: ReadonlySet<string> = new Set([
  'text',
  'media',
  'file',
  'file-data',
  'file-url',
  'file-id',
  'file-reference',
  'image-data',
  'image-url',
  'image-file-id',
  'image-file-reference',
  'custom',
]);

/** What is wrong with a tool-call's input: `json-string` (the text of a JSON object), `not-object`, or nothing. */
export type InputProblem = 'json-string' | 'not-object' | undefined;

/** The object a JSON text encodes, or `undefined` when the text is no JSON object. */
export function parsedObject(text: string): JsonObject | undefined {
  const start = text.trimStart();
  if (start[0] !== '{') return undefined;
  try {
    const value: unknown = JSON.parse(start);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Classifies a tool-call's input. */
export function inputProblem(input: unknown): InputProblem {
  if (isJsonObject(input)) return undefined;
  return typeof input === 'string' && parsedObject(input) !== undefined ? 'json-string' : 'not-object';
}

/** What is wrong with a tool-result's output: `malformed` (missing, or no `ToolResultOutput`), `content-part`, or nothing. */
export type OutputProblem = 'malformed' | 'content-part' | undefined;

function contentItemValid(item: unknown): boolean {
  if (!isJsonObject(item)) return false;
  const type = item['type'];
  return (
    typeof type === 'string' && CONTENT_ITEM_TYPES.has(type) && (type !== 'text' || typeof item['text'] === 'string')
  );
}

/** Classifies a tool-result's `output`. */
export function outputProblem(output: unknown): OutputProblem {
  if (!isJsonObject(output)) return 'malformed';
  const value = output['value'];
  switch (output['type']) {
    case 'text':
    case 'error-text':
      return typeof value === 'string' ? undefined : 'malformed';
    case 'json':
    case 'error-json':
      return value === undefined ? 'malformed' : undefined;
    case 'execution-denied': {
      const reason = output['reason'];
      return reason === undefined || typeof reason === 'string' ? undefined : 'malformed';
    }
    case 'content':
      if (!Array.isArray(value)) return 'malformed';
      for (let k = 0; k < value.length; k++) if (!contentItemValid(value[k])) return 'content-part';
      return undefined;
    default:
      return 'malformed';
  }
}

/** `JSON.stringify`, or `undefined` for a value it cannot write. */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** A value as the output that carries it: a string as text, anything else as JSON (as errors when `error`). */
function outputOf(value: unknown, error: boolean): JsonObject {
  return typeof value === 'string'
    ? { type: error ? 'error-text' : 'text', value }
    : { type: error ? 'error-json' : 'json', value };
}

/** The output of an AI SDK 4 tool-result (`result`, `isError`). */
export function legacyOutput(part: JsonObject): JsonObject {
  return outputOf(part['result'], part['isError'] === true);
}

/** Whether an output object carries nothing but its type (and provider options). */
function carriesNothing(output: JsonObject): boolean {
  for (const key in output) if (key !== 'type' && key !== 'providerOptions' && output[key] !== undefined) return false;
  return true;
}

/**
 * A well-formed output for a malformed one, keeping what it carries: a bare value wrapped (a
 * string as text, anything else as JSON), a value of the wrong kind moved to the type that holds
 * it, an object of an unknown type kept whole as JSON. An output that carries nothing (missing,
 * or a type alone) becomes `{ type: 'error-text', value: nothing() }`.
 */
export function fixedOutput(output: unknown, nothing: () => string): JsonObject {
  if (output === undefined) return { type: 'error-text', value: nothing() };
  if (!isJsonObject(output)) return outputOf(output, false);
  const type = output['type'];
  const value = output['value'];
  const error = type === 'error-text' || type === 'error-json';
  if (
    (type === 'text' || type === 'error-text' || type === 'json' || type === 'error-json' || type === 'content') &&
    value !== undefined
  )
    return { ...output, ...outputOf(value, error) };
  if (type === 'execution-denied') return { ...output, reason: jsonText(output['reason']) };
  if (carriesNothing(output)) return { type: 'error-text', value: nothing() };
  return { type: 'json', value: output };
}

/**
 * The text a tool-result carries, as a person reads it: the value of a text output, the JSON of
 * a JSON output, the text items of a content output, a denial's reason; for an AI SDK 4 result
 * or a malformed output, the value itself (as JSON unless a string). `undefined` when there is
 * none.
 */
export function carriedText(part: JsonObject): string | undefined {
  const output = part['output'];
  const raw = output === undefined ? part['result'] : output;
  if (outputProblem(output) === undefined && isJsonObject(output)) {
    const value = output['value'];
    switch (output['type']) {
      case 'text':
      case 'error-text':
        return value as string;
      case 'execution-denied':
        return output['reason'] as string | undefined;
      case 'content':
        return (value as JsonObject[])
          .filter((item) => item['type'] === 'text')
          .map((item) => item['text'] as string)
          .join('\n');
      default:
        return jsonText(value);
    }
  }
  if (raw === undefined) return undefined;
  return typeof raw === 'string' ? raw : jsonText(raw);
}

/** What each rewrite does, by rule. */
export const RESHAPE_DETAIL: Partial<Record<AISDKRule, string>> = {
  'aisdk.tool_call_legacy_args': 'renamed the tool-call field args to input',
  'aisdk.tool_call_input_json_string': 'parsed the tool-call input from its JSON text into the object',
  'aisdk.tool_result_legacy_result': 'wrote the tool-result field result as output: { type, value }',
  'aisdk.tool_result_output_malformed': 'wrote the tool-result output as a ToolResultOutput, its value kept',
  'aisdk.tool_result_name_missing': "set the tool-result's toolName to its tool-call's",
  'aisdk.tool_result_name_mismatch': "set the tool-result's toolName to its tool-call's",
};

/** A part rewritten for one rule; `undefined` when there is nothing to write. */
export function reshape(part: JsonObject, rule: AISDKRule, call: string | undefined, nothing: () => string) {
  switch (rule) {
    case 'aisdk.tool_call_legacy_args': {
      const { args, ...rest } = part;
      return { ...rest, input: args };
    }
    case 'aisdk.tool_call_input_json_string': {
      const input = typeof part['input'] === 'string' ? parsedObject(part['input']) : undefined;
      return input === undefined ? undefined : { ...part, input };
    }
    case 'aisdk.tool_result_legacy_result': {
      const { result: _result, isError: _isError, ...rest } = part;
      return { ...rest, output: legacyOutput(part) };
    }
    case 'aisdk.tool_result_output_malformed':
      return { ...part, output: fixedOutput(part['output'], nothing) };
    default:
      return call === undefined ? undefined : { ...part, toolName: call };
  }
}
