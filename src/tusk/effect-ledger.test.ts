import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contractKeys, effectsRunOnce, ledgerContract } from '../../test/effect-ledger.ts';
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

describe('FileEffectLedger', () => {
  it('keeps the durable ledger contract, one file per effect and no temp file left behind', async () => {
    const dir = join(scratch(), 'effects');
    await ledgerContract((options) => new FileEffectLedger(dir, options));
    const ledger = new FileEffectLedger(dir);
    expect(readdirSync(dir).sort()).toEqual(contractKeys.map((key) => ledger.pathOf(key).slice(dir.length + 1)).sort());
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
