/**
 * The Tusk harness commands end to end on the bundled CLI: each verb, its flags, its `--json`
 * output, and its exit codes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { prettyJson } from '../src/canonical/index.ts';
import { computeKpi, parseSession, readTrajectory, renderSession } from '../src/tusk/index.ts';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'turngate.js');

function run(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dir = () => mkdtempSync(join(tmpdir(), 'turngate-cli-'));

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/turngate.js is missing: run `npm run build` first');
});

describe('turngate harness-session', () => {
  it('write --json prints premath-shaped JSON and writes the artifact atomically', () => {
    const root = dir();
    const path = join(root, '.premath', 'harness_session.json');
    const r = run([
      'harness-session',
      'write',
      '--path',
      path,
      '--state',
      'active',
      '--issue-id',
      ' bd-7 ',
      '--summary',
      'claimed bd-7',
      '--witness-ref',
      'w2',
      '--witness-ref',
      ' w1 ',
      '--witness-ref',
      'w2',
      '--lineage-ref',
      'ctx://issue/bd-7/x',
      '--issues',
      join(root, 'none.jsonl'),
      '--now',
      '2026-02-22T01:00:00Z',
      '--json',
    ]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const session = parseSession(readFileSync(path, 'utf8'));
    expect(readFileSync(path, 'utf8')).toBe(renderSession(session));
    expect(r.stdout).toBe(`${prettyJson({ action: 'harness-session.write', path, session })}\n`);
    expect(session).toMatchObject({
      sessionId: 'hs1_20260222T010000Z_bd-7',
      state: 'active',
      issueId: 'bd-7',
      witnessRefs: ['w1', 'w2'],
      issuesPath: join(root, 'none.jsonl'),
      startedAt: '2026-02-22T01:00:00Z',
    });

    const stopped = run([
      'harness-session',
      'write',
      '--path',
      path,
      '--next-step',
      'claim next',
      '--now',
      '2026-02-22T02:00:00Z',
      '--json',
    ]);
    const after = JSON.parse(stopped.stdout).session;
    expect(after).toMatchObject({
      sessionId: 'hs1_20260222T010000Z_bd-7',
      state: 'stopped',
      issueId: 'bd-7',
      witnessRefs: ['w1', 'w2'],
      startedAt: '2026-02-22T01:00:00Z',
      updatedAt: '2026-02-22T02:00:00Z',
      stoppedAt: '2026-02-22T02:00:00Z',
      nextStep: 'claim next',
    });
  });

  it('read and bootstrap, as JSON and as a summary', () => {
    const root = dir();
    const path = join(root, 'session.json');
    const ledger = join(root, 'ledger.json');
    run([
      'harness-session',
      'write',
      '--path',
      path,
      '--state',
      'stopped',
      '--issue-id',
      'bd-7',
      '--next-step',
      'claim next',
    ]);
    const read = run(['harness-session', 'read', '--path', path, '--json']);
    expect(JSON.parse(read.stdout)).toMatchObject({
      action: 'harness-session.read',
      path,
      session: { issueId: 'bd-7' },
    });
    expect(run(['harness-session', 'read', '--path', path]).stdout).toMatch(
      /^turngate harness-session read\n {2}Session ID: hs1_\d{8}T\d{6}Z_bd-7\n {2}State: stopped\n {2}Issue: bd-7\n {2}Next Step: claim next\n {2}Path: /,
    );
    writeFileSync(
      ledger,
      JSON.stringify({
        schema: 1,
        ledgerKind: 'premath.harness.feature_ledger.v1',
        updatedAt: '2026-02-22T01:00:00Z',
        features: [{ featureId: 'f-1', status: 'pending', updatedAt: '2026-02-22T01:00:00Z' }],
      }),
    );
    const boot = run(['harness-session', 'bootstrap', '--path', path, '--feature-ledger', ledger, '--json']);
    expect(JSON.parse(boot.stdout)).toMatchObject({
      bootstrapKind: 'premath.harness.bootstrap.v1',
      mode: 'resume',
      resumeIssueId: 'bd-7',
      nextFeatureId: 'f-1',
      featureClosureComplete: false,
      featureCount: 1,
    });
    expect(run(['harness-session', 'bootstrap', '--path', path, '--feature-ledger', ledger]).stdout).toContain(
      '  Next Feature: f-1\n',
    );
  });

  it.each([
    [['harness-session', 'write', '--state', 'paused'], /--state expects active or stopped/],
    [['harness-session', 'write', '--now', 'noon'], /--now expects an RFC 3339 timestamp/],
    [['harness-session', 'write', '--bogus'], /Unknown option '--bogus'/],
    [['harness-session', 'frobnicate'], /unknown verb `frobnicate`/],
  ])('refuses bad usage %j with exit 2', (args, message) => {
    const r = run(args, dir());
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n')).toHaveLength(2);
  });

  it('refuses a missing or malformed artifact with one harness_session_invalid line, naming field and file', () => {
    const root = dir();
    const path = join(root, 'session.json');
    const missing = run(['harness-session', 'read', '--path', path]);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      `harness_session_invalid: expected a harness session artifact, found no file (in ${path})\n`,
    ]);
    writeFileSync(
      path,
      JSON.stringify({
        schema: 1,
        sessionKind: 'premath.harness.session.v1',
        sessionId: 'h',
        state: 'active',
        startedAt: 'x',
        updatedAt: 'y',
      }),
    );
    const bad = run(['harness-session', 'bootstrap', '--path', path]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^harness_session_invalid: session\.startedAt: expected an RFC 3339 timestamp .* \(in .*session\.json\)\n$/,
    );
  });

  it('prints help', () => {
    const r = run(['harness-session', '--help']);
    expect([r.code, r.stdout.split('\n')[0]]).toEqual([
      0,
      'Usage: turngate harness-session write [--path <file>] [--state active|stopped] [options] [--json]',
    ]);
    expect(run(['--help']).stdout).toContain('turngate harness-kpi');
  });
});

describe('turngate harness-trajectory', () => {
  it('append --json prints the normalized row; query projects with the counts', () => {
    const path = join(dir(), 'trajectory.jsonl');
    const rows: [string, string, string][] = [
      ['step-a', 'accepted', '2026-02-22T01:01:00Z'],
      ['step-b', 'transient_failure', '2026-02-22T01:03:00Z'],
      ['step-c', 'policy_reject', '2026-02-22T01:02:00Z'],
    ];
    for (const [stepId, resultClass, finishedAt] of rows) {
      const r = run([
        'harness-trajectory',
        'append',
        '--path',
        path,
        '--step-id',
        stepId,
        '--action',
        'apply.patch',
        '--result-class',
        resultClass,
        '--finished-at',
        finishedAt,
        '--witness-ref',
        'w',
        '--witness-ref',
        'w',
        '--json',
      ]);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(JSON.parse(r.stdout)).toEqual({
        action: 'harness-trajectory.append',
        path,
        row: {
          schema: 1,
          stepKind: 'premath.harness.step.v1',
          stepId,
          action: 'apply.patch',
          resultClass,
          witnessRefs: ['w'],
          finishedAt,
        },
      });
    }
    const latest = JSON.parse(run(['harness-trajectory', 'query', '--path', path, '--limit', '2', '--json']).stdout);
    expect({ ...latest, items: latest.items.map((i: { stepId: string }) => i.stepId) }).toEqual({
      action: 'harness-trajectory.query',
      path,
      projectionKind: 'premath.harness.trajectory.projection.v1',
      mode: 'latest',
      count: 2,
      totalCount: 3,
      failedCount: 2,
      retryNeededCount: 1,
      items: ['step-b', 'step-c'],
    });
    const retry = JSON.parse(
      run(['harness-trajectory', 'query', '--path', path, '--mode', 'retry-needed', '--json']).stdout,
    );
    expect([retry.mode, retry.count]).toEqual(['retry_needed', 1]);
    expect(run(['harness-trajectory', 'query', '--path', path, '--mode', 'failed']).stdout).toBe(
      'turngate harness-trajectory query\n' +
        `  Path: ${path}\n  Mode: failed\n  Count: 2 (total=3, failed=2, retry_needed=1)\n` +
        '  - step-b [transient_failure] apply.patch (2026-02-22T01:03:00Z)\n' +
        '  - step-c [policy_reject] apply.patch (2026-02-22T01:02:00Z)\n',
    );
  });

  it('reports a torn last line on query, refuses append, and repair moves it aside', async () => {
    const path = join(dir(), 'trajectory.jsonl');
    run(['harness-trajectory', 'append', '--path', path, '--step-id', 's-1', '--action', 'a', '--result-class', 'ok']);
    const complete = readFileSync(path);
    writeFileSync(path, Buffer.concat([complete, Buffer.from('{"schema":1,"stepKi')]));
    const query = run(['harness-trajectory', 'query', '--path', path, '--json']);
    expect(query.code).toBe(0);
    expect(JSON.parse(query.stdout)).toMatchObject({
      totalCount: 1,
      tornTail: { line: 2, byteOffset: complete.length, byteLength: 19 },
    });
    expect(query.stderr).toContain('line 2 is torn');
    const append = run([
      'harness-trajectory',
      'append',
      '--path',
      path,
      '--step-id',
      's-2',
      '--action',
      'a',
      '--result-class',
      'ok',
    ]);
    expect(append.code).toBe(2);
    expect(append.stderr).toMatch(/^harness_trajectory_invalid: .* line 2 is torn .* repair --path /);
    const repair = JSON.parse(run(['harness-trajectory', 'repair', '--path', path, '--json']).stdout);
    expect(repair).toEqual({
      action: 'harness-trajectory.repair',
      path,
      repaired: true,
      tornTail: { line: 2, byteOffset: complete.length, byteLength: 19 },
      savedTo: `${path}.torn-${complete.length}`,
    });
    expect(
      run(['harness-trajectory', 'append', '--path', path, '--step-id', 's-2', '--action', 'a', '--result-class', 'ok'])
        .code,
    ).toBe(0);
    expect((await readTrajectory(path)).rows.map((r) => r.stepId)).toEqual(['s-1', 's-2']);
    expect(run(['harness-trajectory', 'repair', '--path', path]).stdout).toContain('Nothing to repair');
  });

  it.each([
    [['harness-trajectory', 'append', '--action', 'a', '--result-class', 'ok'], 2, /append needs --step-id/],
    [
      [
        'harness-trajectory',
        'append',
        '--step-id',
        's',
        '--action',
        'a',
        '--result-class',
        'ok',
        '--finished-at',
        'now',
      ],
      2,
      /harness_trajectory_invalid: row\.finishedAt: expected an RFC 3339/,
    ],
    [['harness-trajectory', 'query', '--mode', 'oldest'], 2, /--mode expects latest, failed or retry-needed/],
    [['harness-trajectory', 'query', '--limit=1.5'], 2, /--limit expects a whole number/],
  ])('refuses %j', (args, code, message) => {
    const r = run(args, dir());
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
  });

  it('names the line of a malformed row', () => {
    const path = join(dir(), 'trajectory.jsonl');
    writeFileSync(path, '{"schema":1}\n');
    const r = run(['harness-trajectory', 'query', '--path', path]);
    expect([r.code, r.stderr]).toEqual([
      2,
      `harness_trajectory_invalid: row.stepKind: required field is missing (in ${path} line 1)\n`,
    ]);
  });
});

describe('turngate harness-kpi', () => {
  it('reports the KPI as JSON (floats as floats) and as text, and fails on rollback when asked', async () => {
    const root = dir();
    const path = join(root, 'trajectory.jsonl');
    const rows: [string, string, string][] = [
      ['w1.bd-1.1', 'completed', '2026-02-22T10:00:00Z'],
      ['w1.bd-2.1', 'completed', '2026-02-22T11:00:00Z'],
      ['w2.bd-3.1', 'failed_check_failed', '2026-02-22T12:00:00Z'],
    ];
    for (const [stepId, resultClass, finishedAt] of rows) {
      run([
        'harness-trajectory',
        'append',
        '--path',
        path,
        '--step-id',
        stepId,
        '--issue-id',
        'bd',
        '--action',
        'worker.loop',
        '--result-class',
        resultClass,
        '--finished-at',
        finishedAt,
      ]);
    }
    const r = run(['harness-kpi', '--trajectory-path', path, '--json'], root);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const report = computeKpi((await readTrajectory(path)).rows);
    expect(JSON.parse(r.stdout)).toEqual({
      ...report,
      refs: {
        trajectoryPath: path,
        sessionPath: resolve(root, '.premath/harness_session.json'),
        issuesPath: resolve(root, '.premath/issues.jsonl'),
      },
    });
    expect(r.stdout).toContain('"throughputPerWorkerPerDay": 1.0\n');
    expect(r.stdout).toContain('"targetKpi": 0.8\n');
    const text = run(['harness-kpi', '--trajectory-path', path], root);
    expect(text.stdout).toBe(
      '[harness-kpi] deterministic throughput benchmark\n' +
        '  window: 2026-02-21T12:00:00Z -> 2026-02-22T12:00:00Z (24h)\n' +
        '  counts: rows=3 completed=2 failed=1 workers=2\n' +
        '  ratios: pass_rate=0.666667 throughput_per_worker_day=1 kpi=0.666667\n' +
        '  thresholds: target=0.8 rollback=0.4 min_rows=3\n' +
        '  decision: watch (kpi below target threshold)\n',
    );
    const rollback = run(
      ['harness-kpi', '--trajectory-path', path, '--rollback-kpi', '0.7', '--target-kpi', '0.9', '--fail-on-rollback'],
      root,
    );
    expect([rollback.code, rollback.stdout.includes('decision: rollback')]).toEqual([1, true]);
    const windowed = JSON.parse(
      run(
        [
          'harness-kpi',
          '--trajectory-path',
          path,
          '--window-hours',
          '1',
          '--window-end',
          '2026-02-22T11:00:00Z',
          '--json',
        ],
        root,
      ).stdout,
    );
    expect([windowed.counts.windowRows, windowed.decision.state]).toEqual([2, 'insufficient_data']);
  });

  it.each([
    [['harness-kpi', '--window-hours', '1.5'], /--window-hours expects a whole number/],
    [
      ['harness-kpi', '--target-kpi', '0.2'],
      /harness_kpi_invalid: targetKpi: expected a target above the rollback KPI 0.4/,
    ],
    [['harness-kpi', '--window-end', 'later'], /harness_kpi_invalid: windowEnd/],
  ])('refuses %j with exit 2', (args, message) => {
    const r = run(args, dir());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
