/**
 * Signed approval tokens (docs/APPROVALS.md §2), for deployments without a shared approval
 * store: the application signs a decision with its key (HMAC-SHA256), bound to the request's
 * digest (the intent, the policy version, the schema digest, the expiry), and verifies it before
 * use. A token carried by a client can be replayed, never altered: the effect ledger's claim
 * still runs the effect once.
 *
 * @module
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson, type JsonValue } from '../canonical/index.ts';
import {
  type ApprovalDecision,
  type ApprovalFailure,
  type ApprovalRecord,
  type ApprovalRequest,
  approvalOf,
  decisionJson,
  fail,
  ok,
  plainDecision,
  plainRequest,
  storedOf,
  time,
} from './approval-records.ts';
import { type ApprovalCheck, type ApprovedClaim, approvalVerdict, claimIn } from './approvals.ts';
import type { Result } from '../failures/index.ts';
import type { EffectEntry, EffectLedger } from './ledger.ts';

const MIN_SECRET_BYTES = 32;

function keyOf(owner: string, secret: string | Uint8Array): Uint8Array {
  const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  if (!(bytes instanceof Uint8Array) || bytes.byteLength < MIN_SECRET_BYTES)
    throw new TypeError(`${owner}: secret: expected at least ${MIN_SECRET_BYTES} bytes (a string or a Uint8Array)`);
  return bytes;
}

const mac = (key: Uint8Array, payload: string): Buffer => createHmac('sha256', key).update(payload).digest();

/**
 * Signs a decision on a request: a token `<payload>.<mac>` (base64url) that
 * {@link verifyApprovalToken} accepts with the same secret, for the same intent, policy version
 * and schema digest, until the request's expiry.
 *
 * @param secret - The application's key, at least 32 bytes.
 * @param request - The request decided on.
 * @param decision - The decision.
 * @returns The token.
 * @throws TypeError naming the field of a short secret, a malformed request or decision.
 * @example
 * ```ts
 * import { signApprovalToken } from 'turngate/approvals';
 * const request = { key: 'k', toolCallId: 'c1', toolName: 'send_email', inputDigest: 'sha256:0', policyVersion: 'v1', schemaDigest: 'sha256:1', reason: '', createdAt: 0, expiresAt: 60_000 };
 * signApprovalToken('an application key of 32 bytes or more', request, { verdict: 'approve', reason: '', decidedBy: 'ada', decidedAt: 1_000 }).split('.').length; //=> 2
 * ```
 */
export function signApprovalToken(
  secret: string | Uint8Array,
  request: ApprovalRequest,
  decision: ApprovalDecision,
): string {
  const key = keyOf('signApprovalToken', secret);
  const stored = storedOf(plainRequest('signApprovalToken', request));
  const body: JsonValue = {
    request: JSON.parse(stored.request) as JsonValue,
    requestDigest: stored.requestDigest,
    decision: decisionJson(plainDecision('signApprovalToken', decision)),
  };
  const payload = Buffer.from(canonicalJson(body)).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/**
 * Verifies a signed token for the effect of `entry` now: the signature (in constant time), then
 * the same checks as a stored approval (intent, schema digest, policy version, decision, expiry).
 *
 * @param secret - The application's key.
 * @param token - The token, as a client sent it back.
 * @param entry - The effect it must approve.
 * @param check - The active policy version, the tool's schema digest, the time.
 * @returns The approved record; `approval.token_invalid` (malformed, or the signature does not
 *   verify), `approval.intent_mismatch`, `approval.policy_changed`, `approval.denied`,
 *   `approval.expired`.
 * @throws TypeError when `check.now` is not a finite number (an expiry compared with `NaN` would pass).
 * @example
 * ```ts
 * import { verifyApprovalToken } from 'turngate/approvals';
 * const entry = { key: 'k', toolCallId: 'c1', toolName: 'send_email', inputDigest: 'sha256:0', joinSetDigest: 'sha256:2' };
 * const checked = verifyApprovalToken('an application key of 32 bytes or more', 'forged.token', entry, { policyVersion: 'v1', schemaDigest: 'sha256:1', now: 0 });
 * !checked.ok && checked.failures[0]?.class; //=> 'approval.token_invalid'
 * ```
 */
export function verifyApprovalToken(
  secret: string | Uint8Array,
  token: string,
  entry: Pick<EffectEntry, 'key' | 'toolCallId' | 'toolName' | 'inputDigest'>,
  check: ApprovalCheck,
): Result<ApprovalRecord, ApprovalFailure> {
  time('verifyApprovalToken', 'check.now', check.now);
  const key = keyOf('verifyApprovalToken', secret);
  const invalid = (why: string) => fail('approval.token_invalid', entry.key, `the approval token ${why}`);
  if (typeof token !== 'string') return invalid('is not a string');
  const [payload, signature, extra] = token.split('.');
  if (payload === undefined || signature === undefined || extra !== undefined || payload === '')
    return invalid('is not <payload>.<signature>');
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected))
    return invalid('does not verify with this key');
  let body: { request?: unknown; requestDigest?: unknown; decision?: unknown };
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof body;
  } catch {
    return invalid('payload is not JSON');
  }
  const read = approvalOf({
    key: typeof (body.request as { key?: unknown })?.key === 'string' ? (body.request as { key: string }).key : '',
    requestDigest: String(body.requestDigest),
    request: JSON.stringify(body.request),
    decision: body.decision === undefined ? null : JSON.stringify(body.decision),
  });
  if (!read.ok || read.value.decision === undefined) return invalid('payload is not a decided request');
  const failure = approvalVerdict(read.value, entry, check);
  return failure === undefined ? ok(read.value) : { ok: false, failures: [failure] };
}

/**
 * Begins the effect of `entry` on a signed token instead of a stored approval: an effect already
 * recorded is answered from its record; otherwise the token must verify
 * ({@link verifyApprovalToken}), and the effect's claim (`ledger.begin`, atomic) makes a replayed
 * token run nothing more.
 *
 * @param ledger - The effect ledger.
 * @param entry - The effect's claim.
 * @param token - The token and the application's key.
 * @param check - The active policy version, the tool's schema digest, the time.
 * @returns The claim (with the token's record as `approval`), the effect's record, or the refusal.
 * @throws TypeError when `check.now` is not a finite number.
 * @example
 * ```ts
 * import { MemoryEffectLedger } from 'turngate';
 * import { beginApprovedByToken } from 'turngate/approvals';
 * const entry = { key: 'k', toolCallId: 'c1', toolName: 'send_email', inputDigest: 'sha256:0', joinSetDigest: 'sha256:2' };
 * const claim = await beginApprovedByToken(new MemoryEffectLedger(), entry, { secret: 'an application key of 32 bytes or more', token: 'x.y' }, { policyVersion: 'v1', schemaDigest: 'sha256:1', now: 0 });
 * claim.claimed; //=> false
 * ```
 */
export async function beginApprovedByToken(
  ledger: EffectLedger,
  entry: EffectEntry,
  token: { readonly secret: string | Uint8Array; readonly token: string },
  check: ApprovalCheck,
): Promise<ApprovedClaim> {
  time('beginApprovedByToken', 'check.now', check.now);
  const existing = await ledger.read(entry.key);
  if (existing !== undefined) return { claimed: false, record: existing };
  const verified = verifyApprovalToken(token.secret, token.token, entry, check);
  if (!verified.ok) return { claimed: false, refused: verified.failures[0] as ApprovalFailure };
  const begun = await claimIn(ledger, entry);
  return begun.claimed ? { claimed: true, approval: verified.value } : { claimed: false, record: begun.record };
}
