/**
 * Type tests of turngate/tusk: the loop's hooks infer the target type, a mutation needs a
 * `MutationReady` and an `instructionRef`, verifications name failure classes, and the string
 * unions (modes, states, actions) refuse other strings. Negative cases use `@ts-expect-error`.
 */
import { match } from 'ts-pattern';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import type { JoinClosed, MutationReady } from 'turngate';
import {
  projectTrajectory,
  runHarness,
  TrajectoryLockTimeoutError,
  updateSession,
  type EscalationAction,
  type HarnessRunResult,
  type HarnessSession,
  type HarnessStepContext,
  type KpiDecisionState,
  type RetryPolicy,
  type RunHarnessOptions,
  type TrajectoryLockHolder,
  type TrajectoryRow,
  type Verification,
  type WorkItem,
} from 'turngate/tusk';

declare const policy: RetryPolicy;
declare const ready: MutationReady;
declare const closed: JoinClosed;
declare const ctx: HarnessStepContext<{ path: string }>;

// The target type flows from claim into every step hook and the result.
const run = runHarness({
  sessionPath: 's.json',
  trajectoryPath: 't.jsonl',
  workerId: 'w1',
  policy,
  boot: () => ({ ok: true }),
  step: {
    claim: () => ({ id: 'bd-7', target: { path: 'CHANGELOG.md', lines: 3 } }),
    verifyBefore: (item) => {
      expectType<{ path: string; lines: number }>(item.target);
      return { ok: true };
    },
    run: async (item, c) => {
      await c.effect({ action: 'fs.read', args: { path: item.target.path } }, () => 'text');
    },
    verifyAfter: () => ({ ok: false, failureClasses: ['check_failed'] }),
  },
});
expectType<Promise<HarnessRunResult<{ path: string; lines: number }>>>(run);

// A mutation needs a MutationReady and an instructionRef; its payload type is the effect's.
expectType<Promise<{ bytes: number }>>(
  ctx.mutate(ready, { action: 'fs.write', instructionRef: 'i/1.json' }, () => ({ bytes: 1 })),
);
// A mutation without an instructionRef:
// @ts-expect-error -- "Property 'instructionRef' is missing"
void ctx.mutate(ready, { action: 'fs.write' }, () => 1);
// A JoinClosed is not a MutationReady: admitMutation first.
// @ts-expect-error -- "MutationReady expected, got a JoinClosed: call admitMutation(joinClosed, policy) first"
void ctx.mutate(closed, { action: 'fs.write', instructionRef: 'i' }, () => 1);
// A plain object is not a MutationReady.
// @ts-expect-error -- "MutationReady expected: call admitMutation(joinClosed, policy) first"
void ctx.mutate({ witness: {} }, { action: 'fs.write', instructionRef: 'i' }, () => 1);
expectType<Promise<string>>(ctx.effect({ action: 'issue.list' }, async () => 'ok'));

// A failed verification names its failure classes.
expectAssignable<Verification>({ ok: true });
expectAssignable<Verification>({ ok: false, failureClasses: ['flaky_io'], detail: 'timeout' });
expectNotAssignable<Verification>({ ok: false });
expectNotAssignable<Verification>({ ok: 'yes' });

// Items need an id and a target.
expectAssignable<WorkItem<string>>({ id: 'bd-7', target: 'x', issueId: 'bd-7' });
expectNotAssignable<WorkItem<string>>({ target: 'x' });

// The public generic with any, never, unknown and string targets.
// biome-ignore lint/suspicious/noExplicitAny: the type test covers an any target on purpose
declare const anyOptions: RunHarnessOptions<any>;
// biome-ignore lint/suspicious/noExplicitAny: the type test covers an any target on purpose
expectType<Promise<HarnessRunResult<any>>>(runHarness(anyOptions));
declare const unknownOptions: RunHarnessOptions<unknown>;
expectType<Promise<HarnessRunResult<unknown>>>(runHarness(unknownOptions));
declare const stringOptions: RunHarnessOptions<string>;
expectType<Promise<HarnessRunResult<string>>>(runHarness(stringOptions));
const never: RunHarnessOptions<never> = {
  sessionPath: 's',
  trajectoryPath: 't',
  workerId: 'w',
  policy,
  boot: () => ({ ok: true }),
  step: {
    claim: () => undefined,
    verifyBefore: () => ({ ok: true }),
    run: () => {},
    verifyAfter: () => ({ ok: true }),
  },
};
expectType<Promise<HarnessRunResult<never>>>(runHarness(never));
const neverClaim: RunHarnessOptions<never> = {
  ...never,
  // With a never target, claim can only say there is no work.
  // @ts-expect-error -- "is not assignable to type 'never'"
  step: { ...never.step, claim: () => ({ id: 'a', target: 'x' }) },
};
void neverClaim;

// String unions refuse other strings.
declare const rows: readonly TrajectoryRow[];
expectType<'latest' | 'failed' | 'retry_needed'>(projectTrajectory(rows, { mode: 'retry-needed' }).mode);
// No such projection mode.
// @ts-expect-error -- "is not assignable to type 'TrajectoryProjectionMode | undefined'"
projectTrajectory(rows, { mode: 'oldest' });
updateSession(undefined, { state: 'active' }, new Date());
// A session is active or stopped.
// @ts-expect-error -- "is not assignable to type 'HarnessSessionState'"
updateSession(undefined, { state: 'paused' }, new Date());
expectAssignable<EscalationAction>('mark_blocked');
expectNotAssignable<EscalationAction>('page_someone');
declare const session: HarnessSession;
expectType<'premath.harness.session.v1'>(session.sessionKind);
expectType<1>(session.schema);

// Decision states match exhaustively.
declare const state: KpiDecisionState;
const action = match(state)
  .with('pass', () => 'expand')
  .with('watch', () => 'hold')
  .with('rollback', () => 'pause')
  .with('insufficient_data', () => 'wait')
  .exhaustive();
expectType<string>(action);
const partial = match(state).with('pass', 'watch', 'rollback', () => 1);
// A match must handle every decision state.
// @ts-expect-error -- "NonExhaustiveError<"insufficient_data">"
partial.exhaustive();

// A trajectory held by another process: the error says who and how long, with a literal code.
declare const lockError: unknown;
if (lockError instanceof TrajectoryLockTimeoutError) {
  expectType<'ELOCKED'>(lockError.code);
  expectType<number>(lockError.waitedMs);
  expectType<TrajectoryLockHolder | undefined>(lockError.holder);
  void lockError.holder?.pid;
  // The holder may be unknown: check it before reading its pid.
  // @ts-expect-error -- "possibly 'undefined'"
  void lockError.holder.pid;
  // The fields are read-only.
  // @ts-expect-error -- "read-only property"
  lockError.waitedMs = 0;
}
