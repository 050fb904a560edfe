/**
 * Hostile and unusual MCP servers, made with the SDK's low-level `Server` (what it lists and
 * answers is written here as raw protocol data, so it can be what McpServer never sends).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** tools/call, its params kept whole (the MRTR fields `requestState` and `inputResponses` among them). */
const LooseCallSchema = z.object({
  method: z.literal('tools/call'),
  params: z.looseObject({ name: z.string(), arguments: z.unknown() }),
});

export type Tool = { name: string; inputSchema: unknown; description?: string; annotations?: unknown };
export type Answer = (params: Record<string, unknown>) => unknown;

/** A server listing `tools` as given, answering each call with `answer(params)`. */
export function rawServer(tools: readonly Tool[], answer: Answer): Server {
  const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
  // biome-ignore lint/plugin: a hostile server lists what it likes: the point is what the client does with it
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools as never }));
  // biome-ignore lint/plugin: a hostile server answers what it likes (the SDK checks it against its result schema)
  server.setRequestHandler(LooseCallSchema, (request) => answer(request.params) as never);
  return server;
}

export const OBJECT = { type: 'object' } as const;
export const TEXT = (text: string) => ({ content: [{ type: 'text', text }] });
export { ErrorCode, McpError, UrlElicitationRequiredError };
