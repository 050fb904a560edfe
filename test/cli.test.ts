import { describe, expect, it, beforeAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, ftruncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { joinCheckText, renderJoinCheckJson } from '../src/join-check.ts';
import { callSpec } from './arbitraries.ts';
import { CLI, EXAMPLES, requireBuiltCli, run } from './cli-run.ts';

beforeAll(requireBuiltCli);

describe('turngate harness-join-check', () => {
  const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));

  it.each(examples)('--json prints the same bytes as the library for %s', (file) => {
    const path = join(EXAMPLES, file);
    const outcome = joinCheckText(readFileSync(path));
    if (!outcome.ok) throw new Error(outcome.failures[0]?.message);
    const r = run(['harness-join-check', '--input', path, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(renderJoinCheckJson(outcome.value));
  });

  it('summarizes a rejected turn with each class and its ids', () => {
    const r = run(['harness-join-check', '--input', join(EXAMPLES, 'dangling-tool-call-turn.json')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Result: rejected');
    expect(r.stdout).toMatch(/- tool\.result_missing \[toolu_03Cd\]: /);
  });

  it('exits 1 on a rejected report only with --fail-on-reject', () => {
    expect(
      run(['harness-join-check', '--input', join(EXAMPLES, 'dangling-tool-call-turn.json'), '--fail-on-reject']).code,
    ).toBe(1);
    expect(run(['harness-join-check', '--input', join(EXAMPLES, 'handoff-turn.json'), '--fail-on-reject']).code).toBe(
      0,
    );
  });

  it('reads standard input with --input -', () => {
    const r = run(
      ['harness-join-check', '--input', '-', '--json'],
      readFileSync(join(EXAMPLES, 'handoff-turn.json'), 'utf8'),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe('accepted');
  });

  it.each([
    ['bad JSON', '{"evidence": [', /^harness_join_check_invalid: invalid JSON: /],
    [
      'a missing required field',
      JSON.stringify({ evidence: { callSpec } }),
      /evidence\.protocolState: required field is missing/,
    ],
    [
      'a bad enum value',
      JSON.stringify({
        evidence: { callSpec, protocolState: { stopReason: 'x' }, toolResults: [{ toolCallId: 'a', status: 'maybe' }] },
      }),
      /evidence\.toolResults\[0\]\.status: expected `ok` or `error`/,
    ],
    [
      'conflicting duplicate ids',
      JSON.stringify({
        evidence: {
          callSpec,
          protocolState: { stopReason: 'x' },
          toolRequests: [
            { toolCallId: 'a', toolName: 'x' },
            { toolCallId: 'a', toolName: 'y' },
          ],
        },
      }),
      /conflicting duplicate toolCallId "a"/,
    ],
  ])('refuses %s with exit 2 and one stderr line', (_what, input, message) => {
    const r = run(['harness-join-check', '--input', '-', '--json'], input);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/^harness_join_check_invalid: /);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses an unreadable file with exit 2', () => {
    const r = run(['harness-join-check', '--input', '/nonexistent/turn.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^harness_join_check_invalid: failed to read input \/nonexistent\/turn\.json: ENOENT/);
  });

  it('refuses bad usage with exit 2', () => {
    expect(run(['harness-join-check']).code).toBe(2);
    expect(run(['harness-join-check', '--input', 'x', '--bogus']).stderr).toMatch(
      /^turngate: Unknown option '--bogus'/,
    );
    expect(run(['launch-missiles']).code).toBe(2);
    expect(run(['harness-join-check', '--help']).stdout).toMatch(/^Usage: turngate harness-join-check/);
  });

  it('lists the transcript commands first in --help, then the join check and the Tusk harness', () => {
    const help = run(['--help']);
    expect([help.code, help.stdout.split('\n')[0]]).toEqual([
      0,
      'Usage: turngate <command> [options]   (turngate <command> --help for its options)',
    ]);
    const at = (command: string) => help.stdout.indexOf(`turngate ${command} `);
    const order = ['transcript-check', 'transcript-convert', 'harness-join-check', 'harness-session', 'harness-kpi'];
    expect(order.map(at).every((index) => index > 0)).toBe(true);
    expect(order.map(at)).toEqual([...order.map(at)].sort((a, b) => a - b));
    expect(run(['help']).stdout).toBe(help.stdout);
  });

  it('stops quietly, exit 0, when the reader closes the pipe early', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `toolu_${i}`);
    const input = {
      evidence: {
        callSpec,
        toolRequests: ids.map((id) => ({ toolCallId: id, toolName: 'fs.read' })),
        toolResults: ids.map((id) => ({ toolCallId: id, status: 'ok' })),
        toolUse: ids.map((id) => ({ toolCallId: id, disposition: 'observed' })),
        protocolState: { stopReason: 'end_turn' },
      },
    };
    const path = join(mkdtempSync(join(tmpdir(), 'turngate-')), 'big.json');
    writeFileSync(path, JSON.stringify(input));
    // The report (~1 MB) is far larger than a pipe buffer, so `head` closes the pipe mid-write.
    const out = execFileSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" "${CLI}" harness-join-check --input "${path}" --json 2>/tmp/turngate-epipe.err | head -c 20 >/dev/null; echo "\${PIPESTATUS[0]}"; cat /tmp/turngate-epipe.err`,
      ],
      { encoding: 'utf8' },
    );
    expect(out.trim()).toBe('0');
  });

  it('delivers a large report whole to a slow pipe before exiting', () => {
    const n = 10_000;
    const ids = Array.from({ length: n }, (_, i) => `toolu_${String(i).padStart(6, '0')}`);
    const input = {
      evidence: {
        callSpec,
        toolRequests: ids.map((id) => ({ toolCallId: id, toolName: 'fs.read' })),
        toolResults: ids.map((id) => ({ toolCallId: id, status: 'ok', resultDigest: `sha256:${id}` })),
        toolUse: ids.map((id) => ({ toolCallId: id, disposition: 'observed' })),
        protocolState: { stopReason: 'end_turn', continuationAllowed: false },
      },
    };
    const dir = mkdtempSync(join(tmpdir(), 'turngate-'));
    const path = join(dir, 'large.json');
    writeFileSync(path, JSON.stringify(input));
    const outcome = joinCheckText(readFileSync(path));
    if (!outcome.ok) throw new Error(outcome.failures[0]?.message);
    const expected = Buffer.byteLength(renderJoinCheckJson(outcome.value));
    expect(expected).toBeGreaterThan(1_000_000);
    const counted = execFileSync(
      'sh',
      ['-c', `"${process.execPath}" "${CLI}" harness-join-check --input "${path}" --json | (sleep 0.5; wc -c)`],
      {
        encoding: 'utf8',
      },
    );
    expect(Number(counted.trim())).toBe(expected);
  });
});

describe('input limits', () => {
  const turn = readFileSync(join(EXAMPLES, 'handoff-turn.json'));
  const limitLine = (label: string, limit: string) =>
    `harness_join_check_invalid: input ${label} is larger than the input limit of ${limit}; raise the limit with --max-input-bytes\n`;

  it('stops reading an endless device at the limit: --input /dev/zero exits 2 naming the limit', () => {
    const r = run(['harness-join-check', '--input', '/dev/zero']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(limitLine('/dev/zero', '64 MiB (67,108,864 bytes)'));
  });

  it('refuses a file over the limit without reading it (an 80 MB file exits 2 at once)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'turngate-')), 'huge.json');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 80 * 1024 * 1024);
    closeSync(fd);
    const r = run(['harness-join-check', '--input', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(limitLine(path, '64 MiB (67,108,864 bytes)'));
  });

  it('applies the limit to standard input and honours --max-input-bytes', () => {
    const r = run(
      ['harness-join-check', '--input', '-', '--max-input-bytes', String(turn.length - 1)],
      turn.toString(),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(limitLine('-', `${(turn.length - 1).toLocaleString('en-US')} bytes`));
    expect(
      run(['harness-join-check', '--input', '-', '--max-input-bytes', String(turn.length)], turn.toString()).code,
    ).toBe(0);
    const path = join(EXAMPLES, 'handoff-turn.json');
    expect(run(['harness-join-check', '--input', path, '--max-input-bytes', '1K']).stderr).toBe(
      limitLine(path, '1,024 bytes'),
    );
    expect(run(['harness-join-check', '--input', path, '--max-input-bytes', '1m']).code).toBe(0);
  });

  it.each(['0', '-1', '1.5', 'lots', '1T', '600M', ''])('refuses --max-input-bytes %j as a usage error', (value) => {
    const r = run(['harness-join-check', '--input', '-', '--max-input-bytes', value], '{}');
    expect(r.code).toBe(2);
    // `-1` looks like an option to the argument parser, which refuses it in its own words.
    expect(r.stderr).toMatch(
      value === '-1'
        ? /^turngate: Option '--max-input-bytes' argument is ambiguous\. \(see turngate --help\)$/m
        : /^turngate: --max-input-bytes expects a whole number of bytes from 1 to 536870888 /,
    );
    expect(r.stderr.split('\n')).toHaveLength(2);
  });

  it('documents the limit and the exit codes in harness-join-check --help', () => {
    const help = run(['harness-join-check', '--help']).stdout;
    expect(help).toContain('--max-input-bytes <n>');
    expect(help).toContain('default 64 MiB (67,108,864 bytes)');
    expect(help).toMatch(/3 internal error/);
  });
});

describe('output hygiene', () => {
  const hostile = '\u001b[2J\u001b]0;owned\u0007\r\ninjected\u009b31m\u202e';
  const input = {
    evidence: {
      callSpec,
      toolRequests: [{ toolCallId: `tc${hostile}`, toolName: 'fs.read' }],
      protocolState: { stopReason: `stop${hostile}` },
      handoff: { target: `target${hostile}` },
    },
    handoffConstraints: { allowedTargets: ['elsewhere'] },
  };

  it('escapes control characters of evidence values and stop reasons in the summary', () => {
    const r = run(['harness-join-check', '--input', '-'], JSON.stringify(input));
    expect(r.code).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(r.stdout).toContain('\\u001b[2J\\u001b]0;owned\\u0007\\r\\ninjected\\u009b31m\\u202e');
    for (const line of r.stdout.trimEnd().split('\n')) expect(line).toMatch(/^(turngate| {2})/);
    expect(r.stdout).toMatch(/- protocol\.stop_reason_unhandled: Stop reason `stop\\u001b/);
    expect(r.stdout).toMatch(/- tool\.result_missing \[tc\\u001b\[2J/);
  });

  it('keeps --json byte-exact: the library’s bytes, escapes as JSON writes them', () => {
    const text = JSON.stringify(input);
    const outcome = joinCheckText(text);
    if (!outcome.ok) throw new Error(outcome.failures[0]?.message);
    const r = run(['harness-join-check', '--input', '-', '--json'], text);
    expect(r.stdout).toBe(renderJoinCheckJson(outcome.value));
    expect(r.stdout).toContain('\\u001b[2J');
  });

  it('keeps one stderr line when the --input path holds a newline or an escape sequence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-'));
    const path = join(dir, 'bad\nname\u001b[31m.json');
    writeFileSync(path, '{"evidence": 1}');
    const r = run(['harness-join-check', '--input', path]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toContain('bad\\nname\\u001b[31m.json');
    expect(r.stderr).not.toContain('\u001b');
    const missing = run(['harness-join-check', '--input', join(dir, 'no\nsuch\u001b.json')]);
    expect(missing.stderr.split('\n')).toHaveLength(2);
    expect(missing.stderr).toMatch(
      /^harness_join_check_invalid: failed to read input .*no\\nsuch\\u001b\.json: ENOENT/,
    );
    const good = join(dir, 'good\nname.json');
    writeFileSync(good, readFileSync(join(EXAMPLES, 'handoff-turn.json')));
    const summary = run(['harness-join-check', '--input', good]);
    expect(summary.stdout.split('\n')[1]).toBe(`  Input: ${dir}/good\\nname.json`);
  });

  it('escapes an unknown command or option in the usage error', () => {
    const r = run(['harness-join-check', '--input', 'x', '--bo\ngus\u001b']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).not.toContain('\u001b');
    expect(run(['launch\nmissiles']).stderr).toBe(
      'turngate: unknown command `launch\\nmissiles` (see turngate --help)\n',
    );
  });
});
