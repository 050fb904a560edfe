/**
 * turngate/mcp over the SDK's own McpServer and its in-memory transport: the registry (names,
 * policies, schemas), and the tool loop with MCP handlers: reads at once, mutations once the turn
 * is closed and once per intent, truthful errors, a server that lies, a server that disconnects.
 */
import { callSpec, closeJoin, MemoryEffectLedger, requestTools, settle, settleMutations, useAll } from 'turngate';
import * as aisdk from 'turngate/adapters/aisdk';
import { toolLoop } from 'turngate/adapters/anthropic';
import * as gemini from 'turngate/adapters/gemini';
import * as openaiChat from 'turngate/adapters/openai-chat';
import * as responses from 'turngate/adapters/openai-responses';
import { mcpTools } from 'turngate/mcp';
import { describe, expect, it } from 'vitest';
import { shopServer } from '../fixtures/mcp-shop.mjs';
import { HISTORY, inMemory, reply } from './helpers.ts';

async function shop(hooks: Parameters<typeof shopServer>[1] = {}) {
  const effects: string[] = [];
  const client = await inMemory(shopServer((line) => effects.push(line), hooks));
  return { effects, client };
}

function texts(step: { messages: unknown[] }): unknown {
  return JSON.parse(JSON.stringify(step.messages.at(-1)));
}

describe('the registry', () => {
  it('names tools per server, and makes each a read or a mutation by the server policy', async () => {
    const { client } = await shop();
    const mcp = await mcpTools([{ name: 'shop', client, reads: ['get_order'] }]);
    expect(mcp.entries.map((e) => [e.name, e.mutation, e.why])).toEqual([
      ['shop__broken_read', true, 'default_mutation'],
      ['shop__declined_refund', true, 'default_mutation'],
      ['shop__find_orders', true, 'default_mutation'],
      ['shop__get_order', false, 'listed_read'],
      ['shop__refund', true, 'default_mutation'],
      ['shop__slow_charge', true, 'default_mutation'],
      ['shop__tidy_up', true, 'default_mutation'],
    ]);
    expect(mcp.tools.names).toEqual(mcp.entries.map((e) => e.name));
    const trusted = await mcpTools([{ name: 'shop', client, trusted: true, mutations: ['tidy_up'] }]);
    expect(trusted.entries.filter((e) => !e.mutation).map((e) => e.tool)).toEqual([
      'broken_read',
      'find_orders',
      'get_order',
    ]);
    expect(trusted.entries.find((e) => e.tool === 'tidy_up')?.why).toBe('listed_mutation');
  });

  it('declares each tool with its inputSchema to the provider', async () => {
    const { client } = await shop();
    const mcp = await mcpTools([{ name: 'shop', client, reads: ['get_order'] }]);
    const loop = toolLoop({ tools: mcp.tools, handlers: mcp.handlers });
    const refund = loop.tools.find((tool) => tool.name === 'shop__refund');
    expect(refund?.description).toBe('Refund an order');
    expect(refund?.input_schema).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' }, amount: { type: 'number' } },
      required: ['id', 'amount'],
    });
  });

  it("plugs into every adapter's toolLoop, which declares each tool", async () => {
    const { client } = await shop();
    const mcp = await mcpTools([{ name: 'shop', client, reads: ['get_order'] }]);
    const count = mcp.tools.names.length;
    expect(toolLoop(mcp).tools).toHaveLength(count);
    expect(openaiChat.toolLoop(mcp).tools.map((t) => t.type === 'function' && t.function.name)).toEqual(
      mcp.tools.names,
    );
    expect(responses.toolLoop(mcp).tools).toHaveLength(count);
    expect(Object.keys(aisdk.toolLoop(mcp).tools)).toEqual(mcp.tools.names);
    expect(gemini.toolLoop(mcp).tools[0]?.functionDeclarations?.map((d) => d.name)).toEqual(mcp.tools.names);
  });

  it('works with the builder as a defineTools registry: settle runs the read, settleMutations the refund', async () => {
    const { client, effects } = await shop();
    const mcp = await mcpTools([{ name: 'shop', client, reads: ['get_order'] }]);
    const spec = callSpec({ callId: 'turn-1', modelRef: 'm', actionMode: 'code', sessionId: 'b-1' });
    if (!spec.ok) throw new Error('callSpec');
    const requests = requestTools(spec.value, mcp.tools, [
      { toolCallId: 'tc-1', toolName: 'shop__get_order', input: { id: 'A-1' } },
      { toolCallId: 'tc-2', toolName: 'shop__refund', input: { id: 'A-1', amount: 2 } },
    ]);
    if (!requests.ok) throw new Error('requestTools');
    const results = await settle(requests.value, mcp.handlers);
    if (!results.ok) throw new Error('settle');
    expect(effects).toEqual([]);
    const use = useAll(results.value, () => 'observed');
    if (!use.ok) throw new Error('useAll');
    const closed = closeJoin(use.value, { protocolState: { format: 'anthropic', stopReason: 'tool_use' } });
    if (!closed.ok) throw new Error('closeJoin');
    const final = await settleMutations(closed.value, mcp.handlers);
    expect(final.ok && final.value.results.map((r) => (r.status === 'ok' ? r.output : r.error.errorCode))).toEqual([
      'order A-1: 2 books',
      'refunded 2 on A-1',
    ]);
    expect(effects).toEqual(['refund A-1 2']);
  });

  it('declares only the tools in include; options a server inherits make it neither trusted nor its tools reads', async () => {
    const { client } = await shop();
    const some = await mcpTools([{ name: 'shop', client, include: ['get_order', 'tidy_up'], reads: ['get_order'] }]);
    expect(some.tools.names).toEqual(['shop__get_order', 'shop__tidy_up']);
    // Inherited options are not the server's (a polluted Object.prototype is one way to get them;
    // the SDK itself does not survive that, so the options inherit from an object of their own).
    const inherited = Object.assign(Object.create({ trusted: true, reads: ['tidy_up'], approval: 'none' }), {
      name: 'shop',
      client,
    });
    const mcp = await mcpTools([inherited]);
    expect(mcp.entries.every((e) => e.mutation && e.why === 'default_mutation')).toBe(true);
  });

  it('refuses a reads name the server does not list, a bad server name, and approval without approve', async () => {
    const { client } = await shop();
    await expect(mcpTools([{ name: 'shop', client, reads: ['get_orders'] }])).rejects.toThrow(
      'mcpTools: server "shop": reads: "get_orders" is not a tool the server lists',
    );
    await expect(mcpTools([{ name: 'my_shop', client }])).rejects.toThrow('servers[0].name');
    await expect(mcpTools([{ name: 'shop', client, approval: 'mutations' }])).rejects.toThrow(
      'needs an approve function',
    );
  });
});

describe('the tool loop with MCP handlers', () => {
  it('runs the read at once and the refund once the turn is closed, once per intent on a replayed reply', async () => {
    const { client, effects } = await shop();
    const mcp = await mcpTools([{ name: 'shop', client, reads: ['get_order', 'find_orders'] }]);
    const loop = toolLoop({ ...mcp, ledger: new MemoryEffectLedger(), sessionId: 's-1' });
    const model = reply('msg_1', [
      ['toolu_1', 'shop__get_order', { id: 'A-1' }],
      ['toolu_2', 'shop__find_orders', { customer: 'ada' }],
      ['toolu_3', 'shop__refund', { id: 'A-1', amount: 12 }],
    ]);
    const step = await loop.answer(HISTORY, model);
    expect(step.results.map((r) => [r.toolName, r.status])).toEqual([
      ['shop__get_order', 'ok'],
      ['shop__find_orders', 'ok'],
      ['shop__refund', 'ok'],
    ]);
    expect(step.results.map((r) => (r.status === 'ok' ? r.output : r.error))).toEqual([
      'order A-1: 2 books',
      { orders: ['ada-1', 'ada-2'] },
      'refunded 12 on A-1',
    ]);
    expect(step.mutations.map((m) => m.outcome)).toEqual(['performed']);
    expect(effects).toEqual(['refund A-1 12']);
    // The same reply again (a retry): the refund is replayed from the ledger, not sent again.
    const again = await loop.answer(HISTORY, model);
    expect(again.mutations.map((m) => m.outcome)).toEqual(['replayed']);
    expect(again.results[2]).toMatchObject({ status: 'ok', output: 'refunded 12 on A-1' });
    expect(effects).toEqual(['refund A-1 12']);
  });

  it("a failing read (isError) is a truthful error and keeps the turn's refund from running", async () => {
    const { client, effects } = await shop();
    const mcp = await mcpTools([{ name: 'shop', client, reads: ['broken_read'] }]);
    const loop = toolLoop(mcp);
    const step = await loop.answer(
      HISTORY,
      reply('msg_2', [
        ['toolu_1', 'shop__broken_read', {}],
        ['toolu_2', 'shop__refund', { id: 'A-1', amount: 12 }],
      ]),
    );
    expect(step.results[0]).toMatchObject({ status: 'error', error: { errorCode: 'mcp_tool_error' } });
    expect(step.results[0]?.status === 'error' && step.results[0].error.errorMessage).toContain(
      'the orders database is down',
    );
    expect(step.results[1]).toMatchObject({ status: 'error', error: { errorCode: 'mutation_not_admitted' } });
    expect(step.failures.map((f) => f.class)).toEqual(['mutation.read_failed']);
    expect(effects).toEqual([]);
  });

  it("a mutation the tool answers isError is recorded failed with the tool's words, not re-sent", async () => {
    const { client } = await shop();
    const mcp = await mcpTools([{ name: 'shop', client }]);
    const loop = toolLoop(mcp);
    const model = reply('msg_3', [['toolu_1', 'shop__declined_refund', { id: 'A-1' }]]);
    const step = await loop.answer(HISTORY, model);
    expect(step.mutations.map((m) => m.outcome)).toEqual(['failed']);
    expect(step.results[0]).toMatchObject({
      status: 'error',
      error: {
        errorCode: 'mcp_tool_error',
        errorMessage: 'shop/declined_refund answered with an error: card declined for A-1',
      },
    });
    expect(texts(step)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', is_error: true }] });
  });

  it('a server that lies in its annotations: untrusted, its "read" waits for the closed turn and runs once', async () => {
    const { client, effects } = await shop();
    const mcp = await mcpTools([{ name: 'shop', client }]);
    expect(mcp.entries.find((e) => e.tool === 'tidy_up')?.mutation).toBe(true);
    const loop = toolLoop({ ...mcp, ledger: new MemoryEffectLedger(), sessionId: 's-2' });
    // Cut off (max_tokens): the turn's mutations do not run, the lying "read" among them.
    const cut = { ...reply('msg_4', [['toolu_1', 'shop__tidy_up', {}]]), stop_reason: 'max_tokens' as const };
    const held = await loop.answer(HISTORY, cut);
    expect(held.results[0]).toMatchObject({ status: 'error', error: { errorCode: 'mutation_not_admitted' } });
    expect(effects).toEqual([]);
    // A reply that ends in tool_use (another loop: the held turn's reply is recorded in the first).
    const ran = await toolLoop(mcp).answer(HISTORY, reply('msg_5', [['toolu_2', 'shop__tidy_up', {}]]));
    expect(ran.mutations.map((m) => m.outcome)).toEqual(['performed']);
    expect(effects).toEqual(['deleted old carts']);
  });

  it('a server that disconnects mid-call: the mutation is outcome unknown, and a retry does not send it again', async () => {
    let close: () => Promise<void> = async () => undefined;
    const { client, effects } = await shop({
      onSlowCharge: () => {
        // The server goes away after the effect, before it answers.
        void close();
        return new Promise<never>(() => undefined);
      },
    });
    close = () => client.close();
    const mcp = await mcpTools([{ name: 'shop', client }]);
    const loop = toolLoop({ ...mcp, ledger: new MemoryEffectLedger(), sessionId: 's-3' });
    const model = reply('msg_6', [['toolu_1', 'shop__slow_charge', { id: 'A-1' }]]);
    const step = await loop.answer(HISTORY, model);
    expect(step.results[0]).toMatchObject({ status: 'error', error: { errorCode: 'effect_outcome_unknown' } });
    expect(step.results[0]?.status === 'error' && step.results[0].error.errorMessage).toContain(
      'check before retrying',
    );
    expect(effects).toEqual(['charge A-1']);
    const again = await loop.answer(HISTORY, model);
    expect(again.mutations.map((m) => m.outcome)).toEqual(['replayed']);
    expect(again.results[0]).toMatchObject({ status: 'error', error: { errorCode: 'effect_outcome_unknown' } });
    expect(effects).toEqual(['charge A-1']);
  });

  it('a read whose server goes away is a retryable mcp_call_failed; a mutation past timeoutMs is outcome unknown', async () => {
    let close: () => Promise<void> = async () => undefined;
    const gone = await shop({
      onSlowCharge: () => {
        void close();
        return new Promise<never>(() => undefined);
      },
    });
    close = () => gone.client.close();
    const reads = await mcpTools([{ name: 'shop', client: gone.client, reads: ['slow_charge'] }]);
    const read = await toolLoop(reads).answer(
      HISTORY,
      reply('msg_10', [['toolu_1', 'shop__slow_charge', { id: 'A-1' }]]),
    );
    expect(read.results[0]).toMatchObject({
      status: 'error',
      error: { errorCode: 'mcp_call_failed', retryable: true },
    });
    const slow = await shop({ onSlowCharge: () => new Promise<never>(() => undefined) });
    const mcp = await mcpTools([{ name: 'shop', client: slow.client }], { timeoutMs: 50 });
    const step = await toolLoop(mcp).answer(
      HISTORY,
      reply('msg_11', [['toolu_1', 'shop__slow_charge', { id: 'A-1' }]]),
    );
    expect(step.results[0]).toMatchObject({ status: 'error', error: { errorCode: 'effect_outcome_unknown' } });
    expect(step.results[0]?.status === 'error' && step.results[0].error.errorMessage).toContain('Request timed out');
    expect(slow.effects).toEqual(['charge A-1']);
  });

  it('arguments that fail the inputSchema are refused before anything is sent', async () => {
    const { client, effects } = await shop();
    const mcp = await mcpTools([{ name: 'shop', client, reads: ['get_order'] }]);
    const loop = toolLoop(mcp);
    const step = await loop.answer(
      HISTORY,
      reply('msg_7', [
        ['toolu_1', 'shop__get_order', { id: 7 }],
        ['toolu_2', 'shop__refund', { id: 'A-1', amount: -3 }],
      ]),
    );
    expect(step.results.map((r) => (r.status === 'error' ? r.error.errorCode : r.status))).toEqual([
      'invalid_input',
      'invalid_input',
    ]);
    expect(step.results[0]?.status === 'error' && step.results[0].error.errorMessage).toContain('id must be string');
    expect(effects).toEqual([]);
  });

  it('asks the approve hook before a tool whose policy needs approval; a no is answered, not sent', async () => {
    const { client, effects } = await shop();
    const asked: unknown[] = [];
    const mcp = await mcpTools([
      {
        name: 'shop',
        client,
        reads: ['get_order'],
        approval: 'mutations',
        approve: (request) => {
          asked.push([request.tool, request.arguments]);
          return false;
        },
      },
    ]);
    expect(mcp.entries.find((e) => e.tool === 'refund')?.approval).toBe('required');
    expect(mcp.entries.find((e) => e.tool === 'get_order')?.approval).toBe('none');
    const step = await toolLoop(mcp).answer(
      HISTORY,
      reply('msg_8', [['toolu_1', 'shop__refund', { id: 'A-1', amount: 5 }]]),
    );
    expect(step.results[0]).toMatchObject({ status: 'error', error: { errorCode: 'approval_denied' } });
    expect(asked).toEqual([['refund', { id: 'A-1', amount: 5 }]]);
    expect(effects).toEqual([]);
  });
});

describe('approvals on MCP tools, through the loop', () => {
  it('an approvalPolicy over the MCP registry holds a refund for a yes, then runs it once on the server', async () => {
    const { approvalPolicy } = await import('turngate/approvals');
    const { client, effects } = await shop();
    const mcp = await mcpTools([{ name: 'shop', client, reads: ['get_order'] }]);
    const approvals = approvalPolicy(mcp.tools, 'v1', { shop__refund: 'always' });
    const ledger = new MemoryEffectLedger();
    const loop = toolLoop({ ...mcp, ledger, sessionId: 'mcp-1', approvals });
    const waiting = await loop.answer(
      HISTORY,
      reply('msg_1', [
        ['toolu_1', 'shop__get_order', { id: 'A-1' }],
        ['toolu_2', 'shop__refund', { id: 'A-1', amount: 20 }],
      ]),
    );
    expect(waiting.approvals.map((a) => a.toolName)).toEqual(['shop__refund']);
    expect(effects.filter((e) => e.startsWith('refund'))).toEqual([]);
    const decision = { toolCallId: 'toolu_2', verdict: 'approve' as const, reason: '', decidedBy: 'ada' };
    const step = await loop.resume(JSON.parse(JSON.stringify(waiting.state)), [decision]);
    await loop.resume(JSON.parse(JSON.stringify(waiting.state)), [decision]);
    expect(step.mutations.map((m) => m.outcome)).toEqual(['performed']);
    expect(effects.filter((e) => e.startsWith('refund'))).toEqual(['refund A-1 20']);
  });
});
