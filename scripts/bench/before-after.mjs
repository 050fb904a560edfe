// Before and after a change: two builds of turngate timed on the same file, each in a fresh
// process of its own per round (solo-job.mjs). docs/BENCHMARKS.md, "Before and after a change".
import { spawnSync } from 'node:child_process';
import { childEnv, stats } from './measure.mjs';

const NODE = process.execPath;
const SOLO = new URL('./solo-job.mjs', import.meta.url).pathname;

/**
 * This build's job (`thisBuild`: its dist/index.js) and the baseline's on `file`, each in a fresh process of its own
 * (scripts/bench/solo-job.mjs, warming up for `warmMs`): `rounds` pairs, the order alternating,
 * ratios taken pair by pair.
 * Two builds in one process disturb each other (one's garbage is collected in the other's time).
 */
export function beforeAfter({ file, rounds, warmMs, thisBuild, baseline }) {
  const run = (build) => {
    const r = spawnSync(NODE, [SOLO, build, file, String(warmMs)], {
      env: childEnv(),
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    if (r.status !== 0) throw new Error(`solo job (${build}) exited ${r.status}: ${r.stderr.slice(0, 300)}`);
    return JSON.parse(r.stdout);
  };
  const after = [];
  const before = [];
  const wallRatio = [];
  const cpuRatio = [];
  let same = true;
  for (let round = 0; round < rounds; round++) {
    let a;
    let b;
    if (round % 2 === 0) {
      a = run(thisBuild);
      b = run(baseline);
    } else {
      b = run(baseline);
      a = run(thisBuild);
    }
    same &&= a.report === b.report;
    after.push(a);
    before.push(b);
    wallRatio.push(a.wall / b.wall);
    cpuRatio.push(a.cpu / b.cpu);
  }
  return {
    same,
    after: stats(after.map((x) => x.wall)),
    afterCpu: stats(after.map((x) => x.cpu)),
    before: stats(before.map((x) => x.wall)),
    beforeCpu: stats(before.map((x) => x.cpu)),
    wallRatio: stats(wallRatio),
    cpuRatio: stats(cpuRatio),
  };
}
