import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { approvalPolicy, beginGated, evaluateApproval, expectClearance } from './approval-policy.ts';
import { decideApproval, requestApproval } from './approvals.ts';
import { MemoryEffectLedger } from './memory-ledger.ts';
import { defineTools } from './tools.ts';
import { TypestateError } from './errors.ts';

class Tools extends defineTools({
  read_file: { input: v.object({ path: v.string() }), output: v.string() },
  send_email: { input: v.object({ to: v.string() }), output: v.null(), mutation: true },
  transfer: { input: v.object({ amount: v.number() }), output: v.null(), mutation: true },
}) {}

const policy = approvalPolicy(Tools, 'v1', {
  send_email: 'always',
  transfer: (input) =>
    input.amount > 1_000 ? { denied: 'over the limit' } : input.amount > 100 ? 'required' : 'not_required',
});
const context = (toolName: string) => ({ toolCallId: 'c1', toolName });
const entry = (toolName: string, key = `k-${toolName}`) => ({
  key,
  toolCallId: 'c1',
  toolName,
  inputDigest: 'sha256:0',
  joinSetDigest: 'sha256:1',
});
const call = (toolName: string, input: unknown) => ({
  input,
  context: context(toolName),
  schemaDigest: 'sha256:s',
  now: 10,
});

describe('approvalPolicy', () => {
  it('refuses keys that are not mutation tools, rules that are neither always nor functions, a blank version', () => {
    const loose = approvalPolicy as (tools: unknown, version: string, rules: unknown) => unknown;
    expect(() => loose(Tools, 'v1', { read_file: 'always' })).toThrow(
      'approvalPolicy: rules.read_file: tool.unknown_or_disallowed: read_file is not a mutation tool of the registry',
    );
    expect(() => loose(Tools, 'v1', { send_emial: 'always' })).toThrow('send_emial is not a mutation tool');
    expect(() => loose(Tools, 'v1', { send_email: 'sometimes' })).toThrow("expected 'always' or a function");
    expect(() => loose(Tools, ' ', {})).toThrow('approvalPolicy: version: expected a non-blank string');
  });

  it('evaluates always, functions and tools without a rule; a function that throws or answers nonsense asks a person', () => {
    expect(evaluateApproval(policy, 'send_email', { to: 'a' }, context('send_email'))).toBe('required');
    expect(evaluateApproval(policy, 'transfer', { amount: 5 }, context('transfer'))).toBe('not_required');
    expect(evaluateApproval(policy, 'transfer', { amount: 500 }, context('transfer'))).toBe('required');
    expect(evaluateApproval(policy, 'transfer', { amount: 5_000 }, context('transfer'))).toEqual({
      denied: 'over the limit',
    });
    const odd = {
      version: 'v',
      rules: {
        a: () => 'yes',
        b: () => {
          throw new Error('x');
        },
      },
    };
    expect(evaluateApproval(odd, 'a', {}, context('a'))).toBe('required');
    expect(evaluateApproval(odd, 'b', {}, context('b'))).toBe('required');
    expect(evaluateApproval(odd, 'c', {}, context('c'))).toBe('not_required');
  });
});

describe('beginGated and expectClearance', () => {
  it('mints an approved clearance only from an approve decision; the policy denial runs nothing', async () => {
    const ledger = new MemoryEffectLedger();
    const missing = await beginGated(
      policy,
      ledger,
      'send_email',
      entry('send_email'),
      call('send_email', { to: 'a' }),
    );
    expect(!missing.claimed && 'refused' in missing && missing.refused.class).toBe('approval.missing');
    const asked = await requestApproval(ledger, {
      ...entry('send_email'),
      policyVersion: 'v1',
      schemaDigest: 'sha256:s',
      reason: 'mail',
      createdAt: 0,
      expiresAt: 100,
    });
    if (!asked.ok) throw new Error('not asked');
    await decideApproval(ledger, asked.value, { verdict: 'approve', reason: '', decidedBy: 'ada', decidedAt: 5 });
    const claim = await beginGated(policy, ledger, 'send_email', entry('send_email'), call('send_email', { to: 'a' }));
    if (!claim.claimed) throw new Error('not claimed');
    expect(claim.clearance.kind).toBe('approved');
    expect(claim.clearance.approval?.decision?.decidedBy).toBe('ada');
    expect(() => expectClearance(policy, 'send_email', claim.clearance)).not.toThrow();
    expect(Object.isFrozen(claim.clearance)).toBe(true);

    const denied = await beginGated(policy, ledger, 'transfer', entry('transfer'), call('transfer', { amount: 5_000 }));
    expect(!denied.claimed && 'refused' in denied && denied.refused).toMatchObject({
      class: 'approval.denied',
      detail: 'declined by policy: over the limit',
    });
    expect(ledger.read('k-transfer')).toBeUndefined();
  });

  it('refuses a forged clearance, another tool’s, and a not_required one for an always tool', async () => {
    const ledger = new MemoryEffectLedger();
    const claim = await beginGated(policy, ledger, 'transfer', entry('transfer'), call('transfer', { amount: 5 }));
    if (!claim.claimed) throw new Error('not claimed');
    expect(claim.clearance.kind).toBe('not_required');
    const loose = expectClearance as (p: unknown, name: string, c: unknown) => void;
    expect(() => loose(policy, 'send_email', claim.clearance)).toThrow(TypestateError);
    expect(() => loose(policy, 'send_email', { ...claim.clearance, toolName: 'send_email', kind: 'approved' })).toThrow(
      'this clearance was not returned by beginGated',
    );
    const always = approvalPolicy(Tools, 'v1', { transfer: 'always' });
    expect(() => loose(always, 'transfer', claim.clearance)).toThrow(
      "approval.missing: transfer needs an approval (policy 'always')",
    );
  });
});
