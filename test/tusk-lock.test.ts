/**
 * The trajectory's lock across processes: appends, reads and repairs take one lock file
 * (`<file>.lock`), so none of them judges a line torn while another process is still writing it
 * (findings 1 and 2 of issue 23); a lock whose holder was killed is broken, and a line the holder
 * tore is then reported, refused and repaired; a repair never writes over an earlier saved-aside
 * tail. The other process runs the built package (`npm run build` first).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir, uptime } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  TrajectoryLockTimeoutError,
  TrajectoryTornTailError,
  appendTrajectoryRow,
  readTrajectory,
  repairTrajectory,
} from '../src/tusk/index.ts';
import { withProcessLock } from '../src/tusk/file-lock.ts';
import { failed } from '../src/cli/harness-common.ts';
import { DIST, holdLockMidLine } from './tusk-fuzz.mjs';

beforeAll(() => {
  if (!existsSync(join(DIST, 'file-lock.js'))) throw new Error('dist/tusk is missing: run `npm run build` first');
});

const dir = () => mkdtempSync(join(tmpdir(), 'turngate-lock-'));
const row = (stepId: string) => ({ stepId, action: 'harness.step', resultClass: 'completed' });
const savedAside = (root: string) => readdirSync(root).filter((name) => name.includes('.torn-'));

describe('an appender in another process holds the lock in the middle of a line', () => {
  it('repair, read and append wait for it: nothing is moved aside, refused or lost', async () => {
    const root = dir();
    const path = join(root, 'harness_trajectory.jsonl');
    await appendTrajectoryRow(path, row('w1.bd-1.1'));
    const holder = await holdLockMidLine(path, 'w2.bd-2.1');
    // The half line is on disk, as another process sees a large write in progress.
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(false);

    const repair = repairTrajectory(path);
    const read = readTrajectory(path);
    const append = appendTrajectoryRow(path, row('w1.bd-3.1')).catch((e: unknown) => e);
    // Give them time to find the half line (a file without the lock would be judged torn by then);
    // what they return does not depend on how long this is.
    await sleep(200);
    await holder.finish();

    expect(await repair).toEqual({});
    const seen = await read;
    expect(seen.tornTail).toBeUndefined();
    expect(seen.rows.map((r) => r.stepId)).toContain('w2.bd-2.1');
    expect(await append).toMatchObject({ stepId: 'w1.bd-3.1' });
    expect((await readTrajectory(path)).rows.map((r) => r.stepId)).toEqual(['w1.bd-1.1', 'w2.bd-2.1', 'w1.bd-3.1']);
    expect(savedAside(root)).toEqual([]);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('a lock held past the wait is an error naming the file, the lock and its holder', async () => {
    const root = dir();
    const path = join(root, 'harness_trajectory.jsonl');
    const holder = await holdLockMidLine(path, 'w2.bd-2.1');
    const error = await withProcessLock(path, async () => 'ran', 50).catch((e: unknown) => e);
    await holder.finish();
    expect(error).toBeInstanceOf(TrajectoryLockTimeoutError);
    const timeout = error as TrajectoryLockTimeoutError;
    expect([timeout.code, timeout.path, timeout.lockPath, timeout.holder?.pid]).toEqual([
      'ELOCKED',
      path,
      `${path}.lock`,
      holder.pid,
    ]);
    expect(timeout.message).toContain(`pid ${holder.pid}`);
    expect(timeout.message).toContain(`remove ${path}.lock`);
    expect(await withProcessLock(path, async () => 'ran', 50)).toBe('ran');
  });
});

describe('the commands and a lock kept past the wait', () => {
  it('exit 1 with one line naming the lock file and its holder', () => {
    const error = new TrajectoryLockTimeoutError(
      't\u001b.jsonl',
      't\u001b.jsonl.lock',
      { pid: 7, host: 'ci-7', acquiredAt: '2026-02-22T01:00:00.000Z' },
      30_000,
    );
    expect(failed('harness_trajectory_invalid:', error)).toEqual({
      stdout: '',
      stderr:
        'harness_trajectory_invalid: t\\u001b.jsonl is locked by another process (pid 7 on host ci-7, since ' +
        '2026-02-22T01:00:00.000Z): waited 30000 ms for t\\u001b.jsonl.lock; if that process is no longer running, ' +
        'remove t\\u001b.jsonl.lock\n',
      exitCode: 1,
    });
  });
});

describe('lock files left behind', () => {
  const lockOf = (fields: Record<string, unknown>) =>
    `${JSON.stringify({ host: hostname(), boot: Math.round(Date.now() / 1000 - uptime()), nonce: '0', ...fields })}\n`;

  it('are broken when not a lock, or left by an earlier process with this pid (a restarted container)', async () => {
    const path = join(dir(), 'harness_trajectory.jsonl');
    const before = new Date(Date.now() - process.uptime() * 1000 - 60_000).toISOString();
    for (const left of ['', '{"pid":', lockOf({ pid: process.pid, acquiredAt: before })]) {
      writeFileSync(`${path}.lock`, left);
      expect(await withProcessLock(path, async () => readFileSync(`${path}.lock`, 'utf8'), 50)).not.toBe(left);
      expect(existsSync(`${path}.lock`)).toBe(false);
    }
  });

  it('are waited for when their holder may be alive (it ran on another host), then reported with it', async () => {
    const path = join(dir(), 'harness_trajectory.jsonl');
    writeFileSync(`${path}.lock`, lockOf({ pid: 1, host: 'elsewhere', acquiredAt: '2026-02-22T01:00:00.000Z' }));
    const error = await withProcessLock(path, async () => 'ran', 50).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrajectoryLockTimeoutError);
    expect((error as TrajectoryLockTimeoutError).holder).toEqual({
      pid: 1,
      host: 'elsewhere',
      acquiredAt: '2026-02-22T01:00:00.000Z',
    });
    expect((error as Error).message).toContain('pid 1 on host elsewhere');
    expect(existsSync(`${path}.lock`)).toBe(true);
  });
});

describe('an appender killed while it holds the lock', () => {
  it('leaves a lock that the next process breaks; the torn line is reported, refused and repaired', async () => {
    const root = dir();
    const path = join(root, 'harness_trajectory.jsonl');
    await appendTrajectoryRow(path, row('w1.bd-1.1'));
    const complete = readFileSync(path);
    const killed = await holdLockMidLine(path, 'w2.bd-2.1', { kill: true });
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(`${path}.lock`)).toBe(true);

    expect((await readTrajectory(path)).tornTail).toMatchObject({ line: 2, byteOffset: complete.length });
    expect(await appendTrajectoryRow(path, row('w1.bd-3.1')).catch((e: unknown) => e)).toBeInstanceOf(
      TrajectoryTornTailError,
    );
    const torn = readFileSync(path).subarray(complete.length);
    const repair = await repairTrajectory(path);
    expect(repair.savedTo).toBe(`${path}.torn-${complete.length}`);
    expect(readFileSync(repair.savedTo as string)).toEqual(torn);
    expect(readFileSync(path)).toEqual(complete);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('a second repair at the same offset saves to a new name and keeps the first', async () => {
    const root = dir();
    const path = join(root, 'harness_trajectory.jsonl');
    await appendTrajectoryRow(path, row('w1.bd-1.1'));
    const saved: string[] = [];
    const tails: Buffer[] = [];
    for (const stepId of ['w2.bd-2.1', 'w3.bd-3.long-step-id.1', 'w4.bd-4.1']) {
      const offset = readFileSync(path).length;
      await holdLockMidLine(path, stepId, { kill: true });
      tails.push(readFileSync(path).subarray(offset));
      const repair = await repairTrajectory(path);
      saved.push(repair.savedTo as string);
    }
    expect(new Set(saved).size).toBe(3);
    expect(saved[0]).toMatch(/\.torn-\d+$/);
    expect(saved.map((file) => readFileSync(file))).toEqual(tails);
    expect(savedAside(root).sort()).toEqual(saved.map((file) => file.slice(root.length + 1)).sort());
  });
});
