/**
 * Type tests of the effect ledger: the ledgers each store gives are `EffectLedger`s (the memory
 * and SQLite ones answer at once: `SyncEffectLedger`), the gate takes one with an idempotency key,
 * and a `replayed` mutation record carries the ledger's record. Each right call sits next to the
 * misuse that does not compile; negative cases use `@ts-expect-error`, so tsd and TypeScript 7
 * check the same file.
 */
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import * as v from 'valibot';
import {
  admitMutation,
  defineTools,
  effectKey,
  MemoryEffectLedger,
  performMutation,
  settleMutations,
  type EffectLedger,
  type EffectRecord,
  type JoinClosed,
} from 'turngate';
import type { AdmitOptions, EffectClaim, EffectState, MutationRecord, SyncEffectLedger } from 'turngate/types';
import { InMemorySessionStore } from 'turngate/chat';
import type { PostgresSessionStore } from 'turngate/chat/postgres';
import { SqliteSessionStore } from 'turngate/chat/sqlite';
import { FileEffectLedger } from 'turngate/tusk';

class Tools extends defineTools({
  send_email: { input: v.object({ to: v.string() }), output: v.object({ sent: v.boolean() }), mutation: true },
}) {}
declare const closed: JoinClosed<Tools>;
const entry = {
  key: 'k',
  toolCallId: 'toolu_05',
  toolName: 'send_email',
  inputDigest: 'sha256:0',
  joinSetDigest: 'sha256:1',
};

// Every store's ledger is an EffectLedger; the memory and SQLite ledgers answer at once.
expectAssignable<SyncEffectLedger>(new MemoryEffectLedger());
expectAssignable<SyncEffectLedger>(new InMemorySessionStore().effectLedger());
expectAssignable<SyncEffectLedger>(new SqliteSessionStore(':memory:').effectLedger({ leaseMs: 60_000 }));
declare const postgres: PostgresSessionStore;
expectAssignable<EffectLedger>(postgres.effectLedger());
expectNotAssignable<SyncEffectLedger>(postgres.effectLedger());
expectAssignable<EffectLedger>(new FileEffectLedger('.premath/effects'));
expectType<EffectClaim>(new MemoryEffectLedger().begin(entry));
// @ts-expect-error -- "Type 'string' is not assignable to type 'number'"
new SqliteSessionStore(':memory:').effectLedger({ leaseMs: '5m' });
// @ts-expect-error -- "Type '{ key: string; }' is missing the following properties from type 'EffectEntry'"
new MemoryEffectLedger().begin({ key: 'k' });

// The gate takes a ledger and an idempotency key; anything else is refused.
void settleMutations(closed, { send_email: async () => ({ sent: true }) }, undefined, {
  ledger: new MemoryEffectLedger(),
  idempotencyKey: (intent) => effectKey(intent, 'send_email'),
});
expectAssignable<AdmitOptions>({ ledger: new MemoryEffectLedger() });
expectNotAssignable<AdmitOptions>({ ledger: {} });
expectNotAssignable<AdmitOptions>({ idempotencyKey: () => 7 });
// @ts-expect-error -- "is missing the following properties from type 'EffectLedger': finish, read"
admitMutation(closed, undefined, { ledger: { begin: () => ({ claimed: true }) } });
// @ts-expect-error -- "Type 'number' is not assignable to type 'string'"
admitMutation(closed, undefined, { idempotencyKey: () => 7 });
admitMutation(closed, undefined, { ledger: new FileEffectLedger('.premath/effects') });

// any, never, unknown and string as options: any and never are assignable to everything;
// unknown and string are not options.
// biome-ignore lint/suspicious/noExplicitAny: the test covers `any` as options
declare const anything: any;
declare const nothing: never;
declare const unknownValue: unknown;
declare const text: string;
admitMutation(closed, undefined, anything);
admitMutation(closed, undefined, nothing);
// @ts-expect-error -- "Argument of type 'unknown' is not assignable to parameter of type 'AdmitOptions | undefined'"
admitMutation(closed, undefined, unknownValue);
// @ts-expect-error -- "Type 'string' has no properties in common with type 'AdmitOptions'"
admitMutation(closed, undefined, text);

// A replayed mutation carries the ledger's record; the other outcomes do not.
declare const record: MutationRecord;
if (record.outcome === 'replayed') {
  expectType<EffectRecord>(record.record);
  expectType<EffectState>(record.record.state);
} else {
  // @ts-expect-error -- "Property 'record' does not exist on type"
  void record.record;
}

// performMutation tells a replay by `replayed`.
declare const ready: Parameters<typeof performMutation>[0];
void performMutation(ready, { toolCallId: 'toolu_05', input: { to: 'ops@example.com' } }, () => 'sent').then((done) => {
  expectType<EffectRecord | undefined>(done.replayed);
});
