/**
 * The items and values Responses repair writes: a synthesized output of a call's type, the text an
 * output carried, a shorter call id for an over-long one, an item without a field. Internal.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { synthesizedText } from '../core/repair.ts';
import { toolResult } from './convert.ts';
import { MAX_CALL_ID_LENGTH } from './rules.ts';

/** The output item answering a call item with the synthesized text, or `undefined` (computer calls). */
export function synthesize(call: JsonObject, readOnlyTools: ReadonlySet<string>): JsonObject | undefined {
  const id = call['call_id'] as string;
  const name = typeof call['name'] === 'string' ? call['name'] : (call['type'] as string);
  const text = synthesizedText(name, readOnlyTools);
  switch (call['type']) {
    case 'function_call':
      return toolResult(id, text);
    case 'custom_tool_call':
      return { type: 'custom_tool_call_output', call_id: id, output: text };
    case 'apply_patch_call':
      return { type: 'apply_patch_call_output', call_id: id, status: 'failed', output: text };
    case 'local_shell_call':
      return { type: 'local_shell_call_output', id, output: text };
    case 'shell_call':
      return {
        type: 'shell_call_output',
        call_id: id,
        output: [{ stdout: '', stderr: text, outcome: { type: 'exit', exit_code: 1 } }],
      };
    default:
      return undefined;
  }
}

/** The text an output item carried: its string output, or the text fields of its parts (shell output: stdout, stderr). */
export function outputText(item: JsonObject): string {
  const output = item['output'];
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    const texts: string[] = [];
    for (const part of output) {
      if (!isJsonObject(part)) continue;
      for (const key of ['text', 'stdout', 'stderr']) {
        const text = part[key];
        if (typeof text === 'string' && text !== '') texts.push(text);
      }
    }
    return texts.join('\n');
  }
  return output !== undefined && output !== null && typeof output === 'object' ? JSON.stringify(output) : '';
}

/** A 32-bit FNV-1a hash of `text`, as 8 hex digits. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) {
    hash ^= text.charCodeAt(k);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * A call id of at most `MAX_CALL_ID_LENGTH` characters for the over-long `key`: its start and a
 * hash of the whole of it, so the same input always gets the same id; never one in `used`.
 */
export function shortCallId(key: string, used: Set<string>): string {
  const head = key.slice(0, MAX_CALL_ID_LENGTH - 9);
  for (let n = 0; ; n++) {
    const candidate = `${head}_${fnv1a(n === 0 ? key : `${key}#${n}`)}`;
    if (!used.has(candidate)) {
      used.add(candidate);
      return candidate;
    }
  }
}

/** A copy of `item` without `key`. */
export function without(item: JsonObject, key: string): JsonObject {
  const { [key]: _, ...rest } = item;
  return rest;
}
