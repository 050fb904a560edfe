/**
 * Megabyte-sized strings through every path that writes a message or a summary line, in the
 * library and in the command line: each finishes in time linear in its input and quotes a
 * bounded excerpt. The time bound is deliberately loose (a loaded two-core machine): what it
 * separates is linear (milliseconds) from quadratic (a 1 MB string of spaces took about 25
 * minutes through the old one-line formatting).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { harnessJoinCheck } from '../src/cli/harness-join-check.ts';
import { joinCheck, joinCheckText } from '../src/join-check.ts';
import { callSpec } from './arbitraries.ts';

const MB = 1 << 20;
const spaces = ' '.repeat(MB);
const letters = 'x'.repeat(MB);
const escapes = '\u001b[31m\r\n'.repeat(MB / 8);
/** Generous enough for a loaded machine; a quadratic path takes minutes on these inputs. */
const BOUND_MS = 5000;
const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'turngate.js');

const evidence = {
  callSpec,
  toolRequests: [{ toolCallId: 'tc-1', toolName: 'fs.read' }],
  toolResults: [{ toolCallId: 'tc-1', status: 'ok' }],
  toolUse: [{ toolCallId: 'tc-1', disposition: 'observed' }],
  protocolState: { stopReason: 'end_turn' },
};
const withEvidence = (changes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  evidence: { ...evidence, ...changes },
  ...extra,
});

/** Inputs that fail, each carrying a megabyte string to the place a message quotes it. */
const refused: [string, unknown][] = [
  ['evidence as a string of spaces', { evidence: spaces }],
  [
    'a boolean field given a long string',
    withEvidence({ protocolState: { stopReason: 'x', continuationAllowed: letters } }),
  ],
  ['a long unknown status', withEvidence({ toolResults: [{ toolCallId: 'tc-1', status: letters }] })],
  ['a status of escape sequences', withEvidence({ toolResults: [{ toolCallId: 'tc-1', status: escapes }] })],
  ['a long unknown disposition', withEvidence({ toolUse: [{ toolCallId: 'tc-1', disposition: `${spaces}x` }] })],
  [
    'a long conflicting duplicate id',
    withEvidence({
      toolRequests: [
        { toolCallId: letters, toolName: 'a' },
        { toolCallId: letters, toolName: 'b' },
      ],
    }),
  ],
  ['a blank id of a megabyte of spaces', withEvidence({ toolUse: [{ toolCallId: spaces, disposition: 'observed' }] })],
  [
    'a number too large for an f64, a megabyte long',
    withEvidence({ toolResults: [{ toolCallId: 'tc-1', payload: 1 }] }),
  ],
];
/** The same as JSON text, plus faults only text can have. */
const refusedText: [string, string][] = [
  ...refused.map(([what, input]): [string, string] => [what, JSON.stringify(input)]),
  ['a syntax error after a megabyte of spaces', `{"evidence":${spaces}x}`],
  ['a syntax error after a megabyte of newlines', `{"evidence":${'\n'.repeat(MB)}x}`],
  ['an unterminated megabyte string', `{"evidence":"${letters}`],
  ['a raw control character after a megabyte string', `{"evidence":"${letters}\u0007"}`],
  ['a megabyte number literal out of range', `{"evidence":{"n":1${'0'.repeat(MB)}e400}}`],
];
// The number case above only makes sense as text: give it the long literal there.
refusedText[7] = [
  'a number too large for an f64, a megabyte long',
  JSON.stringify(refused[7]?.[1]).replace('"payload":1', `"payload":1${'0'.repeat(MB)}.5e400`),
];

function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: performance.now() - start };
}

describe('messages quoting megabyte strings', () => {
  it.each(refusedText)('the library refuses %s quickly, quoting a bounded excerpt', (_what, text) => {
    const { value: outcome, ms } = timed(() => joinCheckText(text));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.failures[0]?.message.length).toBeLessThan(1100);
  });

  it.each(refused)('joinCheck refuses %s built in code quickly, quoting a bounded excerpt', (_what, input) => {
    const { value: outcome, ms } = timed(() => joinCheck(input));
    expect(ms).toBeLessThan(BOUND_MS);
    if (!outcome.ok) expect(outcome.failures[0]?.message.length).toBeLessThan(1100);
  });

  it('joinCheck names a cycle below a megabyte-long key quickly', () => {
    const payload: Record<string, unknown> = {};
    payload[letters] = payload;
    const { value: outcome, ms } = timed(() =>
      joinCheck(withEvidence({ toolResults: [{ toolCallId: 'tc-1', payload }] })),
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(outcome.ok ? '' : outcome.failures[0]?.message).toMatch(
      /^evidence\.toolResults\[0\]\.payload\.xxx.*more characters\)/,
    );
    expect(outcome.ok ? 0 : outcome.failures[0]?.message.length).toBeLessThan(1100);
    expect(outcome.ok ? 0 : outcome.failures[0]?.field.length).toBeGreaterThan(MB);
  });

  it.each(refusedText)('the command refuses %s with one short stderr line, quickly', (_what, text) => {
    const { value: output, ms } = timed(() =>
      harnessJoinCheck(text, { json: false, failOnReject: false, inputLabel: `in${spaces}put\n` }),
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(output.exitCode).toBe(2);
    expect(output.stderr.endsWith('\n')).toBe(true);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
    expect(output.stderr.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(output.stderr.length).toBeLessThan(10_000);
  });

  it('the command summarizes megabyte ids, stop reasons and handoff targets quickly, in bounded lines', () => {
    const input = withEvidence(
      {
        toolRequests: [{ toolCallId: escapes, toolName: 'fs.read' }],
        protocolState: { stopReason: `${letters}\u001b]0;title\u0007` },
        handoff: { target: `${spaces}t${escapes}` },
      },
      { handoffConstraints: { allowedTargets: ['elsewhere'] } },
    );
    const { value: output, ms } = timed(() =>
      harnessJoinCheck(JSON.stringify(input), { json: false, failOnReject: false, inputLabel: 'turn.json' }),
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(output.exitCode).toBe(0);
    const lines = output.stdout.split('\n');
    expect(lines.at(-1)).toBe('');
    for (const line of lines) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
      expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(line.length).toBeLessThan(10_000);
    }
    expect(output.stdout).toContain('protocol.stop_reason_unhandled');
    expect(output.stdout).toContain('\\u001b');
  });

  it('the process refuses {"evidence": "<a megabyte of spaces>"} in bounded time, one stderr line', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'turngate-')), 'spaces.json');
    writeFileSync(path, JSON.stringify({ evidence: spaces }));
    const { value: run, ms } = timed(() =>
      spawnSync(process.execPath, [CLI, 'harness-join-check', '--input', path], { encoding: 'utf8' }),
    );
    expect(ms).toBeLessThan(BOUND_MS * 2);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^harness_join_check_invalid: evidence: expected Object, received " {200}… \(1,048,376 more characters\)"/,
    );
    expect(run.stderr.split('\n')).toHaveLength(2);
  });
});
