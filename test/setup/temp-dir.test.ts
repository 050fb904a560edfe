import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import setup from './temp-dir.ts';

describe('the global setup of temporary folders', () => {
  it('runs this worker and its processes under the run folder', () => {
    expect(tmpdir()).toMatch(/turngate-test-run-[^/]+$/);
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], {
      encoding: 'utf8',
    });
    expect(child.stdout).toBe(tmpdir());
  });

  it('removes the folder with what was left in it, and gives the environment back', () => {
    const outer = mkdtempSync(join(tmpdir(), 'outer-'));
    const saved = process.env['TMPDIR'];
    process.env['TMPDIR'] = outer;
    try {
      const teardown = setup();
      const run = tmpdir();
      expect(readdirSync(outer)).toEqual([run.slice(outer.length + 1)]);
      const left = mkdtempSync(join(tmpdir(), 'turngate-loop-'));
      mkdirSync(join(left, 'artifacts'));
      writeFileSync(join(left, 'artifacts', 'turn.json'), '{}');
      teardown();
      expect(existsSync(run)).toBe(false);
      expect(readdirSync(outer)).toEqual([]);
      expect(tmpdir()).toBe(outer);
    } finally {
      process.env['TMPDIR'] = saved;
      rmSync(outer, { recursive: true, force: true });
    }
  });
});
