import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settle, useAll } from '../builder/index.ts';
import {
  admitMutation,
  callSpec,
  closeJoin,
  defineTools,
  requestTools,
  type MutationReady,
} from '../typestate/index.ts';
import { HarnessInputError, StepFailure, TrajectoryTornTailError } from './errors.ts';
import type { HarnessStepContext, HarnessStepHooks, RunHarnessOptions, Verification } from './loop-types.ts';
import { runHarness } from './loop.ts';
import { parseRetryPolicy } from './retry-policy.ts';
import { readSession, writeSession } from './session-store.ts';
import { readTrajectory } from './trajectory-store.ts';

const POLICY = parseRetryPolicy(
  readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'harness', 'retry-policy.json')),
);
const MUTATION_POLICY = 'pol.workspace-write.v1';

const tools = defineTools({
  'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
});

/** A real closed turn (read one file, consume it into the mutation) admitted for mutation in this step. */
async function admitted(
  ctx: HarnessStepContext<unknown>,
  refs = ctx.turnRefs,
  write: { path: string } = { path: 'a.txt' },
): Promise<MutationReady<typeof tools.definitions>> {
  const spec = callSpec({
    callId: `turn/${ctx.stepId}`,
    modelRef: 'scripted/model',
    actionMode: 'json',
    executionPattern: 'single',
    normalizerId: 'nf.v1',
    mutationPolicyDigest: MUTATION_POLICY,
    governancePolicyDigest: 'pol.gov.v1',
    toolRenderProtocolDigest: 'pol.render.v1',
    reminderQueuePolicyDigest: 'pol.queue.v1',
    stateViewPolicyDigest: 'pol.view.v1',
    decompositionPolicyDigest: 'pol.decomp.v1',
  });
  if (!spec.ok) throw new Error(spec.failures[0]?.detail);
  const requests = requestTools(spec.value, tools, [
    { toolCallId: 'tc-1', toolName: 'fs.read', input: { path: 'a.txt' } },
  ]);
  if (!requests.ok) throw new Error(requests.failures[0]?.detail);
  const results = await settle(requests.value, { 'fs.read': () => ({ text: 'hello' }) });
  if (!results.ok) throw new Error(results.failures[0]?.detail);
  const use = useAll(results.value, () => ({
    disposition: 'consumed',
    evidence: { mutationInputRef: `mutation://fs/${write.path}`, mutationInput: write },
  }));
  if (!use.ok) throw new Error(use.failures[0]?.detail);
  const closed = closeJoin(use.value, {
    protocolState: { stopReason: 'end_turn', continuationAllowed: false },
    toolRender: [
      {
        toolCallId: 'tc-1',
        operatorPayloadDigest: 'op:tc-1',
        reminderRenderDigest: 'rem:tc-1',
        injectionPoint: 'tool_response',
        policyDigest: 'pol.render.v1',
      },
    ],
    reminderQueue: [{ queueId: 'reminders', reducedDigest: 'sha256:reduced', policyDigest: 'pol.queue.v1' }],
    stateViews: [{ viewId: 'workspace', viewDigest: 'sha256:view', policyDigest: 'pol.view.v1' }],
    ...refs,
  });
  if (!closed.ok) throw new Error(closed.failures.map((f) => f.class).join(', '));
  const ready = admitMutation(closed.value, { mutationPolicyDigest: MUTATION_POLICY });
  if (!ready.ok) throw new Error(ready.failures.map((f) => f.class).join(', '));
  return ready.value;
}

interface Setup {
  readonly root: string;
  readonly sessionPath: string;
  readonly trajectoryPath: string;
  readonly events: string[];
}

function setup(): Setup {
  const root = mkdtempSync(join(tmpdir(), 'turngate-loop-'));
  return { root, sessionPath: join(root, 'session.json'), trajectoryPath: join(root, 'trajectory.jsonl'), events: [] };
}

/** A task list of ids; `finish` removes finished ids. */
function queue(ids: string[]) {
  const pending = [...ids];
  return {
    pending,
    claim: (ctx: { finished: ReadonlySet<string> }) => {
      const id = pending.find((p) => !ctx.finished.has(p));
      return id === undefined ? undefined : { id, target: id };
    },
  };
}

function options(
  s: Setup,
  step: Partial<HarnessStepHooks<string>>,
  extra: Partial<RunHarnessOptions<string>> = {},
): RunHarnessOptions<string> {
  const q = queue(['t-1', 't-2']);
  const ok: Verification = { ok: true };
  let t = Date.parse('2026-02-22T01:00:00Z');
  const clock = () => {
    t += 1000;
    return new Date(t);
  };
  return {
    sessionPath: s.sessionPath,
    trajectoryPath: s.trajectoryPath,
    workerId: 'w1',
    policy: POLICY,
    clock,
    boot: (ctx) => {
      s.events.push(`boot ${ctx.mode}`);
      return ok;
    },
    step: {
      claim: q.claim,
      verifyBefore: (item) => {
        s.events.push(`before ${item.id}`);
        return ok;
      },
      run: (item) => {
        s.events.push(`run ${item.id}`);
      },
      verifyAfter: (item) => {
        s.events.push(`after ${item.id}`);
        return { ok: true, witnessRefs: [`ci://${item.id}`] };
      },
      ...step,
    },
    ...extra,
  };
}

describe('runHarness (the Tusk harness contract §2, §3: boot, step, stop)', () => {
  it('boots, verifies before and after each bounded item, appends one row per step, stops with a handoff', async () => {
    const s = setup();
    const result = await runHarness(options(s, {}));
    expect(s.events).toEqual([
      'boot start',
      'before t-1',
      'run t-1',
      'after t-1',
      'before t-2',
      'run t-2',
      'after t-2',
    ]);
    expect([result.mode, result.stopReason, result.steps.length]).toEqual(['start', 'no_more_work', 2]);
    const { rows } = await readTrajectory(s.trajectoryPath);
    expect(rows.map((r) => [r.stepId, r.issueId, r.action, r.resultClass])).toEqual([
      ['w1.t-1.1', 't-1', 'harness.step', 'completed'],
      ['w1.t-2.1', 't-2', 'harness.step', 'completed'],
    ]);
    const [first] = rows;
    expect(first?.witnessRefs?.filter((r) => !r.startsWith('lease://'))).toEqual(['ci://t-1']);
    expect(first?.witnessRefs?.some((r) => r.startsWith('lease://handoff/t-1/released/'))).toBe(true);
    expect(first?.lineageRefs?.map((r) => r.split('/')[0])).toEqual(['cover:', 'ctx:', 'refinement:']);
    expect(first?.startedAt).toBeDefined();
    const session = await readSession(s.sessionPath);
    expect(session).toMatchObject({
      state: 'stopped',
      issueId: 't-2',
      summary: 'worker w1: 2 completed, 0 escalated; no more work',
      nextStep: 'claim the next ready item',
    });
    expect(session.witnessRefs?.[0]).toMatch(/^lease:\/\/handoff\/t-2\/released\//);
    expect(session.lineageRefs).toEqual(rows[1]?.lineageRefs);
    expect(result.session).toEqual(session);
  });

  it('resumes a stopped session and attaches to an active one, keeping the session id', async () => {
    const s = setup();
    const first = await runHarness(options(s, {}, { maxSteps: 1 }));
    expect(first.stopReason).toBe('max_steps');
    const second = await runHarness(options(s, {}));
    expect([second.mode, second.bootstrap?.resumeIssueId, second.session.sessionId]).toEqual([
      'resume',
      't-1',
      first.session.sessionId,
    ]);
    await writeSession(s.sessionPath, { state: 'active', issueId: 't-9' });
    const third = await runHarness(options(s, {}));
    expect([third.mode, third.bootstrap?.resumeIssueId]).toEqual(['attach', 't-9']);
    expect(third.session.startedAt).toBe(first.session.startedAt);
  });

  it('stops before any step when startup verification fails, recording the failure', async () => {
    const s = setup();
    const result = await runHarness(
      options(
        s,
        {},
        { boot: () => ({ ok: false, failureClasses: ['check_failed'], detail: 'dependency graph has a cycle' }) },
      ),
    );
    expect([result.stopReason, result.steps]).toEqual(['boot_verification_failed', []]);
    const { rows } = await readTrajectory(s.trajectoryPath);
    expect(rows.map((r) => [r.stepId, r.action, r.resultClass])).toEqual([
      ['w1.boot.1', 'harness.boot', 'failed_check_failed'],
    ]);
    expect(result.session).toMatchObject({
      state: 'stopped',
      summary: 'worker w1: startup verification failed: dependency graph has a cycle',
      nextStep: 'fix the startup verification (check_failed) before the next run',
    });
  });
});

describe('runHarness: retry and escalation by the policy (HARNESS-RETRY-ESCALATION §3-§6; the Tusk harness contract §5)', () => {
  it('retries a transient failure with the backoff label, never sleeping, then completes', async () => {
    const s = setup();
    let failures = 2;
    const backoffs: string[] = [];
    const result = await runHarness(
      options(
        s,
        {
          verifyAfter: (item) =>
            item.id === 't-1' && failures-- > 0 ? { ok: false, failureClasses: ['flaky_io'] } : { ok: true },
        },
        { backoff: (decision) => void backoffs.push(`${decision.attempt}:${decision.backoffClass}`) },
      ),
    );
    expect(backoffs).toEqual(['1:exponential_short', '2:exponential_short']);
    expect(result.steps.map((st) => [st.row.stepId, st.attempt, st.row.resultClass])).toEqual([
      ['w1.t-1.1', 1, 'retry_needed_flaky_io'],
      ['w1.t-1.2', 2, 'retry_needed_flaky_io'],
      ['w1.t-1.3', 3, 'completed'],
      ['w1.t-2.1', 1, 'completed'],
    ]);
    expect(result.steps[0]?.failure).toEqual({ phase: 'verifyAfter', failureClasses: ['flaky_io'], detail: '' });
    expect(result.steps[0]?.row.witnessRefs?.some((r) => r.startsWith(`policy://harness-retry/`))).toBe(true);
  });

  it('escalates when the budget is spent, hands the typed escalation to finish, and moves on', async () => {
    const s = setup();
    const finished: string[] = [];
    const result = await runHarness(
      options(s, {
        verifyBefore: (item) =>
          item.id === 't-1' ? { ok: false, failureClasses: ['check_failed'], detail: 'lint' } : { ok: true },
        finish: (item, outcome) => {
          finished.push(
            `${item.id} ${outcome.status} ${outcome.escalation?.action ?? ''} ${outcome.escalation?.hostAction ?? ''}`,
          );
        },
      }),
    );
    expect(finished).toEqual(['t-1 escalated mark_blocked issue.update', 't-2 completed  ']);
    expect(result.steps.map((st) => st.row.resultClass)).toEqual(['failed_check_failed', 'completed']);
    expect(result.steps[0]?.row.witnessRefs?.some((r) => r.startsWith('lease://handoff/t-1/released/'))).toBe(true);
    expect(result.stopReason).toBe('no_more_work');
    expect(result.session.summary).toBe('worker w1: 1 completed, 1 escalated; no more work');
  });

  it('stops the run on a stop escalation (an unknown class gets the default rule)', async () => {
    const s = setup();
    const result = await runHarness(
      options(s, {
        run: () => {
          throw new StepFailure(['disk_full'], 'no space left');
        },
      }),
    );
    expect(result.stopReason).toBe('escalated_stop');
    expect(result.steps.map((st) => [st.row.stepId, st.row.resultClass])).toEqual([['w1.t-1.1', 'failed_disk_full']]);
    expect(result.steps[0]?.failure).toEqual({
      phase: 'run',
      failureClasses: ['disk_full'],
      detail: 'disk_full: no space left',
    });
    expect(result.session).toMatchObject({ state: 'stopped', nextStep: 'resolve disk_full on t-1 before retrying' });
  });

  it('never passes a failure silently: a thrown error, or a failure with no class, is classified', async () => {
    const s = setup();
    const result = await runHarness(
      options(s, {
        verifyBefore: (item) => {
          if (item.id === 't-1') throw new TypeError('undefined is not a function');
          return { ok: false, failureClasses: [] };
        },
      }),
    );
    expect(result.steps.map((st) => st.row.resultClass)).toEqual(['failed_step_uncaught_error']);
    expect(result.steps[0]?.failure?.detail).toBe('TypeError: undefined is not a function');
    const s2 = setup();
    const second = await runHarness(options(s2, { verifyBefore: () => ({ ok: false, failureClasses: [' '] }) }));
    expect(second.steps[0]?.row.resultClass).toBe('failed_pipeline_missing_failure_class');
  });

  it('keeps the retry budget across a restart: attempts are counted from the trajectory', async () => {
    const s = setup();
    const flaky: Partial<HarnessStepHooks<string>> = {
      verifyAfter: () => ({ ok: false, failureClasses: ['flaky_io'] }),
    };
    // A run that dies after the first failed attempt (the hook throws outside a step phase).
    const crash = await runHarness(
      options(s, flaky, {
        backoff: () => {
          throw new Error('process killed');
        },
      }),
    ).catch((e: unknown) => e);
    expect((crash as Error).message).toBe('process killed');
    expect((await readSession(s.sessionPath)).state).toBe('active');
    const result = await runHarness(options(s, flaky));
    expect(result.mode).toBe('attach');
    expect(
      result.steps.filter((st) => st.item.id === 't-1').map((st) => [st.row.stepId, st.attempt, st.row.resultClass]),
    ).toEqual([
      ['w1.t-1.2', 2, 'retry_needed_flaky_io'],
      ['w1.t-1.3', 3, 'failed_flaky_io'],
    ]);
  });
});

describe('runHarness: effects and mutations (the Tusk harness contract §3.2, §14.1; MutationReady only)', () => {
  it('records a host-effect envelope for each effect and mutation; mutations carry policyDigest and instructionRef', async () => {
    const s = setup();
    const written: string[] = [];
    const result = await runHarness(
      options(s, {
        run: async (item, ctx) => {
          const text = await ctx.effect(
            { action: 'fs.read', args: { path: 'a.txt' }, witnessRefs: ['file://a.txt'] },
            () => 'hello',
          );
          const ready = await admitted(ctx, ctx.turnRefs, { path: `${item.id}.txt` });
          await ctx.mutate(
            ready,
            { action: 'fs.write', args: { path: `${item.id}.txt` }, instructionRef: `instructions/${item.id}.json` },
            (witness) => {
              written.push(`${item.id}: ${text} under ${witness.mutationPolicyDigest}`);
              return { bytes: 5 };
            },
          );
        },
      }),
    );
    expect(written).toEqual(['t-1: hello under pol.workspace-write.v1', 't-2: hello under pol.workspace-write.v1']);
    const [read, write] = result.steps[0]?.effects ?? [];
    expect(read).toMatchObject({
      schema: 'premath.host_effect.v0',
      action: 'fs.read',
      resultClass: 'accepted',
      payload: 'hello',
      witnessRefs: ['file://a.txt'],
    });
    expect(read?.argsDigest).toMatch(/^he1_[0-9a-f]{64}$/);
    expect(read && 'policyDigest' in read).toBe(false);
    expect(write).toMatchObject({
      action: 'fs.write',
      resultClass: 'accepted',
      payload: { bytes: 5 },
      policyDigest: MUTATION_POLICY,
      instructionRef: 'instructions/t-1.json',
    });
    expect(write?.witnessRefs[0]).toMatch(/^turn:\/\/turn%2Fw1\.t-1\.1\/sha256:[0-9a-f]{64}$/);
    const row = result.steps[0]?.row;
    expect(row?.instructionRefs).toEqual(['instructions/t-1.json']);
    expect(row?.witnessRefs).toEqual(expect.arrayContaining(['file://a.txt', write?.witnessRefs[0]]));
  });

  it.each([
    'issue.update',
    'ISSUE.UPDATE',
    ' Issue.Update ',
    'ｉｓｓｕｅ.ｕｐｄａｔｅ',
    'issue.update\u200b', // a zero-width space after it
    'issue.upd\u0430te', // a Cyrillic а
    '\u0456ssue.update', // a Cyrillic і
  ])('refuses a mutation-capable action (%j) outside ctx.mutate: the effect never runs', async (action) => {
    const s = setup();
    let ran = false;
    const result = await runHarness(
      options(s, {
        run: async (_item, ctx) => {
          await ctx.effect({ action, args: { id: 't-1' } }, () => {
            ran = true;
          });
        },
      }),
    );
    expect(ran).toBe(false);
    expect(result.steps[0]?.failure?.failureClasses).toEqual(['mutation.use_evidence_missing']);
    expect(result.steps[0]?.effects).toEqual([]);
  });

  it('refuses a mutation with a blank instructionRef, a forged or spent MutationReady, or a turn of another step', async () => {
    const attempts: [string, (ctx: HarnessStepContext<string>) => Promise<unknown>][] = [
      [
        'blank instructionRef',
        async (ctx) =>
          ctx.mutate(
            await admitted(ctx),
            { action: 'fs.write', args: { path: 'a.txt' }, instructionRef: ' ' },
            () => 1,
          ),
      ],
      [
        'forged',
        async (ctx) => {
          const forged = JSON.parse('{}') as MutationReady;
          return ctx.mutate(forged, { action: 'fs.write', args: { path: 'a.txt' }, instructionRef: 'i' }, () => 1);
        },
      ],
      [
        'spent',
        async (ctx) => {
          const ready = await admitted(ctx);
          await ctx.mutate(ready, { action: 'fs.write', args: { path: 'a.txt' }, instructionRef: 'i' }, () => 1);
          return ctx.mutate(ready, { action: 'fs.write', args: { path: 'a.txt' }, instructionRef: 'i' }, () => 1);
        },
      ],
      [
        'another step',
        async (ctx) =>
          ctx.mutate(
            await admitted(ctx, {
              sessionRefs: ctx.turnRefs.sessionRefs,
              trajectoryRefs: ['harness-step://w1.other.1'],
            }),
            { action: 'fs.write', args: { path: 'a.txt' }, instructionRef: 'i' },
            () => 1,
          ),
      ],
    ];
    for (const [name, attempt] of attempts) {
      const s = setup();
      let effects = 0;
      const result = await runHarness(
        options(s, {
          run: async (_item, ctx) => {
            await attempt({
              ...ctx,
              mutate: (ready, request, perform) =>
                ctx.mutate(ready, request, (w) => {
                  effects++;
                  return perform(w);
                }),
            });
          },
        }),
      );
      const failure = result.steps[0]?.failure;
      expect([name, failure?.phase]).toEqual([name, 'run']);
      expect([name, effects]).toEqual([name, name === 'spent' ? 1 : 0]);
      expect(failure?.failureClasses[0]).toBe(
        name === 'forged' || name === 'spent' ? 'step_uncaught_error' : 'mutation.use_evidence_missing',
      );
      if (name === 'forged' || name === 'spent') expect(failure?.detail).toMatch(/^TypestateError: /);
    }
  });
});

describe('runHarness: guards', () => {
  it('fails on a torn trajectory by default, and repairs it when asked', async () => {
    const s = setup();
    await runHarness(options(s, {}, { maxSteps: 1 }));
    writeFileSync(s.trajectoryPath, `${readFileSync(s.trajectoryPath, 'utf8')}{"schema":1,"ste`);
    await expect(runHarness(options(s, {}))).rejects.toBeInstanceOf(TrajectoryTornTailError);
    const result = await runHarness(options(s, {}, { tornTrajectory: 'repair' }));
    expect(result.repairedTornTail?.tornTail.line).toBe(2);
    expect(readFileSync(result.repairedTornTail?.savedTo ?? '', 'utf8')).toBe('{"schema":1,"ste');
    expect((await readTrajectory(s.trajectoryPath)).rows.map((r) => r.stepId)).toEqual([
      'w1.t-1.1',
      'w1.t-1.2',
      'w1.t-2.1',
    ]);
  });

  it('refuses bad worker and item ids, an item claimed twice, and two runs on one session', async () => {
    const s = setup();
    await expect(runHarness(options(s, {}, { workerId: 'worker.1' }))).rejects.toThrow(/workerId/);
    await expect(runHarness(options(s, { claim: () => ({ id: 'a/b', target: 'x' }) }))).rejects.toThrow(/item\.id/);
    await expect(runHarness(options(s, { claim: () => ({ id: 'same', target: 'x' }) }))).rejects.toThrow(
      /claim must skip ctx\.finished/,
    );
    await expect(runHarness(options(s, {}, { maxSteps: -1 }))).rejects.toThrow(HarnessInputError);
    const slow = runHarness(options(s, { run: () => new Promise((r) => setTimeout(r, 50)) }));
    await expect(runHarness(options(s, {}))).rejects.toThrow(/no other run/);
    await slow;
  });
});
