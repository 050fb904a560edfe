#!/usr/bin/env node
// npm run bench:answer: how a tool loop's `answer` grows with the calls of one reply. One
// Anthropic reply of N `send_email` calls (mutating: each claimed in the loop's effect ledger and
// run through the gate), and as the floor the same reply of N `get_weather` calls (reads), for
// N = 1,000, 2,000, 4,000 and 8,000; with `--baseline <checkout>` the same replies through
// another build's loop (its dist/), in the same rounds.
//
// Rounds are interleaved: each round answers every (build, tool, N) once, in an order that
// rotates round by round, each on a fresh loop. Printed per row: the median milliseconds of
// `answer` (CPU of this process: user + system), and the ratio of each N's median to the one
// before it (linear: about 2.0 per doubling; quadratic: about 4). Build first: it measures dist/.
//
// Usage: node scripts/bench-answer.mjs [--rounds N] [--baseline <checkout>] [--sizes 1000,2000]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { anthropicReply } from '../test/fixtures/anthropic-reply.mjs';
import { median } from './bench/stats.mjs';

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, baseline: { type: 'string' }, sizes: { type: 'string' } },
});
const ROUNDS = Number(values.rounds ?? 5);
const SIZES = (values.sizes ?? '1000,2000,4000,8000').split(',').map(Number);

async function build(root) {
  const at = (path) => pathToFileURL(resolve(root, 'dist', 'esm', path)).href;
  const [core, anthropic] = await Promise.all([import(at('index.js')), import(at('adapters/anthropic.js'))]);
  class Tools extends core.defineTools({
    get_weather: { input: v.object({ city: v.string() }), output: v.string() },
    send_email: { input: v.object({ to: v.string() }), output: v.object({ id: v.string() }), mutation: true },
  }) {}
  const handlers = { get_weather: async ({ city }) => `snow in ${city}`, send_email: async ({ to }) => ({ id: to }) };
  return () => anthropic.toolLoop({ tools: Tools, handlers });
}

const reply = (tool, n) =>
  anthropicReply(
    `msg_${tool}_${n}`,
    Array.from({ length: n }, (_, i) => [
      `toolu_${i}`,
      tool,
      tool === 'send_email' ? { to: `user${i}@example.com` } : { city: `city ${i}` },
    ]),
  );
const history = [{ role: 'user', content: 'go' }];

const builds = [['this', await build('.')]];
if (values.baseline !== undefined) builds.push(['baseline', await build(values.baseline)]);
const rows = [];
for (const [name, make] of builds) {
  for (const tool of ['get_weather', 'send_email']) for (const n of SIZES) rows.push({ name, make, tool, n, ms: [] });
}
const replies = new Map(rows.map((r) => [`${r.tool}:${r.n}`, reply(r.tool, r.n)]));

// One warm-up answer per row, then the rounds.
for (const row of rows)
  await row.make().answer(history, replies.get(`${row.tool}:${Math.min(row.n, 500)}`) ?? reply(row.tool, 500));
for (let round = 0; round < ROUNDS; round++) {
  const order = rows.map((_, i) => rows[(i + round) % rows.length]);
  for (const row of order) {
    const loop = row.make();
    const before = process.cpuUsage();
    await loop.answer(history, replies.get(`${row.tool}:${row.n}`));
    const used = process.cpuUsage(before);
    row.ms.push((used.user + used.system) / 1000);
  }
}

console.log(`answer(): CPU ms per reply, median of ${ROUNDS} interleaved rounds (this process)`);
console.log('build     tool          calls   median ms   x previous N');
for (const [name] of builds) {
  for (const tool of ['get_weather', 'send_email']) {
    let previous;
    for (const n of SIZES) {
      const row = rows.find((r) => r.name === name && r.tool === tool && r.n === n);
      const m = median(row.ms);
      const growth = previous === undefined ? '' : (m / previous).toFixed(2);
      console.log(
        `${name.padEnd(9)} ${tool.padEnd(12)} ${String(n).padStart(6)} ${m.toFixed(1).padStart(11)} ${growth.padStart(14)}`,
      );
      previous = m;
    }
  }
}
