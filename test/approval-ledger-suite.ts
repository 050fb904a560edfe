/**
 * The approval contract (docs/APPROVALS.md) every ledger keeps, run against each one:
 * `MemoryEffectLedger` (src/typestate/approvals.test.ts), the SQLite store's
 * (test/approval-ledger.test.ts), the Tusk `FileEffectLedger` (same file) and the PostgreSQL
 * store's (test/postgres/approval-ledger.test.ts). `approvalsAcrossProcesses` runs children
 * (test/fixtures/approval-once.mjs, needs dist/) consuming one approval at once.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import {
  type ApprovalCheck,
  type ApprovalLedger,
  type ApprovalRequest,
  type ApprovedClaim,
  approvalRequestDigest,
  beginApproved,
  decideApproval,
  readApproval,
  requestApproval,
} from '../src/approvals.ts';

/** A request of call `id` (key `approval-<id>`), asked at 1,000 and expiring at 61,000. */
export function askFor(id: string, overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    key: `approval-${id}`,
    toolCallId: id,
    toolName: 'send_email',
    inputDigest: 'sha256:input',
    policyVersion: 'v1',
    schemaDigest: 'sha256:schema',
    reason: 'sends mail outside the company',
    createdAt: 1_000,
    expiresAt: 61_000,
    ...overrides,
  };
}

/** The effect entry of a request. */
export const entryOf = (r: ApprovalRequest) => ({
  key: r.key,
  toolCallId: r.toolCallId,
  toolName: r.toolName,
  inputDigest: r.inputDigest,
  joinSetDigest: 'sha256:join',
});

const check: ApprovalCheck = { policyVersion: 'v1', schemaDigest: 'sha256:schema', now: 2_000 };
const approve = { verdict: 'approve', reason: 'ok', decidedBy: 'ada', decidedAt: 1_500 } as const;
const deny = { verdict: 'deny', reason: 'wrong recipient', decidedBy: 'ada', decidedAt: 1_500 } as const;

const refusedClass = (claim: ApprovedClaim) => (!claim.claimed && 'refused' in claim ? claim.refused.class : undefined);

async function asked(ledger: ApprovalLedger, request: ApprovalRequest) {
  const result = await requestApproval(ledger, request);
  if (!result.ok) throw new Error(`requestApproval: ${JSON.stringify(result.failures)}`);
  return result.value;
}

/**
 * Runs the contract against fresh ledgers from `make` (each call one more handle on the same
 * records: another process's view where the ledger is durable). Returns the effects run per
 * attack, for the report.
 */
export async function approvalContract(make: () => ApprovalLedger): Promise<Record<string, number>> {
  const ledger = make();
  const other = make();
  const runs: Record<string, number> = {};
  const tryRun = async (name: string, l: ApprovalLedger, r: ApprovalRequest, c = check) => {
    const claim = await beginApproved(l, entryOf(r), c);
    runs[name] = (runs[name] ?? 0) + (claim.claimed ? 1 : 0);
    if (claim.claimed) await l.finish(r.key, { state: 'completed', output: { sent: true } });
    return claim;
  };

  // Asking: awaiting_approval, keyed by the effect key, the request digest naming it; the same request again returns it.
  const request = askFor('c1');
  const first = await asked(ledger, request);
  expect(first).toMatchObject({
    ...request,
    state: 'awaiting_approval',
    requestDigest: approvalRequestDigest(request),
  });
  expect(first.decision).toBeUndefined();
  expect(await asked(other, { ...request, createdAt: 1_200, reason: 'again' })).toEqual(first);
  expect(refusedClass(await tryRun('pending', ledger, request))).toBe('approval.pending');

  // Deciding: once; the same verdict again is idempotent; another is refused; nothing runs twice.
  const decided = await decideApproval(ledger, first, approve);
  expect(decided.ok && decided.value.state).toBe('approved');
  const again = await decideApproval(other, first, { ...approve, decidedAt: 1_600 });
  expect(again.ok && again.value.decision).toEqual(approve);
  const conflict = await decideApproval(other, first, deny);
  expect(!conflict.ok && conflict.failures[0]?.class).toBe('approval.decision_conflict');
  // A replayed request after the decision keeps the decision.
  expect((await asked(other, request)).state).toBe('approved');

  // Beginning consumes it: one claim, then the effect's record (a replayed decision, a second process).
  expect((await tryRun('replayed decision', ledger, request)).claimed).toBe(true);
  const replay = await tryRun('replayed decision', other, request);
  expect(!replay.claimed && 'record' in replay && replay.record.state).toBe('completed');
  expect(runs['replayed decision']).toBe(1);

  // Missing: no record, or an unreadable one.
  expect(refusedClass(await tryRun('missing', ledger, askFor('none')))).toBe('approval.missing');
  await ledger.insertApproval({ key: 'approval-torn', requestDigest: 'sha256:x', request: '{"key"', decision: null });
  const torn = await readApproval(other, 'approval-torn');
  expect(torn !== undefined && !torn.ok && torn.failures[0]?.class).toBe('approval.missing');
  expect(refusedClass(await tryRun('missing', other, askFor('torn')))).toBe('approval.missing');

  // Denied: never runs, even when the active policy no longer asks (a denial outlives a policy change).
  const denyMe = await asked(ledger, askFor('c2'));
  expect((await decideApproval(other, denyMe, deny)).ok).toBe(true);
  expect(refusedClass(await tryRun('denied', ledger, denyMe))).toBe('approval.denied');
  expect(refusedClass(await tryRun('denied', other, denyMe, { ...check, approval: 'not_required' }))).toBe(
    'approval.denied',
  );

  // Expired: a decision after the expiry records nothing; an approval past its expiry runs nothing.
  const late = await asked(ledger, askFor('c3'));
  const lateDecision = await decideApproval(ledger, late, { ...approve, decidedAt: 61_000 });
  expect(!lateDecision.ok && lateDecision.failures[0]?.class).toBe('approval.expired');
  expect((await readApproval(other, late.key))?.ok && (await readApproval(other, late.key))).toMatchObject({
    value: { state: 'awaiting_approval' },
  });
  expect((await decideApproval(ledger, late, approve)).ok).toBe(true);
  expect(refusedClass(await tryRun('expired', other, late, { ...check, now: 61_000 }))).toBe('approval.expired');

  // Policy changed: an approval under v1 runs nothing under v2; asking again under v2 replaces
  // it, and the v1 decision (a stale signal) does not approve the new request.
  const v1 = await asked(ledger, askFor('c4'));
  expect((await decideApproval(ledger, v1, approve)).ok).toBe(true);
  const v2check = { ...check, policyVersion: 'v2' };
  expect(refusedClass(await tryRun('policy changed', other, v1, v2check))).toBe('approval.policy_changed');
  const v2 = await asked(other, askFor('c4', { policyVersion: 'v2' }));
  expect(v2.state).toBe('awaiting_approval');
  const stale = await decideApproval(ledger, v1, approve);
  expect(!stale.ok && stale.failures[0]?.class).toBe('approval.policy_changed');
  expect(refusedClass(await tryRun('policy changed', ledger, v2, v2check))).toBe('approval.pending');

  // Intent: another input under the key, or the tool's schema changed, runs nothing.
  const c5 = await asked(ledger, askFor('c5'));
  expect((await decideApproval(ledger, c5, approve)).ok).toBe(true);
  const otherInput = { ...askFor('c5'), inputDigest: 'sha256:other' };
  expect(refusedClass(await tryRun('intent', other, otherInput))).toBe('approval.intent_mismatch');
  expect(refusedClass(await tryRun('intent', other, c5, { ...check, schemaDigest: 'sha256:v2' }))).toBe(
    'approval.intent_mismatch',
  );
  const mismatch = await requestApproval(other, otherInput);
  expect(!mismatch.ok && mismatch.failures[0]?.class).toBe('approval.intent_mismatch');

  // Conflicting decisions at once: one is recorded, the other refused.
  const race = await asked(ledger, askFor('c6'));
  const both = await Promise.all([decideApproval(ledger, race, approve), decideApproval(other, race, deny)]);
  expect(both.filter((d) => d.ok)).toHaveLength(1);
  expect(both.filter((d) => !d.ok).map((d) => !d.ok && d.failures[0]?.class)).toEqual(['approval.decision_conflict']);

  // Many begins of one approval at once: one effect.
  const many = await asked(ledger, askFor('c7'));
  expect((await decideApproval(ledger, many, approve)).ok).toBe(true);
  const claims = await Promise.all(
    Array.from({ length: 8 }, (_, i) => beginApproved(i % 2 === 0 ? ledger : other, entryOf(many), check)),
  );
  runs['concurrent begins'] = claims.filter((c) => c.claimed).length;
  expect(runs['concurrent begins']).toBe(1);
  return runs;
}

/**
 * `processes` children consume one approval (asked and approved here, through `ledger`) at once,
 * `rounds` times; returns the most times one approval's effect ran.
 */
export async function approvalsAcrossProcesses(
  ledger: ApprovalLedger,
  args: readonly [string, string, string],
  processes: number,
  rounds: number,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'turngate-approvals-'));
  const log = join(dir, 'effects.log');
  const child = new URL('./fixtures/approval-once.mjs', import.meta.url).pathname;
  const run = promisify(execFile);
  try {
    const ids = Array.from({ length: rounds }, (_, i) => `proc-${i}`);
    for (const id of ids) {
      const record = await asked(ledger, askFor(id));
      expect((await decideApproval(ledger, record, approve)).ok).toBe(true);
    }
    await Promise.all(
      Array.from({ length: processes }, () => run(process.execPath, [child, ...args, log, ids.join(',')])),
    );
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const counts = ids.map((id) => lines.filter((line) => line.startsWith(`${id} `)).length);
    expect(counts).toEqual(ids.map(() => 1));
    return Math.max(...counts);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
