#!/usr/bin/env node
// npm run bench:typestate: the typestate steps of one turn, from `requestTools` to `closeJoin`
// (`requestTools`, `settle`, `useAll`, `closeJoin`), for a turn of N read calls, and for a turn
// of N mutation calls the same plus `recordMutations` (the gate's re-close: every call answered
// `ok`); with `--baseline <checkout>` the same turns through another build (its dist/), in the
// same rounds. N = 1, 10, 100 and 1,000 by default.
//
// Rounds are interleaved: each round runs every (build, turn, N) once, in an order that rotates
// round by round; each sample repeats the turn until it lasts 10 ms of CPU (user + system of this
// process) and starts after a full collection when run with --expose-gc. Printed per row: the
// median CPU per turn, and per call (a turn whose digest work is taken once per transition grows
// its per-call cost with nothing; linear: flat per call). Build first: it measures dist/.
//
// Usage: node --expose-gc scripts/bench-typestate.mjs [--rounds N] [--baseline <checkout>] [--sizes 1,10,100,1000]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { median } from './bench/stats.mjs';

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, baseline: { type: 'string' }, sizes: { type: 'string' } },
});
const ROUNDS = Number(values.rounds ?? 7);
const SIZES = (values.sizes ?? '1,10,100,1000').split(',').map(Number);
/** CPU microseconds a sample should last at least (a sample repeats its turn to reach it). */
const SAMPLE_US = 10000;

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function build(root) {
  const core = await import(pathToFileURL(resolve(root, 'dist', 'esm', 'index.js')).href);
  class Tools extends core.defineTools({
    get_weather: {
      input: v.object({ city: v.string() }),
      output: v.object({ forecast: v.string(), high: v.number() }),
    },
    send_email: { input: v.object({ to: v.string() }), output: v.object({ id: v.string() }), mutation: true },
  }) {}
  const spec = core.callSpec({ callId: 'turn-1', modelRef: 'model/1', actionMode: 'code' });
  if (!spec.ok) throw new Error('callSpec refused');
  const handlers = { get_weather: ({ city }) => ({ forecast: `snow in ${city}`, high: -3 }) };
  const ok = (step, r) => {
    if (!r.ok) throw new Error(`${step}: ${r.failures.map((f) => f.class).join(', ')}`);
    return r.value;
  };
  /** One turn of `calls` through the transitions; the mutation turn is re-closed with what the gate ran. */
  return async (tool, calls) => {
    const requests = ok('requestTools', core.requestTools(spec.value, Tools, calls));
    const results = ok('settle', await core.settle(requests, handlers));
    const use = ok(
      'useAll',
      core.useAll(results, () => 'observed'),
    );
    const closed = ok('closeJoin', core.closeJoin(use));
    if (tool === 'get_weather') return closed;
    return ok(
      'recordMutations',
      core.recordMutations(
        closed,
        closed.pendingMutations.map((toolCallId) => ({ toolCallId, status: 'ok', output: { id: toolCallId } })),
      ),
    );
  };
}

const callsOf = (tool, n) =>
  Array.from({ length: n }, (_, i) => ({
    toolCallId: `toolu_${i}`,
    toolName: tool,
    input: tool === 'send_email' ? { to: `user${i}@example.com` } : { city: `city ${i}` },
  }));

const builds = [['this', await build('.')]];
if (values.baseline !== undefined) builds.push(['baseline', await build(values.baseline)]);
const TOOLS = ['get_weather', 'send_email'];
const calls = new Map();
for (const tool of TOOLS) for (const n of SIZES) calls.set(`${tool}:${n}`, callsOf(tool, n));
const rows = [];
for (const [name, turn] of builds)
  for (const tool of TOOLS) for (const n of SIZES) rows.push({ name, tool, n, turn, us: [] });

/**
 * Repeats the row's turn until the sample lasts SAMPLE_US; CPU microseconds per turn. The clock
 * is read once per batch (doubling), not per turn: reading it costs a system call, which at one
 * call per turn was a fifth of a small turn's measure.
 */
async function sample(row) {
  const given = calls.get(`${row.tool}:${row.n}`);
  let reps = 0;
  const start = cpu();
  let used = 0;
  for (let batch = 1; used < SAMPLE_US; batch *= 2) {
    for (let i = 0; i < batch; i++) await row.turn(row.tool, given);
    reps += batch;
    used = cpu() - start;
  }
  return used / reps;
}

// Warm-up: every row once, then the rounds.
for (const row of rows) await sample(row);
for (let round = 0; round < ROUNDS; round++) {
  const order = rows.map((_, i) => rows[(i + round) % rows.length]);
  for (const row of order) {
    globalThis.gc?.();
    row.us.push(await sample(row));
  }
}

const fmt = (us) =>
  us >= 10000 ? `${(us / 1000).toFixed(0)} ms` : us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`;
console.log(
  `CPU per turn (requestTools to closeJoin; + recordMutations for mutations), medians of ${ROUNDS} interleaved rounds`,
);
console.log('tool          calls   this/turn   this/call   baseline/turn  baseline/call   this/baseline');
for (const tool of TOOLS) {
  for (const n of SIZES) {
    const m = (name) => {
      const row = rows.find((r) => r.name === name && r.tool === tool && r.n === n);
      return row === undefined ? undefined : median(row.us);
    };
    const mine = m('this');
    const base = m('baseline');
    console.log(
      [
        tool.padEnd(12),
        String(n).padStart(6),
        fmt(mine).padStart(11),
        fmt(mine / n).padStart(11),
        (base === undefined ? '-' : fmt(base)).padStart(14),
        (base === undefined ? '-' : fmt(base / n)).padStart(14),
        (base === undefined ? '-' : (mine / base).toFixed(3)).padStart(15),
      ].join(' '),
    );
  }
}
