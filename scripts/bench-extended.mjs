#!/usr/bin/env node
// npm run bench:extended: what the extended profile costs over premath's, on the same turns.
//
// Per size (10, 100, 1,000 tool calls): the in-process job (parse the input bytes, decode,
// normalize, check, render the --json report) on a premath turn, on the same turn carrying the
// extended fields but not opting in (what the profile probe costs premath inputs), and on it
// opted into the extended profile with every per-call check configured (tool policy, schema and
// example digests, strict transport order, truncation budget, shell boundary, guardrail stages,
// role scope). Medians over interleaved rounds, all measured in this run; the premath turn is
// the baseline of each ratio. Set BENCH_BASELINE=<dir>/index.js to time a second build's
// premath job in the same rounds (e.g. the commit before the extended profile).
import { performance } from 'node:perf_hooks';
import { digest } from '../dist/canonical/index.js';
import { joinCheckText, renderJoinCheckJson } from '../dist/join-check.js';

// From 0.3.0 on a build exports the join check from join-check.js beside its index.js.
const baselineRoot = process.env.BENCH_BASELINE ? await import(process.env.BENCH_BASELINE) : undefined;
const baseline =
  baselineRoot === undefined || typeof baselineRoot.joinCheckText === 'function'
    ? baselineRoot
    : await import(new URL('join-check.js', new URL(process.env.BENCH_BASELINE, 'file:///')).href);
const pol = { render: 'sha256:render-v1', queue: 'sha256:queue-v1', view: 'sha256:view-v1' };
const TOOLS = ['fs.read', 'shell.exec', 'apply_patch'];

function premathTurn(n) {
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
        toolName: TOOLS[i % 3],
        schemaDigest: `sha256:schema-${TOOLS[i % 3]}`,
      })),
      toolResults: ids.map((id, i) => ({ toolCallId: id, status: 'ok', payload: { path: `src/f-${i}.ts`, bytes: i } })),
      toolUse: ids.map((id) => ({ toolCallId: id, disposition: 'consumed' })),
      protocolState: { stopReason: 'tool_use', continuationAllowed: true },
      toolRender: ids.map((id) => ({
        toolCallId: id,
        operatorPayloadDigest: `sha256:op-${id}`,
        reminderRenderDigest: `sha256:rem-${id}`,
        injectionPoint: 'tool_response',
        policyDigest: pol.render,
      })),
      reminderQueue: [{ queueId: 'q', reducedDigest: 'sha256:q', policyDigest: pol.queue }],
      stateViews: [
        { viewId: 'v', viewDigest: 'sha256:v', policyDigest: pol.view, sourceRefs: ['artifact://repo/plan'] },
      ],
    },
  };
}

/** The same turn with the extended fields; `profile` decides whether it opts in. */
function extendedTurn(n, optIn) {
  const input = premathTurn(n);
  const e = input.evidence;
  const stages = { requiredStages: ['pre_flight', 'input', 'output'] };
  Object.assign(e.callSpec, {
    toolPolicy: {
      tools: TOOLS.map((t) => ({
        toolName: t,
        schemaDigest: `sha256:schema-${t}`,
        exampleDigest: `sha256:examples-${t}`,
        allowedCallers: ['direct'],
      })),
    },
    toolTransportPolicy: { parallelToolCalls: true, ordering: 'strict' },
    toolResponseTruncationPolicy: { maxBytes: 16384, marker: '[...]' },
    executionBoundaryPolicy: { shellTools: ['shell.exec'], allowedWorkdirs: ['/workspace/repo'] },
    runtimeSandboxRef: 'sandbox://ro',
    guardrailStagePolicy: stages,
    orchestrationRole: 'specialist',
    contextScope: { role: 'specialist', readRefs: ['artifact://repo'], writeRefs: ['artifact://repo/src'] },
  });
  e.toolRequests.forEach((r, i) => {
    Object.assign(r, { transportIndex: i, exampleDigest: `sha256:examples-${r.toolName}` });
  });
  e.toolResults.forEach((r, i) => {
    Object.assign(r, { transportIndex: n + i, payloadBytes: 800 });
    if (i % 3 === 1)
      r.shell = { workdir: '/workspace/repo', sandboxProfile: 'sandbox://ro', commandDigest: `sha256:cmd-${i}` };
    if (i % 3 === 2) r.artifactWrites = [{ path: `artifact://repo/src/f-${i}.ts`, digest: `sha256:w-${i}` }];
  });
  e.guardrailDecisions = ['pre_flight', 'input', 'output'].map((stage, i) => ({
    decisionId: `g${i}`,
    stage,
    guardrailId: `guard.${stage}`,
    sequence: i,
    policyDigest: digest(stages),
  }));
  return optIn ? { profile: 'turngate.harness.extended.v1', ...input } : input;
}

function job(check, render, bytes) {
  const outcome = check(bytes);
  if (!outcome.ok) throw new Error(outcome.failures[0].message);
  return render(outcome.value).length;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} us` : `${ms.toFixed(2)} ms`);

console.log(
  `calls | premath | carrying, not opted in | extended profile | ratio${baseline ? ' | baseline build' : ''}`,
);
for (const n of [10, 100, 1000]) {
  const inputs = {
    premath: Buffer.from(JSON.stringify(premathTurn(n))),
    carrying: Buffer.from(JSON.stringify(extendedTurn(n, false))),
    extended: Buffer.from(JSON.stringify(extendedTurn(n, true))),
  };
  const check = (bytes) => job(joinCheckText, renderJoinCheckJson, bytes);
  const verdict = joinCheckText(inputs.extended);
  if (!verdict.ok || verdict.value.result !== 'accepted') throw new Error('the extended bench turn must be accepted');
  const jobs = [
    ['premath', () => check(inputs.premath)],
    ['carrying', () => check(inputs.carrying)],
    ['extended', () => check(inputs.extended)],
  ];
  if (baseline)
    jobs.push(['baseline', () => job(baseline.joinCheckText, baseline.renderJoinCheckJson, inputs.premath)]);
  const reps = Math.max(3, Math.round(2000 / n));
  const times = Object.fromEntries(jobs.map(([name]) => [name, []]));
  for (let round = 0; round < 21; round++) {
    for (const [name, run] of jobs) {
      const start = performance.now();
      for (let i = 0; i < reps; i++) run();
      times[name].push((performance.now() - start) / reps);
    }
  }
  const m = Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list.slice(3))]));
  const row = [
    n,
    fmt(m.premath),
    `${fmt(m.carrying)} (${(m.carrying / m.premath).toFixed(2)}x)`,
    fmt(m.extended),
    `${(m.extended / m.premath).toFixed(2)}x`,
  ];
  if (baseline) row.push(`${fmt(m.baseline)} (${(m.premath / m.baseline).toFixed(2)}x)`);
  console.log(row.join(' | '));
}
