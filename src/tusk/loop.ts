/**
 * The Tusk harness loop: `boot` from persisted state, `step` one bounded item at a time with
 * verification before and after and one trajectory row per attempt, `stop` with a handoff
 * session for a fresh-context run.
 *
 * @module
 */
import { dirname, resolve } from 'node:path';
import { trimWhiteSpace } from '../canonical/index.ts';
import { HarnessInputError, TrajectoryTornTailError } from './errors.ts';
import type { HostEffect } from './host-effect.ts';
import type {
  HarnessEscalation,
  HarnessItemOutcome,
  HarnessMode,
  HarnessRunResult,
  HarnessStepRecord,
  HarnessStopReason,
  RunHarnessOptions,
  WorkItem,
} from './loop-types.ts';
import { leaseHandoffRef, siteLineageRefs } from './refs.ts';
import { classifyFailureClasses, decideRetry } from './retry-policy.ts';
import { bootstrapSession, type HarnessBootstrap, type HarnessSession, type SessionUpdate } from './session.ts';
import { readFeatureLedger, readSessionIfExists, writeSession } from './session-store.ts';
import { projectFeatures, DEFAULT_FEATURE_LEDGER_PATH } from './feature-ledger.ts';
import { formatRfc3339 } from './time.ts';
import { appendTrajectoryRow, readTrajectory, repairTrajectory } from './trajectory-store.ts';
import type { TrajectoryRow } from './trajectory.ts';
import { failureOf, stepContext } from './step-context.ts';
import {
  currentAttempt,
  itemOutcome,
  leaseFor,
  policyRef,
  resultClassOf,
  stopDefaults,
  verificationRefs,
} from './loop-outcomes.ts';
import { quote } from '../internal/display.ts';

const running = new Set<string>();

function refSegment(value: string, field: string, forbidDot: boolean): string {
  if (trimWhiteSpace(value) !== value || value === '' || /[\s/]/.test(value) || (forbidDot && value.includes('.'))) {
    throw new HarnessInputError(
      field,
      `expected a non-blank id without whitespace, "/"${forbidDot ? ' or "."' : ''}, received ${quote(value)}`,
    );
  }
  return value;
}

/**
 * Runs the harness loop until there is no more work, `maxSteps` items are done, an escalation
 * says `stop`, or the startup verification fails:
 *
 * - **boot**: reads the session (mode `start`, `resume` or `attach`) and its bootstrap
 *   projection, reads the trajectory (a torn last line fails the run, or is moved aside with
 *   `tornTrajectory: 'repair'`), runs the `boot` hook's startup verification, and writes the
 *   session `active`;
 * - **step**, per item: `claim` one bounded item and write the session `active` on it; then per
 *   attempt run `verifyBefore`, `run` (effects through `ctx.effect`, mutations only through
 *   `ctx.mutate` with a `MutationReady`), `verifyAfter`, and append one trajectory row with the
 *   attempt's witness refs, the item's lease handoff ref and its site lineage refs. A failed
 *   attempt is classified by the retry policy: retried (after `backoff`) or escalated, never
 *   passed. Attempts count across runs, so a restart does not reset the retry budget;
 * - **stop**: writes the handoff session `stopped` with the last item, its lease and lineage
 *   refs, a summary and the next step.
 *
 * A hook that throws outside a step's phases (`boot`, `claim`, `finish`, `stop`) rejects the
 * run and leaves the files as a crash would: the session stays `active`, so the next run
 * attaches.
 *
 * Source: the Tusk harness contract §2, §3, §4, §5, §6, §12, §14.1; HARNESS-RUNTIME §3;
 * HARNESS-RETRY-ESCALATION §3-§6.
 *
 * @param options - Paths, worker id, retry policy, hooks.
 * @returns The run's mode, its attempts, why it stopped, and the handoff session.
 * @throws {@link HarnessInputError} for bad options, a malformed session, ledger or trajectory, or a
 *   claimed item with a bad id or already finished in this run; {@link TrajectoryTornTailError} for
 *   a torn trajectory (default); whatever a hook throws outside a step's phases.
 * @example
 * ```ts
 * import { parseRetryPolicy, retryPolicyDigest, runHarness } from 'turngate/tusk';
 * const document = { schema: 1, policyKind: 'ci.harness.retry.policy.v1', policyId: 'policy.example.v1',
 *   defaultRule: { maxAttempts: 1, backoffClass: 'none', escalationAction: 'stop' },
 *   rules: [{ ruleId: 'transient_retry', failureClasses: ['flaky_io'], maxAttempts: 3, backoffClass: 'exponential_short', escalationAction: 'issue_discover' }] };
 * const todo = ['bd-1', 'bd-2'];
 * const result = await runHarness({
 *   sessionPath: '.premath/harness_session.json',
 *   trajectoryPath: '.premath/harness_trajectory.jsonl',
 *   workerId: 'w1',
 *   policy: parseRetryPolicy({ ...document, policyDigest: retryPolicyDigest(document) }),
 *   boot: () => ({ ok: true }),
 *   step: {
 *     claim: (ctx) => { const id = todo.find((t) => !ctx.finished.has(t)); return id === undefined ? undefined : { id, target: id }; },
 *     verifyBefore: () => ({ ok: true }),
 *     run: async (item, ctx) => { await ctx.effect({ action: 'issue.show', args: { id: item.id } }, () => ({ seen: true })); },
 *     verifyAfter: () => ({ ok: true, witnessRefs: ['ci://run/42'] }),
 *   },
 * });
 * result.stopReason; // 'no_more_work'
 * ```
 */
export async function runHarness<TTarget>(options: RunHarnessOptions<TTarget>): Promise<HarnessRunResult<TTarget>> {
  const workerId = refSegment(options.workerId, 'workerId', true);
  if (options.maxSteps !== undefined && (!Number.isSafeInteger(options.maxSteps) || options.maxSteps < 0)) {
    throw new HarnessInputError('maxSteps', `expected a non-negative integer, received ${String(options.maxSteps)}`);
  }
  const key = resolve(options.sessionPath);
  if (running.has(key)) {
    throw new HarnessInputError('sessionPath', `expected no other run on ${options.sessionPath} in this process`);
  }
  running.add(key);
  try {
    return await new HarnessRun(options, workerId).run();
  } finally {
    running.delete(key);
  }
}

class HarnessRun<TTarget> {
  private readonly clock: () => Date;
  private readonly workspace: string;
  private readonly steps: HarnessStepRecord<TTarget>[] = [];
  private readonly finished = new Set<string>();
  private rows: TrajectoryRow[] = [];
  private session!: HarnessSession;
  private handoffRefs: readonly string[] = [];
  private lastItem: { issueId: string; lineageRefs: readonly string[] } | undefined;

  constructor(
    private readonly options: RunHarnessOptions<TTarget>,
    private readonly workerId: string,
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.workspace = options.workspace ?? dirname(resolve(options.sessionPath));
  }

  private now(): Date {
    const now = this.clock();
    if (!(now instanceof Date) || Number.isNaN(now.getTime()))
      throw new RangeError('the clock returned an invalid Date');
    return now;
  }

  private writeSession(update: SessionUpdate): Promise<HarnessSession> {
    const withIssues =
      this.options.issuesPath === undefined ? update : { ...update, issuesPath: this.options.issuesPath };
    return writeSession(this.options.sessionPath, withIssues, { clock: () => this.now() }).then((session) => {
      this.session = session;
      return session;
    });
  }

  private async append(row: Parameters<typeof appendTrajectoryRow>[1]): Promise<TrajectoryRow> {
    const written = await appendTrajectoryRow(this.options.trajectoryPath, row, { clock: () => this.now() });
    this.rows.push(written);
    return written;
  }

  async run(): Promise<HarnessRunResult<TTarget>> {
    const boot = await this.boot();
    if (boot.failed !== undefined) return this.finish(boot, 'boot_verification_failed', boot.failed);
    let count = 0;
    let reason: HarnessStopReason = 'no_more_work';
    let escalated: HarnessEscalation | undefined;
    for (;;) {
      if (this.options.maxSteps !== undefined && count >= this.options.maxSteps) {
        reason = 'max_steps';
        break;
      }
      const item = await this.options.step.claim({
        bootstrap: boot.bootstrap,
        finished: this.finished,
        now: this.now(),
      });
      if (item === undefined) break;
      this.checkItem(item);
      count++;
      const outcome = await this.item(item);
      this.finished.add(item.id);
      if (outcome.escalation?.action === 'stop') {
        reason = 'escalated_stop';
        escalated = outcome.escalation;
        break;
      }
    }
    return this.finish(boot, reason, escalated);
  }

  private checkItem(item: WorkItem<TTarget>): void {
    refSegment(item.id, 'item.id', false);
    if (item.issueId !== undefined) refSegment(item.issueId, 'item.issueId', false);
    if (this.finished.has(item.id)) {
      throw new HarnessInputError(
        'item.id',
        `expected an item this run has not finished, received ${quote(item.id)} again (claim must skip ctx.finished)`,
      );
    }
  }

  private async boot(): Promise<{
    mode: HarnessMode;
    bootstrap: HarnessBootstrap | undefined;
    repaired?: HarnessRunResult<TTarget>['repairedTornTail'];
    failed?: { failureClasses: readonly string[]; detail: string };
  }> {
    const { options } = this;
    const existing = await readSessionIfExists(options.sessionPath);
    let bootstrap: HarnessBootstrap | undefined;
    if (existing !== undefined) {
      const featureLedgerRef = options.featureLedgerPath ?? DEFAULT_FEATURE_LEDGER_PATH;
      const ledger = options.featureLedgerPath === undefined ? undefined : await readFeatureLedger(featureLedgerRef);
      bootstrap = bootstrapSession(existing, {
        sessionRef: options.sessionPath,
        featureLedgerRef,
        features: ledger === undefined ? undefined : projectFeatures(ledger),
      });
    }
    const mode: HarnessMode = bootstrap?.mode ?? 'start';
    let read = await readTrajectory(options.trajectoryPath);
    let repaired: HarnessRunResult<TTarget>['repairedTornTail'];
    if (read.tornTail !== undefined) {
      if (options.tornTrajectory !== 'repair') throw new TrajectoryTornTailError(options.trajectoryPath, read.tornTail);
      const repair = await repairTrajectory(options.trajectoryPath);
      if (repair.tornTail !== undefined && repair.savedTo !== undefined) {
        repaired = { tornTail: repair.tornTail, savedTo: repair.savedTo };
      }
      read = await readTrajectory(options.trajectoryPath);
    }
    this.rows = [...read.rows];
    const verification = await options.boot({ mode, bootstrap, trajectory: read.rows, now: this.now() });
    const base = repaired === undefined ? { mode, bootstrap } : { mode, bootstrap, repaired };
    if (!verification.ok) {
      const failureClasses = classifyFailureClasses(verification.failureClasses);
      const decision = decideRetry(options.policy, failureClasses, 1);
      const n = this.rows.filter((r) => r.stepId.startsWith(`${this.workerId}.boot.`)).length + 1;
      await this.append({
        stepId: `${this.workerId}.boot.${n}`,
        action: 'harness.boot',
        resultClass: `failed_${decision.matchedFailureClass}`,
        witnessRefs: [...verificationRefs(verification), policyRef(decision)],
        startedAt: formatRfc3339(this.now()),
      });
      return { ...base, failed: { failureClasses, detail: verification.detail ?? '' } };
    }
    await this.writeSession({
      state: 'active',
      summary: `worker ${this.workerId} booted (${mode})`,
      nextStep: 'claim the next item',
    });
    return base;
  }

  /** Prior rows of this worker for an item, in file order. */
  private history(item: WorkItem<TTarget>): TrajectoryRow[] {
    const prefix = `${this.workerId}.${item.id}.`;
    return this.rows.filter((r) => r.stepId.startsWith(prefix) && /^\d+$/.test(r.stepId.slice(prefix.length)));
  }

  private async item(item: WorkItem<TTarget>): Promise<HarnessItemOutcome> {
    const history = this.history(item);
    let n = history.length;
    let attempt = currentAttempt(history);
    const issueId = item.issueId ?? item.id;
    const lineageRefs = siteLineageRefs({
      issueId,
      workerId: this.workerId,
      repoRoot: this.workspace,
      issuesPath: this.options.issuesPath ?? '',
      worktree: this.workspace,
    });
    this.lastItem = { issueId, lineageRefs };
    await this.writeSession({
      state: 'active',
      issueId,
      summary: `worker ${this.workerId} claimed ${item.id} (attempt ${attempt})`,
      nextStep: `verify, run and verify ${item.id}`,
      lineageRefs,
      witnessRefs: [],
    });
    for (;;) {
      n++;
      const record = await this.attempt(item, `${this.workerId}.${item.id}.${n}`, attempt, lineageRefs);
      const decision = record.decision;
      if (decision === undefined || !decision.retry)
        return this.settle(item, itemOutcome(record, issueId, attempt), lineageRefs);
      await this.writeSession({
        state: 'active',
        issueId,
        summary: `worker ${this.workerId}: ${item.id} attempt ${attempt} failed (${decision.matchedFailureClass})`,
        nextStep: `retry ${item.id} (attempt ${attempt + 1} of ${decision.maxAttempts}, backoff ${decision.backoffClass})`,
        lineageRefs,
      });
      await this.options.backoff?.(decision);
      attempt++;
    }
  }

  /**
   * Records an item's final outcome: the task list first (`finish`), then the session, so a
   * session that says "completed" implies the task list does too.
   */
  private async settle(
    item: WorkItem<TTarget>,
    outcome: HarnessItemOutcome,
    lineageRefs: readonly string[],
  ): Promise<HarnessItemOutcome> {
    await this.options.step.finish?.(item, outcome);
    const escalation = outcome.escalation;
    this.handoffRefs =
      outcome.row.witnessRefs?.filter((r) => r.startsWith('lease://') || r.startsWith('policy://')) ?? [];
    await this.writeSession({
      state: 'active',
      issueId: item.issueId ?? item.id,
      summary:
        escalation === undefined
          ? `worker ${this.workerId} completed ${item.id}`
          : `worker ${this.workerId} escalated ${item.id}: ${escalation.action} (${escalation.failureClass})`,
      nextStep:
        escalation?.action === 'stop' ? `resolve ${escalation.failureClass} on ${item.id}` : 'claim the next item',
      lineageRefs,
      witnessRefs: this.handoffRefs,
    });
    return outcome;
  }

  private async attempt(
    item: WorkItem<TTarget>,
    stepId: string,
    attempt: number,
    lineageRefs: readonly string[],
  ): Promise<HarnessStepRecord<TTarget> & { witnessRefs: readonly string[] }> {
    const startedAt = this.now();
    const effects: HostEffect[] = [];
    const instructionRefs: string[] = [];
    const ctx = stepContext({
      item,
      stepId,
      attempt,
      now: startedAt,
      sessionId: this.session.sessionId,
      effects,
      instructionRefs,
    });
    const witnessRefs: string[] = [];
    let failure: HarnessStepRecord<TTarget>['failure'];
    const fail = (
      phase: 'verifyBefore' | 'run' | 'verifyAfter',
      cause: { readonly failureClasses: readonly string[]; readonly detail?: string | undefined },
    ) => {
      failure = { phase, failureClasses: classifyFailureClasses(cause.failureClasses), detail: cause.detail ?? '' };
    };
    const verify = async (phase: 'verifyBefore' | 'verifyAfter') => {
      try {
        const verification = await this.options.step[phase](item, ctx);
        witnessRefs.push(...verificationRefs(verification));
        if (!verification.ok) fail(phase, verification);
      } catch (error) {
        fail(phase, failureOf(error));
      }
    };
    await verify('verifyBefore');
    if (failure === undefined) {
      try {
        await this.options.step.run(item, ctx);
      } catch (error) {
        fail('run', failureOf(error));
      }
    }
    if (failure === undefined) await verify('verifyAfter');
    for (const effect of effects) witnessRefs.push(...effect.witnessRefs);
    const decision =
      failure === undefined ? undefined : decideRetry(this.options.policy, failure.failureClasses, attempt);
    const lease = leaseHandoffRef(
      leaseFor(
        item,
        this.workerId,
        decision === undefined ? 'completed' : decision.retry ? 'retry' : decision.escalationAction,
      ),
    );
    const row = await this.append({
      stepId,
      issueId: item.issueId ?? item.id,
      action: item.action ?? 'harness.step',
      resultClass: resultClassOf(decision),
      instructionRefs,
      witnessRefs: [...witnessRefs, lease, ...(decision === undefined ? [] : [policyRef(decision)])],
      lineageRefs: [...lineageRefs],
      startedAt: formatRfc3339(startedAt),
    });
    const record: HarnessStepRecord<TTarget> = {
      item,
      attempt,
      row,
      effects: Object.freeze([...effects]),
      ...(failure === undefined ? {} : { failure }),
      ...(decision === undefined ? {} : { decision }),
    };
    this.steps.push(record);
    return { ...record, witnessRefs: Object.freeze([...new Set(witnessRefs)]) };
  }

  private async finish(
    boot: {
      mode: HarnessMode;
      bootstrap: HarnessBootstrap | undefined;
      repaired?: HarnessRunResult<TTarget>['repairedTornTail'];
    },
    reason: HarnessStopReason,
    cause: HarnessEscalation | { failureClasses: readonly string[]; detail: string } | undefined,
  ): Promise<HarnessRunResult<TTarget>> {
    const defaults = stopDefaults(this.workerId, this.steps, this.options.maxSteps, cause);
    const handoff = (await this.options.stop?.({ reason, steps: this.steps, now: this.now() })) ?? {};
    const session = await this.writeSession({
      state: 'stopped',
      ...(this.lastItem === undefined
        ? {}
        : { issueId: this.lastItem.issueId, lineageRefs: this.lastItem.lineageRefs, witnessRefs: this.handoffRefs }),
      summary: handoff.summary ?? defaults[reason].summary,
      nextStep: handoff.nextStep ?? defaults[reason].nextStep,
    });
    return {
      mode: boot.mode,
      bootstrap: boot.bootstrap,
      ...(boot.repaired === undefined ? {} : { repairedTornTail: boot.repaired }),
      steps: Object.freeze([...this.steps]),
      stopReason: reason,
      session,
    };
  }
}
