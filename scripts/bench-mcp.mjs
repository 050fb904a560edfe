#!/usr/bin/env node
// npm run bench:mcp: what turngate/mcp adds to an MCP tool call. One McpServer (the shop fixture)
// over the SDK's in-memory transport, and per round, interleaved in an order that rotates round
// by round, CALLS calls of each of:
//   direct     `client.callTool(...)` of the read tool (the floor)
//   handler    the registry's handler for it (tools/call, the result to the tool's output)
//   local turn `loop.answer` of an Anthropic reply of one call of a local read tool (valibot
//              schema, an in-process handler): what a loop step costs without MCP
//   read turn  the same reply calling the MCP read tool (Ajv validation, tools/call, the output)
//   mutation   `loop.answer` of a reply of one refund (the above, plus the recorded reply and the
//              effect claimed and recorded in a MemoryEffectLedger); each loop made once, each
//              turn on a history of its own with fresh ids
// Printed per row: the median of the rounds' microseconds per call (wall clock: the server
// answers in the same process), and the difference to `direct`. Build first: it measures dist/.
//
// Usage: node scripts/bench-mcp.mjs [--rounds N] [--calls N]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import * as v from 'valibot';
import { defineTools, MemoryEffectLedger } from '../dist/esm/index.js';
import { toolLoop } from '../dist/esm/adapters/anthropic.js';
import { mcpTools } from '../dist/esm/mcp.js';
import { shopServer } from '../test/fixtures/mcp-shop.mjs';
import { median } from './bench/stats.mjs';
import { anthropicReply } from '../test/fixtures/anthropic-reply.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, calls: { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 9);
const CALLS = Number(values.calls ?? 40);

const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await shopServer(() => undefined).connect(serverSide);
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(clientSide);
const mcp = await mcpTools([{ name: 'shop', client, reads: ['get_order'] }]);
const reply = anthropicReply;
const signal = new AbortController().signal;
let serial = 0;

class Local extends defineTools({ shop__get_order: { input: v.object({ id: v.string() }), output: v.string() } }) {}
const local = { tools: Local, handlers: { shop__get_order: async ({ id }) => `order ${id}: 2 books` } };

// Each loop is made once (its declarations too); each turn has a history of its own, so no
// reply is taken for a regeneration of an earlier one.
const localLoop = toolLoop(local);
const mcpLoop = toolLoop(mcp);
const gatedLoop = toolLoop({ ...mcp, ledger: new MemoryEffectLedger(), sessionId: 'bench' });
const turn = (loop, name, input) => {
  serial++;
  return loop.answer(
    [{ role: 'user', content: `Turn ${serial}` }],
    reply(`msg_${serial}`, [[`toolu_${serial}`, name, input]]),
  );
};

const cases = {
  direct: async () => client.callTool({ name: 'get_order', arguments: { id: 'A-1' } }),
  handler: async () =>
    mcp.handlers.shop__get_order({ id: 'A-1' }, { toolCallId: 'toolu_1', toolName: 'shop__get_order' }, { signal }),
  'local turn': async () => turn(localLoop, 'shop__get_order', { id: 'A-1' }),
  'read turn': async () => turn(mcpLoop, 'shop__get_order', { id: 'A-1' }),
  mutation: async () => {
    const step = await turn(gatedLoop, 'shop__refund', { id: 'A-1', amount: 1 });
    if (step.mutations[0]?.outcome !== 'performed') throw new Error(`the refund was ${step.mutations[0]?.outcome}`);
    return step;
  },
};
const names = Object.keys(cases);
const times = Object.fromEntries(names.map((name) => [name, []]));
for (const name of names) for (let i = 0; i < 20; i++) await cases[name](); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length];
    const run = cases[name];
    const start = performance.now();
    for (let i = 0; i < CALLS; i++) await run();
    times[name].push(((performance.now() - start) * 1000) / CALLS);
  }
}
await client.close();
const floor = median(times.direct);
console.log(
  `turngate/mcp: microseconds per call, median of ${ROUNDS} interleaved rounds of ${CALLS} calls (in-memory transport)`,
);
console.log('case         median us   over direct');
for (const name of names) {
  const m = median(times[name]);
  console.log(
    `${name.padEnd(12)} ${m.toFixed(0).padStart(9)}   ${name === 'direct' ? '' : `+${(m - floor).toFixed(0)} us (x${(m / floor).toFixed(2)})`}`,
  );
}
const own = median(times['read turn']) - median(times['local turn']);
console.log(`read turn over local turn (what MCP adds to a loop step, the call included): +${own.toFixed(0)} us`);
