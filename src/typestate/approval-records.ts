/**
 * The approval record (docs/APPROVALS.md §1): what is asked, the decision, how a ledger stores
 * them (four atomic steps, {@link ApprovalLedger}), and one reading of a stored record for every
 * ledger. The rules over them are in approvals.ts.
 *
 * @module
 */
import { canonicalJson, digest, isBlank, type JsonValue } from '../canonical/index.ts';
import type { Failure, FailureClass, Result } from '../failures/index.ts';
import type { EffectLedger } from './ledger.ts';

/**
 * What an approval is asked for: the intent (under the effect's idempotency key), the policy
 * version and the tool's schema digest it is asked under, why, and when (milliseconds since the
 * epoch, given by the caller). Source: docs/APPROVALS.md §1.
 *
 * @example
 * ```ts
 * import type { ApprovalRequest } from 'turngate/approvals';
 * const request: ApprovalRequest = { key: 'sha256:…', toolCallId: 'toolu_05', toolName: 'send_email', inputDigest: 'sha256:…', policyVersion: 'v1', schemaDigest: 'sha256:…', reason: 'sends mail', createdAt: 0, expiresAt: 3_600_000 };
 * ```
 */
export interface ApprovalRequest {
  /** The effect's idempotency key (the gate's intent key). */
  readonly key: string;
  /** The tool call. */
  readonly toolCallId: string;
  /** The mutation tool. */
  readonly toolName: string;
  /** `sha256:` digest of the call's input. */
  readonly inputDigest: string;
  /** The approval policy's version the request is asked under. */
  readonly policyVersion: string;
  /** The digest of the tool's definition (its input schema) the request is asked under. */
  readonly schemaDigest: string;
  /** Why approval is asked (shown to the approver). */
  readonly reason: string;
  /** When it was asked, ms since the epoch. */
  readonly createdAt: number;
  /** When it expires, ms since the epoch (after `createdAt`). */
  readonly expiresAt: number;
}

/**
 * A person's (or the application's) decision on an approval request. Source: docs/APPROVALS.md §2.
 *
 * @example
 * ```ts
 * import type { ApprovalDecision } from 'turngate/approvals';
 * const decision: ApprovalDecision = { verdict: 'deny', reason: 'wrong recipient', decidedBy: 'ada', decidedAt: 60_000 };
 * ```
 */
export interface ApprovalDecision {
  /** `approve` or `deny`. */
  readonly verdict: 'approve' | 'deny';
  /** Why (may be empty for an approval). */
  readonly reason: string;
  /** Who decided. */
  readonly decidedBy: string;
  /** When, ms since the epoch. */
  readonly decidedAt: number;
}

/**
 * Where an approval stands: asked (`awaiting_approval`), `approved`, `denied`. Consumption is the
 * effect's claim: an approved record whose effect has a record was used.
 *
 * @example
 * ```ts
 * import type { ApprovalState } from 'turngate/approvals';
 * const states: ApprovalState[] = ['awaiting_approval', 'approved', 'denied'];
 * ```
 */
export type ApprovalState = 'awaiting_approval' | 'approved' | 'denied';

/**
 * An approval as a ledger holds it: the request, its digest (what a decision names), its state,
 * and the decision once there is one.
 *
 * @example
 * ```ts
 * import type { ApprovalRecord } from 'turngate/approvals';
 * declare const record: ApprovalRecord;
 * if (record.state === 'denied') record.decision?.reason;
 * ```
 */
export interface ApprovalRecord extends ApprovalRequest {
  /** The `sha256:` digest of the request's fields ({@link approvalRequestDigest}). */
  readonly requestDigest: string;
  /** Where it stands. */
  readonly state: ApprovalState;
  /** The decision (`approved` and `denied` only). */
  readonly decision?: ApprovalDecision;
}

/**
 * An approval as a ledger stores it: the key, the request digest (the compare-and-swap token),
 * the request and the decision as canonical JSON text (`null` before a decision).
 */
export interface StoredApproval {
  readonly key: string;
  readonly requestDigest: string;
  readonly request: string;
  readonly decision: string | null;
}

/**
 * An effect ledger that also keeps approval records: four steps, each atomic across every
 * process sharing the ledger. The rules over them are {@link requestApproval},
 * {@link decideApproval} and {@link beginApproved}; call those, not these.
 *
 * @example
 * ```ts
 * import { MemoryEffectLedger } from 'turngate';
 * import type { ApprovalLedger } from 'turngate/approvals';
 * const ledger: ApprovalLedger = new MemoryEffectLedger();
 * ledger.readApproval('k'); //=> undefined
 * ```
 */
export interface ApprovalLedger extends EffectLedger {
  /** Stores `stored` (with no decision) unless a record of its key exists; whether it did. */
  insertApproval(stored: StoredApproval): boolean | Promise<boolean>;
  /** Replaces the record of `stored.key` while its request digest is `previousDigest`; whether it did. */
  replaceApproval(stored: StoredApproval, previousDigest: string): boolean | Promise<boolean>;
  /** Records `decision` (JSON text) on the record of `key` while it has request digest `requestDigest` and no decision; whether it did. */
  recordDecision(key: string, requestDigest: string, decision: string): boolean | Promise<boolean>;
  /** The stored record of `key`, or `undefined`. */
  readApproval(key: string): StoredApproval | undefined | Promise<StoredApproval | undefined>;
}

/** One approval failure, with the record it is about when there is one. */
export interface ApprovalFailure extends Failure {
  readonly class: Extract<FailureClass, `approval.${string}`>;
  /** The record the failure is about, when one was read. */
  readonly record?: ApprovalRecord;
}

export const fail = (
  failureClass: ApprovalFailure['class'],
  key: string,
  detail: string,
  record?: ApprovalRecord,
): { readonly ok: false; readonly failures: readonly [ApprovalFailure] } => ({
  ok: false,
  failures: [{ class: failureClass, detail, ids: [key], ...(record !== undefined && { record }) }],
});

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });

function text(owner: string, field: string, value: unknown, blank = false): string {
  if (typeof value !== 'string' || (!blank && isBlank(value)))
    throw new TypeError(`${owner}: ${field}: expected a${blank ? '' : ' non-blank'} string, got ${typeof value}`);
  return value;
}

export function time(owner: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new TypeError(`${owner}: ${field}: expected milliseconds since the epoch (a finite number)`);
  return value;
}

/** The request's own fields, checked. @throws TypeError naming the field. */
export function plainRequest(owner: string, request: ApprovalRequest): ApprovalRequest {
  if (request === null || typeof request !== 'object') throw new TypeError(`${owner}: request: expected an object`);
  const plain: ApprovalRequest = {
    key: text(owner, 'request.key', request.key),
    toolCallId: text(owner, 'request.toolCallId', request.toolCallId),
    toolName: text(owner, 'request.toolName', request.toolName),
    inputDigest: text(owner, 'request.inputDigest', request.inputDigest),
    policyVersion: text(owner, 'request.policyVersion', request.policyVersion),
    schemaDigest: text(owner, 'request.schemaDigest', request.schemaDigest),
    reason: text(owner, 'request.reason', request.reason, true),
    createdAt: time(owner, 'request.createdAt', request.createdAt),
    expiresAt: time(owner, 'request.expiresAt', request.expiresAt),
  };
  if (plain.expiresAt <= plain.createdAt)
    throw new TypeError(`${owner}: request.expiresAt: expected a time after createdAt (${plain.createdAt})`);
  return plain;
}

export function plainDecision(owner: string, decision: ApprovalDecision): ApprovalDecision {
  if (decision === null || typeof decision !== 'object') throw new TypeError(`${owner}: decision: expected an object`);
  if (decision.verdict !== 'approve' && decision.verdict !== 'deny')
    throw new TypeError(`${owner}: decision.verdict: expected 'approve' or 'deny'`);
  return {
    verdict: decision.verdict,
    reason: text(owner, 'decision.reason', decision.reason, true),
    decidedBy: text(owner, 'decision.decidedBy', decision.decidedBy),
    decidedAt: time(owner, 'decision.decidedAt', decision.decidedAt),
  };
}

/** A request as JSON data (a fresh object literal of its fields). */
export function requestJson(r: ApprovalRequest): JsonValue {
  const { key, toolCallId, toolName, inputDigest, policyVersion, schemaDigest, reason, createdAt, expiresAt } = r;
  return { key, toolCallId, toolName, inputDigest, policyVersion, schemaDigest, reason, createdAt, expiresAt };
}

/** A decision as JSON data. */
export function decisionJson(d: ApprovalDecision): JsonValue {
  const { verdict, reason, decidedBy, decidedAt } = d;
  return { verdict, reason, decidedBy, decidedAt };
}

/**
 * The `sha256:` digest of a request's fields: what a decision (and a signed token) names.
 *
 * @param request - The request.
 * @returns The digest.
 * @throws TypeError naming the first field that is missing or of the wrong type.
 * @example
 * ```ts
 * import { approvalRequestDigest } from 'turngate/approvals';
 * approvalRequestDigest({ key: 'k', toolCallId: 'c1', toolName: 'send_email', inputDigest: 'sha256:0', policyVersion: 'v1', schemaDigest: 'sha256:1', reason: '', createdAt: 0, expiresAt: 1 }).startsWith('sha256:'); //=> true
 * ```
 */
export function approvalRequestDigest(request: ApprovalRequest): string {
  return digest(requestJson(plainRequest('approvalRequestDigest', request)));
}

/** The request's intent, for the intent-mismatch detail. */
export const intentOf = (r: { toolCallId: string; toolName: string; inputDigest: string }) =>
  `${r.toolName} call ${r.toolCallId} with input ${r.inputDigest}`;

export function sameIntent(
  a: ApprovalRequest,
  b: { toolCallId: string; toolName: string; inputDigest: string },
): boolean {
  return a.toolCallId === b.toolCallId && a.toolName === b.toolName && a.inputDigest === b.inputDigest;
}

/**
 * A stored approval read back: the record, or `approval.missing` when it is unreadable (not
 * JSON, a field missing, or a request that does not match its digest). Internal: the ledgers'
 * reads and the rules share it.
 */
export function approvalOf(stored: StoredApproval): Result<ApprovalRecord, ApprovalFailure> {
  const key = typeof stored?.key === 'string' ? stored.key : '';
  try {
    const request = plainRequest('approval record', JSON.parse(stored.request) as ApprovalRequest);
    if (request.key !== key || approvalRequestDigest(request) !== stored.requestDigest)
      return fail('approval.missing', key, `the approval record of ${key} does not match its request digest`);
    if (stored.decision === null)
      return ok({ ...request, requestDigest: stored.requestDigest, state: 'awaiting_approval' });
    const decision = plainDecision('approval record', JSON.parse(stored.decision) as ApprovalDecision);
    const state = decision.verdict === 'approve' ? 'approved' : 'denied';
    return ok({ ...request, requestDigest: stored.requestDigest, state, decision });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return fail('approval.missing', key, `the approval record of ${key} is unreadable: ${why}`);
  }
}

/** The stored form of a request (no decision). */
export function storedOf(request: ApprovalRequest): StoredApproval {
  return {
    key: request.key,
    requestDigest: digest(requestJson(request)),
    request: canonicalJson(requestJson(request)),
    decision: null,
  };
}
