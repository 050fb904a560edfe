/**
 * The effect ledger across processes, for any durable store: a replayed reply in a new process,
 * processes answering the same calls at once, and a process killed between `started` and
 * `completed`; and the contract every durable ledger keeps (`ledgerContract`). Run by
 * test/effect-ledger.test.ts (SQLite), src/tusk/effect-ledger.test.ts (files) and
 * test/postgres/effect-ledger.test.ts (PostgreSQL); the children (test/fixtures/effect-once.mjs)
 * need dist/.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { EffectLedger } from '../src/index.ts';

const child = new URL('./fixtures/effect-once.mjs', import.meta.url).pathname;
const env = { ...process.env, NODE_EXTRA_CA_CERTS: '' };

interface Answer {
  readonly id: string;
  readonly outcome: string;
  readonly answer: { status: string; output?: unknown; error?: { errorCode: string; errorMessage: string } };
}

const parse = (stdout: string): Answer[] =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Answer);

/** How many times each call's effect ran, from the children's log. */
function runsPerCall(log: string): Map<string, number> {
  const runs = new Map<string, number>();
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    return runs;
  }
  for (const line of text.split('\n')) {
    const id = line.split(' ')[0];
    if (id) runs.set(id, (runs.get(id) ?? 0) + 1);
  }
  return runs;
}

/** Runs every case against a store reached by `args` (`[kind, where, prefix]`); returns the measured counts. */
export async function effectsRunOnce(
  args: readonly [string, string, string],
  processes: number,
  calls: number,
): Promise<{ replay: number; concurrent: { calls: number; maxRuns: number }; crash: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'turngate-effects-'));
  const log = join(dir, 'effects.log');
  try {
    // A replayed reply: the same calls answered again by a new process (a restart).
    const first = parse(execFileSync(process.execPath, [child, ...args, log, 'replay-1'], { encoding: 'utf8', env }));
    const again = parse(execFileSync(process.execPath, [child, ...args, log, 'replay-1'], { encoding: 'utf8', env }));
    expect(first.map((a) => a.outcome)).toEqual(['performed']);
    expect(again.map((a) => a.outcome)).toEqual(['replayed']);
    expect(again[0]?.answer).toEqual(first[0]?.answer);
    const replay = runsPerCall(log).get('replay-1') ?? 0;
    expect(replay).toBe(1);

    // Several processes answering the same calls at the same time.
    const ids = Array.from({ length: calls }, (_, i) => `race-${i}`).join(',');
    const run = promisify(execFile);
    const outputs = await Promise.all(
      Array.from({ length: processes }, () => run(process.execPath, [child, ...args, log, ids], { env })),
    );
    const answers = outputs.flatMap((o) => parse(o.stdout));
    expect(answers).toHaveLength(processes * calls);
    const runs = runsPerCall(log);
    let maxRuns = 0;
    for (let i = 0; i < calls; i++) {
      const n = runs.get(`race-${i}`) ?? 0;
      expect(n).toBe(1);
      maxRuns = Math.max(maxRuns, n);
    }
    for (const a of answers) {
      if (a.outcome === 'performed' || a.answer.status === 'ok')
        expect(a.answer).toEqual({ ...a.answer, status: 'ok' });
      else expect(a.answer.error?.errorCode).toBe('effect_outcome_unknown');
    }

    // kill -9 between started and completed, then a restart (lease 0: the claim is stale at once).
    const killed = spawnSync(process.execPath, [child, ...args, log, 'crash-1', 'crash'], { encoding: 'utf8', env });
    expect(killed.signal).toBe('SIGKILL');
    const after = parse(
      execFileSync(process.execPath, [child, ...args, log, 'crash-1', 'run', '0'], { encoding: 'utf8', env }),
    );
    expect(after.map((a) => a.outcome)).toEqual(['replayed']);
    expect(after[0]?.answer.error?.errorCode).toBe('effect_outcome_unknown');
    expect(after[0]?.answer.error?.errorMessage).toMatch(/process ended before an outcome was recorded/);
    const crash = runsPerCall(log).get('crash-1') ?? 0;
    expect(crash).toBe(1);
    return { replay, concurrent: { calls, maxRuns }, crash };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The keys the contract claims (one record each). */
export const contractKeys = ['sha256:abc', 'sha256:def', 'sha256:claimant', 'sha256:untokened', 'sha256:ended'];

/** The effect every contract case claims. */
export const effectEntry = {
  key: 'sha256:abc',
  toolCallId: 'toolu_05',
  toolName: 'send_email',
  inputDigest: 'sha256:0',
  joinSetDigest: 'sha256:1',
};

/**
 * The contract of a durable effect ledger (the SQLite, PostgreSQL and file ledgers): a claim is
 * taken once; a claim with no end reads `started` within its lease and `unknown_after_crash`
 * after it; an end is recorded once; a ledger opened again on the same storage reads it.
 *
 * @param open - Opens a ledger on the test's storage with a lease of 500 ms and the given clock.
 */
export async function ledgerContract(
  open: (options: { leaseMs: number; now: () => number }) => EffectLedger,
): Promise<void> {
  let clock = 10_000;
  const ledger = open({ leaseMs: 500, now: () => clock });
  expect(await ledger.read(effectEntry.key)).toBeUndefined();
  expect(await ledger.begin(effectEntry)).toEqual({ claimed: true });
  expect(await ledger.begin(effectEntry)).toEqual({ claimed: false, record: { ...effectEntry, state: 'started' } });
  clock += 500;
  expect((await ledger.read(effectEntry.key))?.state).toBe('started');
  clock += 1;
  expect(await ledger.begin(effectEntry)).toMatchObject({ claimed: false, record: { state: 'unknown_after_crash' } });
  await ledger.finish(effectEntry.key, { state: 'completed', output: { sent: true } });
  // An end is recorded once: a second finish does not overwrite it.
  await ledger.finish(effectEntry.key, {
    state: 'failed',
    error: { errorCode: 'x', retryable: false, errorMessage: 'x' },
  });
  const reopened = open({ leaseMs: 500, now: () => clock });
  expect(await reopened.read(effectEntry.key)).toEqual({ ...effectEntry, state: 'completed', output: { sent: true } });
  const failed = { ...effectEntry, key: 'sha256:def' };
  await reopened.begin(failed);
  await reopened.finish(failed.key, {
    state: 'failed',
    error: { errorCode: 'smtp', retryable: true, errorMessage: '554' },
  });
  expect(await open({ leaseMs: 500, now: () => clock }).read(failed.key)).toEqual({
    ...failed,
    state: 'failed',
    error: { errorCode: 'smtp', retryable: true, errorMessage: '554' },
  });
  await claimantContract(open, clock);
}

/**
 * The claimant part of the contract: a claim records its claimant token; a `begin` with the same
 * token resumes it while it is `started` (also from another ledger object on the same storage:
 * the token names the claim, not the object), any other `begin` reads it; after the lease, or
 * once ended, nobody resumes it.
 */
async function claimantContract(
  open: (options: { leaseMs: number; now: () => number }) => EffectLedger,
  start: number,
): Promise<void> {
  let clock = start;
  const ledger = open({ leaseMs: 500, now: () => clock });
  const entry = { ...effectEntry, key: 'sha256:claimant' };
  const started = { claimed: false, record: { ...entry, state: 'started' } };
  expect(await ledger.begin(entry, 'claim-1')).toEqual({ claimed: true });
  // The same claimant's retry (its first answer lost) resumes the claim; others read it.
  expect(await ledger.begin(entry, 'claim-1')).toEqual({ claimed: true });
  expect(await open({ leaseMs: 500, now: () => clock }).begin(entry, 'claim-1')).toEqual({ claimed: true });
  expect(await ledger.begin(entry, 'claim-2')).toEqual(started);
  expect(await ledger.begin(entry)).toEqual(started);
  // A claim without a token is never resumed.
  const untokened = { ...entry, key: 'sha256:untokened' };
  expect(await ledger.begin(untokened)).toEqual({ claimed: true });
  expect(await ledger.begin(untokened)).toEqual({ claimed: false, record: { ...untokened, state: 'started' } });
  // After the lease the claim reads unknown_after_crash, to its claimant too.
  clock += 501;
  expect(await ledger.begin(entry, 'claim-1')).toEqual({
    claimed: false,
    record: { ...entry, state: 'unknown_after_crash' },
  });
  // An ended claim is read, never resumed.
  const ended = { ...entry, key: 'sha256:ended' };
  expect(await ledger.begin(ended, 'claim-3')).toEqual({ claimed: true });
  await ledger.finish(ended.key, { state: 'completed', output: 1 });
  expect(await ledger.begin(ended, 'claim-3')).toEqual({
    claimed: false,
    record: { ...ended, state: 'completed', output: 1 },
  });
}
