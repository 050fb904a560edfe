/**
 * The session artifact's file on hostile ground (finding 9 of issue 23): a `--path` that is a
 * symbolic link is refused, not replaced; the temp files of writers killed between the temp-file
 * write and the rename are removed by the next write or read, and only those (a live writer's
 * temp file and files of other names stay). The killed writers run the built package.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HarnessInputError, readSessionIfExists, writeFeature, writeSession } from '../src/tusk/index.ts';
import { DIST } from './tusk-fuzz.mjs';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'turngate.js');

beforeAll(() => {
  if (!existsSync(join(DIST, 'session-store.js')) || !existsSync(CLI))
    throw new Error('dist is missing: run `npm run build` first');
});

const dir = () => mkdtempSync(join(tmpdir(), 'turngate-files-'));
const temps = (root: string) =>
  readdirSync(root)
    .filter((name) => name.endsWith('.tmp'))
    .sort();

/** A session writer killed with SIGKILL after its temp file is written, before the rename. */
function killedWriter(path: string, summary: string): void {
  const store = JSON.stringify(pathToFileURL(join(DIST, 'session-store.js')).href);
  const body =
    `import * as store from ${store};\n` +
    `await store.writeSessionWithHooks(${JSON.stringify(path)}, { state: 'active', summary: ${JSON.stringify(summary)} }, {}, ` +
    `{ beforeRename: () => process.kill(process.pid, 'SIGKILL') });`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', body], { encoding: 'utf8' });
  if (run.signal !== 'SIGKILL') throw new Error(`the writer did not die as planned: ${run.stderr}`);
}

describe('session writes and a symbolically linked path', () => {
  it('refuses to write through or over a link, naming the path and its target', async () => {
    const root = dir();
    const target = join(root, 'real_session.json');
    await writeSession(target, { state: 'active', sessionId: 'hs-1' });
    const before = readFileSync(target);
    const link = join(root, 'harness_session.json');
    symlinkSync(target, link);

    const error = await writeSession(link, { state: 'stopped' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessInputError);
    expect((error as HarnessInputError).path).toBe(link);
    expect((error as HarnessInputError).message).toContain(`symbolic link to ${target}; write to ${target} instead`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(readFileSync(target)).toEqual(before);
    // Reading through the link is fine; the feature ledger's writes refuse a link the same way.
    expect((await readSessionIfExists(link))?.sessionId).toBe('hs-1');
    const ledgerLink = join(root, 'ledger.json');
    symlinkSync(join(root, 'elsewhere.json'), ledgerLink);
    expect(
      await writeFeature(ledgerLink, { featureId: 'f-1', status: 'pending' }).catch((e: unknown) => e),
    ).toBeInstanceOf(HarnessInputError);
    expect(existsSync(join(root, 'elsewhere.json'))).toBe(false);
  });

  it('the command exits 2 with one line that says what to do', () => {
    const root = dir();
    const target = join(root, 'real_session.json');
    writeFileSync(target, '');
    const link = join(root, 'harness_session.json');
    symlinkSync(target, link);
    const r = spawnSync(
      process.execPath,
      [CLI, 'harness-session', 'write', '--path', link, '--issues', join(root, 'x')],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^harness_session_invalid: .*symbolic link to .*real_session\.json; write to .* instead.*\n$/,
    );
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(readFileSync(target, 'utf8')).toBe('');
  });
});

describe('temp files of killed session writers', () => {
  it('are removed by the next write, which leaves only the artifact', async () => {
    const root = dir();
    const path = join(root, 'harness_session.json');
    await writeSession(path, { state: 'active', sessionId: 'hs-1' });
    // Each writer removes the temp file of the one killed before it: they never pile up.
    for (let i = 0; i < 5; i++) {
      killedWriter(path, `killed ${i}`);
      expect(temps(root)).toHaveLength(1);
    }
    await writeSession(path, { state: 'stopped', summary: 'after the kills' });
    expect(readdirSync(root)).toEqual(['harness_session.json']);
    expect((await readSessionIfExists(path))?.summary).toBe('after the kills');
  });

  it('are removed by the next read; temp files of live writers and of other names stay', async () => {
    const root = dir();
    const path = join(root, 'harness_session.json');
    killedWriter(path, 'killed');
    expect(temps(root)).toHaveLength(1);
    // A writer in this (live) process, and names that are not our temp files.
    const live = `.harness_session.json.${process.pid}.0123456789ab.tmp`;
    const others = [
      '.harness_session.json.12.notours.tmp',
      '.other.json.1.0123456789ab.tmp',
      'harness_session.json.1.0123456789ab.tmp',
    ];
    for (const name of [live, ...others]) writeFileSync(join(root, name), '{}');
    expect(await readSessionIfExists(path)).toBeUndefined();
    expect(temps(root)).toEqual([live, ...others].sort());
    // A temp file of this pid older than this process is a dead process's (a pid reused, as in a container).
    const old = new Date(Date.now() - process.uptime() * 1000 - 60_000);
    utimesSync(join(root, live), old, old);
    await writeSession(path, { state: 'active' });
    expect(temps(root)).toEqual([...others].sort());
  });
});
