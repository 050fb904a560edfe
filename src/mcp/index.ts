/**
 * MCP tools through the gate (`turngate/mcp`): the tools of connected `@modelcontextprotocol/sdk`
 * clients as one tool registry with a handler per tool, for any adapter's `toolLoop`. Reads run
 * at once; mutations only once the turn is closed, once per intent through the effect ledger.
 * The SDK and Ajv are optional peer dependencies: only this entry point needs them.
 *
 * Source: MCP 2025-11-25, Server / Tools (tool annotations are untrusted unless the server is).
 *
 * @module
 */
export { mcpTools } from './registry.ts';
export type {
  McpApprovalRequest,
  McpInputAnswer,
  McpInputHook,
  McpInputRequest,
  McpServerOptions,
  McpToolEntry,
  McpTools,
  McpToolsOptions,
} from './types.ts';
