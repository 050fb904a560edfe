import { describe, expect, it } from 'vitest';
import { beginApprovedByToken, signApprovalToken, verifyApprovalToken } from './approval-token.ts';
import { MemoryEffectLedger } from './memory-ledger.ts';

const secret = 'an application key of 32 bytes or more';
const request = {
  key: 'k',
  toolCallId: 'c1',
  toolName: 'send_email',
  inputDigest: 'sha256:in',
  policyVersion: 'v1',
  schemaDigest: 'sha256:schema',
  reason: 'mail',
  createdAt: 0,
  expiresAt: 60_000,
};
const entry = {
  key: 'k',
  toolCallId: 'c1',
  toolName: 'send_email',
  inputDigest: 'sha256:in',
  joinSetDigest: 'sha256:j',
};
const check = { policyVersion: 'v1', schemaDigest: 'sha256:schema', now: 1_000 };
const approve = { verdict: 'approve', reason: '', decidedBy: 'ada', decidedAt: 500 } as const;
const classOf = (r: { ok: boolean; failures?: readonly { class: string }[] }) => (r.ok ? 'ok' : r.failures?.[0]?.class);

describe('signed approval tokens', () => {
  const token = signApprovalToken(secret, request, approve);

  it('verifies with the key, for the same intent, policy version and schema, before the expiry', () => {
    const verified = verifyApprovalToken(secret, token, entry, check);
    expect(verified.ok && verified.value).toMatchObject({ state: 'approved', decision: approve, policyVersion: 'v1' });
  });

  it('refuses another key, an altered payload, a forged or malformed token', () => {
    expect(classOf(verifyApprovalToken('another application key, 32 bytes long', token, entry, check))).toBe(
      'approval.token_invalid',
    );
    const [payload, signature] = token.split('.') as [string, string];
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    body.request.inputDigest = 'sha256:other';
    const altered = `${Buffer.from(JSON.stringify(body)).toString('base64url')}.${signature}`;
    expect(classOf(verifyApprovalToken(secret, altered, entry, check))).toBe('approval.token_invalid');
    for (const bad of ['', 'a', 'a.b.c', `${payload}.`, '.x'])
      expect(classOf(verifyApprovalToken(secret, bad, entry, check))).toBe('approval.token_invalid');
    expect(() => verifyApprovalToken('short', token, entry, check)).toThrow(
      'verifyApprovalToken: secret: expected at least 32 bytes',
    );
  });

  it('binds the intent, the policy version, the schema and the expiry', () => {
    expect(classOf(verifyApprovalToken(secret, token, { ...entry, inputDigest: 'sha256:x' }, check))).toBe(
      'approval.intent_mismatch',
    );
    expect(classOf(verifyApprovalToken(secret, token, entry, { ...check, schemaDigest: 'sha256:v2' }))).toBe(
      'approval.intent_mismatch',
    );
    expect(classOf(verifyApprovalToken(secret, token, entry, { ...check, policyVersion: 'v2' }))).toBe(
      'approval.policy_changed',
    );
    expect(classOf(verifyApprovalToken(secret, token, entry, { ...check, now: 60_000 }))).toBe('approval.expired');
    const denied = signApprovalToken(secret, request, { ...approve, verdict: 'deny', reason: 'no' });
    expect(classOf(verifyApprovalToken(secret, denied, entry, check))).toBe('approval.denied');
  });

  it('runs the effect once however often the token is replayed', async () => {
    const ledger = new MemoryEffectLedger();
    const claims = await Promise.all(
      [1, 2, 3].map(() => beginApprovedByToken(ledger, entry, { secret, token }, check)),
    );
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    const forged = await beginApprovedByToken(new MemoryEffectLedger(), entry, { secret, token: 'x.y' }, check);
    expect(!forged.claimed && 'refused' in forged && forged.refused.class).toBe('approval.token_invalid');
  });

  it('refuses to judge an expiry without a time: a check.now that is not a finite number throws, and nothing is claimed', async () => {
    for (const now of [Number.NaN, undefined, '1000', Number.POSITIVE_INFINITY]) {
      // biome-ignore lint/plugin: a JavaScript caller's check without a usable time
      const bad = { ...check, now } as unknown as typeof check;
      expect(() => verifyApprovalToken(secret, token, entry, bad)).toThrow(
        /verifyApprovalToken: check\.now: expected milliseconds/,
      );
      const ledger = new MemoryEffectLedger();
      await expect(beginApprovedByToken(ledger, entry, { secret, token }, bad)).rejects.toThrow(
        /beginApprovedByToken: check\.now/,
      );
      expect(ledger.read(entry.key)).toBeUndefined();
    }
  });

  it('signs only a well-formed request, naming the field', () => {
    // biome-ignore lint/plugin: a JavaScript caller's request missing its fields
    const partial = { key: 'k' } as unknown as typeof request;
    expect(() => signApprovalToken(secret, partial, approve)).toThrow(/signApprovalToken: request\./);
  });
});
