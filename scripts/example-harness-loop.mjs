#!/usr/bin/env node
// Runs examples/harness-loop.ts the way a restart happens: bundles it (Node 20 runs no
// TypeScript), runs it once with --crash-in-step 2 (the process kills itself with SIGKILL in
// the middle of the second task), then runs it again in the same workspace, which attaches to
// the session the crash left active and finishes the work, then once more (nothing left).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Bundles the example into `outfile` (turngate resolves to this checkout's sources). */
export async function bundleHarnessLoopExample(outfile) {
  await build({
    entryPoints: [join(root, 'examples', 'harness-loop.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    alias: {
      'turngate/tusk': join(root, 'src', 'tusk', 'index.ts'),
      'turngate/canonical': join(root, 'src', 'canonical', 'index.ts'),
      turngate: join(root, 'src', 'index.ts'),
    },
    logLevel: 'warning',
  });
  return outfile;
}

/** Runs the bundled example in `workdir`; returns its exit status, signal and output. */
export function runBundledExample(bundle, workdir, ...flags) {
  const policy = join(root, 'examples', 'harness', 'retry-policy.json');
  const r = spawnSync(process.execPath, [bundle, workdir, '--policy', policy, ...flags], { encoding: 'utf8' });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const scratch = mkdtempSync(join(tmpdir(), 'turngate-harness-loop-'));
  const bundle = await bundleHarnessLoopExample(join(scratch, 'harness-loop.mjs'));
  const workdir = join(scratch, 'workspace');
  for (const [title, flags] of [
    ['run 1 (killed in step 2)', ['--crash-in-step', '2']],
    ['run 2 (after the crash)', []],
    ['run 3', []],
  ]) {
    const r = runBundledExample(bundle, workdir, ...flags);
    process.stdout.write(`# ${title}: ${r.signal ?? `exit ${r.status}`}\n${r.stdout}${r.stderr}`);
  }
  process.stdout.write(`# workspace: ${workdir}\n${readFileSync(join(workdir, 'VERSION'), 'utf8')}`);
}
