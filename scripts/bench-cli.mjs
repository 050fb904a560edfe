#!/usr/bin/env node
// node scripts/bench-cli.mjs --baseline <checkout>: the CLI's start-up on one join check, this
// build against a baseline build (another checkout's dist/, built there with
// `node scripts/bundle.mjs`), both measured in this run. Each candidate is a whole process:
// `node dist/cli/turngate.js harness-join-check --input <golden vector> --json` (T) and
// `turngate --help`, against bare Node (`node -e 0`, N) in the same rounds; the rounds interleave
// the candidates (scripts/bench/measure.mjs) and NODE_EXTRA_CA_CERTS is removed from every
// child's environment. The two builds' reports are checked byte for byte against each other. Printed: the median wall and CPU time (user + system, every thread, from
// bash's `time` in separate runs of the same rounds) of each, and T - N.
//
// usage: node scripts/bench-cli.mjs --baseline ../old-checkout [--rounds 21] [--vector <case.json>]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { interleave } from './bench/measure.mjs';
import { median } from './bench/stats.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);
const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '21' },
    vector: {
      type: 'string',
      default: join(root, 'conformance/harness-typestate/accept/code_parallel_three_tools/case.json'),
    },
  },
});
if (values.baseline === undefined) {
  console.error('bench-cli: --baseline <checkout with dist/> is required');
  process.exit(2);
}
const builds = [
  { name: 'this', root },
  { name: 'baseline', root: resolve(values.baseline) },
];
for (const build of builds) {
  if (!existsSync(resolve(build.root, 'dist/cli/turngate.js'))) {
    console.error(`bench-cli: ${build.root} has no build (run \`node scripts/bundle.mjs\` there)`);
    process.exit(2);
  }
}
const rounds = Number(values.rounds);
const vector = JSON.parse(readFileSync(values.vector, 'utf8'));
if (vector.input === undefined) {
  console.error(`bench-cli: ${values.vector}: expected a conformance case with an "input" field`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'bench-cli-'));
const input = join(dir, 'input.json');
writeFileSync(input, JSON.stringify(vector.input));

const NODE = process.execPath;
const bare = { name: 'node -e 0 (N)', process: { file: NODE, args: ['-e', '0'] } };
const candidates = [bare];
const outputs = [];
for (const build of builds) {
  const cli = resolve(build.root, 'dist/cli/turngate.js');
  const args = [cli, 'harness-join-check', '--input', input, '--json'];
  const out = spawnSync(NODE, args, { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`${build.name}: harness-join-check exited ${out.status}: ${out.stderr}`);
  outputs.push(out.stdout);
  candidates.push({ name: `${build.name}: turngate --help`, process: { file: NODE, args: [cli, '--help'] } });
  candidates.push({
    name: `${build.name}: harness-join-check (T)`,
    process: { file: NODE, args, expectStdout: Buffer.from(out.stdout) },
  });
}
if (outputs[0] !== outputs[1]) throw new Error('bench-cli: the two builds print different reports');
const withCpu = candidates.map((c) => ({ name: `${c.name} cpu`, process: { ...c.process, cpu: true } }));

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`bench-cli: ${rounds} interleaved rounds on ${values.vector}, load average ${load()} at start`);
const wall = await interleave({ rounds, candidates });
const cpu = await interleave({ rounds, candidates: withCpu });
rmSync(dir, { recursive: true, force: true });
const ms = (x) => `${x.toFixed(1)} ms`;
const bareWall = median(wall.get(bare.name).samples);
const bareCpu = median(cpu.get(`${bare.name} cpu`).samples);
console.log(
  `${'candidate'.padEnd(40)} ${'wall'.padStart(9)} ${'-N'.padStart(9)} ${'CPU'.padStart(9)} ${'-N'.padStart(9)}`,
);
for (const c of candidates) {
  const w = median(wall.get(c.name).samples);
  const u = median(cpu.get(`${c.name} cpu`).samples);
  const over = c === bare ? ['', ''] : [ms(w - bareWall), ms(u - bareCpu)];
  console.log(
    `${c.name.padEnd(40)} ${ms(w).padStart(9)} ${over[0].padStart(9)} ${ms(u).padStart(9)} ${over[1].padStart(9)}`,
  );
}
console.log(`medians of ${rounds} rounds; load average ${load()} at end`);
