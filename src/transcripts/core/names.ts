/**
 * Function names as the OpenAI-compatible APIs take them: 1 to 64 of `a-z A-Z 0-9 _ -`. The
 * one home of that grammar, for the formats that enforce it on the calls of a history (OpenAI
 * Chat Completions, Mistral), and of the same characters as tool call ids (Anthropic, Bedrock
 * Converse: `isWordId`). Internal.
 *
 * Sources: OpenAI API reference, function `name`; Mistral's request validator
 * (mistral-common `MistralRequestValidator._validate_function_call`, the pattern
 * `^[a-zA-Z0-9_-]{1,64}$`).
 *
 * @module
 */

/** Names already found valid: a history names few tools, so most calls are a set lookup, not a scan (bounded). */
const VALID_NAMES = new Set<string>();

/** Whether `name` is 1 to 64 of `a-z A-Z 0-9 _ -`. */
export function isToolName(name: string): boolean {
  if (VALID_NAMES.has(name)) return true;
  if (!isWordId(name, 64)) return false;
  if (VALID_NAMES.size >= 1024) VALID_NAMES.clear();
  VALID_NAMES.add(name);
  return true;
}

/**
 * Whether `id` is 1 to `max` letters, digits, `_` and `-` (`^[a-zA-Z0-9_-]{1,max}$`): the
 * grammar of Anthropic's `tool_use.id` and `tool_result.tool_use_id` (no length limit: reported
 * 400s, see the rule) and Bedrock Converse's `toolUseId` on `toolUse` and `toolResult` (64:
 * `ToolResultBlock`'s pattern and length), and of tool names. A character loop: about 4 times faster than the regular expression
 * on a short id, and the check tests every call's id.
 */
export function isWordId(id: string, max = Number.POSITIVE_INFINITY): boolean {
  const n = id.length;
  if (n === 0 || n > max) return false;
  for (let i = 0; i < n; i++) {
    const c = id.charCodeAt(i);
    // 0-9, A-Z, a-z, '_', '-'
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45)) return false;
  }
  return true;
}
