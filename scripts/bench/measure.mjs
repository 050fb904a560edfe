// Measuring: interleaved repeats of in-process functions and whole processes, summarized as
// medians with their spread. No figure here is ever compared with a constant: every comparison
// is between candidates measured in the same rounds.
import { spawnSync } from 'node:child_process';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** Lets pending performance entries (gc) be delivered: they arrive on a timer, not a microtask. */
const tick = () => sleep(2);

/**
 * Median, quartiles and range of a list of samples.
 *
 * @param {number[]} samples
 */
export function stats(samples) {
  if (samples.length === 0) throw new Error('no samples');
  const s = [...samples].sort((a, b) => a - b);
  const at = (q) => {
    const i = (s.length - 1) * q;
    const lo = Math.floor(i);
    const hi = Math.ceil(i);
    return s[lo] + (s[hi] - s[lo]) * (i - lo);
  };
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { median: at(0.5), q1: at(0.25), q3: at(0.75), min: s[0], max: s[s.length - 1], mean, n: s.length };
}

/** The environment children run with: `NODE_EXTRA_CA_CERTS` removed (it costs ~145 ms a start). */
export function childEnv() {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/**
 * Runs a command once. Returns its wall time in milliseconds, or with `cpu` its CPU time (user +
 * system, every thread, as bash's `time` reads it from the kernel; 1 ms resolution): the run
 * then goes through `bash -c 'time ...'`, so its wall time is not taken. Throws when the command
 * exits non-zero or, when `expectStdout` is given, prints anything else.
 *
 * @param {{ file: string, args: string[], cwd?: string, env?: NodeJS.ProcessEnv, expectStdout?: Buffer, cpu?: boolean }} command
 */
export function runProcess(command) {
  const [file, args] = command.cpu
    ? ['bash', ['-c', 'TIMEFORMAT="cpu %3U %3S"; time "$@"', 'bash', command.file, ...command.args]]
    : [command.file, command.args];
  const start = performance.now();
  const r = spawnSync(file, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: command.env ?? childEnv(),
    cwd: command.cwd,
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - start;
  if (r.error) throw r.error;
  if (r.status !== 0) {
    throw new Error(`${command.file} ${command.args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
  }
  if (command.expectStdout !== undefined && !r.stdout.equals(command.expectStdout)) {
    throw new Error(`${command.file} ${command.args.join(' ')} printed other output than expected`);
  }
  if (!command.cpu) return ms;
  const match = /cpu (\d+\.\d+) (\d+\.\d+)\s*$/.exec(String(r.stderr));
  if (match === null) throw new Error(`no CPU time from bash for ${command.file}: ${String(r.stderr).slice(-200)}`);
  return (Number(match[1]) + Number(match[2])) * 1000;
}

/**
 * How many calls of `fn` make a batch of about `targetMs`, after warming it up for about
 * `warmMs` (so the optimizing compiler has had its turn before any sample is taken).
 */
function calibrate(fn, targetMs, warmMs) {
  const warmUntil = performance.now() + warmMs;
  let calls = 0;
  const start = performance.now();
  do {
    fn();
    calls++;
  } while (performance.now() < warmUntil || calls < 3);
  const per = (performance.now() - start) / calls;
  return Math.max(1, Math.round(targetMs / per));
}

/**
 * Measures candidates in interleaved rounds: each round runs every candidate once (a batch of
 * calls for a function, one run for a process), starting with a different candidate each round
 * so no candidate always follows the same neighbour. Function candidates also report the share
 * of their batch time spent in garbage collection (V8's `gc` performance entries that start
 * inside the batch).
 *
 * @param {{
 *   rounds: number,
 *   targetMs?: number,
 *   warmMs?: number,
 *   candidates: Array<{ name: string, fn?: () => unknown, process?: Parameters<typeof runProcess>[0] }>,
 * }} plan
 * @returns {Promise<Map<string, { samples: number[], cpuSamples?: number[], gcShare?: number, reps?: number }>>}
 *   per candidate: milliseconds per call (functions) or per run (processes); for functions also
 *   the process's CPU milliseconds per call (every thread: the main thread, GC helpers and the
 *   optimizing compiler).
 */
export async function interleave(plan) {
  const targetMs = plan.targetMs ?? 25;
  const warmMs = plan.warmMs ?? 150;
  const gcEntries = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcEntries.push([entry.startTime, entry.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  const state = plan.candidates.map((c) => ({
    c,
    reps: c.fn ? calibrate(c.fn, targetMs, warmMs) : 1,
    samples: [],
    cpuSamples: [],
    windows: [],
  }));
  for (const s of state) if (s.c.process) runProcess(s.c.process); // warm the file cache
  for (let round = 0; round < plan.rounds; round++) {
    for (let k = 0; k < state.length; k++) {
      const s = state[(round + k) % state.length];
      if (s.c.fn) {
        const fn = s.c.fn;
        const cpuBefore = process.cpuUsage();
        const start = performance.now();
        for (let i = 0; i < s.reps; i++) fn();
        const end = performance.now();
        const cpu = process.cpuUsage(cpuBefore);
        s.samples.push((end - start) / s.reps);
        s.cpuSamples.push((cpu.user + cpu.system) / 1000 / s.reps);
        s.windows.push([start, end]);
      } else {
        s.samples.push(runProcess(s.c.process));
      }
    }
    await tick(); // let the gc observer deliver
  }
  await tick();
  observer.disconnect();
  const out = new Map();
  for (const s of state) {
    const result = { samples: s.samples, reps: s.reps };
    if (s.c.fn) {
      result.cpuSamples = s.cpuSamples;
      let inGc = 0;
      let total = 0;
      for (const [start, end] of s.windows) {
        total += end - start;
        for (const [at, duration] of gcEntries) if (at >= start && at < end) inGc += Math.min(duration, end - at);
      }
      result.gcShare = total > 0 ? inGc / total : 0;
    }
    out.set(s.c.name, result);
  }
  return out;
}
