#!/usr/bin/env node
// What a harness step costs beyond its durable writes: runHarness over 100 items with trivial
// hooks, against a floor that does the same durable writes with raw fs calls (per item: two
// temp-file + fsync + rename + directory-fsync writes of the session, one O_APPEND + fsync
// trajectory line), and one appendTrajectoryRow on its own. Medians of interleaved repeats, in
// the same run. fsync dominates; figures on a shared machine are noisy.
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendTrajectoryRow, parseRetryPolicy, runHarness } from '../dist/tusk/index.js';

const policy = parseRetryPolicy(readFileSync(new URL('../examples/harness/retry-policy.json', import.meta.url)));
const N = 100;
const REPEATS = Number(process.env['BENCH_REPEATS'] ?? 5);
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const scratch = () => mkdtempSync(join(tmpdir(), 'turngate-bench-tusk-'));

async function loop() {
  const dir = scratch();
  const todo = Array.from({ length: N }, (_, i) => `t-${i}`);
  const start = performance.now();
  await runHarness({
    sessionPath: join(dir, 'session.json'),
    trajectoryPath: join(dir, 'trajectory.jsonl'),
    workerId: 'w1',
    policy,
    boot: () => ({ ok: true }),
    step: {
      claim: (ctx) => {
        const id = todo.find((t) => !ctx.finished.has(t));
        return id === undefined ? undefined : { id, target: id };
      },
      verifyBefore: () => ({ ok: true }),
      run: () => {},
      verifyAfter: () => ({ ok: true }),
    },
  });
  const perItem = (performance.now() - start) / N;
  rmSync(dir, { recursive: true, force: true });
  return perItem;
}

function floor() {
  const dir = scratch();
  const session = 'x'.repeat(900);
  const line = `${'y'.repeat(700)}\n`;
  const start = performance.now();
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < 2; k++) {
      const temp = join(dir, `.session.${i}.${k}.tmp`);
      const fd = openSync(temp, 'wx');
      writeSync(fd, session);
      fsyncSync(fd);
      closeSync(fd);
      renameSync(temp, join(dir, 'session.json'));
      const d = openSync(dir, 'r');
      fsyncSync(d);
      closeSync(d);
    }
    const fd = openSync(join(dir, 'trajectory.jsonl'), 'a');
    writeSync(fd, line);
    fsyncSync(fd);
    closeSync(fd);
  }
  const perItem = (performance.now() - start) / N;
  rmSync(dir, { recursive: true, force: true });
  return perItem;
}

async function appends() {
  const dir = scratch();
  const path = join(dir, 'trajectory.jsonl');
  const start = performance.now();
  for (let i = 0; i < N; i++)
    await appendTrajectoryRow(path, { stepId: `w1.t-${i}.1`, action: 'a', resultClass: 'completed' });
  const perAppend = (performance.now() - start) / N;
  rmSync(dir, { recursive: true, force: true });
  return perAppend;
}

const times = { loop: [], floor: [], append: [] };
for (let r = 0; r < REPEATS; r++) {
  times.loop.push(await loop());
  times.floor.push(floor());
  times.append.push(await appends());
}
const [l, f, a] = [median(times.loop), median(times.floor), median(times.append)];
console.log(`runHarness, per item (2 atomic session writes + 1 row): ${l.toFixed(2)} ms`);
console.log(
  `raw durable writes, per item (the floor):                ${f.toFixed(2)} ms  (loop/floor ${(l / f).toFixed(2)}x)`,
);
console.log(`appendTrajectoryRow, per row (O_APPEND write + fsync):   ${a.toFixed(2)} ms`);
console.log(`medians of ${REPEATS} interleaved repeats of ${N}; NODE_EXTRA_CA_CERTS does not matter here (in-process)`);
