#!/usr/bin/env node
// npm run bench:chat: what the chat harness costs per turn, with a trivial one-node graph, on the
// in-memory, SQLite and (when TURNGATE_PG_URL is set) PostgreSQL stores.
// - send() against the graph invoked directly (the harness's own overhead);
// - turns per second on 1 session (sequential) and on 1,000 sessions (concurrent), from one
//   process, and for PostgreSQL also from 4 processes sharing the sessions;
// - per-turn time along one session at turns 10, 100 and 1,000 (a fresh store per build, one
//   session, turns sent one after another; target: turn 1,000 within 1.2x of turn 10).
// With --baseline, the overhead and throughput sections measure this build only. One untimed run
// along one session per build and store comes first (the engine's warm-up).
// Every figure is measured in this run. Each measurement is repeated (--repeats, default 5), the
// stores interleaved within each repeat, and reported as the median and the mean of the repeats
// (garbage collection shows in the means).
//
// Options:
//   --repeats N            repeats of every measurement (default 5)
//   --quick                fewer turns in the overhead and PostgreSQL throughput sections
//   --baseline <checkout>  another build of turngate (that checkout's dist/, built there): the
//                          per-turn time along one session is measured for both builds in the
//                          same repeats, interleaved (the order alternating repeat by repeat), on
//                          every store, and printed side by side with each build's 1,000/10 ratio
//   --only-along           only the per-turn time along one session (skips overhead and throughput)
//
// usage: node scripts/bench-chat.mjs [--repeats 5] [--quick] [--baseline ../old-checkout] [--only-along]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createChatHarness, InMemorySessionStore, sequentialGraph } from '../dist/chat/index.js';
import { SqliteSessionStore } from '../dist/chat/sqlite.js';
import { median } from './bench/stats.mjs';
import { dropStoreTables } from './pg-tables.mjs';

/** The bench's one-node graph, built with a build's own `sequentialGraph`. */
const graphOf = (chat) =>
  chat.sequentialGraph({
    entry: 'reply',
    nodes: { reply: () => ({ messages: [{ role: 'assistant', content: 'ok' }] }) },
    edges: [],
  });
const graph = graphOf({ sequentialGraph });
const url = process.env.TURNGATE_PG_URL;
const pgModule = url ? await import('../dist/chat/postgres.js') : undefined;

/** This build's chat entry points (the same modules the other sections use). */
const thisBuild = {
  name: 'this build',
  chat: { createChatHarness, InMemorySessionStore, sequentialGraph },
  SqliteSessionStore,
  PostgresSessionStore: pgModule?.PostgresSessionStore,
  graph,
};

/** Another build's chat entry points: its checkout's dist/chat/index.js, sqlite.js and postgres.js. */
async function loadBuild(root) {
  const at = (path) => pathToFileURL(resolve(root, path)).href;
  const chat = await import(at('dist/chat/index.js'));
  const { SqliteSessionStore } = await import(at('dist/chat/sqlite.js'));
  const postgres = url ? await import(at('dist/chat/postgres.js')) : undefined;
  return {
    name: 'baseline',
    root,
    chat,
    SqliteSessionStore,
    PostgresSessionStore: postgres?.PostgresSessionStore,
    graph: graphOf(chat),
  };
}

/** A fresh store of a kind from a build, and how to dispose of it (PostgreSQL: tables of their own, dropped). */
async function makeStore(kind, build = thisBuild) {
  if (kind === 'in-memory') return { store: new build.chat.InMemorySessionStore(), dispose: async () => {} };
  if (kind === 'SQLite') {
    const store = new build.SqliteSessionStore(':memory:');
    return { store, dispose: async () => store.close() };
  }
  const prefix = `tg_bench_${randomBytes(5).toString('hex')}`;
  const store = new build.PostgresSessionStore(url, { tablePrefix: prefix });
  return { store, prefix, dispose: async () => dropAndClose(store, prefix) };
}

async function dropAndClose(store, prefix) {
  const pg = (await import('pg')).default;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await dropStoreTables(pool, prefix);
  await pool.end();
  await store.close();
}

/** Sends `turns` turns to one session in sequence, then `rounds` rounds to `sessions` sessions at once; returns turns per second for each. */
async function throughput(harness, tag, turns, sessions, rounds) {
  const start1 = performance.now();
  for (let i = 0; i < turns; i++) await harness.send(`${tag}-one`, { role: 'user', content: `m${i}` });
  const one = turns / ((performance.now() - start1) / 1000);
  const start2 = performance.now();
  for (let round = 0; round < rounds; round++)
    await Promise.all(
      Array.from({ length: sessions }, (_, i) => harness.send(`${tag}-s${i}`, { role: 'user', content: `r${round}` })),
    );
  const many = (sessions * rounds) / ((performance.now() - start2) / 1000);
  return { one, many };
}

/** Per-turn time along one session: the median of the turns within 25 of each mark. */
async function alongOneSession(harness, tag, marks) {
  const result = {};
  let turn = 0;
  for (const mark of marks) {
    const samples = [];
    while (turn < mark + 25) {
      const start = performance.now();
      await harness.send(`${tag}-long`, { role: 'user', content: `t${turn}` });
      if (turn >= mark - 25) samples.push(performance.now() - start);
      turn++;
    }
    result[mark] = median(samples);
  }
  return result;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const us = (ms) => `${(ms * 1000).toFixed(1)} us`;
const ms = (value) => `${value.toFixed(2)} ms`;
const perSec = (value) => `${Math.round(value).toLocaleString('en-US')}/s`;
const both = (xs, fmt) => `${fmt(median(xs))} (mean ${fmt(mean(xs))})`;

// A worker process of the 4-process PostgreSQL measurement: waits for "go", runs its share, reports.
if (process.argv[2] === '--worker') {
  const [, , , prefix, worker, workers, turns, sessions, rounds] = process.argv;
  const store = new pgModule.PostgresSessionStore(url, { tablePrefix: prefix });
  const harness = createChatHarness({ graph, store });
  await harness.send(`warm-${worker}`, { role: 'user', content: 'warm' });
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line !== 'go') continue;
    const start1 = performance.now();
    for (let i = 0; i < Number(turns); i++)
      await harness.send('shared-one', { role: 'user', content: `w${worker}-m${i}` });
    const one = performance.now() - start1;
    const mine = Array.from({ length: Number(sessions) }, (_, i) => i).filter(
      (i) => i % Number(workers) === Number(worker),
    );
    const start2 = performance.now();
    for (let round = 0; round < Number(rounds); round++)
      await Promise.all(mine.map((i) => harness.send(`s${i}`, { role: 'user', content: `r${round}` })));
    const many = performance.now() - start2;
    process.stdout.write(`${JSON.stringify({ one, many })}\n`);
    break;
  }
  lines.close();
  await store.close();
  process.exit(0);
}

/** Turns per second from `workers` processes: 1 shared session (each sends `turns`), then `sessions` sessions split among them. */
async function fromProcesses(workers, turns, sessions, rounds) {
  const prefix = `tg_bench_${randomBytes(5).toString('hex')}`;
  const setup = new pgModule.PostgresSessionStore(url, { tablePrefix: prefix });
  await setup.save('setup', { state: { messages: [] } }, 0);
  const children = Array.from({ length: workers }, (_, w) =>
    spawn(
      process.execPath,
      [
        new URL(import.meta.url).pathname,
        '--worker',
        prefix,
        String(w),
        String(workers),
        String(turns),
        String(sessions),
        String(rounds),
      ],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    ),
  );
  const exited = children.map((child) => new Promise((resolve) => child.on('exit', resolve)));
  const readers = children.map((child) => createInterface({ input: child.stdout })[Symbol.asyncIterator]());
  for (const reader of readers) await reader.next(); // ready
  for (const child of children) child.stdin.write('go\n');
  const reports = await Promise.all(readers.map(async (reader) => JSON.parse((await reader.next()).value)));
  await Promise.all(exited);
  await dropAndClose(setup, prefix);
  return {
    one: (workers * turns) / (Math.max(...reports.map((r) => r.one)) / 1000),
    many: (sessions * rounds) / (Math.max(...reports.map((r) => r.many)) / 1000),
  };
}

const { values } = parseArgs({
  options: {
    repeats: { type: 'string', default: '5' },
    quick: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    'only-along': { type: 'boolean', default: false },
  },
});
const repeats = Number(values.repeats);
if (!Number.isInteger(repeats) || repeats < 1) {
  console.error(`bench-chat: --repeats must be a positive integer, got ${values.repeats}`);
  process.exit(2);
}
const quick = values.quick;
const onlyAlong = values['only-along'];
const builds = [thisBuild, ...(values.baseline === undefined ? [] : [await loadBuild(resolve(values.baseline))])];
const kinds = ['in-memory', 'SQLite', ...(url ? ['PostgreSQL'] : [])];
const plan = {
  'in-memory': { turns: 2000, rounds: 5 },
  SQLite: { turns: 2000, rounds: 5 },
  PostgreSQL: { turns: quick ? 100 : 400, rounds: quick ? 1 : 2 },
};
const marks = [10, 100, 1000];
const load0 = loadavg()[0];

const samples = { direct: [], overhead: {}, one: {}, many: {}, along: {} };
for (const kind of kinds) {
  samples.overhead[kind] = [];
  samples.one[kind] = [];
  samples.many[kind] = [];
  samples.along[kind] = Object.fromEntries(
    builds.map((build) => [build.name, Object.fromEntries(marks.map((m) => [m, []]))]),
  );
}
samples.one['PostgreSQL x4'] = [];
samples.many['PostgreSQL x4'] = [];

// Warm-up: one untimed run along one session per build and store, so that turn 10 of the first
// repeat is not measured on code the engine has not compiled yet (with --only-along nothing else
// runs before it).
for (const kind of kinds)
  for (const build of builds) {
    const { store, dispose } = await makeStore(kind, build);
    await alongOneSession(build.chat.createChatHarness({ graph: build.graph, store }), 'warm', marks);
    await dispose();
  }
for (let r = 0; r < repeats; r++) {
  if (!onlyAlong) await overheadAndThroughput(r);
  // 3. Per-turn time along one session: every store, each build on a fresh store of its own, the
  // builds' order alternating repeat by repeat.
  const order = r % 2 === 0 ? builds : [...builds].reverse();
  for (const kind of kinds)
    for (const build of order) {
      const { store, dispose } = await makeStore(kind, build);
      const harness = build.chat.createChatHarness({ graph: build.graph, store });
      const along = await alongOneSession(harness, `r${r}`, marks);
      for (const mark of marks) samples.along[kind][build.name][mark].push(along[mark]);
      await dispose();
    }
  process.stderr.write(`repeat ${r + 1}/${repeats} done\n`);
}

/** Sections 1 and 2 of one repeat: this build's overhead and throughput. */
async function overheadAndThroughput(r) {
  // 1. Overhead: send() on new sessions against graph.invoke on the same state (in-process stores).
  const n = quick ? 2000 : 10000;
  const directStart = performance.now();
  for (let i = 0; i < n; i++)
    await graph.invoke({ messages: [{ role: 'user', content: 'hi' }] }, { invocationId: 'x' });
  samples.direct.push((performance.now() - directStart) / n);
  for (const kind of kinds.filter((k) => k !== 'PostgreSQL')) {
    const { store, dispose } = await makeStore(kind);
    const harness = createChatHarness({ graph, store });
    for (let i = 0; i < 200; i++) await harness.send(`w${i}`, { role: 'user', content: 'hi' });
    const start = performance.now();
    for (let i = 0; i < n; i++) await harness.send(`s${i}`, { role: 'user', content: 'hi' });
    samples.overhead[kind].push((performance.now() - start) / n);
    await dispose();
  }
  // 2. Throughput, every store in turn.
  for (const kind of kinds) {
    const { store, dispose } = await makeStore(kind);
    const harness = createChatHarness({ graph, store });
    const { one, many } = await throughput(harness, `r${r}`, plan[kind].turns, 1000, plan[kind].rounds);
    samples.one[kind].push(one);
    samples.many[kind].push(many);
    await dispose();
  }
  if (url) {
    const four = await fromProcesses(4, plan.PostgreSQL.turns / 4, 1000, plan.PostgreSQL.rounds);
    samples.one['PostgreSQL x4'].push(four.one);
    samples.many['PostgreSQL x4'].push(four.many);
  }
}

const against = builds.length > 1 ? `; baseline ${builds[1].root}, its along-one-session runs interleaved` : '';
console.log(
  `chat bench: ${repeats} repeats, stores interleaved${against}; median (mean) of the repeats; load average ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`,
);
if (!onlyAlong) {
  console.log('\nharness overhead per turn (trivial graph, a new session each turn):');
  console.log(`  graph.invoke directly     ${both(samples.direct, us)}`);
  for (const kind of kinds.filter((k) => k !== 'PostgreSQL')) {
    const overhead = samples.overhead[kind].map((x, i) => x - samples.direct[i]);
    console.log(
      `  send() ${kind.padEnd(10)}        ${both(samples.overhead[kind], us)}; overhead ${both(overhead, us)} (target <= 50 us)`,
    );
  }
  console.log('\nturns per second:');
  for (const kind of [...kinds, ...(url ? ['PostgreSQL x4'] : [])]) {
    const p = plan[kind] ?? plan.PostgreSQL;
    console.log(
      `  ${kind.padEnd(14)} 1 session (${p.turns} turns): ${both(samples.one[kind], perSec)}   1,000 sessions (${p.rounds} rounds): ${both(samples.many[kind], perSec)}`,
    );
  }
  if (url)
    console.log(
      '  (PostgreSQL x4: 4 processes, each sending a quarter of the turns to the same one session, then to its quarter of the 1,000 sessions)',
    );
}
console.log(
  '\nper-turn time along one session (a fresh store; median of the 50 turns around each mark, then over the repeats):',
);
for (const kind of kinds) {
  const fmt = kind === 'PostgreSQL' ? ms : us;
  for (const build of builds) {
    const a = samples.along[kind][build.name];
    const ratio = a[1000].map((x, i) => x / a[10][i]);
    const label = builds.length > 1 ? `${kind.padEnd(10)} ${build.name.padEnd(10)}` : kind.padEnd(10);
    console.log(
      `  ${label} turn 10: ${both(a[10], fmt)}  turn 100: ${both(a[100], fmt)}  turn 1,000: ${both(a[1000], fmt)}  (1,000 / 10 = ${median(ratio).toFixed(2)}x, target <= 1.2x)`,
    );
  }
}
if (!url)
  console.log(
    '\nTURNGATE_PG_URL is not set: PostgreSQL not measured (eval "$(bash scripts/start-postgres.sh)" starts a server)',
  );
console.log('\nThe machine is shared: figures move with its load (the load average above); compare within one run.');
