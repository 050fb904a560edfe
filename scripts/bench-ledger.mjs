#!/usr/bin/env node
// npm run bench:ledger: what the effect ledger costs per effect. Each effect is one
// `settleMutations` of a closed turn whose one call is a mutating tool (its handler returns at
// once), without a ledger (the baseline) and with each ledger: MemoryEffectLedger, the SQLite
// store's (a file, WAL), FileEffectLedger (a directory), and the PostgreSQL store's when
// TURNGATE_PG_URL is set. The closed turns are built before the clock starts (unique call ids).
//
// Rounds are interleaved: every round runs one batch of every variant, in an order that rotates
// round by round, so load and JIT warm-up hit every variant alike. Printed per variant: the median
// microseconds per effect (wall time: the durable ledgers wait on fsync and the network), and the
// median of the per-round differences from the baseline, with their interquartile range.
// Build first: it measures dist/.
//
// Usage: node scripts/bench-ledger.mjs [--rounds N] [--batch N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import {
  callSpec,
  closeJoin,
  defineTools,
  MemoryEffectLedger,
  requestTools,
  settle,
  settleMutations,
  useAll,
} from '../dist/index.js';
import { SqliteSessionStore } from '../dist/chat/sqlite.js';
import { FileEffectLedger } from '../dist/tusk/index.js';
import { median } from './bench/stats.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, batch: { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 15);
const BATCH = Number(values.batch ?? 100);

class Tools extends defineTools({
  send_email: { input: v.object({ to: v.string() }), output: v.object({ sent: v.boolean() }), mutation: true },
}) {}
const handlers = { send_email: async () => ({ sent: true }) };

let serial = 0;
async function closedTurn() {
  serial += 1;
  const id = `toolu_${serial}_${process.pid}`;
  const spec = callSpec({ callId: `bench-${id}`, modelRef: 'bench/model', actionMode: 'code' });
  const requests = requestTools(spec.value, Tools, [
    { toolCallId: id, toolName: 'send_email', input: { to: 'ops@example.com' } },
  ]);
  const results = await settle(requests.value, {});
  const use = useAll(results.value, () => 'observed');
  const closed = closeJoin(use.value, { protocolState: { format: 'anthropic', stopReason: 'tool_use' } });
  if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
  return closed.value;
}

const dir = mkdtempSync(join(tmpdir(), 'turngate-bench-ledger-'));
const sqlite = new SqliteSessionStore(join(dir, 'chat.db'));
const variants = [
  ['no ledger (baseline)', undefined],
  ['MemoryEffectLedger', new MemoryEffectLedger()],
  ['SQLite store (file, WAL)', sqlite.effectLedger()],
  ['FileEffectLedger', new FileEffectLedger(join(dir, 'effects'))],
];
let postgres;
if (process.env.TURNGATE_PG_URL !== undefined) {
  const { PostgresSessionStore } = await import('../dist/chat/postgres.js');
  postgres = new PostgresSessionStore(process.env.TURNGATE_PG_URL, { tablePrefix: `bench_${process.pid}` });
  variants.push(['PostgreSQL store (loopback)', postgres.effectLedger()]);
}

async function batch(ledger) {
  const turns = [];
  for (let i = 0; i < BATCH; i++) turns.push(await closedTurn());
  const options = ledger === undefined ? undefined : { ledger };
  const start = performance.now();
  for (const closed of turns) {
    const final = await settleMutations(closed, handlers, undefined, options);
    if (!final.ok || final.value.mutations[0]?.outcome !== 'performed') throw new Error('not performed');
  }
  return ((performance.now() - start) * 1000) / BATCH;
}

const quartiles = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[Math.floor((s.length - 1) / 4)], s[Math.ceil(((s.length - 1) * 3) / 4)]];
};

for (const [, ledger] of variants) await batch(ledger); // warm-up
const times = variants.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < variants.length; k++) {
    const i = (round + k) % variants.length;
    times[i].push(await batch(variants[i][1]));
  }
}
console.log(
  `effect ledger cost per effect: ${ROUNDS} interleaved rounds x ${BATCH} effects, wall time, node ${process.version}`,
);
console.log('variant                         us/effect   minus baseline [IQR]');
for (let i = 0; i < variants.length; i++) {
  const diffs = times[i].map((t, r) => t - times[0][r]);
  const [q1, q3] = quartiles(diffs);
  const cell = i === 0 ? '' : `${median(diffs).toFixed(1)} [${q1.toFixed(1)} to ${q3.toFixed(1)}]`;
  console.log(`${variants[i][0].padEnd(30)} ${median(times[i]).toFixed(1).padStart(10)}   ${cell}`);
}
sqlite.close();
await postgres?.close();
rmSync(dir, { recursive: true, force: true });
