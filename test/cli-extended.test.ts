import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, requireBuiltCli, run } from './cli-run.ts';

beforeAll(requireBuiltCli);

describe('turngate harness-join-check under the extended profile', () => {
  it('summarizes the profile, the turn digest and each extended class with its ids', () => {
    const r = run(['harness-join-check', '--input', join(EXAMPLES, 'extended-shell-escape-turn.json')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  Profile: turngate.harness.extended.v1\n');
    expect(r.stdout).toMatch(/ {2}Turn digest: sha256:[0-9a-f]{64}\n/);
    expect(r.stdout).toContain(
      '- runtime.shell_boundary_violation [toolu_04Sh7]: A shell command ran outside the sandbox',
    );
    expect(r.stdout).toContain('- governance.trace_mode_violation [trace-5]:');
  });

  it('prints premath’s keys plus profile and extended with --json', () => {
    const r = run(['harness-join-check', '--input', join(EXAMPLES, 'extended-coding-turn.json'), '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report)).toEqual([
      'action',
      'extended',
      'failureClasses',
      'joinClosed',
      'normalized',
      'profile',
      'result',
      'witness',
    ]);
    expect(report.result).toBe('accepted');
    expect(report.extended.witness.witnessKind).toBe('turngate.harness.join_check_extended.v1');
  });

  it('refuses an unknown profile with exit 2 and one line naming the field', () => {
    const input = JSON.parse(readFileSync(join(EXAMPLES, 'extended-coding-turn.json'), 'utf8'));
    const r = run(['harness-join-check', '--input', '-'], JSON.stringify({ ...input, profile: 'turngate.extended' }));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'harness_join_check_invalid: profile: expected "turngate.harness.extended.v1" (the extended profile), or no profile for premath\'s, received "turngate.extended" (input -)\n',
    );
  });

  it('exits 1 on a rejected extended report under --fail-on-reject', () => {
    const r = run([
      'harness-join-check',
      '--input',
      join(EXAMPLES, 'extended-shell-escape-turn.json'),
      '--fail-on-reject',
    ]);
    expect(r.code).toBe(1);
  });
});
