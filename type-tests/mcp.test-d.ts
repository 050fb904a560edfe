/**
 * Type tests of `turngate/mcp`: the registry and handlers spread into every adapter's `toolLoop`;
 * the server options refuse what they do not take. Negative cases use `@ts-expect-error`, so tsd
 * and TypeScript 7 check the same file.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expectType } from 'tsd';
import type { ToolDefinitions, ToolRegistry } from 'turngate';
import { toolLoop as aisdkLoop } from 'turngate/adapters/aisdk';
import { toolLoop as anthropicLoop } from 'turngate/adapters/anthropic';
import { toolLoop as geminiLoop } from 'turngate/adapters/gemini';
import { toolLoop as chatLoop } from 'turngate/adapters/openai-chat';
import { toolLoop as responsesLoop } from 'turngate/adapters/openai-responses';
import { mcpTools, type McpServerOptions, type McpTools } from 'turngate/mcp';

declare const client: Client;
declare const mcp: McpTools;

expectType<Promise<McpTools>>(mcpTools([{ name: 'files', client, reads: ['read_file'] }]));
expectType<ToolRegistry<ToolDefinitions>>(mcp.tools);
// The registry and handlers go into every adapter's loop as they are.
expectType<Anthropic.Tool[]>(anthropicLoop({ ...mcp }).tools);
chatLoop({ ...mcp, sessionId: 's-1' });
responsesLoop({ ...mcp, store: false });
aisdkLoop(mcp);
geminiLoop(mcp);

// A server needs its client.
// @ts-expect-error -- "Property 'client' is missing"
const noClient: McpServerOptions = { name: 'files' };
// approval takes 'none', 'mutations', 'all' or tool names.
// @ts-expect-error -- "is not assignable to type 'readonly string[]"
const badApproval: McpServerOptions = { name: 'files', client, approval: 'sometimes' };
// reads are tool names.
// @ts-expect-error -- "Type 'string' is not assignable to type 'readonly string[]'"
const badReads: McpServerOptions = { name: 'files', client, reads: 'read_file' };
export { noClient, badApproval, badReads };
