/**
 * What the Tusk loop's attempts mean, without I/O: the attempt an item is on after a restart, an
 * attempt's result class, lease handoff and policy ref, a final attempt's escalation and item
 * outcome, and the handoff session's default summary and next step per stop reason. Internal;
 * loop.ts writes them to the trajectory and the session.
 *
 * Source: the Tusk harness contract §4, §5, §12; HARNESS-RETRY-ESCALATION §3-§6.
 *
 * @module
 */
import type {
  HarnessEscalation,
  HarnessItemOutcome,
  HarnessStepRecord,
  HarnessStopReason,
  Verification,
  WorkItem,
} from './loop-types.ts';
import type { LeaseHandoff } from './refs.ts';
import type { RetryDecision } from './retry-policy.ts';
import type { TrajectoryRow } from './trajectory.ts';

/** A verification's witness refs (none when it names none). */
export function verificationRefs(verification: Verification): readonly string[] {
  return verification.witnessRefs ?? [];
}

/** The policy ref every decision row carries: which policy (by digest) decided. */
export function policyRef(decision: Pick<RetryDecision, 'policyId' | 'policyDigest' | 'ruleId'>): string {
  return `policy://harness-retry/${encodeURIComponent(decision.policyId)}/${decision.policyDigest}/${encodeURIComponent(decision.ruleId)}`;
}

const ESCALATION_HOST_ACTIONS = {
  issue_discover: 'issue.discover',
  mark_blocked: 'issue.update',
  stop: undefined,
} as const;

/** The lease handoff an attempt's outcome stands for (the harness releases on completion and escalation, renews on retry). */
export function leaseFor(
  item: WorkItem<unknown>,
  workerId: string,
  outcome: 'completed' | 'retry' | RetryDecision['escalationAction'],
): LeaseHandoff {
  const base = {
    issueId: item.issueId ?? item.id,
    workerId,
    leaseId: item.leaseId,
    leaseOwner: workerId,
    assignee: workerId,
  };
  switch (outcome) {
    case 'completed':
      return { ...base, leaseState: 'released', leaseAction: 'release_closed', status: 'closed' };
    case 'retry':
      return { ...base, leaseState: 'active', leaseAction: 'issue_lease_renew', status: 'in_progress' };
    case 'mark_blocked':
      return { ...base, leaseState: 'released', leaseAction: 'mark_blocked', status: 'blocked' };
    case 'issue_discover':
      return { ...base, leaseState: 'released', leaseAction: 'issue_discover', status: 'open' };
    case 'stop':
      return { ...base, leaseState: 'active', leaseAction: 'stop', status: 'in_progress' };
  }
}

/**
 * The attempt an item is on when it is claimed, from its prior rows in file order: a restart
 * keeps the retry budget, so the retries since the item's last final row count.
 */
export function currentAttempt(history: readonly TrajectoryRow[]): number {
  let attempt = 1;
  for (
    let i = history.length - 1;
    i >= 0 && (history[i] as TrajectoryRow).resultClass.startsWith('retry_needed');
    i--
  ) {
    attempt++;
  }
  return attempt;
}

/** An attempt's result class: `completed`, or `retry_needed_<class>` / `failed_<class>` by the retry decision. */
export function resultClassOf(decision: RetryDecision | undefined): string {
  return decision === undefined
    ? 'completed'
    : `${decision.retry ? 'retry_needed' : 'failed'}_${decision.matchedFailureClass}`;
}

/** The outcome of an item's final attempt (completed, or escalated by `decision`), after `attempts` attempts. */
export function itemOutcome(
  record: HarnessStepRecord<unknown> & { witnessRefs: readonly string[] },
  issueId: string,
  attempts: number,
): HarnessItemOutcome {
  const decision = record.decision;
  const escalation: HarnessEscalation | undefined =
    decision === undefined
      ? undefined
      : {
          action: decision.escalationAction,
          hostAction: ESCALATION_HOST_ACTIONS[decision.escalationAction],
          issueId,
          failureClass: decision.matchedFailureClass,
        };
  return {
    status: escalation === undefined ? 'completed' : 'escalated',
    row: record.row,
    attempts,
    witnessRefs: record.witnessRefs,
    ...(decision === undefined ? {} : { decision }),
    ...(escalation === undefined ? {} : { escalation }),
  };
}

/** The handoff session's summary and next step for each stop reason, when the `stop` hook gives none. */
export function stopDefaults(
  workerId: string,
  steps: readonly HarnessStepRecord<unknown>[],
  maxSteps: number | undefined,
  cause: HarnessEscalation | { failureClasses: readonly string[]; detail: string } | undefined,
): Record<HarnessStopReason, { summary: string; nextStep: string }> {
  const completed = steps.filter((s) => s.row.resultClass === 'completed').length;
  const escalatedCount = steps.filter((s) => s.decision !== undefined && !s.decision.retry).length;
  const tally = `worker ${workerId}: ${completed} completed, ${escalatedCount} escalated`;
  return {
    no_more_work: { summary: `${tally}; no more work`, nextStep: 'claim the next ready item' },
    max_steps: {
      summary: `${tally}; stopped after ${maxSteps} items`,
      nextStep: 'resume: claim the next item',
    },
    escalated_stop: {
      summary: `${tally}; stopped by escalation`,
      nextStep:
        cause !== undefined && 'issueId' in cause
          ? `resolve ${cause.failureClass} on ${cause.issueId} before retrying`
          : 'resolve the escalation before retrying',
    },
    boot_verification_failed: {
      summary: `worker ${workerId}: startup verification failed${
        cause !== undefined && 'detail' in cause && cause.detail !== '' ? `: ${cause.detail}` : ''
      }`,
      nextStep: `fix the startup verification (${
        cause !== undefined && 'failureClasses' in cause ? cause.failureClasses.join(', ') : 'unknown'
      }) before the next run`,
    },
  };
}
