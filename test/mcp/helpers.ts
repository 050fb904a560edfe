/**
 * What the MCP tests share: a client connected to a server over the SDK's in-memory transport,
 * and scripted Anthropic replies (the model's side is scripted; the MCP side is real).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { anthropicReply } from '../fixtures/anthropic-reply.mjs';

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
  return anthropicReply(id, calls);
}

export const HISTORY: Anthropic.MessageParam[] = [{ role: 'user', content: 'Refund order A-1 if it holds books' }];
