#!/usr/bin/env node
// npm run bench: the join check on generated turns of 10 .. 10,000 tool calls.
//
// Per size: the time per turn for the whole in-process job (parse the input bytes, decode,
// normalize, check, render the --json report) and its ratio to a floor measured in the same
// run: canonicalizing and hashing the same normalized evidence once. Then the whole-process
// CLI time at 1,000 calls against a bare `node -e 0`. Figures are ratios and medians, never
// pass/fail thresholds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { digest, joinCheckText, renderJoinCheckJson } from '../dist/index.js';

const CLI = new URL('../dist/cli/turngate.js', import.meta.url).pathname;
const pol = { render: 'sha256:render-dual-v2', queue: 'sha256:reminder-queue-v1', view: 'sha256:state-view-v1' };

/** A code-mode parallel turn with `n` tool calls, every one requested, answered, used and rendered. */
function turn(n) {
  const ids = Array.from({ length: n }, (_, i) => `toolu_${String(i).padStart(8, '0')}`);
  return {
    evidence: {
      callSpec: {
        callId: `bench/turn-${n}`,
        modelRef: 'model/bench',
        actionMode: 'code',
        executionPattern: 'parallel',
        normalizerId: 'nf.v1',
        mutationPolicyDigest: 'sha256:mutation-v1',
        governancePolicyDigest: 'sha256:gov-v1',
        toolRenderProtocolDigest: pol.render,
        reminderQueuePolicyDigest: pol.queue,
        stateViewPolicyDigest: pol.view,
        decompositionPolicyDigest: 'sha256:decomp-v1',
      },
      toolRequests: ids.map((id, i) => ({
        toolCallId: id,
        toolName: ['fs.read', 'repo.search', 'tests.run'][i % 3],
        schemaDigest: `sha256:schema-${i % 3}`,
      })),
      toolResults: ids.map((id, i) =>
        i % 10 === 9
          ? {
              toolCallId: id,
              status: 'error',
              errorCode: 'timeout',
              retryable: true,
              errorMessage: `call ${i} timed out after 5000 ms`,
            }
          : { toolCallId: id, status: 'ok', payload: { path: `src/file-${i}.ts`, bytes: 1000 + i, lines: [i, i + 1] } },
      ),
      toolUse: ids.map((id, i) => ({ toolCallId: id, disposition: i % 10 === 9 ? 'observed' : 'consumed' })),
      protocolState: { stopReason: 'tool_use', continuationAllowed: true },
      toolRender: ids.map((id) => ({
        toolCallId: id,
        operatorPayloadDigest: `sha256:op-${id}`,
        reminderRenderDigest: `sha256:rem-${id}`,
        injectionPoint: 'tool_response',
        policyDigest: pol.render,
      })),
      reminderQueue: [{ queueId: 'q/main', reducedDigest: 'sha256:q', policyDigest: pol.queue }],
      stateViews: [{ viewId: 'v/main', viewDigest: 'sha256:v', policyDigest: pol.view }],
      sessionRefs: ['session://bench'],
      trajectoryRefs: ['trajectory://bench/1'],
    },
  };
}

/** Median milliseconds per call of `fn`, over rounds that each last about `budgetMs`. */
function measure(fn, budgetMs = 250) {
  fn();
  const samples = [];
  const deadline = performance.now() + Math.max(budgetMs * 6, 300);
  while (samples.length < 7 || (performance.now() < deadline && samples.length < 60)) {
    let reps = 0;
    const start = performance.now();
    do {
      fn();
      reps++;
    } while (performance.now() - start < budgetMs / 6);
    samples.push((performance.now() - start) / reps);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

function processMs(args, runs = 15) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 30 });
    times.push(performance.now() - start);
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} us` : `${ms.toFixed(2)} ms`);
const rows = [];
let at1000;
const dir = mkdtempSync(join(tmpdir(), 'turngate-bench-'));
console.log(
  'turngate bench: read+parse+normalize+check+render per turn, vs the floor (canonicalize + hash the normalized evidence once)\n',
);
console.log('calls   input     output    per turn    floor       ratio   per call');
for (const n of [10, 100, 1000, 10000]) {
  const bytes = Buffer.from(JSON.stringify(turn(n)));
  const job = () => {
    const outcome = joinCheckText(bytes);
    if (!outcome.ok) throw new Error(outcome.error.message);
    return renderJoinCheckJson(outcome.report);
  };
  const output = job();
  const outcome = joinCheckText(bytes);
  const normalized = outcome.report.normalized;
  const perTurn = measure(job);
  const floor = measure(() => digest(normalized));
  rows.push({ n, perTurn, floor });
  if (n === 1000) {
    at1000 = { perTurn, output: Buffer.byteLength(output) };
    writeFileSync(join(dir, 'turn-1000.json'), bytes);
  }
  console.log(
    `${String(n).padEnd(7)} ${(bytes.length / 1024).toFixed(0).padStart(6)} kB ${(Buffer.byteLength(output) / 1024).toFixed(0).padStart(6)} kB ` +
      `${fmt(perTurn).padStart(10)}  ${fmt(floor).padStart(10)}  ${(perTurn / floor).toFixed(2).padStart(5)}x  ${fmt(perTurn / n).padStart(8)}`,
  );
}

console.log('\ngrowth per 10x calls (linear is 10x; n log n for each step in brackets):');
for (let i = 1; i < rows.length; i++) {
  const a = rows[i - 1];
  const b = rows[i];
  const nlogn = (b.n * Math.log(b.n)) / (a.n * Math.log(a.n));
  console.log(`  ${a.n} -> ${b.n}: ${(b.perTurn / a.perTurn).toFixed(1)}x (n log n: ${nlogn.toFixed(1)}x)`);
}

const bare = processMs(['-e', '0']);
const cli = processMs([CLI, 'harness-join-check', '--input', join(dir, 'turn-1000.json'), '--json']);
console.log(`\nat 1,000 calls (${(at1000.output / 1024).toFixed(0)} kB of --json output):`);
console.log(`  in-process:   ${fmt(at1000.perTurn)}   (anchor: premath's Rust build 11.8 ms)`);
console.log(
  `  CLI process:  ${fmt(cli)}   (bare node -e 0: ${fmt(bare)}; budget bare + 1.5 x in-process = ${fmt(bare + 1.5 * at1000.perTurn)})`,
);
console.log(
  `  CLI overhead over bare node: ${fmt(cli - bare)} = ${((cli - bare) / at1000.perTurn).toFixed(2)} x in-process`,
);
