#!/usr/bin/env node
// npm run bench: the join check, in process and as a command, with every comparison measured in
// the same run. docs/BENCHMARKS.md says what each figure means.
//
//   node scripts/bench.mjs [--rounds N] [--sizes 10,100,1000,10000] [--shapes compact,small,...]
//                          [--warm-ms MS] [--no-alloc] [--write-inputs DIR]
//   PREMATH_BIN=/path/to/premath npm run bench     adds premath's own command as a peer
//   PREMATH_HARNESS=/path/to/premath-harness PREMATH_VECTORS=<premath checkout> npm run bench
//                                                   adds premath's job in process (tools/premath-harness)
//
// 1. In process, per input shape and size: the job (parse, validate, normalize, check, render
//    the --json report) against its floor (the engine's JSON.parse + JSON.stringify of the same
//    input and report, plus one SHA-256 over the report), its share of time in garbage
//    collection, the bytes it allocates; with PREMATH_HARNESS, turngate's job and premath's job
//    in process, each timed in a fresh process of its own per round; with PREMATH_BIN, premath's
//    process minus its start-up (a process-to-process figure). Medians over interleaved rounds,
//    with the interquartile range.
// 2. Processes at 1,000 calls, NODE_EXTRA_CA_CERTS unset: bare Node start-up, the bundled CLI
//    with no job (--help), the cold job (one process per run), the warm job (in process) and
//    premath's process, all interleaved; then the library's import cost (as shipped, and tsc's
//    one-module-per-file output of the same code).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SHAPES, SHAPE_NOTES, turnBytes } from './bench/inputs.mjs';
import { floorOf, jobOf } from './bench/jobs.mjs';
import { beforeAfter } from './bench/before-after.mjs';
import { bytes, cpuMs, cpuRatio, ms, pct, spread, table, times } from './bench/format.mjs';
import { childEnv, interleave, stats } from './bench/measure.mjs';
import { checkVectors, harnessReport, inProcessRounds } from './bench/premath.mjs';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    'warm-ms': { type: 'string', default: '300' },
    sizes: { type: 'string', default: '10,100,1000,10000' },
    shapes: { type: 'string', default: SHAPES.join(',') },
    'no-alloc': { type: 'boolean', default: false },
    'write-inputs': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (flags.help) {
  console.log(
    'Usage: node scripts/bench.mjs [--rounds N] [--sizes 10,100,1000,10000] [--shapes compact,small,pretty,large] [--warm-ms MS] [--no-alloc] [--write-inputs DIR]\nSet PREMATH_BIN to a premath binary to measure premath harness-join-check on the same files, and PREMATH_HARNESS (with PREMATH_VECTORS, a premath checkout) to compare the two jobs in process.',
  );
  process.exit(0);
}
const rounds = Number(flags.rounds);
/** The warm-up of every process that times one job on its own (solo-job.mjs, the premath harness). */
const warmMs = Number(flags['warm-ms']);
const sizes = flags.sizes.split(',').map(Number);
const shapes = flags.shapes.split(',');
for (const shape of shapes) {
  if (!SHAPES.includes(shape)) fail(`--shapes: unknown shape \`${shape}\`, expected some of ${SHAPES.join(', ')}`);
}
if (!Number.isInteger(rounds) || rounds < 3) fail('--rounds: expected an integer of at least 3');
if (!Number.isInteger(warmMs) || warmMs < 0) fail('--warm-ms: expected a whole number of milliseconds');
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) fail('--sizes: expected positive integers, e.g. 10,1000');

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(2);
}

if (flags['write-inputs'] !== undefined) {
  const dir = resolve(flags['write-inputs']);
  mkdirSync(dir, { recursive: true });
  for (const shape of shapes)
    for (const n of sizes) writeFileSync(join(dir, `${shape}-${n}.json`), turnBytes(shape, n));
  console.log(`wrote ${shapes.length * sizes.length} inputs to ${dir} (<shape>-<calls>.json)`);
  process.exit(0);
}

const ROOT = new URL('..', import.meta.url).pathname;
const CLI = join(ROOT, 'dist/cli/turngate.js');
const NODE = process.execPath;

// ---------------------------------------------------------------------------------------------
// Set-up

const dir = mkdtempSync(join(tmpdir(), 'turngate-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const premathBin = process.env.PREMATH_BIN ? resolve(process.env.PREMATH_BIN) : undefined;
/** premath's job in process (tools/premath-harness), and the premath checkout whose vectors it must pass first. */
const premathHarness = process.env.PREMATH_HARNESS ? resolve(process.env.PREMATH_HARNESS) : undefined;
if (premathHarness !== undefined && !process.env.PREMATH_VECTORS) {
  fail('PREMATH_HARNESS needs PREMATH_VECTORS: a premath checkout (its tests/conformance/fixtures/harness-typestate)');
}
/** Another build of turngate (BENCH_BASELINE=<its dist>/index.js), timed in the same rounds: before and after a change. */
const baseline = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : undefined;
const THIS_BUILD = new URL('../dist/index.js', import.meta.url).pathname;

if (premathBin !== undefined) {
  const probe = spawnSync(premathBin, ['--version'], { env: childEnv(), encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    fail(`PREMATH_BIN=${premathBin} does not run (\`--version\`): ${probe.error?.message ?? probe.stderr}`);
  }
}

let vectorsChecked = 0;
if (premathHarness !== undefined) {
  try {
    vectorsChecked = checkVectors(premathHarness, resolve(process.env.PREMATH_VECTORS), (bytes) => jobOf(bytes)());
  } catch (error) {
    fail(`PREMATH_HARNESS: ${error.message}`);
  }
}

const inputs = new Map(); // `${shape}:${n}` -> { file, bytes, report }
for (const shape of shapes) {
  for (const n of sizes) {
    const data = turnBytes(shape, n);
    const file = join(dir, `${shape}-${n}.json`);
    writeFileSync(file, data);
    inputs.set(`${shape}:${n}`, { file, bytes: data, report: Buffer.from(jobOf(data)()) });
  }
}

/** premath's job command on a file; checks once that it prints our report byte for byte. */
function premathJob(input) {
  const command = { file: premathBin, args: ['harness-join-check', '--input', input.file, '--json'] };
  const r = spawnSync(command.file, command.args, { env: childEnv(), maxBuffer: 1 << 30 });
  const same = r.status === 0 && r.stdout.equals(input.report);
  return { command, same };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`turngate bench (${new Date().toISOString()})`);
console.log(
  `  node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim()}), load average ${load()} at start`,
);
console.log(`  every figure: median [interquartile range] over ${rounds} interleaved rounds, measured in this run`);
console.log(
  premathBin === undefined
    ? '  premath: PREMATH_BIN not set, premath columns skipped (see docs/BENCHMARKS.md)'
    : `  premath: ${premathBin}`,
);
if (premathHarness !== undefined) {
  console.log(
    `  premath in process: ${premathHarness} (same report as turngate's, byte for byte, on premath's ${vectorsChecked} vectors)`,
  );
}
if (baseline !== undefined)
  console.log(`  baseline: ${process.env.BENCH_BASELINE} (another build of turngate, same rounds)`);
if (baseline !== undefined || premathHarness !== undefined)
  console.log(`  a job timed in a process of its own warms up for ${warmMs} ms first (--warm-ms)`);

// ---------------------------------------------------------------------------------------------
// 1. In process

let allocations = new Map();
if (!flags['no-alloc']) {
  const r = spawnSync(
    NODE,
    [
      '--expose-gc',
      '--max-semi-space-size=512',
      join(ROOT, 'scripts/bench/alloc.mjs'),
      ...[...inputs.keys()].map((k) => k),
    ],
    { env: childEnv(), encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  if (r.status !== 0) fail(`allocation counting failed: ${r.stderr}`);
  allocations = new Map(
    r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .map((a) => [`${a.shape}:${a.n}`, a]),
  );
}

console.log(
  '\n1. In process: job = parse + validate + normalize + check + render --json; floor = JSON.parse + JSON.stringify + SHA-256 of the same bytes',
);
for (const shape of shapes) {
  console.log(`\n${shape}: ${SHAPE_NOTES[shape]}`);
  const rows = [];
  const peerRows = [];
  const harnessRows = [];
  const baselineRows = [];
  const growth = [];
  for (const n of sizes) {
    const input = inputs.get(`${shape}:${n}`);
    const candidates = [
      { name: 'job', fn: jobOf(input.bytes) },
      { name: 'floor', fn: floorOf(input.bytes, input.report.toString('utf8')) },
    ];
    let same = true;
    if (premathBin !== undefined) {
      const job = premathJob(input);
      same = job.same;
      const start = { file: premathBin, args: ['--version'] };
      candidates.push({ name: 'premath', process: job.command });
      candidates.push({ name: 'premath-start', process: start });
      candidates.push({ name: 'premath cpu', process: { ...job.command, cpu: true } });
      candidates.push({ name: 'premath-start cpu', process: { ...start, cpu: true } });
    }
    const m = await interleave({ rounds, candidates });
    const job = stats(m.get('job').samples);
    const jobCpu = stats(m.get('job').cpuSamples);
    const floor = stats(m.get('floor').samples);
    const alloc = allocations.get(`${shape}:${n}`);
    rows.push([
      n,
      bytes(input.bytes.length),
      bytes(input.report.length),
      spread(job),
      ms(jobCpu.median),
      spread(floor),
      times(job.median / floor.median),
      pct(m.get('job').gcShare),
      bytes(alloc?.job),
      alloc?.job && alloc?.floor ? times(alloc.job / alloc.floor) : '-',
    ]);
    const g = { n, job: job.median, floor: floor.median };
    if (baseline !== undefined) {
      const pair = beforeAfter({ file: input.file, rounds, warmMs, thisBuild: THIS_BUILD, baseline });
      g.baseline = pair.before.median;
      g.after = pair.after.median;
      baselineRows.push([
        n,
        `${spread(pair.after)}${pair.same ? '' : ' (output differs!)'}`,
        ms(pair.afterCpu.median),
        spread(pair.before),
        ms(pair.beforeCpu.median),
        times(pair.wallRatio.median),
        times(pair.cpuRatio.median),
      ]);
    }
    if (premathHarness !== undefined) {
      const sameReport = harnessReport(premathHarness, input.file).equals(input.report);
      const builds = [{ name: 'this', index: THIS_BUILD }];
      if (baseline !== undefined) builds.push({ name: 'baseline', index: baseline });
      const r = inProcessRounds({ file: input.file, rounds, warmMs, harness: premathHarness, builds });
      const t = r.get('this');
      const pm = r.get('premath');
      const row = [
        `${n}${sameReport ? '' : ' (output differs!)'}`,
        ms(t.cpu.median),
        ms(pm.cpu.median),
        `${times(t.cpuRatio.median)} [${times(t.cpuRatio.q1)}-${times(t.cpuRatio.q3)}]`,
        times(t.wallRatio.median),
      ];
      if (baseline !== undefined) {
        const b = r.get('baseline');
        row.push(ms(b.cpu.median), `${times(b.cpuRatio.median)} [${times(b.cpuRatio.q1)}-${times(b.cpuRatio.q3)}]`);
      }
      harnessRows.push(row);
    }
    if (premathBin !== undefined) {
      const proc = stats(m.get('premath').samples);
      const start = stats(m.get('premath-start').samples);
      const procCpu = stats(m.get('premath cpu').samples);
      const startCpu = stats(m.get('premath-start cpu').samples);
      g.premath = proc.median - start.median;
      const premathCpu = procCpu.median - startCpu.median;
      peerRows.push([
        n,
        `${spread(proc)}${same ? '' : ' (output differs!)'}`,
        ms(start.median),
        ms(g.premath),
        times(job.median / g.premath),
        cpuMs(premathCpu),
        cpuRatio(jobCpu.median, premathCpu),
      ]);
    }
    growth.push(g);
  }
  table(
    ['calls', 'input', 'report', 'job [IQR]', 'job CPU', 'floor [IQR]', 'job/floor', 'GC', 'alloc', 'alloc/floor'],
    rows,
  );
  if (baseline !== undefined) {
    console.log('');
    console.log('  before/after, each build in a process of its own (see docs/BENCHMARKS.md):');
    table(['calls', 'this build [IQR]', 'CPU', 'baseline [IQR]', 'CPU', 'this/baseline', 'CPU ratio'], baselineRows);
  }
  if (premathHarness !== undefined) {
    console.log('');
    console.log(
      "  in process, turngate's job / premath's job (each build in a fresh process per round, CPU per job, ratios pair by pair):",
    );
    const header = ['calls', 'turngate CPU', 'premath CPU', 'turngate/premath CPU [IQR]', 'wall ratio'];
    if (baseline !== undefined) header.push('baseline CPU', 'baseline/premath CPU [IQR]');
    table(header, harnessRows);
  }
  if (premathBin !== undefined) {
    console.log('');
    console.log(
      "  process to process, not in process: premath's whole process minus its start-up, against turngate's in-process job:",
    );
    table(
      [
        'calls',
        'premath process [IQR]',
        'start-up',
        'process - start-up',
        'job/(process - start-up)',
        'CPU (process - start-up)',
        'CPU ratio',
      ],
      peerRows,
    );
  }
  const steps = [];
  for (let i = 1; i < growth.length; i++) {
    const a = growth[i - 1];
    const b = growth[i];
    const per10 = (x, y) => (y / x) ** (1 / Math.log10(b.n / a.n));
    let line = `${a.n}->${b.n}: job ${per10(a.job, b.job).toFixed(1)}x, floor ${per10(a.floor, b.floor).toFixed(1)}x`;
    if (b.baseline !== undefined) {
      line += `, job on its own ${per10(a.after, b.after).toFixed(1)}x, baseline on its own ${per10(a.baseline, b.baseline).toFixed(1)}x`;
    }
    if (b.premath !== undefined) line += `, premath process - start-up ${per10(a.premath, b.premath).toFixed(1)}x`;
    steps.push(line);
  }
  if (steps.length > 0) console.log(`  growth per 10x calls (linear = 10.0x): ${steps.join('; ')}`);
}
console.log(
  "\n  job CPU: this process's CPU time per job (all threads: GC helpers and the optimizing compiler too); GC: share of job wall time inside V8 collections; alloc: bytes one warm job allocates (counted in a child with a young generation too large to collect mid-job).",
);
if (premathHarness !== undefined) {
  console.log(
    "  in process: turngate CPU and premath CPU are per-job CPU medians over batches in a warm process of each build's own (scripts/bench/solo-job.mjs, PREMATH_HARNESS), medians over the rounds; turngate/premath CPU is the median of the per-round ratios. The figure to quote against premath.",
  );
}
if (premathBin !== undefined) {
  console.log(
    '  process - start-up = premath process minus its start-up (`--version`), wall medians of the same rounds: premath start-up, reading the file and printing are in it, so this compares processes, not jobs; CPU (process - start-up) likewise from CPU times (bash `time`, 1 ms resolution: meaningless below ~5 ms); CPU ratio = job CPU / that.',
  );
}

// ---------------------------------------------------------------------------------------------
// 2. Processes

const cliN = sizes.includes(1000) ? 1000 : sizes[sizes.length - 1];
console.log(
  `\n2. Processes at ${cliN.toLocaleString('en-US')} calls: wall time, and CPU time (user + system, all threads) in separate runs of the same rounds; NODE_EXTRA_CA_CERTS unset for every child${
    process.env.NODE_EXTRA_CA_CERTS ? ' (it is set in this shell)' : ''
  }`,
);
const processCandidates = [];
const withCpu = (name, command) => {
  processCandidates.push({ name, process: command }, { name: `${name} cpu`, process: { ...command, cpu: true } });
};
withCpu('node -e 0', { file: NODE, args: ['-e', '0'] });
withCpu('turngate --help', { file: NODE, args: [CLI, '--help'] });
if (premathBin !== undefined) withCpu('premath --version', { file: premathBin, args: ['--version'] });
for (const shape of shapes) {
  const input = inputs.get(`${shape}:${cliN}`);
  withCpu(`cli ${shape}`, {
    file: NODE,
    args: [CLI, 'harness-join-check', '--input', input.file, '--json'],
    expectStdout: input.report,
  });
  processCandidates.push({ name: `warm ${shape}`, fn: jobOf(input.bytes) });
  if (premathBin !== undefined) withCpu(`premath ${shape}`, premathJob(input).command);
}
const p = await interleave({ rounds, candidates: processCandidates, targetMs: 10 });
const ps = (name) => stats(p.get(name).samples);
const bare = ps('node -e 0');
const help = ps('turngate --help');
const startRows = [
  ['node -e 0 (Node start-up)', spread(bare), cpuMs(ps('node -e 0 cpu').median), ''],
  [
    'turngate --help (no job)',
    spread(help),
    cpuMs(ps('turngate --help cpu').median),
    `bundle load: +${ms(help.median - bare.median)} wall, +${cpuMs(ps('turngate --help cpu').median - ps('node -e 0 cpu').median)} CPU`,
  ],
];
if (premathBin !== undefined) {
  startRows.push([
    'premath --version (no job)',
    spread(ps('premath --version')),
    cpuMs(ps('premath --version cpu').median),
    '',
  ]);
}
table(['start-up', 'wall [IQR]', 'CPU', ''], startRows);
const cliRows = [];
for (const shape of shapes) {
  const cli = ps(`cli ${shape}`);
  const cliCpu = ps(`cli ${shape} cpu`);
  const warmJob = ps(`warm ${shape}`);
  const cold = cli.median - help.median;
  const row = [shape, spread(cli), cpuMs(cliCpu.median), ms(cold), spread(warmJob), times(cold / warmJob.median)];
  if (premathBin !== undefined) {
    const pm = ps(`premath ${shape}`);
    const pmCpu = ps(`premath ${shape} cpu`);
    row.push(spread(pm), cpuMs(pmCpu.median), times(cli.median / pm.median), cpuRatio(cliCpu.median, pmCpu.median));
  }
  cliRows.push(row);
}
const cliHeader = ['job', 'CLI process [IQR]', 'CPU', 'cold job', 'warm job [IQR]', 'cold/warm'];
if (premathBin !== undefined) cliHeader.push('premath process [IQR]', 'CPU', 'CLI/premath', 'CPU ratio');
console.log('');
table(cliHeader, cliRows);
console.log(
  '  cold job = CLI process minus `turngate --help` (wall); warm job = the same job in this process after warm-up, in the same rounds.',
);

const imports = [
  { name: 'node -e 0', process: { file: NODE, args: ['-e', '0'] } },
  { name: "import('turngate')", process: { file: NODE, args: ['-e', "import('turngate')"] } },
  { name: 'import(tsc output)', process: { file: NODE, args: ['-e', "import('./dist/index.js')"] } },
  { name: "import('turngate/chat')", process: { file: NODE, args: ['-e', "import('turngate/chat')"] } },
  { name: 'turngate --help', process: { file: NODE, args: [CLI, '--help'] } },
];
for (const c of imports) c.process.cwd = ROOT;
const im = await interleave({ rounds, candidates: imports });
const imBare = stats(im.get('node -e 0').samples);
console.log(
  '\n  import cost (whole process; `turngate` is the package as shipped, its entry points bundled; tsc output = the same code as one module per file; same rounds):',
);
for (const c of imports) {
  const s = stats(im.get(c.name).samples);
  const extra = c.name === 'node -e 0' ? '' : `   +${ms(s.median - imBare.median)} over bare Node`;
  console.log(`  ${c.name.padEnd(26)} ${spread(s)}${extra}`);
}
console.log(`\nload average ${load()} at end`);
