#!/usr/bin/env node
// npm run bench:chat-postgres: the PostgreSQL session store per turn, against a baseline build
// of turngate (another checkout's dist/, e.g. the previous release), both measured in this run:
// - statements and client round trips per turn: the steady state (this process wrote the
//   session last) and a reload (another process wrote it), counted by the client (every
//   `query` of the store's pool and of the connections it takes) and by the server
//   (pg_stat_statements calls, when the extension is loaded: see --server-stats);
// - turns per second from 1, 4 and 8 processes, each on its own sessions (1,000 in all), every
//   process sending 16 turns at a time;
// - per-turn time along one session at turns 10, 100 and 1,000 (the median of the 9 turns
//   around each).
// The two builds alternate within each repeat (--repeats, default 3); medians are reported.
//
// usage: TURNGATE_PG_URL=... node scripts/bench-chat-postgres.mjs --baseline ../old-checkout [--repeats 3] [--server-stats]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { median } from './bench/stats.mjs';
import { dropStoreTables } from './pg-tables.mjs';

const url = process.env.TURNGATE_PG_URL;
if (!url) {
  console.error('bench-chat-postgres: TURNGATE_PG_URL is not set (eval "$(bash scripts/start-postgres.sh)")');
  process.exit(2);
}

/** The chat module and the PostgreSQL store of a build (a checkout with dist/). */
async function load(root) {
  const chat = await import(pathToFileURL(resolve(root, 'dist/chat/index.js')).href);
  const postgres = await import(pathToFileURL(resolve(root, 'dist/chat/postgres.js')).href);
  return { chat, PostgresSessionStore: postgres.PostgresSessionStore };
}

const graphOf = (chat) =>
  chat.sequentialGraph({
    entry: 'reply',
    nodes: { reply: () => ({ messages: [{ role: 'assistant', content: 'ok' }] }) },
    edges: [],
  });
const user = (content) => ({ role: 'user', content });

async function drop(prefix) {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await dropStoreTables(admin, prefix);
  await admin.end();
}

// A worker process: one build, its share of the sessions, 16 sends at a time; reports ms.
if (process.argv[2] === '--worker') {
  const [, , , root, prefix, worker, sessions, concurrency] = process.argv;
  const { chat, PostgresSessionStore } = await load(root);
  const store = new PostgresSessionStore(url, { tablePrefix: prefix });
  const harness = chat.createChatHarness({ graph: graphOf(chat), store });
  await harness.send(`warm-${worker}`, user('warm'));
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const ids = Array.from({ length: Number(sessions) }, (_, i) => `w${worker}-s${i}`);
  let next = 0;
  let errored = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: Number(concurrency) }, async () => {
      while (next < ids.length) {
        const outcome = await harness.send(ids[next++], user('hello'));
        if (outcome.outcome !== 'completed') errored++;
      }
    }),
  );
  process.stdout.write(`${JSON.stringify({ ms: performance.now() - start, errored })}\n`);
  await store.close();
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    repeats: { type: 'string', default: '3' },
    'server-stats': { type: 'boolean', default: false },
  },
});
if (values.baseline === undefined) {
  console.error('bench-chat-postgres: --baseline <checkout with dist/> is required');
  process.exit(2);
}
const builds = [
  { name: 'baseline', root: resolve(values.baseline) },
  { name: 'this', root: resolve(new URL('..', import.meta.url).pathname) },
];
for (const build of builds) Object.assign(build, await load(build.root));
const repeats = Number(values.repeats);

/** A pool whose every statement (each `query` of its connections: one round trip each) is counted. */
function countingPool() {
  const counter = { calls: 0 };
  class CountingClient extends pg.Client {
    query(...args) {
      counter.calls++;
      return super.query(...args);
    }
  }
  return { pool: new pg.Pool({ connectionString: url, max: 10, Client: CountingClient }), counter };
}

/** Server-side statement calls (pg_stat_statements), or undefined when the extension is absent. */
async function serverCalls(admin) {
  if (!values['server-stats']) return undefined;
  const rows = await admin.query(
    "SELECT COALESCE(sum(calls), 0)::bigint AS calls FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'",
  );
  return Number(rows.rows[0].calls);
}

/** Statements per turn: the steady state and a reload, counted by the client and the server. */
async function roundTrips(build) {
  const prefix = `tg_bench_${randomBytes(5).toString('hex')}`;
  const { pool, counter } = countingPool();
  const store = new build.PostgresSessionStore(pool, { tablePrefix: prefix });
  const harness = build.chat.createChatHarness({ graph: graphOf(build.chat), store });
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  if (values['server-stats']) await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  for (let i = 0; i < 5; i++) await harness.send('s', user(`warm ${i}`));
  const turns = 50;
  let before = counter.calls;
  let server = await serverCalls(admin);
  for (let i = 0; i < turns; i++) await harness.send('s', user(`turn ${i}`));
  const steady = (counter.calls - before) / turns;
  const steadyServer = server === undefined ? undefined : ((await serverCalls(admin)) - server) / turns;
  // Another process writes between turns: the harness's copy is stale and the history is read.
  const other = new build.PostgresSessionStore(url, { tablePrefix: prefix });
  const otherHarness = build.chat.createChatHarness({ graph: graphOf(build.chat), store: other });
  let reloadCalls = 0;
  let reloadServer = 0;
  for (let i = 0; i < 10; i++) {
    await otherHarness.send('s', user(`elsewhere ${i}`));
    before = counter.calls;
    server = await serverCalls(admin);
    await harness.send('s', user(`reload ${i}`));
    reloadCalls += counter.calls - before;
    if (server !== undefined) reloadServer += (await serverCalls(admin)) - server;
  }
  await other.close();
  await store.close();
  await pool.end();
  await admin.end();
  await drop(prefix);
  return {
    steady,
    reload: reloadCalls / 10,
    steadyServer,
    reloadServer: values['server-stats'] ? reloadServer / 10 : undefined,
  };
}

/** Turns per second from `workers` processes, 1,000 sessions in all, one turn each. */
async function fromProcesses(build, workers) {
  const prefix = `tg_bench_${randomBytes(5).toString('hex')}`;
  const setup = new build.PostgresSessionStore(url, { tablePrefix: prefix });
  await setup.save('setup', { state: { messages: [] } }, 0);
  await setup.close();
  const perWorker = Math.floor(1000 / workers);
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const children = Array.from({ length: workers }, (_, w) =>
    spawn(
      process.execPath,
      [new URL(import.meta.url).pathname, '--worker', build.root, prefix, String(w), String(perWorker), '16'],
      { stdio: ['pipe', 'pipe', 'inherit'], env },
    ),
  );
  const lines = children.map((child) => {
    const queue = [];
    const waiters = [];
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const waiter = waiters.shift();
        if (waiter) waiter(line);
        else queue.push(line);
        newline = buffer.indexOf('\n');
      }
    });
    return () => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((r) => waiters.push(r)));
  });
  for (const next of lines) await next(); // ready
  for (const child of children) child.stdin.write('go\n');
  const reports = await Promise.all(lines.map(async (next) => JSON.parse(await next())));
  await Promise.all(children.map((child) => new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)))));
  await drop(prefix);
  const errored = reports.reduce((sum, r) => sum + r.errored, 0);
  return { perSec: (perWorker * workers) / (Math.max(...reports.map((r) => r.ms)) / 1000), errored };
}

/** Per-turn ms along one session at turns 10, 100 and 1,000 (median of the 9 turns around each). */
async function alongOneSession(build) {
  const prefix = `tg_bench_${randomBytes(5).toString('hex')}`;
  const store = new build.PostgresSessionStore(url, { tablePrefix: prefix });
  const harness = build.chat.createChatHarness({ graph: graphOf(build.chat), store });
  const times = [];
  for (let turn = 1; turn <= 1004; turn++) {
    const start = performance.now();
    await harness.send('long', user(`turn ${turn}`));
    times[turn] = performance.now() - start;
  }
  await store.close();
  await drop(prefix);
  const around = (t) => median(times.slice(t - 4, t + 5));
  return { 10: around(10), 100: around(100), 1000: around(1000) };
}

const results = Object.fromEntries(builds.map((b) => [b.name, { trips: [], procs: {}, along: [] }]));
for (let r = 0; r < repeats; r++) {
  const order = r % 2 === 0 ? builds : [...builds].reverse();
  for (const build of order) results[build.name].trips.push(await roundTrips(build));
  for (const workers of [1, 4, 8])
    for (const build of order) {
      results[build.name].procs[workers] ??= [];
      results[build.name].procs[workers].push(await fromProcesses(build, workers));
    }
  for (const build of order) results[build.name].along.push(await alongOneSession(build));
  console.error(`repeat ${r + 1}/${repeats} done`);
}

const fmt = (x, digits = 2) => (x === undefined ? 'n/a' : x.toFixed(digits));
console.log(`PostgreSQL session store, ${repeats} interleaved repeats (medians); baseline: ${builds[0].root}`);
console.log('| figure | baseline | this |');
console.log('| --- | ---: | ---: |');
const row = (label, pick, digits) =>
  console.log(
    `| ${label} | ${builds.map((b) => fmt(median(results[b.name].trips.map(pick).filter((x) => x !== undefined)), digits)).join(' | ')} |`,
  );
row('client statements per turn, steady state', (t) => t.steady, 1);
row('client statements per turn, history reloaded', (t) => t.reload, 1);
if (values['server-stats']) {
  row('server statements per turn (pg_stat_statements), steady state', (t) => t.steadyServer, 1);
  row('server statements per turn (pg_stat_statements), history reloaded', (t) => t.reloadServer, 1);
}
for (const workers of [1, 4, 8]) {
  const cells = builds.map((b) => {
    const runs = results[b.name].procs[workers];
    const errored = runs.reduce((sum, x) => sum + x.errored, 0);
    return `${Math.round(median(runs.map((x) => x.perSec)))}/s${errored ? ` (${errored} errored)` : ''}`;
  });
  console.log(
    `| turns/s from ${workers} process${workers > 1 ? 'es' : ''} (1,000 sessions, 16 in flight each) | ${cells.join(' | ')} |`,
  );
}
for (const turn of [10, 100, 1000])
  console.log(
    `| ms per turn at turn ${turn.toLocaleString('en-US')} of one session | ${builds.map((b) => fmt(median(results[b.name].along.map((a) => a[turn])))).join(' | ')} |`,
  );
