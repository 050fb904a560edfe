import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HarnessInputError } from './errors.ts';
import { computeKpi } from './kpi.ts';
import { normalizeTrajectoryRow, type TrajectoryRow } from './trajectory.ts';

const row = (stepId: string, resultClass: string, finishedAt: string, issueId: string | null = 'bd-1'): TrajectoryRow =>
  normalizeTrajectoryRow({ stepId, issueId: issueId ?? undefined, action: 'worker.loop', resultClass, finishedAt });

describe('computeKpi (the Tusk harness contract §13)', () => {
  it('applies the formula over the window', () => {
    const report = computeKpi([
      row('w1.bd-1.1', 'completed', '2026-02-22T10:00:00Z'),
      row('w1.bd-2.1', 'completed', '2026-02-22T11:00:00Z'),
      row('w2.bd-3.1', 'completed', '2026-02-22T11:30:00Z'),
      row('w2.bd-4.1', 'failed_check_failed', '2026-02-22T12:00:00Z'),
    ]);
    // completed 3, window rows 4, workers 2: per day 3 * 24/24 = 3; per worker 1.5; pass rate 0.75; kpi 1.125.
    expect(report).toEqual({
      schema: 1,
      kpiKind: 'premath.multithread.throughput.v1',
      windowHours: 24,
      windowStart: '2026-02-21T12:00:00Z',
      windowEnd: '2026-02-22T12:00:00Z',
      counts: { windowRows: 4, completedRows: 3, failedRows: 1, activeWorkers: 2, workerIds: ['w1', 'w2'] },
      ratios: { gatePassRate: 0.75, throughputPerWorkerPerDay: 1.5, kpi: 1.125 },
      thresholds: { targetKpi: 0.8, rollbackKpi: 0.4, minSampleRows: 3 },
      decision: { state: 'pass', reason: 'kpi at or above target threshold' },
    });
  });

  it('windows by finishedAt, both ends included, and scales per day by the window', () => {
    const rows = [
      row('w1.a.1', 'completed', '2026-02-22T00:00:00Z'),
      row('w1.b.1', 'completed', '2026-02-22T06:00:00Z'),
      row('w1.c.1', 'completed', '2026-02-22T12:00:00Z'),
      row('w1.d.1', 'completed', '2026-02-21T23:59:59Z'),
    ];
    const report = computeKpi(rows, { windowHours: 12 });
    expect(report.counts.windowRows).toBe(3);
    expect(report.ratios.throughputPerWorkerPerDay).toBe(6); // 3 * (24 / 12) / 1
    const ended = computeKpi(rows, { windowHours: 12, windowEnd: '2026-02-22T06:00:00Z' });
    expect([ended.windowStart, ended.counts.windowRows]).toEqual(['2026-02-21T18:00:00Z', 3]);
  });

  it('counts only rows with an issue as completed and as workers', () => {
    const report = computeKpi([
      row('w1.a.1', 'completed', '2026-02-22T00:00:00Z', null),
      row('w2.b.1', 'completed', '2026-02-22T00:00:00Z'),
      row('w3', 'ok', '2026-02-22T00:00:00Z'),
    ]);
    expect(report.counts).toEqual({
      windowRows: 3,
      completedRows: 2,
      failedRows: 1,
      activeWorkers: 2,
      workerIds: ['w2', 'w3'],
    });
  });

  it.each([
    ['insufficient_data', 2, 0.8, 0.4],
    ['rollback', 3, 0.8, 0.7],
    ['watch', 3, 0.9, 0.4],
    ['pass', 3, 0.3, 0.2],
  ])('decides %s', (state, n, targetKpi, rollbackKpi) => {
    // One worker, one completion per row in a 24 h window; kpi = 2 * (2/3) = 1.333 for 3 rows with one failure.
    const rows = [
      row('w1.a.1', 'completed', '2026-02-22T00:00:00Z'),
      row('w1.b.1', 'failed_x', '2026-02-22T01:00:00Z'),
      row('w1.c.1', 'completed', '2026-02-22T02:00:00Z'),
    ].slice(0, n);
    const report = computeKpi(rows, { targetKpi: targetKpi * 2, rollbackKpi: rollbackKpi * 2 });
    expect(report.decision.state).toBe(state);
  });

  it('reports insufficient data for an empty trajectory, with the epoch window', () => {
    const report = computeKpi([]);
    expect([report.windowEnd, report.windowStart, report.ratios.kpi, report.decision.state]).toEqual([
      '1970-01-01T00:00:00Z',
      '1969-12-31T00:00:00Z',
      0,
      'insufficient_data',
    ]);
  });

  it('rounds ratios to 6 decimals, ties to even as Python does', () => {
    const rows = Array.from({ length: 128 }, (_, i) =>
      row(`w1.i${i}.1`, i === 0 ? 'completed' : 'failed_x', '2026-02-22T00:00:00Z'),
    );
    const report = computeKpi(rows);
    // 1/128 = 0.0078125 exactly: Python's round(x, 6) gives 0.007812 (half to even).
    expect(report.ratios.gatePassRate).toBe(0.007812);
    expect(
      computeKpi([
        row('w1.a.1', 'completed', '2026-02-22T00:00:00Z'),
        row('w1.b.1', 'x', '2026-02-22T00:00:00Z'),
        row('w1.c.1', 'x', '2026-02-22T00:00:00Z'),
      ]).ratios.gatePassRate,
    ).toBe(0.333333);
  });

  it.each([
    ['windowHours', { windowHours: 0 }],
    ['windowHours', { windowHours: 1.5 }],
    ['minSampleRows', { minSampleRows: 0 }],
    ['targetKpi', { targetKpi: 0 }],
    ['rollbackKpi', { rollbackKpi: Number.NaN }],
    ['targetKpi', { targetKpi: 0.4, rollbackKpi: 0.4 }],
    ['windowEnd', { windowEnd: 'tomorrow' }],
  ])('refuses a bad %s', (field, options) => {
    try {
      computeKpi([], options);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessInputError);
      expect((error as HarnessInputError).field).toBe(field);
    }
  });

  it('equals the formula for any rows, whatever their order (property)', () => {
    const arbitraryRow = fc
      .record({
        worker: fc.constantFrom('w1', 'w2', 'w3'),
        issue: fc.option(fc.constantFrom('bd-1', 'bd-2'), { nil: undefined }),
        resultClass: fc.constantFrom('completed', 'accepted', 'failed_x', 'retry_needed_y'),
        hour: fc.integer({ min: 0, max: 47 }),
      })
      .map((r, i = 0) =>
        row(
          `${r.worker}.${r.issue ?? 'none'}.${i}`,
          r.resultClass,
          `2026-02-${r.hour < 24 ? '21' : '22'}T${String(r.hour % 24).padStart(2, '0')}:00:00Z`,
          r.issue ?? null,
        ),
      );
    fc.assert(
      fc.property(fc.array(arbitraryRow, { maxLength: 20 }), fc.integer({ min: 1, max: 48 }), (rows, windowHours) => {
        const report = computeKpi(rows, { windowHours });
        const endMs = Math.max(0, ...rows.map((r) => Date.parse(r.finishedAt)));
        const inWindow = rows.filter(
          (r) => Date.parse(r.finishedAt) >= endMs - windowHours * 3_600_000 && Date.parse(r.finishedAt) <= endMs,
        );
        const completed = inWindow.filter(
          (r) => r.issueId !== undefined && ['completed', 'accepted'].includes(r.resultClass),
        ).length;
        const workers = new Set(inWindow.filter((r) => r.issueId !== undefined).map((r) => r.stepId.split('.')[0]))
          .size;
        const passRate = inWindow.length === 0 ? 0 : completed / inWindow.length;
        const kpi = ((completed * (24 / windowHours)) / Math.max(workers, 1)) * passRate;
        expect(report.counts.windowRows).toBe(inWindow.length);
        expect(report.counts.completedRows).toBe(completed);
        expect(report.ratios.kpi).toBeCloseTo(kpi, 5);
        expect(computeKpi([...rows].reverse(), { windowHours })).toEqual(report);
      }),
    );
  });
});
