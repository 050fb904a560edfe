import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { effectsRunOnce } from '../../test/effect-ledger.ts';
import { FileEffectLedger, HarnessInputError } from './index.ts';

const dirs: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'turngate-file-effects-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const entry = {
  key: 'sha256:abc',
  toolCallId: 'toolu_05',
  toolName: 'issue.update',
  inputDigest: 'sha256:0',
  joinSetDigest: 'sha256:1',
};

describe('FileEffectLedger', () => {
  it('claims once, records the end once, and reads a stale claim as unknown_after_crash', async () => {
    let clock = 10_000;
    const dir = join(scratch(), 'effects');
    const ledger = new FileEffectLedger(dir, { leaseMs: 100, now: () => clock });
    expect(await ledger.read(entry.key)).toBeUndefined();
    expect(await ledger.begin(entry)).toEqual({ claimed: true });
    expect(await ledger.begin(entry)).toEqual({ claimed: false, record: { ...entry, state: 'started' } });
    clock += 101;
    expect((await ledger.read(entry.key))?.state).toBe('unknown_after_crash');
    await ledger.finish(entry.key, { state: 'completed', output: { ok: true } });
    await ledger.finish(entry.key, { state: 'failed', error: { errorCode: 'x', retryable: false, errorMessage: 'x' } });
    expect(await new FileEffectLedger(dir).read(entry.key)).toEqual({
      ...entry,
      state: 'completed',
      output: { ok: true },
    });
    // One file per effect, no temp files left behind.
    expect(readdirSync(dir)).toEqual([ledger.pathOf(entry.key).slice(dir.length + 1)]);
  });

  it('names the file and the field of a record it cannot read', async () => {
    const dir = scratch();
    const ledger = new FileEffectLedger(dir);
    writeFileSync(ledger.pathOf('bad'), '{"key":"bad"}');
    const error = await ledger.read('bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessInputError);
    expect(error instanceof HarnessInputError && [error.field, error.path]).toEqual([
      'effect.toolCallId',
      ledger.pathOf('bad'),
    ]);
    writeFileSync(ledger.pathOf('torn'), '{"key":');
    await expect(ledger.read('torn')).rejects.toThrow(`expected an effect record (JSON) (in ${ledger.pathOf('torn')})`);
    expect(() => new FileEffectLedger(' ')).toThrow('FileEffectLedger: dir: expected a directory path');
    expect(() => new FileEffectLedger(dir, { leaseMs: Number.NaN })).toThrow(
      'FileEffectLedger: options.leaseMs: expected milliseconds >= 0, got NaN',
    );
  });

  it('runs each effect once across a replay in a new process, two processes at once, and kill -9 mid-effect', async () => {
    const counts = await effectsRunOnce(['files', join(scratch(), 'effects'), '-'], 2, 40);
    expect(counts).toEqual({ replay: 1, concurrent: { calls: 40, maxRuns: 1 }, crash: 1 });
  });
});
