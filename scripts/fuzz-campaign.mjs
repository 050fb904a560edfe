#!/usr/bin/env node
// npm run fuzz:campaign -- [--inputs 100000] [--seed 15] [--cli-runs 200] [--limit-mb 64] [--no-limits]
//                           [--tusk-inputs 20000] [--tusk-rounds 10] [--tusk-large-rows 140] [--tusk-kills 50]
//
// The release-check campaign against hostile input (the long version of test/fuzz-cli.test.ts).
// Needs a build (`npm run build`). Five parts, each reported with counts:
//
// 1. Library: `--inputs` seeded inputs through joinCheckText, the object path (parseJson, then
//    joinCheck) and the command's function (harnessJoinCheck): turns with hostile edits checked
//    against an independent closure oracle, arbitrary JSON, mangled JSON text, random bytes, deep
//    nesting. Counted: uncaught throws (crashes), inputs slower than --hang-ms (hangs), accepts
//    of a turn whose join the oracle finds open (wrong accepts), join verdicts that differ from
//    the oracle, text and object paths that disagree, broken output promises.
// 2. Processes: `--cli-runs` runs of the bundled CLI on sampled inputs, some under hostile file
//    names, compared byte for byte with the library function; exits outside 0-3 are crashes.
// 3. Limits: each input shape of issue 15 (many calls, one huge string, escaped strings, many
//    distinct keys, many small numbers) just under the input limit, then 80 MB of small numbers
//    and /dev/zero over it: exit code, time, and peak RSS (total and per MB of input, beyond a
//    bare Node's). NODE_EXTRA_CA_CERTS is unset in the children (it slows every start).
// 4. Transcripts: `--transcript-inputs` seeded inputs (the conformance transcripts of every format
//    edited as real histories go wrong, and arbitrary JSON: test/transcript-fuzz.mjs) through
//    checkTranscriptJson and repairTranscriptJson: throws, hangs, malformed reports, repairs
//    whose output the check rejects for a failure repair did not report, repairs that are not
//    idempotent.
// 5. Tusk: `--tusk-inputs` seeded command lines of harness-session, harness-trajectory and
//    harness-kpi with hostile flag values (test/tusk-fuzz.mjs): throws, hangs, broken output
//    promises (exit outside 0-2, stderr not one line, raw control characters or unbounded human
//    lines, --json that does not parse); the CPU time of a process given a 131,000-character
//    --state; then processes on one trajectory: `--tusk-rounds` rounds of two appenders beside a
//    repairer (acknowledged rows lost, refusals, tails moved aside), `--tusk-large-rows` rows of
//    4 MiB from each of two appenders (refusals), rounds with an appender killed by SIGKILL (lost
//    rows, locks broken), and `--tusk-kills` session writers killed mid-write (stray temp files).
//
// Times and RSS are single runs on whatever else the machine is doing: read them as orders of
// magnitude. The counts are the result.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { harnessJoinCheck } from '../dist/cli/harness-join-check.js';
import { parseJson } from '../dist/canonical/index.js';
import { joinCheck, joinCheckText, renderJoinCheckJson } from '../dist/join-check.js';
import { checkTranscriptJson, repairTranscriptJson } from '../dist/transcripts/index.js';
import { seedTranscripts, transcriptInput, violations } from '../test/transcript-fuzz.mjs';
import { harnessKpiCommand } from '../dist/cli/harness-kpi.js';
import { harnessSessionCommand } from '../dist/cli/harness-session.js';
import { harnessTrajectoryCommand } from '../dist/cli/harness-trajectory.js';
import { readTrajectory, repairTrajectory, writeSession } from '../dist/tusk/index.js';
import {
  appendersAndRepair,
  commandViolations,
  killedSessionWriters,
  rowSizes,
  tuskCommandInput,
} from '../test/tusk-fuzz.mjs';
import { writeShape } from './bench/memory-shapes.mjs';

const { values: options } = parseArgs({
  options: {
    inputs: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '15' },
    'cli-runs': { type: 'string', default: '200' },
    'limit-mb': { type: 'string', default: '64' },
    'hang-ms': { type: 'string', default: '2000' },
    'no-limits': { type: 'boolean', default: false },
    'transcript-inputs': { type: 'string', default: '100000' },
    'tusk-inputs': { type: 'string', default: '20000' },
    'tusk-rounds': { type: 'string', default: '10' },
    'tusk-large-rows': { type: 'string', default: '140' },
    'tusk-kills': { type: 'string', default: '50' },
  },
});
const INPUTS = Number(options.inputs);
const SEED = Number(options.seed);
const CLI_RUNS = Number(options['cli-runs']);
const LIMIT_MB = Number(options['limit-mb']);
const HANG_MS = Number(options['hang-ms']);
const CLI = new URL('../dist/cli/turngate.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'turngate-campaign-'));
const childEnv = { ...process.env };
delete childEnv.NODE_EXTRA_CA_CERTS;

// ---------------------------------------------------------------------------------------------
// Inputs

/** A real turn's CallSpec (the handoff example's). */
const { callSpec } = JSON.parse(
  readFileSync(new URL('../examples/evidence/handoff-turn.json', import.meta.url), 'utf8'),
).evidence;
const POOL = ['tc-1', 'tc-2', 'tc-3', 'tc-4', 'tc-5'];
const hostile = fc.constantFrom(
  '\u001b[2J\u001b]0;pwned\u0007',
  '\r\n::error::forged',
  '\u202e\u2066',
  '\u0085',
  '\u3000',
  '\ufeff',
  ' '.repeat(5000),
  '\\u0000',
  '\u{1F600}',
  'constructor',
  '__proto__',
);
const pad = fc.oneof(
  { arbitrary: fc.constant(''), weight: 6 },
  { arbitrary: fc.constantFrom(' ', '\t', '\u3000', '\u0085', '\n'), weight: 1 },
);
const id = fc.tuple(pad, fc.constantFrom(...POOL), pad).map(([a, b, c]) => `${a}${b}${c}`);
const ids = fc.subarray(POOL);
const usually = (base) => fc.oneof({ arbitrary: fc.constant(base), weight: 3 }, { arbitrary: ids, weight: 1 });
const payload = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hostile,
  fc.constant(JSON.parse('{"__proto__": {"toolUse": [{"toolCallId": "tc-9"}]}, "constructor": {"prototype": 1}}')),
);
const resultRow = (callId) =>
  fc.oneof(
    fc.record({ toolCallId: fc.constant(callId), status: fc.constant('ok'), payload }),
    fc.record({ toolCallId: fc.constant(callId), resultDigest: fc.constant(`sha256:${callId}`) }),
    fc.record(
      {
        toolCallId: fc.constant(callId),
        status: fc.constantFrom('error', 'ERROR', ' error '),
        errorCode: fc.constantFrom('timeout', ' ', undefined),
        retryable: fc.boolean(),
        errorMessage: fc.oneof(fc.string(), hostile),
        rawError: fc.oneof(fc.constant(undefined), fc.record({ code: fc.string(), message: fc.string() })),
      },
      { requiredKeys: ['toolCallId', 'status'] },
    ),
  );

/** A turn and its hostile edits; the oracle reads the edited turn. */
const turn = fc
  .record({ requested: ids })
  .chain(({ requested }) => fc.record({ requested: fc.constant(requested), resulted: usually(requested) }))
  .chain(({ requested, resulted }) =>
    fc.record({
      requests: fc.constant(requested),
      results: fc.tuple(...resulted.map(resultRow)),
      used: usually(resulted),
      dispositions: fc.array(fc.constantFrom('consumed', 'observed', 'discarded', 'observed_only', 'retry_scheduled'), {
        minLength: 5,
        maxLength: 5,
      }),
      stopReason: fc.oneof(
        { arbitrary: fc.constantFrom('tool_use', 'end_turn', 'pause_turn', 'max_tokens'), weight: 4 },
        { arbitrary: hostile, weight: 1 },
      ),
      continuationAllowed: fc.boolean(),
      idPads: fc.array(id, { minLength: 5, maxLength: 5 }),
      edit: fc.constantFrom(
        'none',
        'none',
        'none',
        'pad',
        'repeat',
        'positional',
        'drop-use',
        'hostile-name',
        'proto-row',
      ),
      hostileText: hostile,
    }),
  )
  .map((t) => {
    const evidence = {
      callSpec,
      toolRequests: t.requests.map((callId) => ({ toolCallId: callId, toolName: 'fs.read' })),
      toolResults: t.results,
      toolUse: t.used.map((callId, i) => ({ toolCallId: callId, disposition: t.dispositions[i] })),
      protocolState: { stopReason: t.stopReason, continuationAllowed: t.continuationAllowed },
    };
    if (t.edit === 'pad' && evidence.toolUse[0] !== undefined) {
      const bare = evidence.toolUse[0].toolCallId;
      evidence.toolUse[0].toolCallId = t.idPads.find((p) => p.trim() === bare) ?? ` ${bare} `;
    }
    if (t.edit === 'repeat' && evidence.toolRequests[0] !== undefined)
      evidence.toolRequests.push({ ...evidence.toolRequests[0] });
    if (t.edit === 'positional' && evidence.toolRequests[0] !== undefined) {
      evidence.toolRequests[0] = [evidence.toolRequests[0].toolCallId, 'fs.read'];
    }
    if (t.edit === 'drop-use') delete evidence.toolUse;
    if (t.edit === 'hostile-name' && evidence.toolRequests[0] !== undefined)
      evidence.toolRequests[0].toolName = t.hostileText;
    if (t.edit === 'proto-row')
      evidence.toolUse = [...(evidence.toolUse ?? []), JSON.parse('{"__proto__": {"toolCallId": "tc-1"}}')];
    return { kind: 'turn', input: { evidence } };
  });

/** Independent oracle: Rust's str::trim via the White_Space property, then set equality of ids. */
function trimOracle(text) {
  const chars = [...text];
  const space = (c) => c !== undefined && /\p{White_Space}/u.test(c);
  while (space(chars[0])) chars.shift();
  while (space(chars.at(-1))) chars.pop();
  return chars.join('');
}
function idSet(rows) {
  const out = new Set();
  for (const row of Array.isArray(rows) ? rows : []) {
    const callId = Array.isArray(row) ? row[0] : Object.hasOwn(row ?? {}, 'toolCallId') ? row.toolCallId : undefined;
    if (typeof callId === 'string' && trimOracle(callId) !== '') out.add(trimOracle(callId));
  }
  return out;
}
const sameSet = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
function oracleClosed(evidence) {
  const requested = idSet(evidence.toolRequests);
  const resulted = idSet(evidence.toolResults);
  return sameSet(requested, resulted) && sameSet(resulted, idSet(evidence.toolUse));
}

/** Mangled JSON text of a turn: truncated, a byte flipped, a character inserted, a BOM, deep nesting. */
const mangled = fc
  .tuple(turn, fc.nat(), fc.constantFrom('truncate', 'flip', 'insert', 'bom', 'deep', 'dupkey', 'bignum'), fc.nat(400))
  .map(([t, at, how, depth]) => {
    const text = JSON.stringify(t.input);
    const i = at % Math.max(1, text.length);
    switch (how) {
      case 'truncate':
        return text.slice(0, i);
      case 'flip': {
        const bytes = Buffer.from(text);
        bytes[i % bytes.length] ^= 0x80;
        return bytes;
      }
      case 'insert':
        return `${text.slice(0, i)}${'\u0000"\\[{,:'[at % 7]}${text.slice(i)}`;
      case 'bom':
        return `\ufeff${text}`;
      case 'deep':
        return text.replace('"payload":', `"payload":${'['.repeat(depth)}${']'.repeat(depth)},"x":`);
      case 'dupkey':
        return text.replace('"toolCallId":', '"toolCallId":"dup","toolCallId":');
      default:
        return text.replace(
          '"continuationAllowed":',
          `"n":1${'0'.repeat(400)}e${at % 2 ? '-' : ''}400,"continuationAllowed":`,
        );
    }
  });

const input = fc.oneof(
  { arbitrary: turn, weight: 12 },
  { arbitrary: mangled.map((bytes) => ({ kind: 'mangled', bytes })), weight: 3 },
  {
    arbitrary: fc.jsonValue({ maxDepth: 5 }).map((value) => ({ kind: 'json', input: { evidence: value } })),
    weight: 2,
  },
  { arbitrary: fc.jsonValue({ maxDepth: 5 }).map((value) => ({ kind: 'json', input: value })), weight: 1 },
  { arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ kind: 'bytes', bytes })), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((bytes) => ({ kind: 'bytes', bytes })), weight: 1 },
);

// ---------------------------------------------------------------------------------------------
// Part 1: the library

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not be printed
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const verdict = (outcome) => (outcome.ok ? renderJoinCheckJson(outcome.value) : `invalid ${outcome.failures[0].field}`);
const counts = {
  inputs: 0,
  crashes: 0,
  hangs: 0,
  wrongAccepts: 0,
  joinMismatches: 0,
  pathMismatches: 0,
  brokenPromises: 0,
  accepted: 0,
  rejected: 0,
  refused: 0,
  closedTurns: 0,
  openTurns: 0,
};
const examples = [];
const note = (what, detail) => {
  if (examples.length < 10) examples.push(`${what}: ${detail}`);
};
let slowest = 0;

function checkOne(sample) {
  const bytes = sample.bytes ?? Buffer.from(JSON.stringify(sample.input));
  const start = performance.now();
  let outcome;
  try {
    outcome = joinCheckText(bytes);
  } catch (error) {
    counts.crashes++;
    note('crash (joinCheckText)', String(error?.stack ?? error).slice(0, 300));
    return;
  }
  const ms = performance.now() - start;
  slowest = Math.max(slowest, ms);
  if (ms > HANG_MS) {
    counts.hangs++;
    note('hang', `${ms.toFixed(0)} ms on ${String(bytes).slice(0, 100)}`);
  }
  if (!outcome.ok) counts.refused++;
  else if (outcome.value.result === 'accepted') counts.accepted++;
  else counts.rejected++;

  if (sample.kind === 'turn' && outcome.ok) {
    const closed = oracleClosed(sample.input.evidence);
    if (closed) counts.closedTurns++;
    else counts.openTurns++;
    if (outcome.value.witness.joinInput.joinClosed !== closed) {
      counts.joinMismatches++;
      note('join verdict differs from the oracle', JSON.stringify(sample.input).slice(0, 300));
    }
    if (outcome.value.result === 'accepted' && !closed) {
      counts.wrongAccepts++;
      note('wrong accept', JSON.stringify(sample.input).slice(0, 300));
    }
  }

  let parsed;
  try {
    parsed = parseJson(bytes);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined) {
    try {
      if (verdict(joinCheck(parsed)) !== verdict(outcome)) {
        counts.pathMismatches++;
        note('text and object paths differ', String(bytes).slice(0, 300));
      }
    } catch (error) {
      counts.crashes++;
      note('crash (joinCheck)', String(error?.stack ?? error).slice(0, 300));
    }
  }

  const json = counts.inputs % 2 === 0;
  let output;
  try {
    output = harnessJoinCheck(bytes, { json, failOnReject: counts.inputs % 3 === 0, inputLabel: 'in\nput\u001b[0m' });
  } catch (error) {
    counts.crashes++;
    note('crash (harnessJoinCheck)', String(error?.stack ?? error).slice(0, 300));
    return;
  }
  const broken =
    ![0, 1, 2].includes(output.exitCode) ||
    (output.exitCode === 2
      ? output.stdout !== '' || output.stderr.indexOf('\n') !== output.stderr.length - 1 || CONTROL.test(output.stderr)
      : output.stderr !== '' || (json ? output.stdout !== verdict(outcome) : CONTROL.test(output.stdout)));
  if (broken) {
    counts.brokenPromises++;
    note('broken output promise', JSON.stringify(output).slice(0, 300));
  }
}

console.log(`turngate fuzz campaign: seed ${SEED}, ${INPUTS.toLocaleString('en-US')} inputs, ${CLI_RUNS} processes\n`);
const libraryStart = performance.now();
const BATCH = 5000;
for (let batch = 0; counts.inputs < INPUTS; batch++) {
  const size = Math.min(BATCH, INPUTS - counts.inputs);
  for (const sample of fc.sample(input, { seed: SEED + batch, numRuns: size })) {
    checkOne(sample);
    counts.inputs++;
  }
}
const librarySeconds = (performance.now() - libraryStart) / 1000;
console.log('Library (joinCheckText, parseJson + joinCheck, harnessJoinCheck):');
console.log(`  inputs tried          ${counts.inputs.toLocaleString('en-US')} in ${librarySeconds.toFixed(1)} s`);
console.log(
  `  verdicts              ${counts.accepted} accepted, ${counts.rejected} rejected, ${counts.refused} refused (exit 2)`,
);
console.log(`  turns vs the oracle   ${counts.closedTurns} closed, ${counts.openTurns} open`);
console.log(`  crashes               ${counts.crashes}`);
console.log(`  hangs (> ${HANG_MS} ms)     ${counts.hangs} (slowest input ${slowest.toFixed(1)} ms)`);
console.log(`  wrong accepts         ${counts.wrongAccepts}`);
console.log(`  join verdict != oracle ${counts.joinMismatches}`);
console.log(`  text != object path   ${counts.pathMismatches}`);
console.log(`  broken output promises ${counts.brokenPromises}`);

// ---------------------------------------------------------------------------------------------
// Part 2: processes

const names = ['turn.json', 'new\nline.json', 'esc\u001b[31m.json', 'bidi\u202e.json', ' spaced .json'];
let processMismatches = 0;
let processCrashes = 0;
const processStart = performance.now();
const processSamples = fc.sample(input, { seed: SEED - 1, numRuns: CLI_RUNS });
processSamples.forEach((sample, i) => {
  const bytes = sample.bytes ?? Buffer.from(JSON.stringify(sample.input));
  const path = join(dir, names[i % names.length]);
  writeFileSync(path, bytes);
  const json = i % 2 === 0;
  const run = spawnSync(process.execPath, [CLI, 'harness-join-check', '--input', path, ...(json ? ['--json'] : [])], {
    env: childEnv,
    maxBuffer: 1 << 30,
  });
  const expected = harnessJoinCheck(bytes, { json, failOnReject: false, inputLabel: path });
  if (run.status === null || run.status > 3) {
    processCrashes++;
    note('process crash', `exit ${run.status} signal ${run.signal}: ${run.stderr.toString().slice(0, 200)}`);
  } else if (
    run.status !== expected.exitCode ||
    run.stdout.toString() !== expected.stdout ||
    run.stderr.toString() !== expected.stderr
  ) {
    processMismatches++;
    note('process differs from the library function', path);
  }
});
console.log('\nProcesses (the bundled CLI against the library function):');
console.log(`  runs                  ${CLI_RUNS} in ${((performance.now() - processStart) / 1000).toFixed(1)} s`);
console.log(`  exits outside 0-3     ${processCrashes}`);
console.log(`  output mismatches     ${processMismatches}`);

// ---------------------------------------------------------------------------------------------
// Part 3: limits

const preload = join(dir, 'peak-rss.mjs');
writeFileSync(
  preload,
  "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.TURNGATE_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
);
function measured(args) {
  const rssFile = join(dir, 'rss.txt');
  rmSync(rssFile, { force: true });
  const start = performance.now();
  const run = spawnSync(process.execPath, ['--import', preload, ...args], {
    env: { ...childEnv, TURNGATE_RSS_FILE: rssFile },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 20,
  });
  const seconds = (performance.now() - start) / 1000;
  let rssMb = Number.NaN;
  try {
    rssMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
  } catch {}
  return { code: run.status, signal: run.signal, seconds, rssMb, stderr: run.stderr.toString().trim() };
}

if (!options['no-limits']) {
  const bare = measured(['-e', '0']);
  const limitBytes = LIMIT_MB * 1024 * 1024;
  const under = limitBytes - 64 * 1024;
  console.log(
    `\nLimits (input just under ${LIMIT_MB} MiB; peak RSS beyond a bare Node's ${bare.rssMb.toFixed(0)} MB):`,
  );
  console.log('  shape                input    exit  time     peak RSS   per input MB');
  const shapes = ['many calls', 'one huge string', 'escaped strings', 'many distinct keys', 'many small numbers'];
  for (const shape of shapes) {
    const path = join(dir, 'shape.json');
    writeShape(path, shape, under);
    const size = readFileSync(path).length;
    const r = measured([CLI, 'harness-join-check', '--input', path, '--json', '--max-input-bytes', String(limitBytes)]);
    rmSync(path);
    const perMb = (r.rssMb - bare.rssMb) / (size / 2 ** 20);
    console.log(
      `  ${shape.padEnd(20)} ${(size / 2 ** 20).toFixed(1).padStart(5)} MB ${String(r.code ?? r.signal).padStart(4)}  ${r.seconds.toFixed(1).padStart(5)} s  ${r.rssMb.toFixed(0).padStart(6)} MB  ${perMb.toFixed(1).padStart(8)} MB`,
    );
    if (r.code !== 0) console.log(`    stderr: ${r.stderr.slice(0, 200)}`);
  }
  const over = join(dir, 'over.json');
  writeShape(over, 'many small numbers', 80 * 1024 * 1024);
  for (const [label, path] of [
    ['80 MB of small numbers', over],
    ['/dev/zero', '/dev/zero'],
  ]) {
    const r = measured([CLI, 'harness-join-check', '--input', path]);
    console.log(
      `  over the default limit: ${label.padEnd(22)} exit ${r.code ?? r.signal} in ${r.seconds.toFixed(2)} s, peak RSS ${r.rssMb.toFixed(0)} MB`,
    );
  }
  rmSync(over);
}

// ---------------------------------------------------------------------------------------------
// Part 4: transcripts

const TRANSCRIPT_INPUTS = Number(options['transcript-inputs']);
const transcriptCounts = { inputs: 0, crashes: 0, hangs: 0, broken: 0 };
let slowestTranscript = 0;
const transcriptStart = performance.now();
const seeds = seedTranscripts(new URL('../conformance/transcripts', import.meta.url).pathname);
const transcriptLib = { checkTranscriptJson, repairTranscriptJson };
for (const input of fc.sample(transcriptInput(fc, seeds), { seed: SEED, numRuns: TRANSCRIPT_INPUTS })) {
  transcriptCounts.inputs++;
  const started = performance.now();
  const broken = violations(transcriptLib, input);
  const ms = performance.now() - started;
  slowestTranscript = Math.max(slowestTranscript, ms);
  if (ms > HANG_MS) transcriptCounts.hangs++;
  if (broken.some((b) => b.includes(' threw: '))) transcriptCounts.crashes++;
  else if (broken.length > 0) transcriptCounts.broken++;
  if (broken.length > 0 && examples.length < 10)
    examples.push(
      `transcripts ${input.format}: ${broken[0].slice(0, 300)} <- ${JSON.stringify(input.value).slice(0, 300)}`,
    );
}
console.log('\nTranscripts (checkTranscriptJson, repairTranscriptJson, every format):');
console.log(
  `  inputs tried          ${transcriptCounts.inputs.toLocaleString('en-US')} in ${((performance.now() - transcriptStart) / 1000).toFixed(1)} s`,
);
console.log(`  crashes               ${transcriptCounts.crashes}`);
console.log(
  `  hangs (> ${HANG_MS} ms)     ${transcriptCounts.hangs} (slowest input ${slowestTranscript.toFixed(1)} ms)`,
);
console.log(`  broken properties     ${transcriptCounts.broken}`);

// ---------------------------------------------------------------------------------------------
// Part 5: Tusk

const tusk = { inputs: 0, crashes: 0, hangs: 0, broken: 0, lost: 0, spuriousRefusals: 0, errors: 0, strays: 0 };
let slowestTusk = 0;
const tuskStart = performance.now();
const tuskCommands = {
  'harness-session': harnessSessionCommand,
  'harness-trajectory': harnessTrajectoryCommand,
  'harness-kpi': harnessKpiCommand,
};
const tuskDir = mkdtempSync(join(dir, 'tusk-'));
for (const input of fc.sample(tuskCommandInput(fc), { seed: SEED, numRuns: Number(options['tusk-inputs']) })) {
  const runDir = mkdtempSync(join(tuskDir, `${tusk.inputs++}-`));
  const started = performance.now();
  const broken = await commandViolations(tuskCommands, input, runDir);
  const ms = performance.now() - started;
  slowestTusk = Math.max(slowestTusk, ms);
  rmSync(runDir, { recursive: true, force: true });
  if (ms > HANG_MS) tusk.hangs++;
  if (broken.some((b) => b.startsWith('threw: '))) tusk.crashes++;
  else if (broken.length > 0) tusk.broken++;
  if (broken.length > 0)
    note(`tusk ${input.command}`, `${broken[0].slice(0, 300)} <- ${JSON.stringify(input.args).slice(0, 300)}`);
}
console.log('\nTusk commands (harness-session, harness-trajectory, harness-kpi on hostile flag values):');
console.log(
  `  inputs tried          ${tusk.inputs.toLocaleString('en-US')} in ${((performance.now() - tuskStart) / 1000).toFixed(1)} s`,
);
console.log(`  crashes               ${tusk.crashes}`);
console.log(`  hangs (> ${HANG_MS} ms)     ${tusk.hangs} (slowest input ${slowestTusk.toFixed(1)} ms)`);
console.log(`  broken promises       ${tusk.broken}`);

const cpuPreload = join(dir, 'cpu.mjs');
writeFileSync(
  cpuPreload,
  "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.resourceUsage(); writeFileSync(process.env.TURNGATE_CPU_FILE, String((u.userCPUTime + u.systemCPUTime) / 1e6)); });\n",
);
const cpuFile = join(dir, 'cpu.txt');
const longState = spawnSync(
  process.execPath,
  [
    '--import',
    cpuPreload,
    CLI,
    'harness-session',
    'write',
    '--path',
    join(tuskDir, 's.json'),
    '--state',
    ' '.repeat(131_000),
  ],
  { env: { ...childEnv, TURNGATE_CPU_FILE: cpuFile }, encoding: 'utf8' },
);
console.log(
  `  131,000-character --state: exit ${longState.status}, ${Number(readFileSync(cpuFile, 'utf8')).toFixed(2)} s of CPU, stderr ${longState.stderr.length.toLocaleString('en-US')} characters`,
);

const tuskLib = { readTrajectory, repairTrajectory };
const ROUNDS = Number(options['tusk-rounds']);
const plain = { acknowledged: 0, lost: 0, refused: 0, moved: 0, repairs: 0 };
const plainStart = performance.now();
for (let round = 0; round < ROUNDS; round++) {
  const sizes = rowSizes(fc, { seed: SEED + round, appenders: 2, rows: 35, large: 1 });
  const r = await appendersAndRepair(tuskLib, { dir: mkdtempSync(join(tuskDir, 'plain-')), sizes });
  for (const key of Object.keys(plain)) plain[key] += r[key];
  tusk.errors += r.errors.length;
  if (r.errors.length > 0) note('tusk appender failed', r.errors[0]);
}
tusk.lost += plain.lost;
tusk.spuriousRefusals += plain.refused + plain.moved;
console.log('\nTusk trajectory (processes of dist/tusk on one file):');
console.log(
  `  appenders + repairer  ${plain.lost} of ${plain.acknowledged} acknowledged rows lost, ${plain.refused} refusals, ${plain.moved} tails moved aside, ${plain.repairs} repairs (${ROUNDS} rounds of 2 x 35 rows up to 4 MiB, ${((performance.now() - plainStart) / 1000).toFixed(1)} s)`,
);

const LARGE = Number(options['tusk-large-rows']);
if (LARGE > 0) {
  const largeStart = performance.now();
  const sizes = [Array(LARGE).fill(4 << 20), Array(LARGE).fill(4 << 20)];
  const largeDir = mkdtempSync(join(tuskDir, 'large-'));
  const r = await appendersAndRepair(tuskLib, { dir: largeDir, sizes, repair: false });
  rmSync(largeDir, { recursive: true, force: true });
  tusk.lost += r.lost;
  tusk.spuriousRefusals += r.refused;
  tusk.errors += r.errors.length;
  console.log(
    `  4 MiB rows            ${r.refused} refusals of ${2 * LARGE} appends, ${r.lost} of ${r.acknowledged} acknowledged rows lost (2 appenders, ${((performance.now() - largeStart) / 1000).toFixed(1)} s)`,
  );
}

const killed = { acknowledged: 0, lost: 0, duplicated: 0, moved: 0, tornAfter: 0 };
for (let round = 0; round < ROUNDS; round++) {
  const sizes = rowSizes(fc, { seed: SEED + 100 + round, appenders: 3, rows: 30, large: 0 });
  const r = await appendersAndRepair(tuskLib, {
    dir: mkdtempSync(join(tuskDir, 'killed-')),
    sizes,
    kill: [round % 3],
    killAfter: 5 + ((round * 7) % 20),
  });
  for (const key of Object.keys(killed)) killed[key] += r[key];
  tusk.errors += r.errors.length;
  if (r.errors.length > 0) note('tusk appender failed', r.errors[0]);
}
tusk.lost += killed.lost + killed.duplicated + killed.tornAfter;
console.log(
  `  one appender killed   ${killed.lost} of ${killed.acknowledged} acknowledged rows lost, ${killed.duplicated} duplicated, ${killed.moved} torn lines moved aside, ${killed.tornAfter} left torn (${ROUNDS} rounds, SIGKILL)`,
);

const KILLS = Number(options['tusk-kills']);
if (KILLS > 0) {
  const [after, pauses] = fc.sample(
    fc.tuple(
      fc.array(fc.integer({ min: 1, max: 8 }), { minLength: KILLS, maxLength: KILLS }),
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: KILLS, maxLength: KILLS }),
    ),
    { seed: SEED, numRuns: 1 },
  )[0];
  const r = await killedSessionWriters(
    { writeSession },
    { dir: mkdtempSync(join(tuskDir, 'session-')), after, pauses },
  );
  tusk.strays += r.afterNextWrite + Math.max(0, r.maxStrays - 1);
  console.log(
    `  session writers       ${r.kills} killed: at most ${r.maxStrays} stray temp file(s) at a time, ${r.afterKills} after the kills, ${r.afterNextWrite} after the next write`,
  );
}

if (examples.length > 0) console.log(`\nFirst findings:\n  ${examples.join('\n  ')}`);
rmSync(dir, { recursive: true, force: true });
const failed = counts.crashes + counts.hangs + counts.wrongAccepts + counts.joinMismatches + counts.pathMismatches;
const transcriptFailed = transcriptCounts.crashes + transcriptCounts.hangs + transcriptCounts.broken;
const tuskFailed =
  tusk.crashes + tusk.hangs + tusk.broken + tusk.lost + tusk.spuriousRefusals + tusk.errors + tusk.strays;
process.exitCode =
  failed + counts.brokenPromises + processCrashes + processMismatches + transcriptFailed + tuskFailed > 0 ? 1 : 0;
