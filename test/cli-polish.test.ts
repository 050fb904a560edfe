/**
 * Command-line polish that holds for every command: `--version`, an option given twice refused,
 * an array input named as such, long id lists summarized in human output (never in --json).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SHOWN_IDS } from '../src/cli/args.ts';
import { callSpec } from './arbitraries.ts';
import { requireBuiltCli, run } from './cli-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'turngate-cli-polish-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('turngate command line', () => {
  beforeAll(requireBuiltCli);

  it('prints the package version', () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
    for (const flag of ['--version', '-v'])
      expect(run([flag])).toEqual({ code: 0, stdout: `turngate ${version}\n`, stderr: '' });
  });

  it('refuses an option given twice, for every command', () => {
    const twice = [
      ['harness-join-check', '--input', 'a.json', '--input', 'b.json'],
      ['transcript-check', '--format', 'anthropic', '--format', 'gemini', '--input', 'a.json'],
      ['harness-session', 'read', '--path', 'a', '--path', 'b'],
      ['harness-trajectory', 'query', '--path', 'a', '--path', 'b'],
      ['harness-kpi', '--window-hours', '1', '--window-hours', '2'],
    ];
    for (const args of twice) {
      const out = run(args);
      expect(out.code).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr).toMatch(
        /^turngate[a-z- ]*: --(input|format|path|window-hours) is given twice; give each option once/,
      );
      expect(out.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('says that an array is not the expected object', () => {
    const out = run(['harness-join-check', '--input', file('empty.json', '[]')]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/the input is a JSON array: expected an object \{ "evidence": \.\.\. \}/);
  });

  it('summarizes a long id list in human output and keeps every id in --json', () => {
    const ids = Array.from({ length: 5000 }, (_, k) => `tc-${k}`);
    const input = file(
      'dangling.json',
      JSON.stringify({
        evidence: {
          callSpec,
          toolRequests: ids.map((toolCallId) => ({ toolCallId, toolName: 'read_file' })),
          protocolState: { stopReason: 'end_turn', continuationAllowed: false },
        },
      }),
    );
    const human = run(['harness-join-check', '--input', input]);
    expect(human.code).toBe(0);
    const line = human.stdout.split('\n').find((l) => l.includes('tool.result_missing')) ?? '';
    expect(line).toContain(`... and ${(ids.length - SHOWN_IDS).toLocaleString('en-US')} more (--json lists all)`);
    expect(line.length).toBeLessThan(2000);
    const json = run(['harness-join-check', '--input', input, '--json']);
    expect(JSON.parse(json.stdout).normalized.joinState.missingResultCallIds).toHaveLength(ids.length);
  });
});
