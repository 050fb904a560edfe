/**
 * Type tests of approvals bound to the intent (docs/APPROVALS.md): a policy's rules are keyed
 * by the registry's mutation tools, a function rule sees the tool's parsed input, and an
 * `'always'` tool's effect needs the approved clearance `beginGated` mints. Each right call sits
 * next to the misuse that does not compile; negative cases use `@ts-expect-error`.
 */
import { expectAssignable, expectType } from 'tsd';
import * as v from 'valibot';
import { defineTools, MemoryEffectLedger } from 'turngate';
import {
  type ApprovalLedger,
  type ApprovalVerdict,
  approvalPolicy,
  beginGated,
  type Clearance,
  expectClearance,
  type GatedClaim,
} from 'turngate/approvals';
import { InMemorySessionStore } from 'turngate/chat';
import type { PostgresSessionStore } from 'turngate/chat/postgres';
import { SqliteSessionStore } from 'turngate/chat/sqlite';
import { FileEffectLedger } from 'turngate/tusk';

class Tools extends defineTools({
  read_file: { input: v.object({ path: v.string() }), output: v.string() },
  send_email: { input: v.object({ to: v.string() }), output: v.object({ sent: v.boolean() }), mutation: true },
  transfer: { input: v.object({ amount: v.number() }), output: v.null(), mutation: true },
}) {}

// Every ledger keeps approval records.
expectAssignable<ApprovalLedger>(new MemoryEffectLedger());
expectAssignable<ApprovalLedger>(new InMemorySessionStore().approvalLedger());
expectAssignable<ApprovalLedger>(new SqliteSessionStore(':memory:').approvalLedger());
declare const postgres: PostgresSessionStore;
expectAssignable<ApprovalLedger>(postgres.approvalLedger());
expectAssignable<ApprovalLedger>(new FileEffectLedger('.premath/effects'));

// Rules are keyed by mutation tools; a function rule sees the parsed input.
const policy = approvalPolicy(Tools, 'v1', {
  send_email: 'always',
  transfer: (input) => {
    expectType<number>(input.amount);
    return input.amount > 100 ? 'required' : 'not_required';
  },
});
// @ts-expect-error -- "tool.unknown_or_disallowed: send_emial"
approvalPolicy(Tools, 'v1', { send_emial: 'always' });
// @ts-expect-error -- "tool.unknown_or_disallowed: read_file"
approvalPolicy(Tools, 'v1', { read_file: 'always' });
// @ts-expect-error -- "Type '"sometimes"' is not assignable"
approvalPolicy(Tools, 'v1', { send_email: 'sometimes' });
const deny: ApprovalVerdict = { denied: 'over the limit' };
void deny;

// An 'always' tool's effect runs on an approved clearance; a not_required one does not compile.
declare const approved: Clearance<'send_email', 'approved'>;
declare const notRequired: Clearance<'send_email', 'not_required'>;
declare const transferAny: Clearance<'transfer'>;
expectClearance(policy, 'send_email', approved);
expectClearance(policy, 'transfer', transferAny);
// @ts-expect-error -- "approval.missing"
expectClearance(policy, 'send_email', notRequired);
// @ts-expect-error -- "approval.missing"
expectClearance(policy, 'send_email', transferAny);
// @ts-expect-error -- "approval.missing"
expectClearance(policy, 'send_email', undefined);
// @ts-expect-error -- "approval.missing"
expectClearance(policy, 'send_email', { kind: 'approved', toolName: 'send_email', key: 'k' } as {
  kind: 'approved';
  toolName: 'send_email';
  key: string;
});

// beginGated is typed by the tool it runs.
declare const ledger: ApprovalLedger;
const entry = {
  key: 'k',
  toolCallId: 'c1',
  toolName: 'send_email',
  inputDigest: 'sha256:0',
  joinSetDigest: 'sha256:1',
};
const call = {
  input: { to: 'a@b' },
  context: { toolCallId: 'c1', toolName: 'send_email' },
  schemaDigest: 'sha256:2',
  now: 0,
};
// An 'always' tool's claim carries an approved clearance; a function rule's, either kind.
expectType<Promise<GatedClaim<'send_email', 'approved'>>>(beginGated(policy, ledger, 'send_email', entry, call));
expectType<Promise<GatedClaim<'transfer', 'approved' | 'not_required'>>>(
  beginGated(policy, ledger, 'transfer', entry, call),
);
// @ts-expect-error -- "is not assignable to parameter of type 'MutationToolName<Tools>'"
void beginGated(policy, ledger, 'read_file', entry, call);
