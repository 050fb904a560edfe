/**
 * What the Tusk commands print from hostile values (finding 5 of issue 23): every human line,
 * error lines included, has its control characters escaped (ESC, BEL, CR, LF, C1, and every
 * Bidi_Control character such as U+202E) and is cut to a bounded length with a marker, and an
 * error line costs time linear in its input (a 131,000-character `--state` is one short line).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harnessKpiCommand } from '../src/cli/harness-kpi.ts';
import { harnessSessionCommand } from '../src/cli/harness-session.ts';
import { harnessTrajectoryCommand } from '../src/cli/harness-trajectory.ts';
import { escapeControls, quote } from '../src/internal/display.ts';

/** What no printed line may hold raw: Unicode's controls (Cc), Bidi_Control, the separators, lone surrogates. */
const RAW = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]|\p{Cs}/u;
/** The longest line a command prints from any input: 1,000 code units, each escaped as at most 6, plus labels. */
const MAX_LINE = 6_200;
const HOSTILE = '\u001b[2J\u001b]0;pwned\u0007\r\n::error::forged\u202eevil\u2066\u200e\u061c\u0085';

const dir = () => mkdtempSync(join(tmpdir(), 'turngate-display-'));

function expectSafe(output: { stdout: string; stderr: string }, json = false): void {
  for (const text of json ? [output.stderr] : [output.stdout, output.stderr]) {
    if (text === '') continue;
    expect(text.endsWith('\n')).toBe(true);
    for (const line of text.slice(0, -1).split('\n')) {
      expect(line).not.toMatch(RAW);
      expect(line.length).toBeLessThanOrEqual(MAX_LINE);
    }
  }
  if (output.stderr !== '') expect(output.stderr.indexOf('\n')).toBe(output.stderr.length - 1);
}

describe('escapeControls', () => {
  it('escapes every Bidi_Control and control character, and nothing else of the BMP', () => {
    const wrong: string[] = [];
    for (let code = 0; code < 0x10000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      if ((escapeControls(char) !== char) !== RAW.test(char)) wrong.push(`U+${code.toString(16).padStart(4, '0')}`);
    }
    expect(wrong).toEqual([]);
    expect(escapeControls('\u0007\u001b\u202e\u200f')).toBe('\\u0007\\u001b\\u202e\\u200f');
  });

  it('quote cuts a long value with a marker and never throws', () => {
    expect(quote(' '.repeat(131_000))).toBe(`"${' '.repeat(200)}… (130,800 more characters)"`);
    expect(quote(42)).toBe('42');
    expect(quote(10n)).toBe('a value that cannot be shown');
  });
});

describe('the error line of a 131,000-character --state', () => {
  it('is one line of bounded length that says what was cut', async () => {
    const root = dir();
    for (const value of [' '.repeat(131_000), `${' '.repeat(65_500)}\n${' '.repeat(65_500)}`, HOSTILE.repeat(9_000)]) {
      const r = await harnessSessionCommand(['write', '--path', join(root, 's.json'), '--state', value]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(
        /^turngate harness-session: --state expects active or stopped, received ".*more characters\)"/,
      );
      expectSafe(r);
      expect(r.stderr.length).toBeLessThan(1_600);
    }
  });
});

describe('every human line of the Tusk commands', () => {
  it('harness-session write, read and bootstrap escape what they print from the input and the files', async () => {
    const root = dir();
    const path = join(root, `s${HOSTILE}.json`);
    const issues = join(root, 'none.jsonl');
    const write = await harnessSessionCommand([
      'write',
      '--path',
      path,
      '--state',
      'active',
      '--issue-id',
      `bd-7${HOSTILE}`,
      '--next-step',
      `${HOSTILE}${'x'.repeat(20_000)}`,
      '--issues',
      issues,
    ]);
    expect(write.exitCode).toBe(0);
    expectSafe(write);
    expect(write.stdout).toContain('\\u001b[2J');
    expect(write.stdout).toContain('more characters)');
    for (const args of [['read'], ['bootstrap', '--feature-ledger', join(root, 'none.json')]]) {
      const r = await harnessSessionCommand([...args, '--path', path]);
      expect(r.exitCode).toBe(0);
      expectSafe(r);
    }
    const bad = await harnessSessionCommand(['write', '--path', path, '--now', HOSTILE, '--issues', issues]);
    expect(bad.exitCode).toBe(2);
    expectSafe(bad);
    const unknown = await harnessSessionCommand(['write', `--${HOSTILE}`]);
    expect(unknown.exitCode).toBe(2);
    expectSafe(unknown);
  });

  it('harness-trajectory append, query and repair, and harness-kpi, escape what they print', async () => {
    const root = dir();
    const path = join(root, `t${HOSTILE}.jsonl`);
    const append = await harnessTrajectoryCommand([
      'append',
      '--path',
      path,
      '--step-id',
      `w1${HOSTILE}`,
      '--action',
      HOSTILE,
      '--result-class',
      `completed${HOSTILE}`,
      '--finished-at',
      '2026-02-22T01:00:00Z',
    ]);
    expect(append.exitCode).toBe(0);
    expectSafe(append);
    writeFileSync(path, '{"schema":1,"ste', { flag: 'a' });
    for (const args of [
      ['query', '--path', path],
      ['query', '--path', path, '--mode', HOSTILE],
      ['append', '--path', path, '--step-id', 's', '--action', 'a', '--result-class', 'c'],
      ['append', '--path', path, '--step-id', 's', '--action', 'a', '--result-class', 'c', '--finished-at', HOSTILE],
      ['repair', '--path', path],
      ['query', '--path', path, '--json'],
    ]) {
      const r = await harnessTrajectoryCommand(args);
      expectSafe(r, args.includes('--json'));
    }
    const kpi = await harnessKpiCommand(['--trajectory-path', path, '--window-end', HOSTILE]);
    expect(kpi.exitCode).toBe(2);
    expectSafe(kpi);
    writeFileSync(path, '{"schema":1,"ste', { flag: 'a' });
    const torn = await harnessKpiCommand(['--trajectory-path', path]);
    expect(torn.exitCode).toBe(0);
    expect(torn.stderr).toContain('is torn');
    expectSafe(torn);
  });
});
