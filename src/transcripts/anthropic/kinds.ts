/**
 * Which Anthropic block types are server calls (the list in `core/kinds.ts`, which the markers
 * share) and server results. Internal; kept apart from
 * the schemas so the checker (and the CLI bundle) does not load valibot for them.
 *
 * @module
 */
import { ANTHROPIC_SERVER_CALL_BLOCK_TYPES } from '../core/kinds.ts';

/** {@link ANTHROPIC_SERVER_CALL_BLOCK_TYPES} as a set. */
export const ANTHROPIC_SERVER_CALL_TYPES: ReadonlySet<string> = new Set(ANTHROPIC_SERVER_CALL_BLOCK_TYPES);

/** Whether a block type is a server tool's result block (`web_search_tool_result`, `mcp_tool_result`, ...). */
export function isAnthropicServerResultType(type: string): boolean {
  return type !== 'tool_result' && type.endsWith('_tool_result');
}
