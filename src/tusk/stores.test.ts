import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessInputError, TrajectoryTornTailError } from './errors.ts';
import { writeFileAtomic } from './files.ts';
import {
  bootstrapFromFiles,
  readFeatureLedger,
  readSession,
  readSessionIfExists,
  writeFeature,
  writeSession,
  writeSessionWithHooks,
} from './session-store.ts';
import { renderSession } from './session.ts';
import { appendTrajectoryRow, readTrajectory, repairTrajectory } from './trajectory-store.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'turngate-tusk-'));
const ticking = (start = '2026-02-22T01:00:00Z') => {
  let t = Date.parse(start);
  return () => {
    const now = new Date(t);
    t += 1000;
    return now;
  };
};

describe('session store (the Tusk harness contract §11: atomic writes, determinism rules)', () => {
  it('creates the directory, writes the rendered artifact, reads it back', async () => {
    const path = join(dir(), '.premath', 'harness_session.json');
    expect(await readSessionIfExists(path)).toBeUndefined();
    const written = await writeSession(path, { state: 'active', issueId: 'bd-7' }, { clock: ticking() });
    expect(readFileSync(path, 'utf8')).toBe(renderSession(written));
    expect(await readSession(path)).toEqual(written);
    const stopped = await writeSession(path, { state: 'stopped' }, { clock: ticking('2026-02-22T02:00:00Z') });
    expect([stopped.sessionId, stopped.startedAt, stopped.stoppedAt]).toEqual([
      written.sessionId,
      written.startedAt,
      '2026-02-22T02:00:00Z',
    ]);
  });

  it('names the file when it is missing or malformed, and a failed write changes nothing', async () => {
    const path = join(dir(), 'session.json');
    await expect(readSession(path)).rejects.toThrow(/found no file \(in .*session\.json\)/);
    writeFileSync(path, '{"schema": 1, "sessionKind": "premath.harness.session.v1"}');
    const before = readFileSync(path);
    const error = await writeSession(path, { state: 'active' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessInputError);
    expect((error as HarnessInputError).path).toBe(path);
    expect(readFileSync(path)).toEqual(before);
  });

  it('leaves the old artifact and no temp file when the write fails before the rename', async () => {
    const root = dir();
    const path = join(root, 'session.json');
    await writeSession(path, { state: 'active', sessionId: 'hs-1' });
    const before = readFileSync(path);
    await expect(
      writeSessionWithHooks(
        path,
        { state: 'stopped' },
        {},
        {
          beforeRename: () => {
            throw new Error('disk vanished');
          },
        },
      ),
    ).rejects.toThrow('disk vanished');
    expect(readFileSync(path)).toEqual(before);
    expect(readdirSync(root)).toEqual(['session.json']);
  });

  it('derives the issue memory snapshot ref on each write', async () => {
    const root = dir();
    const path = join(root, 'session.json');
    const issues = join(root, 'issues.jsonl');
    const first = await writeSession(path, { state: 'active', issuesPath: issues });
    expect([first.issuesPath, first.issuesSnapshotRef]).toEqual([issues, undefined]);
    writeFileSync(issues, '{"id":"bd-1","status":"open"}\n');
    const second = await writeSession(path, { state: 'active' });
    expect(second.issuesSnapshotRef).toMatch(/^iss1_/);
    expect((await writeSession(path, { state: 'active' })).issuesSnapshotRef).toBe(second.issuesSnapshotRef);
    writeFileSync(issues, '{"id":"bd-1","status":"closed"}\n');
    expect((await writeSession(path, { state: 'stopped' })).issuesSnapshotRef).not.toBe(second.issuesSnapshotRef);
    writeFileSync(issues, 'not json\n');
    const before = readFileSync(path);
    await expect(writeSession(path, { state: 'active' })).rejects.toThrow(/invalid JSON: .*issues\.jsonl line 1/);
    expect(readFileSync(path)).toEqual(before);
  });

  it('serializes concurrent writes from one process: every update lands, the file stays whole', async () => {
    const root = dir();
    const path = join(root, 'session.json');
    const clock = ticking();
    const writes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => writeSession(path, { state: 'active', summary: `write ${i}` }, { clock })),
    );
    expect(new Set(writes.map((s) => s.updatedAt)).size).toBe(50);
    expect(new Set(writes.map((s) => s.sessionId)).size).toBe(1);
    const final = await readSession(path);
    expect(final.summary).toBe('write 49');
    expect(readdirSync(root)).toEqual(['session.json']);
  });

  it('bootstraps from the files, with the feature projection when a ledger exists', async () => {
    const root = dir();
    const sessionPath = join(root, 'session.json');
    const featureLedgerPath = join(root, 'features.json');
    await writeSession(sessionPath, { state: 'stopped', issueId: 'bd-7', nextStep: 'claim next' });
    expect(await bootstrapFromFiles({ sessionPath, featureLedgerPath })).toMatchObject({
      mode: 'resume',
      resumeIssueId: 'bd-7',
      nextStep: 'claim next',
      featureLedgerRef: featureLedgerPath,
      nextFeatureId: null,
    });
    await writeFeature(featureLedgerPath, { featureId: 'f-2', status: 'pending' });
    await writeFeature(featureLedgerPath, { featureId: 'f-1', status: 'completed', verificationRefs: ['ci://1'] });
    expect((await readFeatureLedger(featureLedgerPath))?.features.map((f) => f.featureId)).toEqual(['f-1', 'f-2']);
    expect(await bootstrapFromFiles({ sessionPath, featureLedgerPath })).toMatchObject({
      nextFeatureId: 'f-2',
      featureClosureComplete: false,
      featureCount: 2,
    });
    await writeFeature(featureLedgerPath, { featureId: 'f-3', status: 'in_progress' });
    await writeFeature(featureLedgerPath, { featureId: 'f-4', status: 'in_progress' });
    await expect(bootstrapFromFiles({ sessionPath, featureLedgerPath })).rejects.toThrow(
      /in_progress\.non_contractible/,
    );
  });
});

describe('trajectory store (the Tusk harness contract §12: append-only, atomic per line)', () => {
  const row = (i: number) => ({
    stepId: `w1.item-${i}.1`,
    issueId: `item-${i}`,
    action: 'worker.loop',
    resultClass: i % 4 === 0 ? 'retry_needed_flaky_io' : 'completed',
    witnessRefs: [`ci://run/${i}`, `ci://run/${i}`],
  });

  it('appends normalized rows with finishedAt from the clock', async () => {
    const path = join(dir(), 'nested', 'trajectory.jsonl');
    expect(await readTrajectory(path)).toEqual({ rows: [], completeBytes: 0 });
    const written = await appendTrajectoryRow(path, row(1), { clock: ticking() });
    expect(written.finishedAt).toBe('2026-02-22T01:00:00Z');
    expect(written.witnessRefs).toEqual(['ci://run/1']);
    expect((await readTrajectory(path)).rows).toEqual([written]);
  });

  it('writes nothing for a bad row', async () => {
    const path = join(dir(), 'trajectory.jsonl');
    await appendTrajectoryRow(path, row(1));
    const before = readFileSync(path);
    await expect(appendTrajectoryRow(path, { ...row(2), finishedAt: 'soon' })).rejects.toThrow(/row\.finishedAt/);
    await expect(appendTrajectoryRow(path, { ...row(2), stepId: ' ' })).rejects.toThrow(/row\.stepId/);
    expect(readFileSync(path)).toEqual(before);
  });

  it('keeps 1,000 concurrent appenders in one process from interleaving', async () => {
    const path = join(dir(), 'trajectory.jsonl');
    await Promise.all(Array.from({ length: 1000 }, (_, i) => appendTrajectoryRow(path, row(i))));
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(1000);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const read = await readTrajectory(path);
    expect(new Set(read.rows.map((r) => r.stepId)).size).toBe(1000);
  });

  it('refuses to append after a torn last line, and repair moves it aside without losing it', async () => {
    const root = dir();
    const path = join(root, 'trajectory.jsonl');
    await appendTrajectoryRow(path, row(1));
    await appendTrajectoryRow(path, row(2));
    const complete = readFileSync(path);
    const torn = Buffer.from('{"schema":1,"stepKind":"premath.harn');
    writeFileSync(path, Buffer.concat([complete, torn]));
    const read = await readTrajectory(path);
    expect(read.rows).toHaveLength(2);
    expect(read.tornTail).toEqual({ line: 3, byteOffset: complete.length, byteLength: torn.length });
    const error = await appendTrajectoryRow(path, row(3)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrajectoryTornTailError);
    expect((error as TrajectoryTornTailError).line).toBe(3);
    expect(readFileSync(path)).toEqual(Buffer.concat([complete, torn]));
    const repair = await repairTrajectory(path);
    expect(repair).toEqual({ tornTail: read.tornTail, savedTo: `${path}.torn-${complete.length}` });
    expect(readFileSync(`${path}.torn-${complete.length}`)).toEqual(torn);
    expect(readFileSync(path)).toEqual(complete);
    await appendTrajectoryRow(path, row(3));
    expect((await readTrajectory(path)).rows.map((r) => r.stepId)).toEqual([
      'w1.item-1.1',
      'w1.item-2.1',
      'w1.item-3.1',
    ]);
    expect(await repairTrajectory(path)).toEqual({});
    expect(await repairTrajectory(join(root, 'missing.jsonl'))).toEqual({});
  });

  it('appends after a file that ends in blanks without a line end', async () => {
    const path = join(dir(), 'trajectory.jsonl');
    await appendTrajectoryRow(path, row(1));
    writeFileSync(path, `${readFileSync(path, 'utf8')}  `);
    await appendTrajectoryRow(path, row(2));
    expect((await readTrajectory(path)).rows).toHaveLength(2);
  });
});

describe('writeFileAtomic', () => {
  it('replaces the file and leaves no temp file', async () => {
    const root = dir();
    const path = join(root, 'a.json');
    await writeFileAtomic(path, 'one');
    await writeFileAtomic(path, new TextEncoder().encode('two'));
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(readdirSync(root)).toEqual(['a.json']);
    expect(existsSync(join(root, 'b.json'))).toBe(false);
  });
});
