// premath's join-check job in process (PREMATH_HARNESS, built by tools/premath-harness/build.sh)
// beside turngate's, both timed the same way: a fresh process per build and round that reads the
// input once, warms up, and reports per-job wall and CPU medians over batches
// (scripts/bench/solo-job.mjs for turngate, the harness for premath). docs/BENCHMARKS.md says
// what each figure means.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, stats } from './measure.mjs';

const NODE = process.execPath;
const SOLO = new URL('./solo-job.mjs', import.meta.url).pathname;
/** Where premath keeps its join-check vectors, under a premath checkout (or a copy of one). */
const VECTORS = 'tests/conformance/fixtures/harness-typestate';

function run(file, args) {
  const r = spawnSync(file, args, { env: childEnv(), maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  if (r.status !== 0)
    throw new Error(`${file} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
  return r.stdout;
}

/** premath's report for one input file, from the harness (`--report`). */
export function harnessReport(harness, file) {
  return run(harness, ['--report', file]);
}

/**
 * Checks that the harness prints, byte for byte, the report `ours` prints on every vector of
 * premath's harness-typestate suite under `premathDir`. Returns the number of vectors checked;
 * throws on the first that differs (or when there are none).
 *
 * @param {string} harness - The harness binary.
 * @param {string} premathDir - A premath checkout (or a copy holding `tests/conformance/...`).
 * @param {(bytes: Uint8Array) => string} ours - turngate's job on the same bytes.
 */
export function checkVectors(harness, premathDir, ours) {
  const root = join(premathDir, VECTORS);
  const dir = mkdtempSync(join(tmpdir(), 'turngate-premath-vectors-'));
  let checked = 0;
  try {
    for (const kind of ['golden', 'adversarial']) {
      for (const id of readdirSync(join(root, kind)).sort()) {
        const vector = JSON.parse(readFileSync(join(root, kind, id, 'case.json'), 'utf8'));
        const file = join(dir, `${id}.json`);
        const bytes = Buffer.from(JSON.stringify(vector.input, null, 2));
        writeFileSync(file, bytes);
        const theirs = harnessReport(harness, file);
        if (!theirs.equals(Buffer.from(ours(bytes)))) {
          throw new Error(`premath harness and turngate print different reports for vector ${kind}/${id}`);
        }
        checked++;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (checked === 0) throw new Error(`no vectors under ${root}`);
  return checked;
}

/**
 * Times the job on `file` in `rounds` rounds; each round runs every candidate once, each in a
 * fresh process, starting with a different candidate each round. Returns per candidate its wall
 * and CPU medians (ms per job) and, per candidate, the medians of its pair-by-pair ratios to
 * premath's.
 *
 * @param {{ file: string, rounds: number, warmMs: number, harness: string, builds: Array<{ name: string, index: string }> }} plan
 *   builds: turngate builds (their dist/index.js), each timed by solo-job.mjs; warmMs: every
 *   process's warm-up (the harness's `--warm-ms`, the same for both sides).
 */
export function inProcessRounds(plan) {
  const candidates = [
    ...plan.builds.map((b) => ({ name: b.name, file: NODE, args: [SOLO, b.index, plan.file, String(plan.warmMs)] })),
    { name: 'premath', file: plan.harness, args: ['--warm-ms', String(plan.warmMs), plan.file] },
  ];
  const samples = new Map(candidates.map((c) => [c.name, []]));
  for (let round = 0; round < plan.rounds; round++) {
    for (let k = 0; k < candidates.length; k++) {
      const c = candidates[(round + k) % candidates.length];
      const { wall, cpu } = JSON.parse(String(run(c.file, c.args)));
      samples.get(c.name).push({ wall, cpu });
    }
  }
  const premath = samples.get('premath');
  const out = new Map();
  for (const [name, xs] of samples) {
    out.set(name, {
      wall: stats(xs.map((x) => x.wall)),
      cpu: stats(xs.map((x) => x.cpu)),
      wallRatio: stats(xs.map((x, i) => x.wall / premath[i].wall)),
      cpuRatio: stats(xs.map((x, i) => x.cpu / premath[i].cpu)),
    });
  }
  return out;
}
