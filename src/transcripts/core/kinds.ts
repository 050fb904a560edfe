/**
 * The item and block types of a format that the markers of `markers.ts` name too: which
 * Anthropic blocks are server calls, which Responses items are client calls and their outputs.
 * Their one home, below the format folders, so the markers table (which compares the formats)
 * and each format's reader share them. Internal; kept apart from the schemas so the checker
 * (and the CLI bundle) does not load valibot for them.
 *
 * @module
 */

/** Anthropic server calls: the API answers them inside the same assistant message. */
export const ANTHROPIC_SERVER_CALL_BLOCK_TYPES = ['server_tool_use', 'mcp_tool_use'] as const;

/** OpenAI Responses client call item types: the caller runs them and sends an output item back. */
export const RESPONSES_CALL_ITEM_TYPES = [
  'function_call',
  'custom_tool_call',
  'computer_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
] as const;

/** OpenAI Responses output item types, each answering a client call by `call_id` (`local_shell_call_output` by `id`). */
export const RESPONSES_OUTPUT_ITEM_TYPES = [
  'function_call_output',
  'custom_tool_call_output',
  'computer_call_output',
  'local_shell_call_output',
  'shell_call_output',
  'apply_patch_call_output',
] as const;
