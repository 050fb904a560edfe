/**
 * Approvals bound to the intent (docs/APPROVALS.md): the rules over the approval records
 * (approval-records.ts) a ledger keeps in the state `awaiting_approval` before an effect's
 * `started`: asking (again), deciding once, and beginning an effect only on a matching,
 * unexpired approval, consumed by the effect's own atomic claim.
 *
 * The ledgers keep the records: `MemoryEffectLedger`, the SQLite and PostgreSQL stores'
 * `approvalLedger()`, the Tusk `FileEffectLedger`. These rules read no clock: every time is given.
 *
 * @module
 */
import { canonicalJson, digest } from '../canonical/index.ts';
import {
  type ApprovalDecision,
  type ApprovalFailure,
  type ApprovalLedger,
  type ApprovalRecord,
  type ApprovalRequest,
  approvalOf,
  decisionJson,
  fail,
  intentOf,
  ok,
  plainDecision,
  plainRequest,
  requestJson,
  sameIntent,
  storedOf,
  time,
} from './approval-records.ts';
import type { Result } from '../failures/index.ts';
import { type EffectClaim, type EffectEntry, type EffectLedger, type EffectRecord, readClaim } from './ledger.ts';
import { ownError, type ToolErrorCode, type ToolErrorEnvelope } from './results.ts';

/**
 * The approval record of `key` in `ledger`: `undefined` when there is none, `approval.missing`
 * when it is unreadable.
 *
 * @param ledger - The ledger.
 * @param key - The effect's idempotency key.
 * @returns The record, or why it cannot be read.
 * @example
 * ```ts
 * import { MemoryEffectLedger } from 'turngate';
 * import { readApproval } from 'turngate/approvals';
 * await readApproval(new MemoryEffectLedger(), 'k'); //=> undefined
 * ```
 */
export async function readApproval(
  ledger: ApprovalLedger,
  key: string,
): Promise<Result<ApprovalRecord, ApprovalFailure> | undefined> {
  const stored = await ledger.readApproval(key);
  return stored === undefined ? undefined : approvalOf(stored);
}

/**
 * Asks for an approval: records `awaiting_approval` under `request.key` unless a record exists.
 * The same request again (same intent, policy version and schema digest, not expired at
 * `request.createdAt`) returns the record held, decided or not: a replayed request never clears
 * a decision. A stale record (another policy version or schema digest, or expired) whose effect
 * has not started is replaced: asking again after a policy change. Source: docs/APPROVALS.md §1.
 *
 * @param ledger - The ledger.
 * @param request - The request.
 * @returns The record held; `approval.intent_mismatch` when the key holds another intent;
 *   `approval.missing` when the record held is unreadable.
 * @throws TypeError naming the field of a malformed request.
 * @example
 * ```ts
 * import { MemoryEffectLedger } from 'turngate';
 * import { requestApproval } from 'turngate/approvals';
 * const ledger = new MemoryEffectLedger();
 * const asked = await requestApproval(ledger, { key: 'k', toolCallId: 'c1', toolName: 'send_email', inputDigest: 'sha256:0', policyVersion: 'v1', schemaDigest: 'sha256:1', reason: 'sends mail', createdAt: 0, expiresAt: 60_000 });
 * asked.ok && asked.value.state; //=> 'awaiting_approval'
 * ```
 */
export async function requestApproval(
  ledger: ApprovalLedger,
  request: ApprovalRequest,
): Promise<Result<ApprovalRecord, ApprovalFailure>> {
  const plain = plainRequest('requestApproval', request);
  const fresh = storedOf(plain);
  for (let attempt = 0; attempt < 8; attempt++) {
    const stored = await ledger.readApproval(plain.key);
    if (stored === undefined) {
      if (await ledger.insertApproval(fresh)) return approvalOf(fresh);
      continue;
    }
    const held = approvalOf(stored);
    if (!held.ok) return held;
    const record = held.value;
    if (!sameIntent(record, plain))
      return fail(
        'approval.intent_mismatch',
        plain.key,
        `${plain.key} holds the approval of ${intentOf(record)}, not of ${intentOf(plain)}`,
        record,
      );
    const stale =
      record.policyVersion !== plain.policyVersion ||
      record.schemaDigest !== plain.schemaDigest ||
      plain.createdAt >= record.expiresAt;
    if (!stale || (await ledger.read(plain.key)) !== undefined) return held;
    if (await ledger.replaceApproval(fresh, record.requestDigest)) return approvalOf(fresh);
  }
  throw new Error(`requestApproval: the approval record of ${plain.key} kept changing`);
}

/** Why a record is not the request a decision names, or `undefined` when it is. */
function drift(record: ApprovalRecord, seen: ApprovalRequest): ApprovalFailure['class'] | undefined {
  if (!sameIntent(record, seen) || record.schemaDigest !== seen.schemaDigest) return 'approval.intent_mismatch';
  if (record.policyVersion !== seen.policyVersion) return 'approval.policy_changed';
  if (record.createdAt !== seen.createdAt || record.expiresAt !== seen.expiresAt) return 'approval.expired';
  return undefined;
}

/**
 * Records a decision on the request a person saw. The first decision is final: the same verdict
 * again returns the record (idempotent), another is refused. Nothing is recorded on a request
 * that expired, was asked again, or names another intent or policy version.
 * Source: docs/APPROVALS.md §2.
 *
 * @param ledger - The ledger.
 * @param seen - The request the person decided on (as `requestApproval` returned it).
 * @param decision - The decision.
 * @returns The decided record; or `approval.missing` (no record, or unreadable),
 *   `approval.intent_mismatch`, `approval.policy_changed`, `approval.expired` (the request
 *   expired before the decision, or was asked again since), `approval.decision_conflict`.
 * @throws TypeError naming the field of a malformed request or decision.
 * @example
 * ```ts
 * import { MemoryEffectLedger } from 'turngate';
 * import { decideApproval, requestApproval } from 'turngate/approvals';
 * const ledger = new MemoryEffectLedger();
 * const asked = await requestApproval(ledger, { key: 'k', toolCallId: 'c1', toolName: 'send_email', inputDigest: 'sha256:0', policyVersion: 'v1', schemaDigest: 'sha256:1', reason: '', createdAt: 0, expiresAt: 60_000 });
 * if (!asked.ok) throw new Error('not asked');
 * const decided = await decideApproval(ledger, asked.value, { verdict: 'approve', reason: '', decidedBy: 'ada', decidedAt: 1_000 });
 * decided.ok && decided.value.state; //=> 'approved'
 * ```
 */
export async function decideApproval(
  ledger: ApprovalLedger,
  seen: ApprovalRequest,
  decision: ApprovalDecision,
): Promise<Result<ApprovalRecord, ApprovalFailure>> {
  const request = plainRequest('decideApproval', seen);
  const plain = plainDecision('decideApproval', decision);
  const requestDigest = digest(requestJson(request));
  for (let attempt = 0; attempt < 8; attempt++) {
    const stored = await ledger.readApproval(request.key);
    if (stored === undefined)
      return fail('approval.missing', request.key, `no approval was asked under ${request.key}`);
    const held = approvalOf(stored);
    if (!held.ok) return held;
    const record = held.value;
    const drifted = drift(record, request);
    if (drifted !== undefined)
      return fail(
        drifted,
        request.key,
        `the decision names a request that is no longer the one asked under ${request.key}`,
        record,
      );
    if (record.decision !== undefined) {
      if (record.decision.verdict === plain.verdict) return held;
      return fail(
        'approval.decision_conflict',
        request.key,
        `${request.key} was already decided: ${record.decision.verdict} by ${record.decision.decidedBy}`,
        record,
      );
    }
    if (plain.decidedAt >= record.expiresAt)
      return fail('approval.expired', request.key, `the request expired before the decision`, record);
    if (await ledger.recordDecision(request.key, requestDigest, canonicalJson(decisionJson(plain))))
      return ok({ ...record, state: plain.verdict === 'approve' ? 'approved' : 'denied', decision: plain });
  }
  throw new Error(`decideApproval: the approval record of ${request.key} kept changing`);
}

/**
 * What {@link beginApproved} checks the approval against: the active policy version, the
 * tool's schema digest, the time (ms since the epoch), and whether the active policy asks for
 * an approval of this call (`required`, default) or not (`not_required`: the call runs unless
 * an approval of it was denied).
 *
 * @example
 * ```ts
 * import type { ApprovalCheck } from 'turngate/approvals';
 * const check: ApprovalCheck = { policyVersion: 'v1', schemaDigest: 'sha256:…', now: Date.now() };
 * ```
 */
export interface ApprovalCheck {
  readonly policyVersion: string;
  readonly schemaDigest: string;
  readonly now: number;
  readonly approval?: 'required' | 'not_required';
}

/**
 * What {@link beginApproved} answers: `claimed` (this caller holds `started` and must run the
 * effect and `finish` it; `approval` is the consumed record, absent when none was needed), the
 * effect's record (it ran or runs elsewhere: answer from it), or why it does not run.
 *
 * @example
 * ```ts
 * import type { ApprovedClaim } from 'turngate/approvals';
 * declare const claim: ApprovedClaim;
 * if (!claim.claimed && 'refused' in claim) claim.refused.class;
 * ```
 */
export type ApprovedClaim =
  | { readonly claimed: true; readonly approval?: ApprovalRecord }
  | { readonly claimed: false; readonly record: EffectRecord }
  | { readonly claimed: false; readonly refused: ApprovalFailure };

/** The detail of a denial: who declined and why (`declined by <approver>: <reason>`). */
function declined(decision: ApprovalDecision | undefined): string {
  const { decidedBy = '', reason = '' } = decision ?? {};
  return `declined by ${decidedBy}: ${reason}`;
}

/**
 * Whether an approval record lets the effect of `entry` start now. Pure: every ledger's begin
 * goes through it. Internal, exported for the token check.
 */
export function approvalVerdict(
  record: ApprovalRecord,
  entry: Pick<EffectEntry, 'key' | 'toolCallId' | 'toolName' | 'inputDigest'>,
  check: ApprovalCheck,
): ApprovalFailure | undefined {
  const key = entry.key;
  const failure = (c: ApprovalFailure['class'], detail: string): ApprovalFailure => ({
    class: c,
    detail,
    ids: [key],
    record,
  });
  if (!sameIntent(record, entry))
    return failure('approval.intent_mismatch', `the approval is of ${intentOf(record)}, not of ${intentOf(entry)}`);
  if (record.schemaDigest !== check.schemaDigest)
    return failure('approval.intent_mismatch', `the tool ${entry.toolName} changed since its approval was asked`);
  if (record.policyVersion !== check.policyVersion)
    return failure(
      'approval.policy_changed',
      `the approval was asked under policy ${record.policyVersion}, the active policy is ${check.policyVersion}: ask again`,
    );
  if (record.decision?.verdict === 'deny') return failure('approval.denied', declined(record.decision));
  if (check.now >= record.expiresAt) return failure('approval.expired', 'the approval expired');
  if (record.decision === undefined) return failure('approval.pending', 'waiting for approval');
  return undefined;
}

/**
 * Begins the effect of `entry` under its approval: an effect already recorded is answered from
 * its record; otherwise the approval must be approved, unexpired, of the same intent, policy
 * version and schema digest, and the effect's claim (`ledger.begin`, atomic) consumes it: of any
 * number of callers (processes, replays, repeated signals) one is `claimed`. When the active
 * policy does not ask for approval (`check.approval: 'not_required'`), the effect begins unless
 * its approval was denied (a denial outlives a policy change). Source: docs/APPROVALS.md §2.
 *
 * @param ledger - The ledger.
 * @param entry - The effect's claim (as the gate makes it).
 * @param check - The active policy version, schema digest, time, and whether approval is required.
 * @returns The claim, the effect's record, or the refusal with its class (`approval.missing`,
 *   `approval.pending`, `approval.denied`, `approval.intent_mismatch`, `approval.policy_changed`,
 *   `approval.expired`).
 * @example
 * ```ts
 * import { MemoryEffectLedger } from 'turngate';
 * import { beginApproved } from 'turngate/approvals';
 * const entry = { key: 'k', toolCallId: 'c1', toolName: 'send_email', inputDigest: 'sha256:0', joinSetDigest: 'sha256:2' };
 * const claim = await beginApproved(new MemoryEffectLedger(), entry, { policyVersion: 'v1', schemaDigest: 'sha256:1', now: 0 });
 * !claim.claimed && 'refused' in claim && claim.refused.class; //=> 'approval.missing'
 * ```
 */
export async function beginApproved(
  ledger: ApprovalLedger,
  entry: EffectEntry,
  check: ApprovalCheck,
): Promise<ApprovedClaim> {
  time('beginApproved', 'check.now', check.now);
  const existing = await ledger.read(entry.key);
  if (existing !== undefined) return { claimed: false, record: existing };
  const read = await readApproval(ledger, entry.key);
  let approval: ApprovalRecord | undefined;
  if ((check.approval ?? 'required') === 'not_required') {
    if (read?.ok && read.value.state === 'denied') {
      return refused('approval.denied', entry.key, declined(read.value.decision), read.value);
    }
  } else {
    if (read === undefined) return refused('approval.missing', entry.key, `no approval was asked under ${entry.key}`);
    if (!read.ok) return { claimed: false, refused: read.failures[0] as ApprovalFailure };
    const failure = approvalVerdict(read.value, entry, check);
    if (failure !== undefined) return { claimed: false, refused: failure };
    approval = read.value;
  }
  const begun = await claimIn(ledger, entry);
  if (!begun.claimed) return { claimed: false, record: begun.record };
  return approval === undefined ? { claimed: true } : { claimed: true, approval };
}

/**
 * The effect's claim in `ledger`, read as the gate reads every `begin` (`readClaim`). Internal:
 * the approved begins (stored approval, signed token) share it.
 *
 * @throws TypeError when `begin` answers neither a claim nor a record: the effect does not run.
 */
export async function claimIn(ledger: EffectLedger, entry: EffectEntry): Promise<EffectClaim> {
  const begun = readClaim(await ledger.begin(entry));
  if (begun === undefined)
    throw new TypeError(
      `the effect ledger's begin answered neither { claimed: true } nor { claimed: false, record } for ${entry.key}: it did not run`,
    );
  return begun;
}

function refused(
  failureClass: ApprovalFailure['class'],
  key: string,
  detail: string,
  record?: ApprovalRecord,
): ApprovedClaim {
  return { claimed: false, refused: fail(failureClass, key, detail, record).failures[0] };
}

// Per class: its error code (TOOL_ERROR_CODES) and why the call did not run (a denial's detail says it itself).
const NOT_RUN: Readonly<Record<ApprovalFailure['class'], { readonly code: ToolErrorCode; readonly why: string }>> = {
  'approval.missing': { code: 'approval_missing', why: 'no approval is recorded for this call; ask for approval' },
  'approval.pending': { code: 'approval_pending', why: 'waiting for approval' },
  'approval.denied': { code: 'approval_denied', why: '' },
  'approval.intent_mismatch': {
    code: 'approval_intent_mismatch',
    why: 'the approval is of another call, input or tool definition; ask for approval again',
  },
  'approval.policy_changed': {
    code: 'approval_policy_changed',
    why: 'the approval policy changed since this call was approved; ask for approval again',
  },
  'approval.expired': { code: 'approval_expired', why: 'the approval expired' },
  'approval.decision_conflict': { code: 'approval_decision_conflict', why: 'its decisions conflict' },
  'approval.token_invalid': { code: 'approval_token_invalid', why: 'the approval token does not verify' },
};

/**
 * The truthful answer of a call an approval stopped (docs/APPROVALS.md §4): never "failed" (a
 * model told "failed" tries again), but "not run" and why: `not run: declined by <approver>:
 * <reason>`, `not run: the approval expired`, `not run: waiting for approval`, ... The error code
 * is the class's (`approval_denied`, ... in `TOOL_ERROR_CODES`), not retryable.
 *
 * @param failure - The refusal (`beginApproved`, `beginGated`, `verifyApprovalToken`).
 * @returns The error envelope of the call's tool result.
 * @example
 * ```ts
 * import { approvalAnswer } from 'turngate/approvals';
 * approvalAnswer({ class: 'approval.expired', detail: 'the approval expired' }).errorMessage; //=> 'not run: the approval expired'
 * approvalAnswer({ class: 'approval.denied', detail: 'declined by ada: wrong recipient' }).errorMessage; //=> 'not run: declined by ada: wrong recipient'
 * ```
 */
export function approvalAnswer(failure: Pick<ApprovalFailure, 'class' | 'detail'>): ToolErrorEnvelope {
  const { code, why } = NOT_RUN[failure.class];
  return ownError(code, `not run: ${failure.class === 'approval.denied' ? failure.detail : why}`);
}
