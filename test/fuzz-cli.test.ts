/**
 * Property runs over the command line's input path: the library function the command calls
 * (`harnessJoinCheck`, which runs `joinCheckText`) on a few thousand seeded inputs (turns with
 * hostile edits, arbitrary JSON, arbitrary text and bytes), then a handful of real processes.
 * What must hold for every input: no throw, an exit code of 0, 1 or 2, one escaped stderr line or
 * none, a summary without control characters, --json bytes equal to the library's, the same
 * verdict for the text and for the object the public parser makes of it, and a join verdict
 * that agrees with an independent closure oracle. `npm run fuzz:campaign` runs the long version.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harnessJoinCheck, INVALID_PREFIX } from '../src/cli/harness-join-check.ts';
import { parseJson } from '../src/canonical/index.ts';
import { joinCheck, joinCheckText, renderJoinCheckJson, type JoinCheckResult } from '../src/join-check.ts';
import { evidence } from './arbitraries.ts';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'turngate.js');
const SEED = 20261122;

/** Rust's `str::trim`, written independently: Unicode White_Space at both ends. */
function trimOracle(text: string): string {
  const chars = [...text];
  const space = (c: string | undefined) => c !== undefined && /\p{White_Space}/u.test(c);
  while (space(chars[0])) chars.shift();
  while (space(chars.at(-1))) chars.pop();
  return chars.join('');
}

/** The ids of a row list, as the oracle reads them: trimmed, blanks and repeats dropped. */
function idSet(rows: unknown): Set<string> {
  const ids = new Set<string>();
  if (!Array.isArray(rows)) return ids;
  for (const row of rows) {
    const id = Array.isArray(row) ? row[0] : (row as { toolCallId?: unknown } | null)?.toolCallId;
    if (typeof id === 'string' && trimOracle(id) !== '') ids.add(trimOracle(id));
  }
  return ids;
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** Whether the join closes: every request answered, every answer requested and used, no use without an answer. */
function closedOracle(input: { evidence: Record<string, unknown> }): boolean {
  const requested = idSet(input.evidence['toolRequests']);
  const resulted = idSet(input.evidence['toolResults']);
  const used = idSet(input.evidence['toolUse']);
  return sameSet(requested, resulted) && sameSet(resulted, used);
}

const hostileText = fc.constantFrom(
  '\u001b[2J\u001b]0;title\u0007',
  '\r\nharness_join_check_invalid: forged',
  '\u202eevil',
  '\u0085tc-a\u3000',
  ' '.repeat(300),
  'x'.repeat(2000),
  '\u{1F600}',
  '\ufefftc-a',
);

type Edit = (input: { evidence: Record<string, unknown> }) => void;

/** Small hostile edits to a turn: padded ids, control characters, __proto__ keys, positional rows, repeats. */
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.constant<Edit>(() => {}),
  hostileText.map<Edit>((text) => (input) => {
    (input.evidence['protocolState'] as Record<string, unknown>)['stopReason'] = text;
  }),
  hostileText.map<Edit>((text) => (input) => {
    const rows = input.evidence['toolRequests'] as Record<string, unknown>[];
    if (rows[0] !== undefined) rows[0]['toolCallId'] = `${text}${String(rows[0]['toolCallId'])}`;
  }),
  fc.constant<Edit>((input) => {
    const rows = input.evidence['toolUse'] as Record<string, unknown>[];
    if (rows[0] !== undefined) rows[0]['toolCallId'] = ` ${String(rows[0]['toolCallId'])}\t`;
  }),
  fc.constant<Edit>((input) => {
    const rows = input.evidence['toolRequests'] as Record<string, unknown>[];
    if (rows[0] !== undefined) rows.push({ ...rows[0] });
  }),
  fc.constant<Edit>((input) => {
    const rows = input.evidence['toolRequests'] as unknown[];
    const row = rows[0] as Record<string, unknown> | undefined;
    if (row !== undefined) rows[0] = [row['toolCallId'], row['toolName']];
  }),
  fc.constant<Edit>((input) => {
    input.evidence['toolResults'] = [
      ...(input.evidence['toolResults'] as unknown[]),
      JSON.parse('{"toolCallId": "tc-z", "payload": {"__proto__": {"toolUse": [1]}}}'),
    ];
  }),
  fc.constant<Edit>((input) => {
    input.evidence['toolUse'] = undefined;
  }),
);

/** Input bytes for the command: edited turns (with their oracle), arbitrary JSON, arbitrary text and bytes. */
const commandInput: fc.Arbitrary<{ bytes: Uint8Array | string; closed?: boolean }> = fc
  .oneof(
    { arbitrary: fc.tuple(evidence(), edit), weight: 5 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ evidence: value })), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 200 }), weight: 1 },
  )
  .map((generated) => {
    if (Array.isArray(generated) && generated.length === 2 && typeof generated[1] === 'function') {
      const [turn, change] = generated as [Record<string, unknown>, Edit];
      const input = { evidence: structuredClone(turn) };
      change(input);
      return { bytes: Buffer.from(JSON.stringify(input)), closed: closedOracle(input) };
    }
    if (generated instanceof Uint8Array || typeof generated === 'string') return { bytes: generated };
    return { bytes: JSON.stringify(generated) };
  });

function verdict(outcome: JoinCheckResult): string {
  return outcome.ok ? renderJoinCheckJson(outcome.value) : `invalid ${outcome.failures[0]?.field}`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not be printed
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function checkOutput(
  bytes: Uint8Array | string,
  json: boolean,
  output: { stdout: string; stderr: string; exitCode: number },
) {
  expect([0, 1, 2]).toContain(output.exitCode);
  if (output.exitCode === 2) {
    expect(output.stdout).toBe('');
    expect(output.stderr.startsWith(`${INVALID_PREFIX} `)).toBe(true);
    expect(output.stderr.indexOf('\n')).toBe(output.stderr.length - 1);
    expect(output.stderr).not.toMatch(CONTROL);
    return;
  }
  expect(output.stderr).toBe('');
  if (json) {
    const outcome = joinCheckText(bytes);
    expect(outcome.ok && renderJoinCheckJson(outcome.value)).toBe(output.stdout);
  } else {
    expect(output.stdout).not.toMatch(CONTROL);
  }
}

describe('the command line’s input path under property runs', () => {
  it('holds every promise on 2,500 seeded inputs', () => {
    let closedSeen = 0;
    let openSeen = 0;
    fc.assert(
      fc.property(commandInput, fc.boolean(), fc.boolean(), ({ bytes, closed }, json, failOnReject) => {
        const output = harnessJoinCheck(bytes, { json, failOnReject, inputLabel: 'in\nput\u001b' });
        checkOutput(bytes, json, output);
        const outcome = joinCheckText(bytes);
        if (outcome.ok) {
          expect(output.exitCode).toBe(failOnReject && outcome.value.result === 'rejected' ? 1 : 0);
          // The text path and the object path (public parser, then the boundary snapshot) agree.
          expect(verdict(joinCheck(parseJson(bytes)))).toBe(verdict(outcome));
          if (closed !== undefined) {
            expect(outcome.value.witness.joinInput.joinClosed).toBe(closed);
            if (!closed) expect(outcome.value.result).toBe('rejected');
            if (closed) closedSeen++;
            else openSeen++;
          }
        } else {
          expect(output.exitCode).toBe(2);
        }
      }),
      { seed: SEED, numRuns: 2500 },
    );
    // The generator reaches both sides of the oracle often enough to mean something.
    expect(closedSeen).toBeGreaterThan(100);
    expect(openSeen).toBeGreaterThan(100);
  }, 120_000);

  it('a real process prints what the library function returns, for a handful of inputs', () => {
    const samples = fc.sample(fc.tuple(commandInput, fc.boolean()), { seed: SEED, numRuns: 6 });
    for (const [{ bytes }, json] of samples) {
      const args = [CLI, 'harness-join-check', '--input', '-', ...(json ? ['--json'] : [])];
      const run = spawnSync(process.execPath, args, { input: bytes, encoding: 'utf8' });
      const expected = harnessJoinCheck(bytes, { json, failOnReject: false, inputLabel: '-' });
      expect({ code: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
        code: expected.exitCode,
        stdout: expected.stdout,
        stderr: expected.stderr,
      });
    }
  }, 60_000);
});
