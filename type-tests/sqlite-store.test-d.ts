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
// @ts-expect-error -- the number of kept keys is a number
new SqliteSessionStore(':memory:', { sendKeysKept: '100' });
// @ts-expect-error -- a send is found by its session and its key
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
// @ts-expect-error -- an unchecked value is not a key
void store.findSend('support-1', unchecked);
// @ts-expect-error -- an unchecked value is not a number of keys
new SqliteSessionStore(':memory:', { sendKeysKept: unchecked });
