/**
 * A small MCP server for the example: `get_ticket` reads a ticket, `close_ticket` closes it (a
 * destructive tool). Each effect is pushed to `log`, so the example shows when it ran.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/**
 * The server, its effects pushed to `log`.
 *
 * @param log - Where `get_ticket` and `close_ticket` note each call.
 */
export function ticketsServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'tickets', version: '1.0.0' });
  server.registerTool(
    'get_ticket',
    { description: 'Reads a ticket.', inputSchema: { id: z.string() }, annotations: { readOnlyHint: true } },
    async ({ id }) => {
      log.push(`read ${id}`);
      return { content: [{ type: 'text', text: `${id}: printer on fire, fixed yesterday` }] };
    },
  );
  server.registerTool(
    'close_ticket',
    {
      description: 'Closes a ticket.',
      inputSchema: { id: z.string(), note: z.string() },
      annotations: { destructiveHint: true },
    },
    async ({ id }) => {
      log.push(`closed ${id}`);
      return { content: [{ type: 'text', text: `${id} closed` }] };
    },
  );
  return server;
}
