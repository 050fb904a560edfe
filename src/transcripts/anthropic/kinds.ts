/**
 * Which Anthropic block types are server calls and server results. Internal; kept apart from
 * the schemas so the checker (and the CLI bundle) does not load valibot for them.
 *
 * @module
 */

/** Server calls: the API answers them inside the same assistant message. */
export const ANTHROPIC_SERVER_CALL_BLOCK_TYPES = ['server_tool_use', 'mcp_tool_use'] as const;

/** {@link ANTHROPIC_SERVER_CALL_BLOCK_TYPES} as a set. */
export const ANTHROPIC_SERVER_CALL_TYPES: ReadonlySet<string> = new Set(ANTHROPIC_SERVER_CALL_BLOCK_TYPES);

/** Whether a block type is a server tool's result block (`web_search_tool_result`, `mcp_tool_result`, ...). */
export function isAnthropicServerResultType(type: string): boolean {
  return type !== 'tool_result' && type.endsWith('_tool_result');
}
