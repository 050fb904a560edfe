import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HarnessInputError } from './errors.ts';
import { compareInstants, parseRfc3339 } from './time.ts';
import { isRetryNeededResultClass, isSuccessResultClass, projectTrajectory } from './trajectory-projection.ts';
import {
  normalizeTrajectoryRow,
  parseTrajectoryText,
  renderTrajectoryLine,
  tornTailOf,
  type TrajectoryRow,
} from './trajectory.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const row = (stepId: string, resultClass: string, finishedAt: string, action = 'apply.patch'): TrajectoryRow =>
  normalizeTrajectoryRow({ stepId, issueId: 'bd-1', action, resultClass, finishedAt });

describe('trajectory rows (the Tusk harness contract §12: normalization rules)', () => {
  it('trims, drops empty optional values, sorts and deduplicates refs', () => {
    expect(
      normalizeTrajectoryRow({
        schema: 1,
        stepKind: ' premath.harness.step.v1 ',
        stepId: ' step-1 ',
        issueId: ' bd-1 ',
        action: ' apply.patch ',
        resultClass: ' accepted ',
        instructionRefs: ['instructions/a.json', ''],
        witnessRefs: ['artifacts/ciwitness/w1.json', 'artifacts/ciwitness/w1.json'],
        lineageRefs: ['refinement://ctx/worker', 'cover://ctx/main', 'cover://ctx/main'],
        startedAt: ' ',
        finishedAt: '2026-02-22T01:01:00Z',
      }),
    ).toEqual({
      schema: 1,
      stepKind: 'premath.harness.step.v1',
      stepId: 'step-1',
      issueId: 'bd-1',
      action: 'apply.patch',
      resultClass: 'accepted',
      instructionRefs: ['instructions/a.json'],
      witnessRefs: ['artifacts/ciwitness/w1.json'],
      lineageRefs: ['cover://ctx/main', 'refinement://ctx/worker'],
      finishedAt: '2026-02-22T01:01:00Z',
    });
  });

  it.each([
    ['a malformed finishedAt', { finishedAt: 'bad-time' }, 'row.finishedAt'],
    ['a finishedAt without offset', { finishedAt: '2026-02-22T01:01:00' }, 'row.finishedAt'],
    ['a malformed startedAt', { startedAt: '2026-02-30T00:00:00Z' }, 'row.startedAt'],
    ['a blank stepId', { stepId: ' ' }, 'row.stepId'],
    ['a missing action', { action: undefined }, 'row.action'],
    ['a blank resultClass', { resultClass: '' }, 'row.resultClass'],
    ['schema 2', { schema: 2 }, 'row.schema'],
    ['another step kind', { stepKind: 'premath.harness.step.v2' }, 'row.stepKind'],
  ])('rejects %s', (_name, change, field) => {
    const input = { stepId: 's', action: 'a', resultClass: 'ok', finishedAt: '2026-02-22T01:01:00Z', ...change };
    try {
      normalizeTrajectoryRow(input);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessInputError);
      expect((error as HarnessInputError).field).toBe(field);
    }
  });

  it("writes premath's compact line in field order", () => {
    const line = renderTrajectoryLine(
      normalizeTrajectoryRow({
        finishedAt: '2026-02-22T01:01:00Z',
        startedAt: '2026-02-22T01:00:00Z',
        lineageRefs: ['l'],
        witnessRefs: ['w'],
        instructionRefs: ['i'],
        resultClass: 'ok',
        action: 'a',
        issueId: 'bd-1',
        stepId: 's',
      }),
    );
    expect(line).toBe(
      '{"schema":1,"stepKind":"premath.harness.step.v1","stepId":"s","issueId":"bd-1","action":"a","resultClass":"ok",' +
        '"instructionRefs":["i"],"witnessRefs":["w"],"lineageRefs":["l"],"startedAt":"2026-02-22T01:00:00Z","finishedAt":"2026-02-22T01:01:00Z"}\n',
    );
  });
});

describe('reading trajectory JSONL: torn last lines are reported, never parsed', () => {
  const line = renderTrajectoryLine(row('s-1', 'completed', '2026-02-22T01:00:00Z'));

  it('reads complete lines and skips blank ones', () => {
    const read = parseTrajectoryText(encode(`${line}\n  \r\n${line}`), 't.jsonl');
    expect(read.rows).toHaveLength(2);
    expect(read.tornTail).toBeUndefined();
    expect(read.completeBytes).toBe(encode(`${line}\n  \r\n${line}`).length);
  });

  it('reports a torn last line with its line number and byte offset', () => {
    const bytes = encode(`${line}${line.slice(0, 40)}`);
    const read = parseTrajectoryText(bytes, 't.jsonl');
    expect(read.rows).toHaveLength(1);
    expect(read.tornTail).toEqual({ line: 2, byteOffset: encode(line).length, byteLength: 40 });
    expect(read.completeBytes).toBe(encode(line).length);
  });

  it('treats a complete row without its line end as torn too (the write did not finish)', () => {
    const read = parseTrajectoryText(encode(line.slice(0, -1)), 't.jsonl');
    expect(read.rows).toEqual([]);
    expect(read.tornTail?.line).toBe(1);
  });

  it('requires schema and stepKind on rows read from a file (builders may leave them out)', () => {
    const bare = '{"stepId":"s","action":"a","resultClass":"ok","finishedAt":"2026-02-22T01:01:00Z"}\n';
    expect(() => parseTrajectoryText(encode(bare), 't.jsonl')).toThrow(/row\.schema: required field is missing/);
    expect(normalizeTrajectoryRow(JSON.parse(bare)).stepKind).toBe('premath.harness.step.v1');
  });

  it('does not call a blank unterminated tail torn', () => {
    expect(tornTailOf(encode(`${line}  `))).toBeUndefined();
    expect(tornTailOf(encode(''))).toBeUndefined();
  });

  it('refuses a malformed complete line, naming the file and line', () => {
    try {
      parseTrajectoryText(encode(`${line}{"schema":1}\n${line}`), 't.jsonl');
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessInputError);
      expect([(error as HarnessInputError).path, (error as HarnessInputError).line]).toEqual(['t.jsonl', 2]);
      expect((error as Error).message).toContain('(in t.jsonl line 2)');
    }
    expect(() => parseTrajectoryText(new Uint8Array([0xff, 0x0a]), 't.jsonl')).toThrow(/UTF-8/);
  });

  it('finds the torn tail of any cut of a valid file (property)', () => {
    const rows = [row('s-1', 'completed', '2026-02-22T01:00:00Z'), row('s-2', 'failed_x', '2026-02-22T02:00:00Z')];
    const bytes = encode(rows.map(renderTrajectoryLine).join(''));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bytes.length }), (cut) => {
        const read = parseTrajectoryText(bytes.subarray(0, cut), 't.jsonl');
        const complete = bytes.subarray(0, cut).lastIndexOf(0x0a) + 1;
        expect(read.rows).toEqual(rows.slice(0, bytes.subarray(0, complete).filter((b) => b === 0x0a).length));
        expect(read.tornTail === undefined).toBe(complete === cut);
      }),
    );
  });
});

describe('projectTrajectory (the Tusk harness contract §12: modes, ordering, counts)', () => {
  const rows = [
    row('step-a', 'accepted', '2026-02-22T01:01:00Z'),
    row('step-b', 'transient_failure', '2026-02-22T01:03:00Z'),
    row('step-c', 'policy_reject', '2026-02-22T01:02:00Z'),
  ];

  it('latest: every row, newest first, limited, with the counts', () => {
    const latest = projectTrajectory(rows, { mode: 'latest', limit: 2 });
    expect(latest).toMatchObject({
      projectionKind: 'premath.harness.trajectory.projection.v1',
      mode: 'latest',
      count: 2,
      totalCount: 3,
      failedCount: 2,
      retryNeededCount: 1,
    });
    expect(latest.items.map((r) => r.stepId)).toEqual(['step-b', 'step-c']);
  });

  it('failed and retry-needed filter the rows; the mode is written as premath writes it', () => {
    expect(projectTrajectory(rows, { mode: 'failed' }).items.map((r) => r.stepId)).toEqual(['step-b', 'step-c']);
    const retry = projectTrajectory(rows, { mode: 'retry-needed' });
    expect([retry.mode, retry.count, retry.items[0]?.stepId]).toEqual(['retry_needed', 1, 'step-b']);
    expect(projectTrajectory(rows, { mode: 'retry_needed' }).mode).toBe('retry_needed');
  });

  it('breaks finishedAt ties by stepId, then action; compares instants across offsets', () => {
    const tied = [
      row('s-2', 'ok', '2026-02-22T01:00:00Z', 'b'),
      row('s-1', 'ok', '2026-02-22T02:00:00+01:00', 'b'),
      row('s-1', 'ok', '2026-02-22T01:00:00Z', 'a'),
      row('s-0', 'ok', '2026-02-22T00:59:59.5Z', 'a'),
    ];
    expect(projectTrajectory(tied).items.map((r) => `${r.stepId}/${r.action}`)).toEqual([
      's-1/a',
      's-1/b',
      's-2/b',
      's-0/a',
    ]);
  });

  it('defaults to latest and 20, refuses an unknown mode or a bad limit', () => {
    const many = Array.from({ length: 25 }, (_, i) => row(`s-${i}`, 'ok', '2026-02-22T01:00:00Z'));
    expect(projectTrajectory(many).count).toBe(20);
    expect(projectTrajectory(many, { limit: 0 }).items).toEqual([]);
    expect(() => projectTrajectory(many, { mode: 'oldest' as 'latest' })).toThrow(/mode/);
    expect(() => projectTrajectory(many, { limit: -1 })).toThrow(/limit/);
    expect(() => projectTrajectory(many, { limit: 1.5 })).toThrow(/limit/);
  });

  it('classifies result classes after trimming, lowercasing and reading - as _', () => {
    expect(['accepted', 'Verified-Accept', ' OK ', 'passed', 'success', 'completed'].every(isSuccessResultClass)).toBe(
      true,
    );
    expect(['failed', 'retry_needed_x', 'complete'].some(isSuccessResultClass)).toBe(false);
    expect(
      ['retry_needed_lease_active', 'Transient', 'gate_timeout', 'network_down', 'Rate-Limit'].every(
        isRetryNeededResultClass,
      ),
    ).toBe(true);
    expect(isRetryNeededResultClass('failed_check_failed')).toBe(false);
  });

  const arbitraryRow = fc
    .record({
      stepId: fc.constantFrom('s-a', 's-b', 's-c'),
      action: fc.constantFrom('x', 'y'),
      resultClass: fc.constantFrom('completed', 'ok', 'retry_needed_flaky_io', 'failed_check_failed', 'gate_timeout'),
      minute: fc.integer({ min: 0, max: 5 }),
    })
    .map(({ minute, ...r }) => row(r.stepId, r.resultClass, `2026-02-22T01:0${minute}:00Z`, r.action));

  it('is sorted, counted and filtered consistently for any rows (property)', () => {
    fc.assert(
      fc.property(
        fc.array(arbitraryRow, { maxLength: 12 }),
        fc.constantFrom('latest', 'failed', 'retry-needed' as const),
        (rs, mode) => {
          const projection = projectTrajectory(rs, { mode, limit: 100 });
          expect(projection.totalCount).toBe(rs.length);
          expect(projection.failedCount).toBe(rs.filter((r) => !isSuccessResultClass(r.resultClass)).length);
          expect(projection.retryNeededCount).toBe(rs.filter((r) => isRetryNeededResultClass(r.resultClass)).length);
          const items = projection.items;
          for (let i = 1; i < items.length; i++) {
            const [a, b] = [items[i - 1] as TrajectoryRow, items[i] as TrajectoryRow];
            const time = compareInstants(
              parseRfc3339(b.finishedAt) ?? { seconds: 0, nanos: 0 },
              parseRfc3339(a.finishedAt) ?? { seconds: 0, nanos: 0 },
            );
            expect(
              time < 0 || (time === 0 && (a.stepId < b.stepId || (a.stepId === b.stepId && a.action <= b.action))),
            ).toBe(true);
          }
          // Whatever order the rows come in, the order keys come out the same (rows equal on all
          // three keys keep their file order: the sort is stable).
          const keys = (p: typeof projection) => p.items.map((r) => `${r.finishedAt}/${r.stepId}/${r.action}`);
          const reversed = projectTrajectory([...rs].reverse(), { mode, limit: 100 });
          expect(keys(reversed)).toEqual(keys(projection));
          expect({ ...reversed, items: [] }).toEqual({ ...projection, items: [] });
        },
      ),
    );
  });
});
