/** Runs the bundled CLI (`dist/cli/turngate.js`, built by `npm run build`) for the CLI tests. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'turngate.js');
export const EXAMPLES = join(import.meta.dirname, '..', 'examples', 'evidence');

/** Runs the CLI with `args` and optional standard input. */
export function run(args: string[], input?: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Fails fast when the CLI was not built. */
export function requireBuiltCli(): void {
  if (!existsSync(CLI)) throw new Error('dist/cli/turngate.js is missing: run `npm run build` first');
}
