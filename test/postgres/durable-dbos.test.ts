/**
 * The durable tool loop on DBOS and PostgreSQL, across processes: a worker killed with SIGKILL at
 * each point of a turn (after the model call and before its record, inside the write-ahead of the
 * reply, during a read, during a
 * mutation, after a mutation and before its record, after the ledger's record and before the
 * step's checkpoint, while waiting for an approval) and a second
 * worker that recovers the workflow; then many workflows on several queue workers, one of them
 * killed. The worker is test/fixtures/durable-worker.mjs (needs dist/); it counts model calls,
 * reads, effects and rejected histories in PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { admin, connection, freshPrefix } from './database.ts';

const worker = new URL('../fixtures/durable-worker.mjs', import.meta.url).pathname;
const prefix = freshPrefix('durable');

afterAll(async () => {
  await admin.query(`DROP TABLE IF EXISTS ${prefix}_counts`);
  await admin.query(`DROP SCHEMA IF EXISTS ${prefix}_dbos CASCADE`);
});

interface Ended {
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts a worker process (`mode`, `arg`) with its own executor id and environment. */
function start(mode: string, arg: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [worker, mode, arg], {
    env: { ...process.env, TURNGATE_PG_URL: connection, DURABLE_PREFIX: prefix, NODE_NO_WARNINGS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let launched: () => void = () => {};
  // Resolves once a `serve` worker printed `ready` (launched).
  const ready = new Promise<void>((resolve) => {
    launched = resolve;
  });
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
    if (stdout.startsWith('ready')) launched();
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const ended = new Promise<Ended>((resolve) =>
    child.on('exit', (code, signal) => resolve({ signal, code, stdout, stderr })),
  );
  return { child, ended, ready };
}

/** The counts of one workflow (`model.1`, `read`, `effect`, `rejected`...), 0 when never counted. */
async function counts(workflowId: string): Promise<Record<string, number>> {
  const { rows } = await admin.query<{ what: string; n: number }>(
    `SELECT what, n FROM ${prefix}_counts WHERE workflow_id = $1`,
    [workflowId],
  );
  return Object.fromEntries(rows.map((r) => [r.what, r.n]));
}

interface Result {
  readonly status: string;
  readonly turns: { readonly calls: { readonly errorCode?: string }[]; readonly waits: number }[];
}

/** How many calls of the result were answered `effect_outcome_unknown`. */
function unknowns(result: Result): number {
  return result.turns.flatMap((t) => t.calls).filter((c) => c.errorCode === 'effect_outcome_unknown').length;
}

/** One kill point: a worker killed there, a second one (same executor) recovering the workflow. */
async function killPoint(point: string) {
  const id = `${prefix}-${point}`;
  const env = {
    DURABLE_EXECUTOR: `x-${point}`,
    ...(point === 'approval' ? { DURABLE_APPROVAL: '1' } : {}),
  };
  const killed = await start('run', id, { ...env, DURABLE_CRASH: point }).ended;
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  const second = await start(point === 'approval' ? 'approve' : 'run', id, env).ended;
  expect(second.code, second.stderr).toBe(0);
  const result = JSON.parse(second.stdout) as Result;
  const n = await counts(id);
  return {
    status: result.status,
    modelCalls: [n['model.1'] ?? 0, n['model.2'] ?? 0],
    effects: n['effect'] ?? 0,
    unknown: unknowns(result),
    rejected: n['rejected'] ?? 0,
    waits: result.turns.reduce((sum, t) => sum + t.waits, 0),
  };
}

it('recovers a workflow killed at each point of a turn: each model call recorded once, each effect once or answered unknown, no refused history', async () => {
  // One point at a time: DBOS hands a recovered workflow to any worker of the application.
  const model = await killPoint('model');
  const replyRecord = await killPoint('reply-record');
  const read = await killPoint('read');
  const mutation = await killPoint('mutation');
  const afterMutation = await killPoint('after-mutation');
  const answered = await killPoint('answered');
  const approval = await killPoint('approval');
  const table = { model, replyRecord, read, mutation, afterMutation, answered, approval };
  expect(table).toEqual({
    // Killed before the step recorded the reply: the model is asked once more (nothing ran yet).
    model: { status: 'done', modelCalls: [2, 1], effects: 1, unknown: 0, rejected: 0, waits: 0 },
    // Killed between the two writes of the reply's write-ahead (the record left `started`): the
    // replayed model step gives the same reply, which the loop's write-ahead lets through.
    replyRecord: { status: 'done', modelCalls: [1, 1], effects: 1, unknown: 0, rejected: 0, waits: 0 },
    read: { status: 'done', modelCalls: [1, 1], effects: 1, unknown: 0, rejected: 0, waits: 0 },
    // Killed after the claim and before the effect: not run again, answered unknown.
    mutation: { status: 'done', modelCalls: [1, 1], effects: 0, unknown: 1, rejected: 0, waits: 0 },
    // Killed after the effect and before its record: not run again, answered unknown.
    afterMutation: { status: 'done', modelCalls: [1, 1], effects: 1, unknown: 1, rejected: 0, waits: 0 },
    // Killed after the ledger recorded the effect and before DBOS checkpointed the step: the
    // re-run step replays the recorded outcome (the read runs again; the effect does not).
    answered: { status: 'done', modelCalls: [1, 1], effects: 1, unknown: 0, rejected: 0, waits: 0 },
    approval: { status: 'done', modelCalls: [1, 1], effects: 1, unknown: 0, rejected: 0, waits: 1 },
  });
  // The reads ran again where the answer step did not finish (reads are safe to repeat).
  expect((await counts(`${prefix}-read`))['read']).toBe(2);
  expect((await counts(`${prefix}-model`))['read']).toBe(1);
  expect((await counts(`${prefix}-reply-record`))['read']).toBe(1);
  expect((await counts(`${prefix}-answered`))['read']).toBe(2);
}, 180_000);

it('runs many workflows on three queue workers, one killed mid-run and replaced: none lost, no effect twice', async () => {
  const total = 24;
  // The first worker migrates DBOS's schema and makes the tables alone (launched at once on a
  // fresh schema, DBOS's migrations of two processes can deadlock); then the others.
  const workers = [start('serve', '300', { DURABLE_EXECUTOR: 'q1' })];
  try {
    await workers[0]?.ready;
    workers.push(start('serve', '300', { DURABLE_EXECUTOR: 'q2' }), start('serve', '300', { DURABLE_EXECUTOR: 'q3' }));
    await Promise.all(workers.map((w) => w.ready));
    const enqueued = start('enqueue', String(total), {});
    // Kill q1 once some effects ran and while it runs workflows (PENDING under its executor id),
    // then start its replacement (same executor id: its launch hands q1's workflows to the queue).
    let finished = false;
    void enqueued.ended.then(() => {
      finished = true;
    });
    let inFlight = 0;
    while (!finished) {
      const { rows } = await admin.query<{ effects: string; pending: string }>(
        `SELECT (SELECT count(*) FROM ${prefix}_counts WHERE what = 'effect' AND workflow_id LIKE $1) AS effects, ` +
          `(SELECT count(*) FROM ${prefix}_dbos.workflow_status WHERE executor_id = 'q1' AND status = 'PENDING') AS pending`,
        [`${prefix}-wf-%`],
      );
      inFlight = Number(rows[0]?.pending);
      if (Number(rows[0]?.effects) >= 4 && inFlight > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    workers[0]?.child.kill('SIGKILL');
    expect((await workers[0]?.ended)?.signal).toBe('SIGKILL');
    workers.push(start('serve', '300', { DURABLE_EXECUTOR: 'q1' }));
    const done = await enqueued.ended;
    expect(done.code, done.stderr).toBe(0);
    const results = JSON.parse(done.stdout) as { id: string; status: string; unknown: number }[];
    expect(inFlight).toBeGreaterThan(0);
    expect(results.filter((r) => r.status === 'done')).toHaveLength(total);
    const { rows } = await admin.query<{ workflow_id: string; n: number }>(
      `SELECT workflow_id, n FROM ${prefix}_counts WHERE what = 'effect' AND workflow_id LIKE $1`,
      [`${prefix}-wf-%`],
    );
    // No effect twice; each workflow's effect ran once, or its outcome was hidden by the kill (answered unknown).
    expect(rows.filter((r) => r.n > 1)).toEqual([]);
    const ran = new Set(rows.map((r) => r.workflow_id));
    const missing = results.filter((r) => !ran.has(r.id));
    expect(missing.filter((r) => r.unknown !== 1)).toEqual([]);
    expect(rows.length + missing.length).toBe(total);
    // Where the effect ran, only a kill between it and its record answers unknown (at most the kill's few).
    expect(results.filter((r) => ran.has(r.id) && r.unknown > 0).length).toBeLessThanOrEqual(4);
  } finally {
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.ended));
  }
}, 180_000);
