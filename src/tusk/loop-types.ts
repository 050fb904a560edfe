/**
 * The types of the boot/step/stop loop: hooks, contexts, records and the run result.
 *
 * @module
 */
import type { JsonValue } from '../canonical/index.ts';
import type { TornTail } from './errors.ts';
import type { HostEffect } from './host-effect.ts';
import type { MutationWitness, StateArgument } from './mutation-gate.ts';
import type { EscalationAction, RetryDecision, RetryPolicy } from './retry-policy.ts';
import type { HarnessBootstrap, HarnessSession } from './session.ts';
import type { TrajectoryRow } from './trajectory.ts';

/**
 * One bounded work item a step claims.
 *
 * @example
 * ```ts
 * import type { WorkItem } from 'turngate/tusk';
 * const item: WorkItem<{ path: string }> = { id: 'bd-7', target: { path: 'CHANGELOG.md' } };
 * ```
 */
export interface WorkItem<TTarget> {
  /** The item id: non-blank, no `/` or whitespace (it is part of step ids and refs). */
  readonly id: string;
  /** What the step works on. */
  readonly target: TTarget;
  /** The issue it belongs to (default: `id`). */
  readonly issueId?: string | undefined;
  /** The lease id it was claimed under, when the issue tracker has leases. */
  readonly leaseId?: string | undefined;
  /** The trajectory rows' action label (default `harness.step`). */
  readonly action?: string | undefined;
}

/**
 * The outcome of a verification: `ok`, or failed with the failure classes the retry policy
 * classifies (an empty list is classified as `pipeline_missing_failure_class`, never passed).
 *
 * Source: the Tusk harness contract §3.2, §5 (deterministic verification; no silent pass-through).
 *
 * @example
 * ```ts
 * import type { Verification } from 'turngate/tusk';
 * const passed: Verification = { ok: true, witnessRefs: ['ci://run/42'] };
 * const failed: Verification = { ok: false, failureClasses: ['check_failed'], detail: '2 tests fail' };
 * ```
 */
export type Verification =
  | { readonly ok: true; readonly witnessRefs?: readonly string[] | undefined }
  | {
      readonly ok: false;
      readonly failureClasses: readonly string[];
      readonly detail?: string | undefined;
      readonly witnessRefs?: readonly string[] | undefined;
    };

/**
 * How a run found the session: `start` (no session file), `resume` (a stopped session: a clean
 * handoff), `attach` (an active session: the previous run did not stop, e.g. it crashed).
 *
 * @example
 * ```ts
 * import type { HarnessMode } from 'turngate/tusk';
 * const mode: HarnessMode = 'attach';
 * ```
 */
export type HarnessMode = 'start' | 'resume' | 'attach';

/**
 * What `boot` sees.
 *
 * @example
 * ```ts
 * import type { HarnessBootContext } from 'turngate/tusk';
 * declare const ctx: HarnessBootContext;
 * const inFlight = ctx.mode === 'attach' ? ctx.bootstrap?.resumeIssueId : null;
 * ```
 */
export interface HarnessBootContext {
  /** How the session was found. */
  readonly mode: HarnessMode;
  /** The bootstrap projection of the previous session (`undefined` on `start`). */
  readonly bootstrap: HarnessBootstrap | undefined;
  /** The trajectory's rows so far. */
  readonly trajectory: readonly TrajectoryRow[];
  /** The clock reading at boot. */
  readonly now: Date;
}

/**
 * What `step.claim` sees.
 *
 * @example
 * ```ts
 * import type { HarnessClaimContext } from 'turngate/tusk';
 * declare const ctx: HarnessClaimContext;
 * const skip = (id: string) => ctx.finished.has(id);
 * ```
 */
export interface HarnessClaimContext {
  /** The bootstrap projection the run started from (`undefined` on `start`). */
  readonly bootstrap: HarnessBootstrap | undefined;
  /** Items this run already finished (completed or escalated): claim must not return them again. */
  readonly finished: ReadonlySet<string>;
  /** The clock reading. */
  readonly now: Date;
}

/**
 * A host effect without mutation authority (a read or query).
 *
 * @example
 * ```ts
 * import type { EffectRequest } from 'turngate/tusk';
 * const request: EffectRequest = { action: 'issue.list', args: { status: 'open' } };
 * ```
 */
export interface EffectRequest {
  /** The action id; a mutation-capable action is refused here (use `mutate`). */
  readonly action: string;
  /** The args (JSON), digested into `argsDigest`. */
  readonly args?: JsonValue | object | undefined;
  /** Refs the effect emits or consumes. */
  readonly witnessRefs?: readonly string[] | undefined;
}

/**
 * A mutation: an effect with instruction-linked authority.
 *
 * @example
 * ```ts
 * import type { MutationRequest } from 'turngate/tusk';
 * const request: MutationRequest = { action: 'fs.write', args: { path: 'CHANGELOG.md' }, instructionRef: 'instructions/bd-7.json' };
 * ```
 */
export interface MutationRequest extends EffectRequest {
  /** The instruction that authorizes the mutation (required, non-blank). */
  readonly instructionRef: string;
  /**
   * Which mutation intent of the admitted turn this is: the pending mutation tool call
   * (`toolCallId`) or the consumed row's `mutationInputRef`. May be left out when the turn
   * declares exactly one intent. `args` must be exactly that intent's bound input (canonical
   * digest equality), or the gate refuses before anything runs.
   */
  readonly intent?: { readonly toolCallId: string } | { readonly mutationInputRef: string };
}

/**
 * What the step hooks see for one attempt.
 *
 * @example
 * ```ts
 * import type { HarnessStepContext } from 'turngate/tusk';
 * declare const ctx: HarnessStepContext<string>;
 * const evidenceRefs = ctx.turnRefs; // pass to closeJoin's context so admitMutation links the turn to this step
 * ```
 */
export interface HarnessStepContext<TTarget> {
  /** The item. */
  readonly item: WorkItem<TTarget>;
  /** This attempt's step id: `<workerId>.<itemId>.<n>`. */
  readonly stepId: string;
  /** The attempt number for the item (1-based; counts attempts of earlier runs too). */
  readonly attempt: number;
  /** `harness-session://<sessionId>`. */
  readonly sessionRef: string;
  /** `harness-step://<stepId>`. */
  readonly stepRef: string;
  /**
   * The refs a turn closed in this step must carry (`sessionRefs`, `trajectoryRefs` of
   * `closeJoin`'s context, e.g. `closeJoin(use, { ...context, ...ctx.turnRefs })`), so its
   * `MutationReady` is accepted by {@link HarnessStepContext.mutate}. Fresh arrays on each read.
   */
  readonly turnRefs: { readonly sessionRefs: string[]; readonly trajectoryRefs: string[] };
  /** The clock reading at the start of the attempt. */
  readonly now: Date;
  /**
   * Performs a host effect without mutation authority and records its envelope. A
   * mutation-capable action fails the step (`mutation.use_evidence_missing`) without running.
   */
  effect<TPayload>(request: EffectRequest, perform: () => TPayload | Promise<TPayload>): Promise<TPayload>;
  /**
   * Performs a mutation through `MutationReady` and records its envelope with the admitted
   * turn's `policyDigest` and the request's `instructionRef`. Refused before anything runs for
   * a forged, copied or spent `MutationReady`, a blank `instructionRef`, or a turn not linked to
   * this session and step. Anything but a `MutationReady` (a `JoinClosed`, a `Result`, a copy)
   * shows a type error that names the state expected and what to call.
   */
  mutate<TReady, TPayload>(
    ready: StateArgument<TReady, 'MutationReady', 'call admitMutation(joinClosed, policy) first'>,
    request: MutationRequest,
    perform: (witness: MutationWitness) => TPayload | Promise<TPayload>,
  ): Promise<TPayload>;
}

/**
 * How an item ended.
 *
 * @example
 * ```ts
 * import type { HarnessItemOutcome } from 'turngate/tusk';
 * declare const outcome: HarnessItemOutcome;
 * const status = outcome.status === 'escalated' ? outcome.escalation?.action : 'completed';
 * ```
 */
export interface HarnessItemOutcome {
  /** `completed` (verified), or `escalated` (the policy's budget is spent). */
  readonly status: 'completed' | 'escalated';
  /** The final row. */
  readonly row: TrajectoryRow;
  /** How many attempts the item took (this run and earlier ones). */
  readonly attempts: number;
  /** The final decision, when escalated. */
  readonly decision?: RetryDecision;
  /** The escalation, when escalated. */
  readonly escalation?: HarnessEscalation;
  /** The final attempt's witness refs (verifications and effects). */
  readonly witnessRefs: readonly string[];
}

/**
 * A typed escalation: the action, and the issue mutation it maps to
 * (`issue_discover` -> `issue.discover`, `mark_blocked` -> `issue.update`, `stop` -> none).
 *
 * Source: HARNESS-RETRY-ESCALATION §6.
 *
 * @example
 * ```ts
 * import type { HarnessEscalation } from 'turngate/tusk';
 * const escalation: HarnessEscalation = { action: 'mark_blocked', hostAction: 'issue.update', issueId: 'bd-7', failureClass: 'check_failed' };
 * ```
 */
export interface HarnessEscalation {
  /** The policy's escalation action. */
  readonly action: EscalationAction;
  /** The issue mutation it maps to, or `undefined` for `stop`. */
  readonly hostAction: 'issue.discover' | 'issue.update' | undefined;
  /** The issue to escalate on. */
  readonly issueId: string;
  /** The failure class that picked the rule. */
  readonly failureClass: string;
}

/**
 * The step hooks: claim one bounded item, verify before, run, verify after; `finish` records the
 * item's outcome (e.g. in the task list). Every hook may be async.
 *
 * Source: the Tusk harness contract §3.2; HARNESS-RUNTIME §3.2.
 *
 * @example
 * ```ts
 * import type { HarnessStepHooks } from 'turngate/tusk';
 * const step: HarnessStepHooks<string> = {
 *   claim: () => undefined,
 *   verifyBefore: () => ({ ok: true }),
 *   run: () => {},
 *   verifyAfter: () => ({ ok: true }),
 * };
 * ```
 */
export interface HarnessStepHooks<TTarget> {
  /** The next item, or `undefined` when there is no more work. */
  claim(ctx: HarnessClaimContext): WorkItem<TTarget> | undefined | Promise<WorkItem<TTarget> | undefined>;
  /** Verification before the mutation. */
  verifyBefore(item: WorkItem<TTarget>, ctx: HarnessStepContext<TTarget>): Verification | Promise<Verification>;
  /** The work: effects through `ctx.effect`, mutations through `ctx.mutate`. A throw fails the attempt. */
  run(item: WorkItem<TTarget>, ctx: HarnessStepContext<TTarget>): void | Promise<void>;
  /** Verification after the mutation. */
  verifyAfter(item: WorkItem<TTarget>, ctx: HarnessStepContext<TTarget>): Verification | Promise<Verification>;
  /** Records how the item ended (after its final row is appended). */
  finish?(item: WorkItem<TTarget>, outcome: HarnessItemOutcome): void | Promise<void>;
}

/**
 * Why a run stopped.
 *
 * @example
 * ```ts
 * import type { HarnessStopReason } from 'turngate/tusk';
 * const reason: HarnessStopReason = 'no_more_work';
 * ```
 */
export type HarnessStopReason = 'no_more_work' | 'max_steps' | 'escalated_stop' | 'boot_verification_failed';

/**
 * One attempt's record.
 *
 * @example
 * ```ts
 * import type { HarnessStepRecord } from 'turngate/tusk';
 * declare const record: HarnessStepRecord<string>;
 * const line = `${record.row.stepId}: ${record.row.resultClass}`;
 * ```
 */
export interface HarnessStepRecord<TTarget> {
  /** The item. */
  readonly item: WorkItem<TTarget>;
  /** The attempt number. */
  readonly attempt: number;
  /** The row appended for it. */
  readonly row: TrajectoryRow;
  /** The envelopes of its effects, in order. */
  readonly effects: readonly HostEffect[];
  /** Why it failed, when it did. */
  readonly failure?: {
    readonly phase: 'verifyBefore' | 'run' | 'verifyAfter';
    readonly failureClasses: readonly string[];
    readonly detail: string;
  };
  /** The policy's decision, when it failed. */
  readonly decision?: RetryDecision;
}

/**
 * What `stop` sees.
 *
 * @example
 * ```ts
 * import type { HarnessStopContext } from 'turngate/tusk';
 * declare const ctx: HarnessStopContext<string>;
 * const done = ctx.steps.filter((s) => s.row.resultClass === 'completed').length;
 * ```
 */
export interface HarnessStopContext<TTarget> {
  /** Why the run stops. */
  readonly reason: HarnessStopReason;
  /** Every attempt of this run. */
  readonly steps: readonly HarnessStepRecord<TTarget>[];
  /** The clock reading. */
  readonly now: Date;
}

/**
 * What `stop` may set in the handoff session (defaults describe the run and the reason).
 *
 * @example
 * ```ts
 * import type { HarnessHandoff } from 'turngate/tusk';
 * const handoff: HarnessHandoff = { summary: 'released 3 items', nextStep: 'claim next ready item' };
 * ```
 */
export interface HarnessHandoff {
  /** The handoff summary. */
  readonly summary?: string | undefined;
  /** The next-step recommendation. */
  readonly nextStep?: string | undefined;
}

/**
 * The loop's configuration and hooks.
 *
 * @example
 * ```ts
 * import type { RunHarnessOptions } from 'turngate/tusk';
 * type Options = RunHarnessOptions<{ path: string }>;
 * ```
 */
export interface RunHarnessOptions<TTarget> {
  /** The session artifact (premath's default `.premath/harness_session.json`). */
  readonly sessionPath: string;
  /** The trajectory file (premath's default `.premath/harness_trajectory.jsonl`). */
  readonly trajectoryPath: string;
  /** The worker id: non-blank, no `.`, `/` or whitespace (the KPI reads it from step ids). */
  readonly workerId: string;
  /** The retry policy (from `parseRetryPolicy`, digest checked). */
  readonly policy: RetryPolicy;
  /** Startup verification for the current scope; a failure stops the run before any step. */
  readonly boot: (ctx: HarnessBootContext) => Verification | Promise<Verification>;
  /** The step hooks. */
  readonly step: HarnessStepHooks<TTarget>;
  /** The handoff text for the stopped session. */
  readonly stop?:
    | ((ctx: HarnessStopContext<TTarget>) => HarnessHandoff | undefined | Promise<HarnessHandoff | undefined>)
    | undefined;
  /** The clock (default `() => new Date()`). */
  readonly clock?: (() => Date) | undefined;
  /** The most items to work on in this run (default: no limit). */
  readonly maxSteps?: number | undefined;
  /** Maps a retry's backoff class to a wait (default: none; backoff classes are labels). */
  readonly backoff?: ((decision: RetryDecision) => void | Promise<void>) | undefined;
  /** The feature ledger projected into the bootstrap, when the run uses one. */
  readonly featureLedgerPath?: string | undefined;
  /** The issue memory (session `issuesPath` and snapshot ref, lineage refs). */
  readonly issuesPath?: string | undefined;
  /** The workspace the lineage refs name as repository root and worktree (default: the session file's directory). */
  readonly workspace?: string | undefined;
  /** What to do with a trajectory whose last line is torn: `fail` (default) or `repair` (move it aside, report it). */
  readonly tornTrajectory?: 'fail' | 'repair' | undefined;
}

/**
 * The result of a run.
 *
 * @example
 * ```ts
 * import type { HarnessRunResult } from 'turngate/tusk';
 * declare const result: HarnessRunResult<string>;
 * const next = result.session.nextStep;
 * ```
 */
export interface HarnessRunResult<TTarget> {
  /** How the session was found. */
  readonly mode: HarnessMode;
  /** The bootstrap projection the run started from. */
  readonly bootstrap: HarnessBootstrap | undefined;
  /** The torn trajectory line moved aside at boot (`tornTrajectory: 'repair'`). */
  readonly repairedTornTail?: { readonly tornTail: TornTail; readonly savedTo: string };
  /** Every attempt, in order. */
  readonly steps: readonly HarnessStepRecord<TTarget>[];
  /** Why the run stopped. */
  readonly stopReason: HarnessStopReason;
  /** The stopped handoff session. */
  readonly session: HarnessSession;
}
