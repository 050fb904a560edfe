/**
 * Crash safety of the harness files: a child process is killed with SIGKILL at the point under
 * test (between the session's temp-file write and its rename; in the middle of a trajectory
 * line), and the parent checks what a fresh process finds. Runs against the built package.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  TrajectoryTornTailError,
  appendTrajectoryRow,
  bootstrapFromFiles,
  parseSession,
  readSession,
  readSessionIfExists,
  readTrajectory,
  repairTrajectory,
  writeSession,
} from '../src/tusk/index.ts';

const DIST = join(import.meta.dirname, '..', 'dist', 'tusk');

beforeAll(() => {
  if (!existsSync(join(DIST, 'session-store.js'))) throw new Error('dist/tusk is missing: run `npm run build` first');
});

/** Runs an ES module body in a child process; returns how it ended. */
function child(body: string) {
  const store = pathToFileURL(join(DIST, 'session-store.js')).href;
  const trajectory = pathToFileURL(join(DIST, 'trajectory.js')).href;
  const source = `import * as store from ${JSON.stringify(store)};\nimport * as trajectory from ${JSON.stringify(trajectory)};\nimport * as fs from 'node:fs';\n${body}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8' });
  return { signal: result.signal, status: result.status, stderr: result.stderr };
}

describe('session artifact: killed between the temp-file write and the rename', () => {
  it('keeps the old artifact whole; the next run reads it and writes over it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'turngate-crash-'));
    const path = join(root, 'harness_session.json');
    await writeSession(path, { state: 'active', sessionId: 'hs-1', issueId: 'bd-7', summary: 'before the crash' });
    const before = readFileSync(path);

    const run = child(
      `await store.writeSessionWithHooks(${JSON.stringify(path)}, { state: 'stopped', summary: 'after the crash' }, {}, ` +
        `{ beforeRename: () => process.kill(process.pid, 'SIGKILL') });`,
    );
    expect(run.signal).toBe('SIGKILL');

    // The artifact is the old one, byte for byte; the new one is complete in a stray temp file.
    expect(readFileSync(path)).toEqual(before);
    const temps = readdirSync(root).filter((name) => name.endsWith('.tmp'));
    expect(temps).toHaveLength(1);
    expect(temps[0]).toMatch(/^\.harness_session\.json\.\d+\.[0-9a-f]{12}\.tmp$/);
    expect(parseSession(readFileSync(join(root, temps[0] as string), 'utf8')).summary).toBe('after the crash');

    // A fresh process reads the old artifact (mode attach: it was active) and can write again.
    expect((await bootstrapFromFiles({ sessionPath: path })).mode).toBe('attach');
    const next = await writeSession(path, { state: 'stopped', summary: 'recovered' });
    expect([next.sessionId, next.summary, next.state]).toEqual(['hs-1', 'recovered', 'stopped']);
    expect((await readSession(path)).summary).toBe('recovered');
  });

  it('leaves no artifact at all when the first write is killed before its rename', async () => {
    const root = mkdtempSync(join(tmpdir(), 'turngate-crash-'));
    const path = join(root, 'harness_session.json');
    const run = child(
      `await store.writeSessionWithHooks(${JSON.stringify(path)}, { state: 'active' }, {}, ` +
        `{ beforeRename: () => process.kill(process.pid, 'SIGKILL') });`,
    );
    expect(run.signal).toBe('SIGKILL');
    expect(await readSessionIfExists(path)).toBeUndefined();
  });
});

describe('trajectory: killed in the middle of writing a line', () => {
  it('reports the torn line, refuses appends until repaired, and loses nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'turngate-crash-'));
    const path = join(root, 'harness_trajectory.jsonl');
    await appendTrajectoryRow(path, {
      stepId: 'w1.bd-1.1',
      issueId: 'bd-1',
      action: 'harness.step',
      resultClass: 'completed',
    });
    const complete = readFileSync(path);

    // The child writes half of a real row's line with O_APPEND, then dies.
    const run = child(
      `const row = trajectory.normalizeTrajectoryRow({ stepId: 'w1.bd-2.1', issueId: 'bd-2', action: 'harness.step', ` +
        `resultClass: 'completed', finishedAt: '2026-02-22T01:00:00Z' });\n` +
        `const line = Buffer.from(trajectory.renderTrajectoryLine(row));\n` +
        `const fd = fs.openSync(${JSON.stringify(path)}, 'a');\n` +
        `fs.writeSync(fd, line, 0, Math.floor(line.length / 2));\n` +
        `process.kill(process.pid, 'SIGKILL');`,
    );
    expect(run.signal).toBe('SIGKILL');

    const read = await readTrajectory(path);
    expect(read.rows.map((r) => r.stepId)).toEqual(['w1.bd-1.1']);
    expect(read.tornTail).toMatchObject({ line: 2, byteOffset: complete.length });
    const torn = readFileSync(path).subarray(complete.length);

    const refused = await appendTrajectoryRow(path, {
      stepId: 'w1.bd-3.1',
      action: 'harness.step',
      resultClass: 'completed',
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TrajectoryTornTailError);
    expect(readFileSync(path)).toEqual(Buffer.concat([complete, torn]));

    const repair = await repairTrajectory(path);
    expect(readFileSync(repair.savedTo as string)).toEqual(torn);
    expect(readFileSync(path)).toEqual(complete);
    await appendTrajectoryRow(path, { stepId: 'w1.bd-3.1', action: 'harness.step', resultClass: 'completed' });
    expect((await readTrajectory(path)).rows.map((r) => r.stepId)).toEqual(['w1.bd-1.1', 'w1.bd-3.1']);
  });
});
