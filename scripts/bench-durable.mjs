#!/usr/bin/env node
// npm run bench:durable: what running a tool loop as a DBOS workflow costs per step, over a plain
// `toolLoop` on the same PostgreSQL ledger, both measured in this run. A conversation is two
// turns of a scripted Anthropic model (turn 1: a read and a mutation; turn 2: the final text), so
// four steps: two model calls, two answers. Per round, interleaved in an order that alternates
// round by round, CONVERSATIONS conversations of each:
// - plain: `toolLoop` with the store's ledger (`approvalLedger()`), `answer` per reply;
// - durable: the same loop through `durableToolLoop` in a DBOS workflow (`dbosEngine`), each
//   model call and each answer a checkpointed step, started and awaited one at a time;
// - empty workflow: a DBOS workflow that returns at once, started and awaited the same way (what
//   a workflow costs whatever it does: its status rows, the result's wait).
// Printed: the median over rounds of the milliseconds per conversation, the difference per step
// ((durable - plain) / 4), and per step without the workflow's own cost ((durable - plain -
// empty) / 4). Wall clock, one process; PostgreSQL on this machine.
//
// usage: TURNGATE_PG_URL=... node scripts/bench-durable.mjs [--rounds 7] [--conversations 10]
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DBOS } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import * as v from 'valibot';
import { defineTools } from '../dist/esm/index.js';
import { toolLoop } from '../dist/esm/adapters/anthropic.js';
import { PostgresSessionStore } from '../dist/esm/chat/postgres.js';
import { durableToolLoop } from '../dist/esm/durable.js';
import { dbosEngine } from '../dist/esm/durable/dbos.js';
import { anthropicReply } from '../test/fixtures/anthropic-reply.mjs';
import { median } from './bench/stats.mjs';
import { dropStoreTables } from './pg-tables.mjs';

const url = process.env.TURNGATE_PG_URL;
if (!url) {
  console.error('bench-durable: TURNGATE_PG_URL is not set (eval "$(bash scripts/start-postgres.sh)")');
  process.exit(2);
}
const { values } = parseArgs({ options: { rounds: { type: 'string' }, conversations: { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 7);
const CONVERSATIONS = Number(values.conversations ?? 10);
const STEPS = 4;

const prefix = `bench_durable_${randomBytes(4).toString('hex')}`;
const store = new PostgresSessionStore(url, { tablePrefix: prefix, maxConnections: 4 });
const ledger = store.approvalLedger();
class Tools extends defineTools({
  get_weather: { input: v.object({ city: v.string() }), output: v.string() },
  send_email: { input: v.object({ to: v.string() }), output: v.object({ sent: v.boolean() }), mutation: true },
}) {}
const handlers = { get_weather: async ({ city }) => `snow in ${city}`, send_email: async () => ({ sent: true }) };
const input = [{ role: 'user', content: 'Weather in Oslo, and email it to ada@example.com' }];
/** The scripted model: the same replies for both sides. */
const model = async (_history, turn) =>
  turn === 1
    ? anthropicReply('msg_1', [
        ['toolu_1', 'get_weather', { city: 'Oslo' }],
        ['toolu_2', 'send_email', { to: 'ada@example.com' }],
      ])
    : anthropicReply(`msg_${turn}`, [], { stop: 'end_turn', content: [{ type: 'text', text: 'Sent.' }] });

let sessions = 0;
async function plain() {
  const loop = toolLoop({ tools: Tools, handlers, ledger, sessionId: `plain-${sessions++}` });
  const history = [...input];
  for (let turn = 1, step = loop.start(); !step.done; turn++) {
    const reply = await model(history, turn);
    step = await loop.answer(history, reply);
    history.push(...step.messages);
  }
}

const agent = DBOS.registerWorkflow(
  async (history) =>
    durableToolLoop(dbosEngine(DBOS), {
      ledger,
      history,
      model: (sent, { turn }) => model(sent, turn),
      loop: (session) => toolLoop({ tools: Tools, handlers, ...session }),
    }),
  { name: 'bench-agent' },
);
const nothing = DBOS.registerWorkflow(async () => 'done', { name: 'bench-empty' });
async function empty() {
  const handle = await DBOS.startWorkflow(nothing, { workflowID: `${prefix}-${sessions++}` })();
  await handle.getResult();
}
async function durable() {
  const handle = await DBOS.startWorkflow(agent, { workflowID: `${prefix}-${sessions++}` })(input);
  const result = await handle.getResult();
  if (result.status !== 'done') throw new Error(`bench-durable: a workflow ended ${result.status}`);
}

DBOS.setConfig({
  name: 'turngate-bench-durable',
  systemDatabaseUrl: url,
  systemDatabaseSchemaName: `${prefix}_dbos`,
  runAdminServer: false,
  logLevel: 'error',
});
await DBOS.launch();

const times = { plain: [], durable: [], empty: [] };
const run = async (name, fn) => {
  const start = performance.now();
  for (let i = 0; i < CONVERSATIONS; i++) await fn();
  times[name].push((performance.now() - start) / CONVERSATIONS);
};
const sides = { plain, durable, empty };
for (const name of Object.keys(sides)) await run(name, sides[name]); // warm-up (tables, schema, JIT)
for (const name of Object.keys(sides)) times[name].length = 0;
const names = Object.keys(sides);
for (let round = 0; round < ROUNDS; round++) {
  // Each side first, second and third in turn.
  const order = names.map((_, i) => names[(i + round) % names.length]);
  for (const name of order) await run(name, sides[name]);
}
const p = median(times.plain);
const d = median(times.durable);
const e = median(times.empty);
console.log(
  `bench-durable: ${ROUNDS} rounds x ${CONVERSATIONS} conversations of ${STEPS} steps (2 model calls, 2 answers)`,
);
console.log(`  plain toolLoop (PostgreSQL ledger): ${p.toFixed(2)} ms per conversation`);
console.log(`  durableToolLoop on DBOS:            ${d.toFixed(2)} ms per conversation`);
console.log(`  empty DBOS workflow:                ${e.toFixed(2)} ms`);
console.log(`  cost per step: ${((d - p) / STEPS).toFixed(2)} ms (durable - plain) / ${STEPS}`);
console.log(
  `  cost per step without the workflow's own: ${((d - p - e) / STEPS).toFixed(2)} ms (durable - plain - empty) / ${STEPS}`,
);

await DBOS.shutdown();
const admin = new pg.Pool({ connectionString: url, max: 1 });
await dropStoreTables(admin, prefix);
await admin.query(`DROP SCHEMA IF EXISTS ${prefix}_dbos CASCADE`);
await admin.end();
await store.close();
