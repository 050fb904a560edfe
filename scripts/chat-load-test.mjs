#!/usr/bin/env node
// The PostgreSQL chat load test (run by scripts/test.sh when TURNGATE_PG_URL is set):
// N Node processes (default 4) on loopback send concurrently to the same 50 sessions (4 turns
// each per process, in order) and to 1,000 distinct sessions (one turn each), every turn a tool
// loop of four messages. Run twice: once whole, once with one process killed (SIGKILL) while it
// has turns in flight. Then every history is checked:
// - in per-session send order (each process's turns in the order it sent them), turns whole and
//   contiguous (user, assistant tool call, tool result, assistant reply; nothing torn);
// - 0 lost (every turn a process saw completed is stored), 0 duplicated (every turn at most once);
// - every history join-closed (the closure check over the whole history);
// - the killed process's in-flight turns either saved whole or absent.
// Prints the counts; exits 1 on any violation.
//
// usage: node scripts/chat-load-test.mjs [--workers 4] [--shared 50] [--per-shared 4] [--distinct 1000]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { checkTranscript } from '../dist/transcripts/index.js';
import { PostgresSessionStore } from '../dist/chat/postgres.js';
import { dropStoreTables } from './pg-tables.mjs';
import { readTurns } from './chat-tool-loop.mjs';

const url = process.env.TURNGATE_PG_URL;
if (!url) {
  console.error('chat-load-test: TURNGATE_PG_URL is not set (eval "$(bash scripts/start-postgres.sh)")');
  process.exit(2);
}
const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '4' },
    shared: { type: 'string', default: '50' },
    'per-shared': { type: 'string', default: '4' },
    distinct: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '24' },
  },
});
const workers = Number(values.workers);
const shared = Number(values.shared);
const perShared = Number(values['per-shared']);
const distinct = Number(values.distinct);
const concurrency = Number(values.concurrency);
const workerScript = new URL('./chat-load-worker.mjs', import.meta.url).pathname;

/** Runs the workers; kills `victim` (SIGKILL) once it has completed `killAfter` turns. */
async function run(prefix, victim, killAfter) {
  const logs = Array.from({ length: workers }, () => ({ started: new Set(), done: new Map(), finished: false }));
  let killedWithInFlight = -1;
  const children = logs.map((log, w) => {
    const child = spawn(
      process.execPath,
      [
        workerScript,
        url,
        prefix,
        String(w),
        String(workers),
        String(shared),
        String(perShared),
        String(distinct),
        String(concurrency),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        const [kind, tag, outcome, category] = buffered.slice(0, newline).split(' ');
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf('\n');
        if (kind === 'start') log.started.add(tag);
        else if (kind === 'done') log.done.set(tag, { outcome, category });
        else if (kind === 'finished') log.finished = true;
        if (w === victim && killedWithInFlight < 0 && log.done.size >= killAfter && log.started.size > log.done.size) {
          killedWithInFlight = log.started.size - log.done.size;
          child.kill('SIGKILL');
        }
      }
    });
    return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  });
  const exits = await Promise.all(children);
  return { logs, exits, killedWithInFlight };
}

/** Checks every stored history against what the workers reported; returns the counts. */
async function verify(prefix, logs, victim) {
  const store = new PostgresSessionStore(url, { tablePrefix: prefix, maxConnections: 4 });
  const counts = {
    sessions: 0,
    turnsStored: 0,
    lost: 0,
    duplicated: 0,
    torn: 0,
    outOfOrder: 0,
    notJoinClosed: 0,
    erroredSends: 0,
    inFlightSaved: 0,
    inFlightAbsent: 0,
    suspended: 0,
  };
  const stored = new Map(); // tag -> session id
  const ids = [
    ...Array.from({ length: shared }, (_, s) => `shared-${s}`),
    ...Array.from({ length: distinct }, (_, d) => `distinct-${d}`),
  ];
  for (const sessionId of ids) {
    const record = await store.load(sessionId);
    if (record === undefined) continue;
    counts.sessions++;
    const history = record.state.messages;
    if (checkTranscript(history, { format: 'chat' }).result !== 'accepted') counts.notJoinClosed++;
    const lastK = new Map(); // worker -> last k seen in this session
    const { tags, torn } = readTurns(history);
    counts.torn += torn;
    for (const tag of tags) {
      if (stored.has(tag)) counts.duplicated++;
      stored.set(tag, sessionId);
      counts.turnsStored++;
      const [, worker, , , k] = /^w(\d+)-(shared|distinct)-(\d+)-k(\d+)$/.exec(tag) ?? [];
      if (lastK.has(worker) && Number(k) <= lastK.get(worker)) counts.outOfOrder++;
      lastK.set(worker, Number(k));
    }
  }
  counts.suspended = (await store.listSuspended()).length;
  await store.close();
  logs.forEach((log, w) => {
    for (const [tag, { outcome }] of log.done) {
      if (outcome !== 'completed') counts.erroredSends++;
      else if (!stored.has(tag)) counts.lost++;
    }
    if (w !== victim) return;
    for (const tag of log.started)
      if (!log.done.has(tag)) {
        if (stored.has(tag)) counts.inFlightSaved++;
        else counts.inFlightAbsent++;
      }
  });
  // A turn no worker started must not be stored.
  const started = new Set(logs.flatMap((log) => [...log.started]));
  for (const tag of stored.keys()) if (!started.has(tag)) counts.duplicated++;
  return counts;
}

async function dropTables(prefix) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await dropStoreTables(pool, prefix);
  await pool.end();
}

const expectedTurns = workers * shared * perShared + distinct;
console.log(
  `chat load test: ${workers} processes, ${shared} shared sessions x ${perShared} turns per process, ${distinct} distinct sessions; ${expectedTurns} turns of 4 messages per run`,
);
let failed = false;
for (const [label, victim] of [
  ['all processes finish', -1],
  ['process 0 killed mid-run (SIGKILL)', 0],
]) {
  const prefix = `tg_load_${randomBytes(5).toString('hex')}`;
  const start = performance.now();
  const killAfter = Math.floor((shared * perShared + distinct / workers) / 3);
  const { logs, exits, killedWithInFlight } = await run(prefix, victim, killAfter);
  const seconds = (performance.now() - start) / 1000;
  const counts = await verify(prefix, logs, victim);
  await dropTables(prefix);
  const sent = logs.reduce((n, log) => n + log.started.size, 0);
  const completed = logs.reduce(
    (n, log) => n + [...log.done.values()].filter((d) => d.outcome === 'completed').length,
    0,
  );
  const survivorsFinished = logs.every((log, w) => w === victim || (log.finished && exits[w].code === 0));
  const killed = victim < 0 || (exits[victim].signal === 'SIGKILL' && killedWithInFlight > 0);
  const expectedStored = victim < 0 ? expectedTurns : completed + counts.inFlightSaved;
  const ok =
    survivorsFinished &&
    killed &&
    counts.lost === 0 &&
    counts.duplicated === 0 &&
    counts.torn === 0 &&
    counts.outOfOrder === 0 &&
    counts.notJoinClosed === 0 &&
    counts.erroredSends === 0 &&
    counts.suspended === 0 &&
    counts.turnsStored === expectedStored &&
    (victim >= 0 || completed === expectedTurns);
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}: ${seconds.toFixed(1)} s, ${Math.round(completed / seconds)} turns/s`);
  console.log(
    `     sent ${sent}, completed ${completed}, stored ${counts.turnsStored} in ${counts.sessions} sessions; lost ${counts.lost}, duplicated ${counts.duplicated}, torn ${counts.torn}, out of order ${counts.outOfOrder}, not join-closed ${counts.notJoinClosed}, errored ${counts.erroredSends}`,
  );
  if (victim >= 0)
    console.log(
      `     killed process: ${counts.inFlightSaved + counts.inFlightAbsent} turns in flight when it died (sent, no outcome): ${counts.inFlightSaved} saved whole, ${counts.inFlightAbsent} absent, none in part`,
    );
}
process.exit(failed ? 1 : 0);
