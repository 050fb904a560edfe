#!/usr/bin/env node
// One build's join-check job, timed in a process of its own (for BENCH_BASELINE in bench.mjs):
// two builds loaded in one process disturb each other's timings (shared heap and collections,
// one build's garbage collected in the other's time), so a before/after pair is measured in two
// fresh processes instead, one per build, interleaved by the caller.
//
//   node scripts/bench/solo-job.mjs <build>/index.js <input file> [warm-up ms, default 300]
//
// Warms up (at least the warm-up time and 2 jobs), then times batches of at least 50 ms and 1 job for at
// least 600 ms in all; prints one JSON line: per-job wall and CPU medians over the batches (ms),
// and the SHA-256 of the report text, so the caller can check that both builds print the same.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jobWith } from './job.mjs';

const [buildPath, inputPath, warmArg = '300'] = process.argv.slice(2);
const warmMs = Number(warmArg);
// A build from 0.3.0 on exports the join check from join-check.js beside its index.js; an
// older build from index.js itself.
const root = await import(pathToFileURL(resolve(buildPath)).href);
const build =
  typeof root.joinCheckText === 'function'
    ? root
    : await import(pathToFileURL(resolve(dirname(buildPath), 'join-check.js')).href);
const bytes = readFileSync(inputPath);
const job = jobWith(build, bytes);
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];

const report = job();
let warm = 1;
const warmStart = performance.now();
while (performance.now() - warmStart < warmMs || warm < 2) {
  job();
  warm++;
}
const wall = [];
const cpu = [];
const measureStart = performance.now();
while (performance.now() - measureStart < 600 || wall.length < 3) {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let jobs = 0;
  while (performance.now() - start < 50 || jobs < 1) {
    job();
    jobs++;
  }
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpuStart);
  wall.push(elapsed / jobs);
  cpu.push((used.user + used.system) / 1000 / jobs);
}
console.log(
  JSON.stringify({ wall: median(wall), cpu: median(cpu), report: createHash('sha256').update(report).digest('hex') }),
);
