#!/usr/bin/env node
// The PostgreSQL fault suite of the chat harness (run by scripts/test.sh after the load test).
// It starts its own cluster (scripts/start-postgres.sh with TURNGATE_PG_DIR / TURNGATE_PG_PORT,
// default /tmp/turngate-pg-faults and 54339), so its restarts never touch the server other tests
// use, and stops it at the end, also on failure. A cluster a killed run left running in that
// folder (perhaps paused) is stopped first; a port held by anything else is refused in one line. For each fault, W worker processes
// (scripts/chat-fault-worker.mjs) send turns on their own sessions and on shared ones, each send
// with its tag as idempotency key and a client retry policy (a `retryable_transient` outcome is
// sent again with the same key, with backoff, until a deadline), while the fault is injected:
// - restart: `pg_ctl restart -m fast` mid-load;
// - stop:    `pg_ctl stop -m fast`, down for --down-ms, started again;
// - pause:   every process of the cluster (postmaster and backends) SIGSTOPped for --pause-ms;
// - lock:    an admin connection holds `LOCK TABLE <prefix>_sessions IN ACCESS EXCLUSIVE MODE`
//            for --lock-ms;
// - terminate: `pg_terminate_backend` of every other client connection of the database, every
//            100 ms for --terminate-ms (the workers' turns lose their connections mid-statement);
// - idle:    `idle_in_transaction_session_timeout = 1s` (ALTER SYSTEM + pg_reload_conf, reset
//            after --idle-ms) while the model node awaits --slow-ms.
// Then every history is read back through the store (`load`) and checked as the load test does.
// Per fault it prints (and with --json FILE writes): sends; outcomes by bucket/category of the
// first attempt and of the final one; retries; the slowest attempt and send; and from the stored
// histories: lost (final outcome completed, turn not stored), duplicated (a turn stored twice, or
// stored though never sent), torn (a turn not whole and contiguous: user, assistant tool call,
// tool result, assistant reply; or a history that is not join-closed), out of order (a worker's
// turns of a session stored out of send order), failed-but-saved (final outcome errored, turn
// stored), hangs (an attempt unresolved after --hang-ms) and unresolved sends (a worker died).
// For `restart`, `stop` and `terminate`, a send slower than 2 x the fault's duration + --bound-slack-ms is
// counted `overBound` (the default 30 s lease is kept, so a lease left behind by a failed turn
// shows here); sends over 25 s are counted for every fault (`over25s`).
// Exits 1 when lost, duplicated, torn, out of order, hangs, unresolved or overBound is above 0. A fault in
// which no send completed proves nothing about that fault: it is flagged `vacuous` (a warning).
//
// usage: node scripts/chat-fault-test.mjs [--workers 4] [--own 4] [--shared 2] [--think-ms 5]
//   [--error-pause-ms 200] [--faults restart,stop,terminate,pause,lock,idle] [--down-ms 5000] [--pause-ms 10000] [--lock-ms 10000] [--terminate-ms 2000]
//   [--idle-ms 6000] [--slow-ms 1500] [--warmup-ms 1500] [--settle-ms 2000]
//   [--retry-deadline-ms 30000] [--hang-ms 25000] [--bound-slack-ms 5000] [--no-keys] [--json FILE]
//   [--pg-dir /tmp/turngate-pg-faults] [--pg-port 54339]
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PostgresSessionStore } from '../dist/chat/postgres.js';
import { checkTranscript } from '../dist/transcripts/index.js';
import { dropStoreTables } from './pg-tables.mjs';
import { readTurns } from './chat-tool-loop.mjs';

const FAULTS = ['restart', 'stop', 'terminate', 'pause', 'lock', 'idle'];
const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '4' },
    own: { type: 'string', default: '4' },
    shared: { type: 'string', default: '2' },
    'think-ms': { type: 'string', default: '5' },
    'error-pause-ms': { type: 'string', default: '200' },
    faults: { type: 'string', default: FAULTS.join(',') },
    'down-ms': { type: 'string', default: '5000' },
    'pause-ms': { type: 'string', default: '10000' },
    'lock-ms': { type: 'string', default: '10000' },
    'terminate-ms': { type: 'string', default: '2000' },
    'idle-ms': { type: 'string', default: '6000' },
    'slow-ms': { type: 'string', default: '1500' },
    'warmup-ms': { type: 'string', default: '1500' },
    'settle-ms': { type: 'string', default: '2000' },
    'retry-deadline-ms': { type: 'string', default: '30000' },
    'hang-ms': { type: 'string', default: '25000' },
    'bound-slack-ms': { type: 'string', default: '5000' },
    'no-keys': { type: 'boolean', default: false },
    json: { type: 'string' },
    'pg-dir': { type: 'string', default: '/tmp/turngate-pg-faults' },
    'pg-port': { type: 'string', default: '54339' },
  },
});
const number = (name, least = 0) => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < least) {
    console.error(`chat-fault-test: --${name} must be a whole number >= ${least} (got ${values[name]})`);
    process.exit(2);
  }
  return value;
};
const opts = {
  workers: number('workers', 1),
  own: number('own'),
  shared: number('shared'),
  thinkMs: number('think-ms'),
  errorPauseMs: number('error-pause-ms'),
  downMs: number('down-ms'),
  pauseMs: number('pause-ms'),
  lockMs: number('lock-ms'),
  terminateMs: number('terminate-ms'),
  idleMs: number('idle-ms'),
  slowMs: number('slow-ms'),
  warmupMs: number('warmup-ms'),
  settleMs: number('settle-ms'),
  retryDeadlineMs: number('retry-deadline-ms'),
  hangMs: number('hang-ms'),
  boundSlackMs: number('bound-slack-ms'),
  keys: !values['no-keys'],
};
const faults = values.faults.split(',').filter((f) => f !== '');
for (const fault of faults)
  if (!FAULTS.includes(fault)) {
    console.error(`chat-fault-test: --faults: unknown fault ${fault} (expected some of ${FAULTS.join(',')})`);
    process.exit(2);
  }

const root = new URL('..', import.meta.url).pathname;
const pgDir = values['pg-dir'];
const data = `${pgDir}/data`;
const pgEnv = { ...process.env, TURNGATE_PG_DIR: pgDir, TURNGATE_PG_PORT: values['pg-port'] };
const childEnv = { ...process.env };
delete childEnv.NODE_EXTRA_CA_CERTS;
// Short store options suited to faults (the store's contract; a build that predates them ignores
// them), but the default lease (30 s): a turn cut off by a fault must give its lease back when the
// server returns, not make its session wait the lease out (see `bound` below).
const storeOptions = {
  maxConnections: 10,
  lockTimeoutMs: 10000,
  connectTimeoutMs: 2000,
  statementTimeoutMs: 3000,
};

// ---- the cluster -------------------------------------------------------------------------------

/** The bin dir start-postgres.sh uses: the newest /usr/lib/postgresql/<v>/bin with pg_ctl, else pg_ctl's on PATH. */
function binDir() {
  const base = '/usr/lib/postgresql';
  let versions = [];
  try {
    versions = readdirSync(base).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  } catch {}
  const found = versions.reverse().find((v) => {
    try {
      return readdirSync(`${base}/${v}/bin`).includes('pg_ctl');
    } catch {
      return false;
    }
  });
  if (found !== undefined) return `${base}/${found}/bin`;
  try {
    return execFileSync('bash', ['-c', 'dirname "$(command -v pg_ctl)"'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl, no pg_ctl on PATH)');
  }
}
const bin = binDir();

/** Runs a server tool as the cluster's owner (the postgres user when we are root), as start-postgres.sh does. */
function asOwner(tool, args) {
  const [file, argv] =
    process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', `${bin}/${tool}`, ...args]]
      : [`${bin}/${tool}`, args];
  return execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 90_000 });
}
const pgCtl = (...args) => asOwner('pg_ctl', ['-D', data, ...args]);

/** Starts the cluster (or finds it up) and returns its URL. */
function startCluster() {
  const out = execFileSync('bash', [`${root}scripts/start-postgres.sh`], {
    env: pgEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const match = /export TURNGATE_PG_URL=(\S+)/.exec(out);
  if (!match) throw new Error(`start-postgres.sh printed no URL: ${out}`);
  return match[1];
}
function stopCluster() {
  execFileSync('bash', [`${root}scripts/start-postgres.sh`, '--stop'], { env: pgEnv, stdio: 'ignore' });
}

/** The postmaster and its children (the backends and background processes). */
function clusterPids() {
  const postmaster = Number(readFileSync(`${data}/postmaster.pid`, 'utf8').split('\n')[0]);
  let children = [];
  try {
    children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {} // pgrep exits 1 when there are none
  return [postmaster, ...children];
}

/** A cause this script names in one line (no stack). */
class Refused extends Error {}

/** Whether a process is alive (EPERM: alive, owned by another user). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error?.code === 'EPERM';
  }
}

/** Whether something accepts connections on 127.0.0.1:port. */
function portInUse(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(true); // something took the connection and did not answer: a paused server
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * What a run killed before its end (kill -9: no cleanup runs) leaves: its cluster still running in
 * --pg-dir, perhaps paused (the pause fault SIGSTOPs it) or with a changed setting. That cluster is
 * resumed and stopped, so this run starts from a known state; a port held by anything else is
 * refused with a one-line cause.
 */
async function clearLeftovers() {
  let pid = 0;
  try {
    pid = Number(readFileSync(`${data}/postmaster.pid`, 'utf8').split('\n')[0]);
  } catch {} // no cluster running in the folder
  if (pid > 0 && alive(pid)) {
    console.log(`chat-fault-test: stopping the cluster a previous run left running in ${pgDir} (postmaster ${pid})`);
    for (const p of clusterPids()) {
      try {
        process.kill(p, 'SIGCONT'); // a paused postmaster cannot shut down
      } catch {}
    }
    try {
      pgCtl('-m', 'fast', '-w', '-t', '30', 'stop');
    } catch {
      pgCtl('-m', 'immediate', '-w', '-t', '30', 'stop');
    }
  }
  const port = Number(values['pg-port']);
  if (await portInUse(port))
    throw new Refused(
      `port ${port} is in use by another process, not a cluster in ${pgDir}: stop it, or pass --pg-port / --pg-dir`,
    );
}

async function admin(url, body) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** ALTER SYSTEM <change>, then reload the configuration (two statements: ALTER SYSTEM runs outside a transaction). */
const idleTimeout = (url, change) =>
  admin(url, async (client) => {
    await client.query(`ALTER SYSTEM ${change}`);
    await client.query('SELECT pg_reload_conf()');
  });

// ---- the faults --------------------------------------------------------------------------------

/** Per fault: what it does, and `inject(url, prefix)` which returns when the fault is over. */
const cleanups = new Set(); // undo steps of a fault under way, run on failure
// `bound`: faults after which every send must complete within 2 x the fault's duration plus
// --bound-slack-ms (the server is back; a send that waits longer is waiting out a lease nobody holds).
const FAULT_PLAN = {
  restart: {
    about: 'pg_ctl restart -m fast mid-load',
    bound: true,
    inject: async () => {
      pgCtl('-m', 'fast', '-w', '-t', '60', '-l', `${pgDir}/server.log`, 'restart');
    },
  },
  stop: {
    about: `pg_ctl stop -m fast, ${opts.downMs} ms down, start`,
    bound: true,
    inject: async () => {
      cleanups.add(startCluster);
      pgCtl('-m', 'fast', '-w', 'stop');
      await sleep(opts.downMs);
      startCluster();
      cleanups.delete(startCluster);
    },
  },
  terminate: {
    about: `pg_terminate_backend of every other client connection, every 100 ms for ${opts.terminateMs} ms`,
    bound: true,
    inject: async (url) =>
      admin(url, async (client) => {
        let ended = 0;
        const end = performance.now() + opts.terminateMs;
        do {
          const { rowCount } = await client.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
          );
          ended += rowCount ?? 0;
          await sleep(100);
        } while (performance.now() < end);
        return `${ended} connections ended`;
      }),
  },
  pause: {
    about: `SIGSTOP of the postmaster and every backend for ${opts.pauseMs} ms, then SIGCONT`,
    inject: async () => {
      const pids = clusterPids();
      const resume = () => {
        for (const pid of [...pids].reverse()) {
          try {
            process.kill(pid, 'SIGCONT');
          } catch {}
        }
      };
      cleanups.add(resume);
      for (const pid of pids) process.kill(pid, 'SIGSTOP');
      await sleep(opts.pauseMs);
      resume();
      cleanups.delete(resume);
      return `${pids.length} processes paused`;
    },
  },
  lock: {
    about: `an admin connection holds LOCK TABLE <prefix>_sessions IN ACCESS EXCLUSIVE MODE for ${opts.lockMs} ms`,
    inject: async (url, prefix) =>
      admin(url, async (client) => {
        await client.query("SET lock_timeout = '5s'");
        await client.query('BEGIN');
        const asked = performance.now();
        await client.query(`LOCK TABLE ${prefix}_sessions IN ACCESS EXCLUSIVE MODE`);
        const waited = Math.round(performance.now() - asked);
        await sleep(opts.lockMs);
        await client.query('COMMIT');
        return `lock taken after ${waited} ms`;
      }),
  },
  idle: {
    about: `idle_in_transaction_session_timeout = 1s for ${opts.idleMs} ms, model node awaiting ${opts.slowMs} ms`,
    slow: true,
    inject: async (url) => {
      const reset = () => idleTimeout(url, 'RESET idle_in_transaction_session_timeout');
      cleanups.add(reset);
      await idleTimeout(url, "SET idle_in_transaction_session_timeout = '1s'");
      await sleep(opts.idleMs);
      await reset();
      cleanups.delete(reset);
    },
  },
};

// ---- one run -----------------------------------------------------------------------------------

/** Starts the workers; `stop()` asks them to finish; `exited` resolves with their logs. */
function startWorkers(url, prefix, slowMs) {
  const logs = Array.from({ length: opts.workers }, () => ({ sends: new Map(), finished: false, done: 0 }));
  const children = logs.map((log, worker) => {
    const config = {
      url,
      prefix,
      worker,
      own: opts.own,
      shared: opts.shared,
      thinkMs: opts.thinkMs,
      errorPauseMs: opts.errorPauseMs,
      slowMs,
      retryDeadlineMs: opts.retryDeadlineMs,
      hangMs: opts.hangMs,
      keys: opts.keys,
      storeOptions,
    };
    const child = spawn(process.execPath, [`${root}scripts/chat-fault-worker.mjs`, JSON.stringify(config)], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: childEnv,
    });
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const [kind, tag, ...rest] = buffered.slice(0, nl).split(' ');
        buffered = buffered.slice(nl + 1);
        if (kind === 'start') log.sends.set(tag, { tries: [], hung: false, ms: undefined });
        else if (kind === 'try') {
          const [n, outcome, bucket, category, replayed, ms] = rest;
          log.sends
            .get(tag)
            ?.tries.push({ n: Number(n), outcome, bucket, category, replayed: replayed === '1', ms: Number(ms) });
        } else if (kind === 'hang') {
          const send = log.sends.get(tag);
          if (send) send.hung = true;
        } else if (kind === 'done') {
          const send = log.sends.get(tag);
          if (send) send.ms = Number(rest[1]);
          log.done++;
        } else if (kind === 'finished') log.finished = true;
      }
    });
    child.stdin.on('error', () => undefined);
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    return { child, exited };
  });
  return {
    logs,
    children,
    stop: () => {
      for (const { child } of children) child.stdin.end('stop\n');
    },
    exited: Promise.all(children.map((c) => c.exited)),
  };
}

/** Checks every stored history against what the workers reported; returns the figures. */
async function verify(url, prefix, logs) {
  const store = new PostgresSessionStore(url, { tablePrefix: prefix, maxConnections: 2 });
  const stored = new Map(); // tag -> times stored whole
  const figures = { turnsStored: 0, torn: 0, notJoinClosed: 0, outOfOrder: 0 };
  const ids = [
    ...Array.from({ length: opts.workers }, (_, w) =>
      Array.from({ length: opts.own }, (_, i) => `own${w}x${i}`),
    ).flat(),
    ...Array.from({ length: opts.shared }, (_, s) => `shared${s}`),
  ];
  try {
    for (const sessionId of ids) {
      const history = (await store.load(sessionId))?.state.messages ?? [];
      if (history.length > 0 && checkTranscript(history, { format: 'chat' }).result !== 'accepted')
        figures.notJoinClosed++;
      const lastK = new Map(); // worker -> last k stored in this session
      const { tags, torn } = readTurns(history);
      figures.torn += torn;
      for (const tag of tags) {
        stored.set(tag, (stored.get(tag) ?? 0) + 1);
        figures.turnsStored++;
        const [, worker, k] = /^w(\d+)-\w+-k(\d+)$/.exec(tag) ?? [];
        if (lastK.has(worker) && Number(k) <= lastK.get(worker)) figures.outOfOrder++;
        lastK.set(worker, Number(k));
      }
    }
  } finally {
    await store.close();
  }
  const sends = new Map(logs.flatMap((log) => [...log.sends]));
  let duplicated = 0;
  for (const [tag, times] of stored) duplicated += sends.has(tag) ? times - 1 : times;
  let lost = 0;
  let failedButSaved = 0;
  let unresolvedSaved = 0;
  for (const [tag, send] of sends) {
    const final = send.tries.at(-1);
    const resolved = send.ms !== undefined;
    if (!resolved) {
      if (stored.has(tag)) unresolvedSaved++;
    } else if (final.outcome === 'completed' && !stored.has(tag)) lost++;
    else if (final.outcome === 'errored' && stored.has(tag)) failedButSaved++;
  }
  return { ...figures, lost, duplicated, failedButSaved, unresolvedSaved };
}

function tally(entries) {
  const out = {};
  for (const key of entries) out[key] = (out[key] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
const label = (t) =>
  t.outcome === 'errored' ? `errored ${t.bucket}/${t.category}` : t.replayed ? `${t.outcome} (replayed)` : t.outcome;

async function dropTables(url, prefix) {
  await admin(url, (c) => dropStoreTables(c, prefix));
}

/** Waits until `test()` holds or `ms` pass. */
async function until(test, ms) {
  const end = performance.now() + ms;
  while (!test() && performance.now() < end) await sleep(50);
}

async function runFault(url, name) {
  const plan = FAULT_PLAN[name];
  const prefix = `tg_fault_${name}_${randomBytes(4).toString('hex')}`;
  const began = performance.now();
  const run = startWorkers(url, prefix, plan.slow ? opts.slowMs : 0);
  let note;
  let injectError;
  let faultMs = 0;
  try {
    // Load first: every worker has finished a send (its tables exist), and the warm-up has passed.
    await until(() => run.logs.every((log) => log.done > 0), 20_000);
    await sleep(opts.warmupMs);
    const injected = performance.now();
    note = await plan.inject(url, prefix).catch((error) => {
      injectError = error;
    });
    faultMs = Math.round(performance.now() - injected);
    note = [note, `fault ${faultMs} ms`].filter(Boolean).join('; ');
    await sleep(opts.settleMs);
  } finally {
    run.stop();
  }
  // A worker still running long after its last send could resolve is killed; its open sends stay unresolved.
  const limit = opts.retryDeadlineMs + opts.hangMs + 10_000;
  const timer = setTimeout(() => {
    for (const { child } of run.children) child.kill('SIGKILL');
  }, limit);
  const exits = await run.exited;
  clearTimeout(timer);
  if (injectError) throw injectError;
  const checked = await verify(url, prefix, run.logs);
  await dropTables(url, prefix);
  const sends = run.logs.flatMap((log) => [...log.sends.values()]);
  const resolved = sends.filter((s) => s.ms !== undefined);
  const tries = sends.flatMap((s) => s.tries);
  const result = {
    fault: name,
    about: plan.about,
    note,
    seconds: Number(((performance.now() - began) / 1000).toFixed(1)),
    sends: sends.length,
    attempts: tries.length,
    retries: tries.filter((t) => t.n > 1).length,
    retriedSends: sends.filter((s) => s.tries.length > 1).length,
    firstAttempt: tally(sends.filter((s) => s.tries.length > 0).map((s) => label(s.tries[0]))),
    final: tally(resolved.map((s) => label(s.tries.at(-1)))),
    maxAttemptMs: Math.max(0, ...tries.map((t) => t.ms)),
    maxSendMs: Math.max(0, ...resolved.map((s) => s.ms)),
    over25s: resolved.filter((s) => s.ms > 25_000).length,
    boundMs: plan.bound ? 2 * faultMs + opts.boundSlackMs : undefined,
    overBound: plan.bound ? resolved.filter((s) => s.ms > 2 * faultMs + opts.boundSlackMs).length : 0,
    hangs: sends.filter((s) => s.hung).length,
    unresolved: sends.filter((s) => s.ms === undefined && !s.hung).length,
    workersFailed: exits.filter((e) => e.code !== 0).length,
    completed: resolved.filter((s) => s.tries.at(-1).outcome === 'completed').length,
    turnsStored: checked.turnsStored,
    lost: checked.lost,
    duplicated: checked.duplicated,
    torn: checked.torn + checked.notJoinClosed,
    outOfOrder: checked.outOfOrder,
    failedButSaved: checked.failedButSaved,
    unresolvedSaved: checked.unresolvedSaved,
  };
  result.vacuous = result.completed === 0;
  result.ok =
    result.lost === 0 &&
    result.duplicated === 0 &&
    result.torn === 0 &&
    result.outOfOrder === 0 &&
    result.hangs === 0 &&
    result.overBound === 0 &&
    result.unresolved === 0 &&
    result.workersFailed === 0;
  return result;
}

function print(r) {
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.fault}: ${r.about} (${r.note}); ${r.seconds} s`);
  console.log(
    `     sends ${r.sends}, retries ${r.retries} (${r.retriedSends} sends retried), slowest attempt ${r.maxAttemptMs} ms, slowest send ${r.maxSendMs} ms, hangs ${r.hangs}, unresolved ${r.unresolved}`,
  );
  console.log(
    `     sends over 25 s ${r.over25s}${r.boundMs === undefined ? '' : `, over the bound (2 x fault + ${opts.boundSlackMs} ms = ${r.boundMs} ms) ${r.overBound}`}`,
  );
  const show = (t) =>
    Object.entries(t)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || '-';
  console.log(`     first attempt: ${show(r.firstAttempt)}`);
  console.log(`     final:         ${show(r.final)}`);
  console.log(
    `     completed ${r.completed}, stored ${r.turnsStored}; lost ${r.lost}, duplicated ${r.duplicated}, torn ${r.torn}, out of order ${r.outOfOrder}, failed-but-saved ${r.failedButSaved}, unresolved-but-saved ${r.unresolvedSaved}`,
  );
  if (r.vacuous) console.log('     WARNING: no send completed, so these figures say nothing about this fault');
}

// ---- main --------------------------------------------------------------------------------------

const started = performance.now();
const results = [];
let failed = false;
let url;
const undo = async () => {
  for (const step of [...cleanups].reverse())
    await Promise.resolve()
      .then(step)
      .catch(() => undefined);
  cleanups.clear();
};
const abort = async (signal) => {
  await undo();
  try {
    stopCluster();
  } catch {}
  process.exit(signal === 'SIGINT' ? 130 : 143);
};
process.once('SIGINT', abort);
process.once('SIGTERM', abort);
try {
  await clearLeftovers();
  url = startCluster();
  // A run killed mid-fault may have left the setting behind.
  await idleTimeout(url, 'RESET idle_in_transaction_session_timeout');
  console.log(
    `chat fault test: ${opts.workers} processes x (${opts.own} own + ${opts.shared} shared sessions), ${opts.keys ? 'idempotency keys' : 'NO idempotency keys (--no-keys)'}, retry deadline ${opts.retryDeadlineMs} ms; PostgreSQL ${bin} in ${pgDir}, port ${values['pg-port']}`,
  );
  for (const name of faults) {
    const result = await runFault(url, name);
    results.push(result);
    print(result);
    failed ||= !result.ok;
  }
} catch (error) {
  failed = true;
  console.error(`chat-fault-test: ${error instanceof Refused ? error.message : (error?.stack ?? error)}`);
} finally {
  await undo();
  try {
    stopCluster();
  } catch (error) {
    console.error(`chat-fault-test: stopping the cluster failed: ${error?.message ?? error}`);
  }
}
const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
console.log(`${failed ? 'FAIL' : 'ok  '} chat fault test: ${results.length} faults in ${seconds} s`);
if (values.json !== undefined)
  writeFileSync(values.json, `${JSON.stringify({ options: opts, seconds, ok: !failed, faults: results }, null, 2)}\n`);
process.exit(failed ? 1 : 0);
