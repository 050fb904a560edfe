/**
 * Vitest global setup: every temporary file of a test run goes under one folder, removed when the
 * run ends. Many tests (and the processes they start: the CLI, the example scripts, crash
 * workers) make scratch folders with `mkdtempSync(join(tmpdir(), ...))` and leave them; here
 * `TMPDIR` (which `os.tmpdir()` reads on each call, in this process, the test workers and their
 * children) points at the run's folder, so nothing outlives the run. scripts/test.sh checks that
 * a run leaves nothing behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The names `os.tmpdir()` reads (POSIX: TMPDIR, TMP, TEMP; Windows: TEMP, TMP). */
const NAMES = ['TMPDIR', 'TMP', 'TEMP'] as const;

export default function setup(): () => void {
  const run = mkdtempSync(join(tmpdir(), 'turngate-test-run-'));
  const saved = NAMES.map((name) => [name, process.env[name]] as const);
  for (const name of NAMES) process.env[name] = run;
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(run, { recursive: true, force: true });
  };
}
