#!/usr/bin/env node
// npm run bench:import -- --baseline <checkout>: what `import 'turngate'` costs, this build
// against a baseline build (another checkout's dist/, built with `npm run build` there), both
// measured in this run. Each candidate is a whole process (`node -e "import('turngate')"` in the
// checkout, so the package resolves itself through its `exports`), against bare Node (`node -e
// 0`) in the same rounds; the rounds interleave the candidates (scripts/bench/measure.mjs) and
// NODE_EXTRA_CA_CERTS is removed from every child's environment. Printed: the median wall time
// and CPU time (user + system, all threads) of each, and each one's cost over bare Node.
//
// usage: node scripts/bench-import.mjs --baseline ../old-checkout [--rounds 21] [--entries .,chat,transcripts]
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { interleave } from './bench/measure.mjs';
import { median } from './bench/stats.mjs';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '21' },
    entries: { type: 'string', default: '.,chat,transcripts' },
  },
});
if (values.baseline === undefined) {
  console.error('bench-import: --baseline <checkout with dist/> is required');
  process.exit(2);
}
const builds = [
  { name: 'this', root: resolve(new URL('..', import.meta.url).pathname) },
  { name: 'baseline', root: resolve(values.baseline) },
];
for (const build of builds) {
  if (!existsSync(resolve(build.root, 'dist/cli/turngate.js'))) {
    console.error(`bench-import: ${build.root} has no build (run \`npm run build\` there)`);
    process.exit(2);
  }
}
const rounds = Number(values.rounds);
const entries = values.entries.split(',').map((e) => (e === '.' ? 'turngate' : `turngate/${e}`));
const NODE = process.execPath;

const bare = { name: 'node -e 0', process: { file: NODE, args: ['-e', '0'] } };
const candidates = [bare];
for (const build of builds) {
  for (const entry of entries) {
    const args = ['-e', `import(${JSON.stringify(entry)})`];
    candidates.push({ name: `${build.name}: import('${entry}')`, process: { file: NODE, args, cwd: build.root } });
  }
  const cli = resolve(build.root, 'dist/cli/turngate.js');
  candidates.push({ name: `${build.name}: turngate --help`, process: { file: NODE, args: [cli, '--help'] } });
}
const withCpu = candidates.map((c) => ({ name: `${c.name} cpu`, process: { ...c.process, cpu: true } }));

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`bench-import: ${rounds} interleaved rounds, load average ${load()} at start`);
const wall = await interleave({ rounds, candidates });
const cpu = await interleave({ rounds, candidates: withCpu });
const ms = (x) => `${x.toFixed(1)} ms`;
const bareWall = median(wall.get(bare.name).samples);
const bareCpu = median(cpu.get(`${bare.name} cpu`).samples);
console.log(
  `${'candidate'.padEnd(44)} ${'wall'.padStart(9)} ${'+bare'.padStart(9)} ${'CPU'.padStart(9)} ${'+bare'.padStart(9)}`,
);
for (const c of candidates) {
  const w = median(wall.get(c.name).samples);
  const u = median(cpu.get(`${c.name} cpu`).samples);
  const over = c === bare ? ['', ''] : [ms(w - bareWall), ms(u - bareCpu)];
  console.log(
    `${c.name.padEnd(44)} ${ms(w).padStart(9)} ${over[0].padStart(9)} ${ms(u).padStart(9)} ${over[1].padStart(9)}`,
  );
}
console.log(`medians of ${rounds} rounds; load average ${load()} at end`);
