/**
 * Type tests of the SQLite store's idempotent sends: its options take how many keys a session
 * keeps (a number), and `findSend(sessionId, key)` answers a `SendRecord` or `undefined`.
 * Negative cases use `@ts-expect-error`.
 */
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import type { SendRecord, SessionStore } from 'turngate/chat';
import { SqliteSessionStore, type SqliteSessionStoreOptions } from 'turngate/chat/sqlite';

const store = new SqliteSessionStore(':memory:', { sendKeysKept: 100 });
expectAssignable<SessionStore>(store);
expectAssignable<NonNullable<SessionStore['findSend']>>(store.findSend.bind(store));
expectType<Promise<SendRecord | undefined>>(store.findSend('support-1', 'req-7'));
expectAssignable<SqliteSessionStoreOptions>({ tablePrefix: 'support', sendKeysKept: 0 });
expectNotAssignable<SqliteSessionStoreOptions>({ sendKeysKept: '100' });
// The number of kept keys is a number.
// @ts-expect-error -- "Type 'string' is not assignable to type 'number'"
new SqliteSessionStore(':memory:', { sendKeysKept: '100' });
// A send is found by its session and its key.
// @ts-expect-error -- "Expected 2 arguments, but got 1"
void store.findSend('req-7');

// Edge inputs: a string or `any` is a session id and key; `never` is assignable; `unknown` is not.
declare const text: string;
// biome-ignore lint/suspicious/noExplicitAny: the test covers `any` as a session id and key
declare const anything: any;
declare const nothing: never;
declare const unchecked: unknown;
expectType<Promise<SendRecord | undefined>>(store.findSend(text, text));
expectType<Promise<SendRecord | undefined>>(store.findSend(anything, anything));
expectType<Promise<SendRecord | undefined>>(store.findSend(nothing, nothing));
// An unchecked value is not a key.
// @ts-expect-error -- "is not assignable to parameter of type 'string'"
void store.findSend('support-1', unchecked);
// An unchecked value is not a number of keys.
// @ts-expect-error -- "Type 'unknown' is not assignable to type 'number | undefined'"
new SqliteSessionStore(':memory:', { sendKeysKept: unchecked });
// A misspelled option (its twin opens the store above).
// @ts-expect-error -- "'sendKeyKept' does not exist in type 'SqliteSessionStoreOptions'"
new SqliteSessionStore(':memory:', { sendKeyKept: 100 });
