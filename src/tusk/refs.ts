/**
 * Deterministic refs of the harness: lease handoff refs and site lineage refs for stop/handoff
 * rows, and the prefixed digests premath forms them with. Pure.
 *
 * @module
 */
import { digest, trimWhiteSpace } from '../canonical/index.ts';
import type { JsonValue } from '../canonical/index.ts';
import { HarnessInputError } from './errors.ts';
import { quote } from '../internal/display.ts';

/**
 * `prefix` + lowercase hex SHA-256 of the canonical JSON bytes of `value` (the project's
 * canonical JSON: sorted keys, no whitespace, which is what premath's Python tooling hashes
 * with `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`).
 *
 * @param prefix - E.g. `pol1_`, `he1_`, or `''` for a bare hex digest.
 * @param value - A JSON value.
 * @returns The prefixed hex digest.
 */
export function prefixedDigest(prefix: string, value: JsonValue | object): string {
  return `${prefix}${digest(value).slice('sha256:'.length)}`;
}

/**
 * The issue lease state a stop/handoff is derived from, and the action taken on it.
 *
 * @example
 * ```ts
 * import type { LeaseHandoff } from 'turngate/tusk';
 * const handoff: LeaseHandoff = { issueId: 'bd-7', workerId: 'w1', leaseState: 'released', leaseAction: 'release_closed', status: 'closed', assignee: 'w1' };
 * ```
 */
export interface LeaseHandoff {
  /** The issue the lease is on. */
  readonly issueId: string;
  /** The worker handing off. */
  readonly workerId: string;
  /** The lease id, when there is one. */
  readonly leaseId?: string | undefined;
  /** The lease owner, when there is one. */
  readonly leaseOwner?: string | undefined;
  /** The lease state read from issue memory: e.g. `active`, `stale`, `contended`, `released`, `unleased`. */
  readonly leaseState: string;
  /** What the handoff does with it: e.g. `release_closed`, `issue_lease_renew`, `issue_lease_release`, `stop`. */
  readonly leaseAction: string;
  /** The issue status. */
  readonly status: string;
  /** The issue assignee. */
  readonly assignee: string;
}

function segment(value: string, field: string): string {
  const trimmed = trimWhiteSpace(value);
  if (trimmed === '' || trimmed.includes('/')) {
    throw new HarnessInputError(field, `expected a non-blank ref segment without "/", received ${quote(value)}`);
  }
  return trimmed;
}

/**
 * The deterministic lease witness ref of a stop/handoff row:
 * `lease://handoff/<issue-id>/<lease-state>/<digest>`, where the digest is the hex SHA-256 of the
 * canonical JSON of `{ issueId, workerId, leaseId, leaseOwner, leaseState, leaseAction, status,
 * assignee }` (absent lease id and owner as `""`): the same bytes premath's worker loop hashes.
 *
 * Source: the Tusk harness contract §12 (worker-loop convention); HARNESS-RUNTIME §6, §7.
 *
 * @param handoff - The lease state and the handoff action.
 * @returns The ref.
 * @throws {@link HarnessInputError} when `issueId` or `leaseState` is blank or holds `/`.
 * @example
 * ```ts
 * import { leaseHandoffRef } from 'turngate/tusk';
 * leaseHandoffRef({ issueId: 'bd-7', workerId: 'worker.1', leaseId: 'lease-9', leaseOwner: 'worker.1', leaseState: 'released', leaseAction: 'release_closed', status: 'closed', assignee: 'worker.1' });
 * //=> 'lease://handoff/bd-7/released/775d298344da3fe9f29e8feb184f29a97ab99777ca4112a3d4eea4ce61549c4a'
 * ```
 */
export function leaseHandoffRef(handoff: LeaseHandoff): string {
  const issueId = segment(handoff.issueId, 'lease.issueId');
  const leaseState = segment(handoff.leaseState, 'lease.leaseState');
  const hash = prefixedDigest('', {
    issueId,
    workerId: handoff.workerId,
    leaseId: handoff.leaseId ?? '',
    leaseOwner: handoff.leaseOwner ?? '',
    leaseState,
    leaseAction: handoff.leaseAction,
    status: handoff.status,
    assignee: handoff.assignee,
  });
  return `lease://handoff/${issueId}/${leaseState}/${hash}`;
}

/**
 * What a worker step's site lineage is derived from.
 *
 * @example
 * ```ts
 * import type { SiteLineage } from 'turngate/tusk';
 * const lineage: SiteLineage = { issueId: 'bd-7', workerId: 'w1', repoRoot: '/repo', issuesPath: '/repo/.premath/issues.jsonl', worktree: '/repo/wt' };
 * ```
 */
export interface SiteLineage {
  /** The issue worked on. */
  readonly issueId: string;
  /** The worker. */
  readonly workerId: string;
  /** The repository root. */
  readonly repoRoot: string;
  /** The issue memory path. */
  readonly issuesPath: string;
  /** The worktree the worker runs in. */
  readonly worktree: string;
  /** The worker's mutation mode (default `instruction-linked`). */
  readonly mutationMode?: string;
  /** The active policy epoch (default `""`). */
  readonly activeEpoch?: string;
  /** Until which epoch an override mode is supported (default `""`). */
  readonly supportUntil?: string;
}

/**
 * The deterministic site lineage refs of a worker step, sorted: `ctx://issue/<issue>/<d1>`,
 * `cover://worker-loop/<issue>/<d2>`, `refinement://worker-loop/<issue>/<worker>/<d3>`, each
 * digest the hex SHA-256 of canonical JSON over the step's context, the ctx ref, and the cover
 * ref with the worker's placement (the same bytes premath's worker loop hashes).
 *
 * Source: the Tusk harness contract §3.3, §12 (lineage refs on stop/handoff rows);
 * HARNESS-RUNTIME §6, §7.
 *
 * @param lineage - The step's context.
 * @returns Three refs, sorted.
 * @throws {@link HarnessInputError} when `issueId` or `workerId` is blank or holds `/`.
 * @example
 * ```ts
 * import { siteLineageRefs } from 'turngate/tusk';
 * siteLineageRefs({ issueId: 'bd-7', workerId: 'w1', repoRoot: '/repo', issuesPath: '/repo/.premath/issues.jsonl', worktree: '/repo/wt' })
 *   .map((ref) => ref.split('/')[0]); //=> ['cover:', 'ctx:', 'refinement:']
 * ```
 */
export function siteLineageRefs(lineage: SiteLineage): string[] {
  const issueId = segment(lineage.issueId, 'lineage.issueId');
  const workerId = segment(lineage.workerId, 'lineage.workerId');
  const ctxRef = `ctx://issue/${issueId}/${prefixedDigest('', {
    kind: 'ctx',
    issueId,
    repoRoot: lineage.repoRoot,
    issuesPath: lineage.issuesPath,
  })}`;
  const coverRef = `cover://worker-loop/${issueId}/${prefixedDigest('', {
    kind: 'cover',
    ctxRef,
    workerPool: 'harness.multithread.v1',
  })}`;
  const refinementRef = `refinement://worker-loop/${issueId}/${workerId}/${prefixedDigest('', {
    kind: 'refinement',
    coverRef,
    workerId,
    worktree: lineage.worktree,
    mutationMode: lineage.mutationMode ?? 'instruction-linked',
    activeEpoch: lineage.activeEpoch ?? '',
    supportUntil: lineage.supportUntil ?? '',
  })}`;
  return [coverRef, ctxRef, refinementRef];
}
