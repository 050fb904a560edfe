/**
 * What the MCP tests share: a client connected to a server over the SDK's in-memory transport,
 * and scripted Anthropic replies (the model's side is scripted; the MCP side is real).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** A client connected to `server` over a linked in-memory pair. */
export async function inMemory(server: McpServer | Server): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'turngate-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** An Anthropic reply holding these tool calls (`stop_reason: tool_use`). */
export function reply(id: string, calls: readonly [string, string, unknown][]): Anthropic.Message {
  // biome-ignore lint/plugin: the reply as the API sends it for plain tool use (the SDK's type also lists fields this test does not need: container, stop_details, caller)
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
    content: calls.map(([callId, name, input]) => ({ type: 'tool_use', id: callId, name, input })),
  } as unknown as Anthropic.Message;
}

export const HISTORY: Anthropic.MessageParam[] = [{ role: 'user', content: 'Refund order A-1 if it holds books' }];
