// Processes against the Tusk harness files, shared by the tests (test/tusk-lock.test.ts,
// test/tusk-fuzz.test.ts) and the release-check campaign (scripts/fuzz-campaign.mjs). Each
// child process runs the built package (dist/tusk/). Plain JavaScript so both can import it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The built Tusk modules the children import. */
export const DIST = join(import.meta.dirname, '..', 'dist', 'tusk');

const module = (name) => JSON.stringify(pathToFileURL(join(DIST, name)).href);

/** Starts `node` on an ES module body; resolves when it exits: `{ status, signal, stdout, stderr }`. */
export function startChild(body, { stdin = 'ignore' } = {}) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', body], {
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => {
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, exited, output: () => stdout };
}

/**
 * A child that takes the trajectory lock the way an appender does, writes the first half of a
 * real row's line (`stepId`) and then waits: `finish()` makes it write the rest, fsync and
 * release the lock; with `kill: true` it kills itself with SIGKILL instead (the lock and the
 * half line stay behind, as a crash leaves them). Resolves once the half line is on disk.
 */
export async function holdLockMidLine(path, stepId, { kill = false } = {}) {
  const body = `
import { withProcessLock } from ${module('file-lock.js')};
import { normalizeTrajectoryRow, renderTrajectoryLine } from ${module('trajectory.js')};
import * as fs from 'node:fs';
const path = ${JSON.stringify(path)};
const line = Buffer.from(renderTrajectoryLine(normalizeTrajectoryRow({ stepId: ${JSON.stringify(stepId)},
  action: 'harness.step', resultClass: 'completed', finishedAt: '2026-02-22T01:00:00Z' })));
const half = Math.floor(line.length / 2);
await withProcessLock(path, async () => {
  const fd = fs.openSync(path, 'a');
  fs.writeSync(fd, line, 0, half);
  ${kill ? "process.kill(process.pid, 'SIGKILL');" : ''}
  process.stdout.write('ready\\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  fs.writeSync(fd, line, half);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
});
process.stdout.write('done\\n');
process.exit(0);
`;
  const { child, exited, output } = startChild(body, { stdin: 'pipe' });
  if (kill) {
    const end = await exited;
    if (end.signal !== 'SIGKILL') throw new Error(`the lock holder did not die as planned: ${end.stderr}`);
    return { pid: child.pid, signal: end.signal, finish: async () => {} };
  }
  await new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      if (output().includes('ready\n')) resolve();
    });
    exited.then((end) => reject(new Error(`the lock holder exited early: ${end.stderr}`)));
  });
  return {
    pid: child.pid,
    signal: null,
    finish: async () => {
      child.stdin.end('go\n');
      const end = await exited;
      if (end.status !== 0) throw new Error(`the lock holder failed: ${end.stderr}`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The commands: hostile argument values through the command functions

/** What no printed line may hold raw: Unicode's controls, Bidi_Control, the separators, lone surrogates. */
export const RAW = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]|\p{Cs}/u;
/** The longest line a command may print: 1,000 code units of a value, each escaped as at most 6, plus labels. */
export const MAX_LINE = 6_200;

const HOSTILE = [
  '\u001b[2J\u001b]0;pwned\u0007',
  '\r\n::error::forged',
  '\u202eevil\u2066',
  '\u200e\u200f\u061c',
  '\u0085\u009b31m',
  '\ud800',
  ' '.repeat(20_000),
  `${' '.repeat(5_000)}\n`,
  'x'.repeat(5_000),
];

/**
 * A Tusk command line: `{ command, args }`, the flags' values drawn from hostile text, arbitrary
 * text and valid values; `{dir}` in a value stands for a fresh directory of the run.
 */
export function tuskCommandInput(fc) {
  const text = fc.oneof(
    { arbitrary: fc.constantFrom(...HOSTILE), weight: 3 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
    { arbitrary: fc.constantFrom('bd-7', 'w1.bd-7.1', 'completed', 'retry_needed_flaky', 'active'), weight: 2 },
  );
  const value = (valid) => fc.oneof({ arbitrary: fc.constantFrom(...valid), weight: 2 }, { arbitrary: text, weight: 1 });
  const path = fc.oneof(
    { arbitrary: fc.constant('{dir}/file'), weight: 3 },
    { arbitrary: text.map((t) => `{dir}/${t.replaceAll('/', '_').slice(0, 200)}`), weight: 1 },
  );
  const time = value(['2026-02-22T01:00:00Z', '2026-02-22T01:00:00+01:00']);
  const flag = (name, arb) => fc.option(arb.map((v) => [`--${name}`, v]), { nil: undefined, freq: 2 });
  const command = (name, verbs, flags) =>
    fc
      .tuple(fc.constantFrom(...verbs), fc.tuple(...flags), fc.boolean(), fc.option(text, { nil: undefined, freq: 6 }))
      .map(([verb, given, json, stray]) => ({
        command: name,
        args: [
          ...(verb === '' ? [] : [verb]),
          ...given.flatMap((pair) => pair ?? []),
          ...(json ? ['--json'] : []),
          ...(stray === undefined ? [] : [stray]),
        ],
      }));
  return fc.oneof(
    command(
      'harness-session',
      ['write', 'read', 'bootstrap'],
      [
        fc.constant(['--path', '{dir}/session.json']),
        flag('state', value(['active', 'stopped'])),
        flag('issue-id', text),
        flag('summary', text),
        flag('next-step', text),
        flag('witness-ref', text),
        flag('now', time),
        flag('issues', path),
      ],
    ),
    command(
      'harness-trajectory',
      ['append', 'query', 'repair'],
      [
        fc.constant(['--path', '{dir}/trajectory.jsonl']),
        flag('step-id', text),
        flag('action', text),
        flag('result-class', value(['completed', 'failed_x'])),
        flag('issue-id', text),
        flag('finished-at', time),
        flag('mode', value(['latest', 'failed', 'retry-needed'])),
        flag('limit', value(['1', '20'])),
      ],
    ),
    command(
      'harness-kpi',
      [''],
      [
        fc.constant(['--trajectory-path', '{dir}/trajectory.jsonl']),
        flag('window-hours', value(['24', '1'])),
        flag('window-end', time),
        flag('target-kpi', value(['0.8'])),
      ],
    ),
  );
}

/**
 * What breaks the commands' output promises for one input: a throw, an exit code outside 0-2,
 * more than one stderr line, a raw control character or an unbounded line in human output,
 * `--json` output that does not parse. `commands` maps command names to their functions.
 *
 * @returns The broken promises, as text (empty when all hold).
 */
export async function commandViolations(commands, input, dir) {
  const args = input.args.map((arg) => arg.replaceAll('{dir}', dir));
  let output;
  try {
    output = await commands[input.command](args);
  } catch (error) {
    return [`threw: ${String(error?.stack ?? error).slice(0, 300)}`];
  }
  const broken = [];
  if (![0, 1, 2].includes(output.exitCode)) broken.push(`exit ${output.exitCode}`);
  if (output.stderr !== '' && output.stderr.indexOf('\n') !== output.stderr.length - 1)
    broken.push('stderr is not one line');
  const json = args.includes('--json') && output.exitCode === 0;
  for (const [name, text] of [
    ['stderr', output.stderr],
    ['stdout', json ? '' : output.stdout],
  ]) {
    if (text !== '' && !text.endsWith('\n')) broken.push(`${name} does not end its last line`);
    for (const line of text.split('\n')) {
      if (RAW.test(line)) broken.push(`${name} has a raw control character: ${JSON.stringify(line.slice(0, 200))}`);
      if (line.length > MAX_LINE) broken.push(`${name} has a line of ${line.length} code units`);
    }
  }
  if (json) {
    try {
      JSON.parse(output.stdout);
    } catch {
      broken.push('--json output does not parse');
    }
  }
  return broken;
}

// ---------------------------------------------------------------------------------------------
// The files: concurrent appenders, a repairer, kill -9

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Row sizes (bytes of padding in a witness ref) for each appender: mostly small, some of 1-64 KiB,
 * and `large` ones of 1-4 MiB; drawn from `seed`.
 */
export function rowSizes(fc, { seed, appenders, rows, large }) {
  const size = fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 300 }), weight: 6 },
    { arbitrary: fc.integer({ min: 1024, max: 65536 }), weight: 3 },
    { arbitrary: fc.integer({ min: 1 << 20, max: 4 << 20 }), weight: large },
  );
  return fc.sample(fc.array(size, { minLength: rows, maxLength: rows }), { seed, numRuns: appenders });
}

function appenderBody(path, worker, sizes) {
  return `
import { appendTrajectoryRow } from ${module('trajectory-store.js')};
const sizes = ${JSON.stringify(sizes)};
for (let i = 0; i < sizes.length; i++) {
  const stepId = 'w${worker}.' + i;
  const witnessRefs = sizes[i] === 0 ? undefined : ['ref://' + 'x'.repeat(sizes[i])];
  for (;;) {
    try {
      await appendTrajectoryRow(${JSON.stringify(path)}, { stepId, action: 'a', resultClass: 'completed', witnessRefs, finishedAt: '2026-02-22T01:00:00Z' });
      process.stdout.write('ack ' + stepId + '\\n');
      break;
    } catch (error) {
      if (error.name !== 'TrajectoryTornTailError') throw error;
      process.stdout.write('refused ' + stepId + '\\n');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}
`;
}

function repairerBody(path, stop) {
  return `
import { repairTrajectory } from ${module('trajectory-store.js')};
import { existsSync } from 'node:fs';
let repairs = 0;
while (!existsSync(${JSON.stringify(stop)})) {
  const done = await repairTrajectory(${JSON.stringify(path)});
  repairs++;
  if (done.savedTo !== undefined) process.stdout.write('moved ' + done.savedTo + '\\n');
}
process.stdout.write('repairs ' + repairs + '\\n');
`;
}

/**
 * Appender processes (one per entry of `sizes`) appending to one trajectory while a repairer
 * process repairs it in a loop (when `repair`), the appenders in `kill` killed with SIGKILL after
 * acknowledging `killAfter` rows; then one last repair and a read (`readTrajectory`, `repairTrajectory`
 * the caller's). An appender refused by a torn tail waits and tries the row again.
 *
 * @returns Counts: rows acknowledged, acknowledged rows lost or present twice, refusals, rows
 *   read, tails moved aside, repairs, and the first errors.
 */
export async function appendersAndRepair(lib, { dir, sizes, repair = true, kill = [], killAfter = 0 }) {
  const path = join(dir, 'harness_trajectory.jsonl');
  const stop = join(dir, 'stop');
  const repairer = repair ? startChild(repairerBody(path, stop)) : undefined;
  const appenders = sizes.map((rows, worker) => startChild(appenderBody(path, worker, rows)));
  for (const worker of kill) {
    const { child, output } = appenders[worker];
    await new Promise((resolve) => {
      const check = () => {
        if ((output().match(/^ack /gm) ?? []).length >= killAfter) {
          child.kill('SIGKILL');
          resolve();
        }
      };
      child.stdout.on('data', check);
      child.on('close', resolve);
      check();
    });
  }
  const ends = await Promise.all(appenders.map((a) => a.exited));
  const { writeFileSync } = await import('node:fs');
  writeFileSync(stop, '');
  const repairEnd = repairer === undefined ? { stdout: '', stderr: '', status: 0 } : await repairer.exited;
  const last = await lib.repairTrajectory(path);
  const read = await lib.readTrajectory(path);
  const acknowledged = ends.flatMap((end) => [...end.stdout.matchAll(/^ack (\S+)$/gm)].map((m) => m[1]));
  const counts = new Map();
  for (const row of read.rows) counts.set(row.stepId, (counts.get(row.stepId) ?? 0) + 1);
  const errors = [...ends, repairEnd]
    .filter((end, i) => end.status !== 0 && !(kill.includes(i) && end.signal === 'SIGKILL'))
    .map((end) => end.stderr.slice(0, 300));
  return {
    acknowledged: acknowledged.length,
    lost: acknowledged.filter((id) => !counts.has(id)).length,
    duplicated: [...counts.values()].filter((n) => n > 1).length,
    refused: ends.reduce((n, end) => n + (end.stdout.match(/^refused /gm) ?? []).length, 0),
    rows: read.rows.length,
    tornAfter: read.tornTail === undefined ? 0 : 1,
    moved: (repairEnd.stdout.match(/^moved /gm) ?? []).length + (last.savedTo === undefined ? 0 : 1),
    repairs: Number(/^repairs (\d+)$/m.exec(repairEnd.stdout)?.[1] ?? 0),
    errors,
  };
}

/**
 * `kills` session writer processes, each writing the session in a loop and killed with SIGKILL
 * after `after[i]` acknowledged writes (plus a pause of `pauses[i]` ms, so the kill lands
 * anywhere in a write). Counts the stray temp files after the kills, then after one more
 * write (`writeSession`, the caller's).
 */
export async function killedSessionWriters(lib, { dir, after, pauses }) {
  const { readdirSync } = await import('node:fs');
  const path = join(dir, 'harness_session.json');
  const strays = () => readdirSync(dir).filter((name) => /^\.harness_session\.json\.\d+\.[0-9a-f]{12}\.tmp$/.test(name));
  const body = `
import { writeSession } from ${module('session-store.js')};
for (let i = 0; ; i++) {
  await writeSession(${JSON.stringify(path)}, { state: 'active', summary: 'write ' + i, issuesPath: ${JSON.stringify(join(dir, 'none.jsonl'))} });
  process.stdout.write('w\\n');
}
`;
  let maxStrays = 0;
  for (let i = 0; i < after.length; i++) {
    const { child, exited, output } = startChild(body);
    await new Promise((resolve) => {
      const check = () => {
        if (output().length >= 2 * after[i]) {
          child.stdout.off('data', check);
          sleep(pauses[i]).then(() => {
            child.kill('SIGKILL');
            resolve();
          });
        }
      };
      child.stdout.on('data', check);
      child.on('close', resolve);
    });
    await exited;
    maxStrays = Math.max(maxStrays, strays().length);
  }
  const afterKills = strays().length;
  await lib.writeSession(path, { state: 'stopped', issuesPath: join(dir, 'none.jsonl') });
  return { kills: after.length, maxStrays, afterKills, afterNextWrite: strays().length };
}
