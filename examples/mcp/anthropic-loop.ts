/**
 * An MCP-backed gated tool loop with the Anthropic adapter: the tools come from an MCP server
 * (here over the SDK's in-memory transport; a stdio or Streamable HTTP client works the same),
 * the model's replies are scripted (`scriptedModel`; pass `client.messages.create` for the real
 * one). The first reply is cut off (`max_tokens`) while it asks to close the ticket: the read
 * runs, the close is held (the turn is not one under which mutations run). The model asks again,
 * the turn closes, the ticket is closed once; the same reply handed in again (a retry) closes
 * nothing more. The tests run it (test/mcp/example.test.ts).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { MemoryEffectLedger } from 'turngate';
import { toolLoop } from 'turngate/adapters/anthropic';
import { mcpTools } from 'turngate/mcp';
import { ticketsServer } from './tickets-server.ts';

/** What the loop asks the model: the history and the tools, as `client.messages.create` takes them. */
export type Model = (request: {
  messages: Anthropic.MessageParam[];
  tools: Anthropic.Tool[];
}) => Promise<Anthropic.Message>;

function message(id: string, stop: 'tool_use' | 'max_tokens' | 'end_turn', content: unknown[]): Anthropic.Message {
  // biome-ignore lint/plugin: a scripted reply as the API sends it (the SDK's type also lists fields this script does not need)
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
    content,
  } as unknown as Anthropic.Message;
}

/** The scripted model: a cut-off reply with both calls, then the same calls whole, then its answer. */
export function scriptedModel(): Model {
  let turn = 0;
  return async () => {
    turn++;
    const calls = (n: string) => [
      { type: 'tool_use', id: `toolu_${n}1`, name: 'tickets__get_ticket', input: { id: 'T-7' } },
      { type: 'tool_use', id: `toolu_${n}2`, name: 'tickets__close_ticket', input: { id: 'T-7', note: 'fixed' } },
    ];
    if (turn === 1) return message('msg_1', 'max_tokens', calls('a'));
    if (turn === 2) return message('msg_2', 'tool_use', calls('b'));
    return message('msg_3', 'end_turn', [{ type: 'text', text: 'T-7 was fixed; I closed it.' }]);
  };
}

/**
 * Runs the loop to the model's answer, then hands its last tool-use reply in again.
 *
 * @param model - The model (default: {@link scriptedModel}).
 * @returns The history, what the server did, in order, and what the replayed reply did.
 */
export async function runMcpLoop(model: Model = scriptedModel()) {
  const log: string[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await ticketsServer(log).connect(serverSide);
  const client = new Client({ name: 'example', version: '1.0.0' });
  await client.connect(clientSide);

  // The MCP-backed gated loop: two lines over the adapter's own loop.
  const mcp = await mcpTools([{ name: 'tickets', client, reads: ['get_ticket'] }]);
  const loop = toolLoop({ ...mcp, ledger: new MemoryEffectLedger(), sessionId: 'example-1' });

  const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'Close T-7 if it was fixed.' }];
  const held: string[][] = [];
  let last: { history: Anthropic.MessageParam[]; reply: Anthropic.Message } | undefined;
  for (let step = loop.start(); !step.done; ) {
    const reply = await model({ messages: history, tools: loop.tools });
    const before = [...history];
    step = await loop.answer(history, reply);
    if (step.mutations.length > 0) last = { history: before, reply };
    held.push(step.results.filter((r) => r.status === 'error').map((r) => r.toolName));
    history.push(...step.messages);
  }
  const replayed = last === undefined ? undefined : await loop.answer(last.history, last.reply);
  await client.close();
  return { history, log: [...log], held, replayed: replayed?.mutations.map((m) => m.outcome) };
}
