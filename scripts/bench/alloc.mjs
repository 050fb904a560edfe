// Bytes allocated by one warm call of the join check and of its floor, for each `shape:calls`
// argument; prints one JSON object per line. Run by bench.mjs in a child process with
// `--expose-gc` and a young generation large enough that one call never triggers a collection:
// the growth of the used heap across the call is then every byte it allocated. A call during
// which a collection ran anyway is reported as null, never as a guess.
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { setTimeout as sleep } from 'node:timers/promises';

/** Lets pending performance entries (gc) be delivered: they arrive on a timer, not a microtask. */
const tick = () => sleep(2);
import { jobOf, floorOf } from './jobs.mjs';
import { turnBytes } from './inputs.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
const gcStarts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcStarts.push(entry.startTime);
}).observe({ entryTypes: ['gc'] });

async function allocated(fn) {
  for (let i = 0; i < 10; i++) fn();
  const results = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    globalThis.gc();
    globalThis.gc();
    await tick();
    const before = getHeapStatistics().used_heap_size;
    const start = performance.now();
    const kept = fn();
    const end = performance.now();
    const after = getHeapStatistics().used_heap_size;
    await tick();
    if (kept === undefined) throw new Error('the measured call must return its result');
    if (!gcStarts.some((at) => at >= start && at <= end)) results.push(after - before);
  }
  return results.length === 0 ? null : Math.min(...results);
}

for (const arg of process.argv.slice(2)) {
  const [shape, calls] = arg.split(':');
  const n = Number(calls);
  const bytes = turnBytes(shape, n);
  const job = jobOf(bytes);
  const floor = floorOf(bytes, job());
  console.log(JSON.stringify({ shape, n, job: await allocated(job), floor: await allocated(floor) }));
}
