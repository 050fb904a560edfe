#!/usr/bin/env node
// npm run bench:approvals: what an approval record costs per store. Per store, each batch runs
// BATCH effects two ways: an effect alone (`beginApproved` with approval not required, then
// `finish`: the store's own baseline), and an approved effect (`requestApproval`,
// `decideApproval`, `beginApproved` consuming it, `finish`). The difference is the cost of the
// approval record: its insert, its decision, its read at begin. Stores: MemoryEffectLedger, the
// SQLite store's (a file, WAL), FileEffectLedger (a directory), and the PostgreSQL store's when
// TURNGATE_PG_URL is set (its tables are dropped at the end).
//
// Rounds are interleaved (every round runs one batch of every variant, in an order that rotates
// round by round). Printed per store: the median microseconds per effect of each way, and the
// median of the per-round differences with their interquartile range. Build first: it measures dist/.
//
// Usage: node scripts/bench-approvals.mjs [--rounds N] [--batch N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { MemoryEffectLedger } from '../dist/index.js';
import { beginApproved, decideApproval, requestApproval } from '../dist/approvals.js';
import { SqliteSessionStore } from '../dist/chat/sqlite.js';
import { FileEffectLedger } from '../dist/tusk/index.js';
import { median } from './bench/stats.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, batch: { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 7);
const BATCH = Number(values.batch ?? 20);

const dir = mkdtempSync(join(tmpdir(), 'turngate-bench-approvals-'));
const sqlite = new SqliteSessionStore(join(dir, 'chat.db'));
const stores = [
  ['MemoryEffectLedger', new MemoryEffectLedger()],
  ['SQLite store (file, WAL)', sqlite.approvalLedger()],
  ['FileEffectLedger', new FileEffectLedger(join(dir, 'effects'))],
];
let postgres;
const prefix = `bench_approvals_${process.pid}`;
if (process.env.TURNGATE_PG_URL !== undefined) {
  const { PostgresSessionStore } = await import('../dist/chat/postgres.js');
  postgres = new PostgresSessionStore(process.env.TURNGATE_PG_URL, { tablePrefix: prefix });
  stores.push(['PostgreSQL store (loopback)', postgres.approvalLedger()]);
}

let serial = 0;
const check = { policyVersion: 'v1', schemaDigest: 'sha256:schema', now: 1_000 };
function next() {
  serial += 1;
  const id = `call_${serial}_${process.pid}`;
  return {
    key: `bench-${id}`,
    toolCallId: id,
    toolName: 'send_email',
    inputDigest: 'sha256:in',
    joinSetDigest: 'sha256:j',
  };
}

async function effectAlone(ledger) {
  const entries = Array.from({ length: BATCH }, next);
  const start = performance.now();
  for (const entry of entries) {
    const claim = await beginApproved(ledger, entry, { ...check, approval: 'not_required' });
    if (!claim.claimed) throw new Error('not claimed');
    await ledger.finish(entry.key, { state: 'completed', output: { sent: true } });
  }
  return ((performance.now() - start) * 1000) / BATCH;
}

async function approvedEffect(ledger) {
  const entries = Array.from({ length: BATCH }, next);
  const start = performance.now();
  for (const entry of entries) {
    const asked = await requestApproval(ledger, {
      ...entry,
      policyVersion: 'v1',
      schemaDigest: 'sha256:schema',
      reason: 'bench',
      createdAt: 0,
      expiresAt: 60_000,
    });
    if (!asked.ok) throw new Error('not asked');
    const decided = await decideApproval(ledger, asked.value, {
      verdict: 'approve',
      reason: '',
      decidedBy: 'bench',
      decidedAt: 500,
    });
    if (!decided.ok) throw new Error('not decided');
    const claim = await beginApproved(ledger, entry, check);
    if (!claim.claimed) throw new Error('not claimed');
    await ledger.finish(entry.key, { state: 'completed', output: { sent: true } });
  }
  return ((performance.now() - start) * 1000) / BATCH;
}

const variants = stores.flatMap(([name, ledger]) => [
  [name, 'alone', () => effectAlone(ledger)],
  [name, 'approved', () => approvedEffect(ledger)],
]);
for (const [, , run] of variants) await run(); // warm-up (and the tables created)
const times = variants.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < variants.length; k++) {
    const i = (round + k) % variants.length;
    times[i].push(await variants[i][2]());
  }
}
const quartiles = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[Math.floor((s.length - 1) / 4)], s[Math.ceil(((s.length - 1) * 3) / 4)]];
};
console.log(
  `approval record cost per effect: ${ROUNDS} interleaved rounds x ${BATCH} effects, wall time, node ${process.version}`,
);
console.log('store                          effect alone us   approved effect us   approval record us [IQR]');
for (let i = 0; i < variants.length; i += 2) {
  const diffs = times[i + 1].map((t, r) => t - times[i][r]);
  const [q1, q3] = quartiles(diffs);
  console.log(
    `${variants[i][0].padEnd(30)} ${median(times[i]).toFixed(1).padStart(15)}   ${median(times[i + 1])
      .toFixed(1)
      .padStart(18)}   ${median(diffs).toFixed(1)} [${q1.toFixed(1)} to ${q3.toFixed(1)}]`,
  );
}
sqlite.close();
if (postgres !== undefined) {
  await postgres.close();
  const pg = (await import('pg')).default;
  const { sqlTables } = await import('../dist/chat/sql-rows.js');
  const admin = new pg.Pool({ connectionString: process.env.TURNGATE_PG_URL, max: 1 });
  await admin.query(`DROP TABLE IF EXISTS ${Object.values(sqlTables('bench', prefix)).join(', ')}`);
  await admin.end();
}
rmSync(dir, { recursive: true, force: true });
