/**
 * Type tests of the session stores under faults: the PostgreSQL store's timeouts and lease are
 * numbers of milliseconds, a store's transient failure names its reason from a closed set, a lock
 * timeout is one of them, and `withSessionLock` takes what the harness knows as its third
 * argument. Negative cases use `@ts-expect-error`.
 */
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import {
  SessionLockTimeout,
  SessionStoreUnavailable,
  type SessionLockOptions,
  type SessionStore,
  type StoreUnavailableReason,
} from 'turngate/chat';
import { PostgresSessionStore, type PostgresSessionStoreOptions } from 'turngate/chat/postgres';

expectAssignable<PostgresSessionStoreOptions>({
  lockLeaseMs: 30_000,
  lockTimeoutMs: 30_000,
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 10_000,
  sendKeysKept: 1_000,
});
expectNotAssignable<PostgresSessionStoreOptions>({ statementTimeoutMs: '10s' });
// A timeout is a number of milliseconds.
// @ts-expect-error -- "Type 'string' is not assignable to type 'number'"
new PostgresSessionStore('postgres://127.0.0.1/app', { connectTimeoutMs: '5s' });
expectAssignable<SessionStore>(new PostgresSessionStore('postgres://127.0.0.1/app'));
new PostgresSessionStore('postgres://127.0.0.1/app', { lockTimeoutMs: 5_000 });
// A misspelled option.
// @ts-expect-error -- "'lockTimeout' does not exist in type 'PostgresSessionStoreOptions'"
new PostgresSessionStore('postgres://127.0.0.1/app', { lockTimeout: 5_000 });

// The reason is a closed set; a lock timeout is a store that is unavailable for now (busy).
expectType<StoreUnavailableReason>(new SessionStoreUnavailable('timeout', 'save timed out').code);
expectAssignable<SessionStoreUnavailable>(new SessionLockTimeout('conv-1', 30_000));
expectType<boolean>(
  new SessionStoreUnavailable('unreachable', 'ECONNREFUSED', { outcomeUnknown: true }).outcomeUnknown,
);
// No such reason.
// @ts-expect-error -- "is not assignable to parameter of type 'StoreUnavailableReason'"
new SessionStoreUnavailable('down', 'the server is down');
declare const reason: string;
// A string is not a reason until checked.
// @ts-expect-error -- "is not assignable to parameter of type 'StoreUnavailableReason'"
new SessionStoreUnavailable(reason, 'unchecked');

// What the harness tells a store when it takes a session.
expectAssignable<SessionLockOptions>({ knownVersion: 12, sendKey: 'msg-7f3a' });
expectAssignable<SessionLockOptions>({});
expectNotAssignable<SessionLockOptions>({ knownVersion: '12' });
declare const store: SessionStore;
declare const unknownOptions: unknown;
void store.withSessionLock?.('conv-1', async (session) => session.version(), { knownVersion: 3 });
// The options are an object of known fields, not unknown.
// @ts-expect-error -- "is not assignable to parameter of type 'SessionLockOptions | undefined'"
void store.withSessionLock?.('conv-1', async (session) => session.version(), unknownOptions);
