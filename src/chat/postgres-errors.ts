/**
 * What a PostgreSQL driver error means to a session store: its SQLSTATE, a unique-key violation,
 * a transient failure (wrapped in `SessionStoreUnavailable`); and the advisory lock keys.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { networkFailure } from './classify.ts';
import { SessionStoreUnavailable, type StoreUnavailableReason } from './store-errors.ts';

/** An `error` listener that drops the event (a pooled client's error is handled where it is used). */
export function ignore(): void {}

/** The SQLSTATE of a server error (five characters), or `undefined` for a client-side failure. */
export function sqlState(error: unknown): string | undefined {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * Whether the server ended the connection the statement was sent on (SQLSTATE 57P01
 * `admin_shutdown`: `pg_terminate_backend` or a fast shutdown; 57P02 `crash_shutdown`; 57P03
 * `cannot_connect_now`): the backend stopped before the statement completed, so it did not run
 * (a statement in a transaction rolls back with it). A pooled connection ended while idle fails
 * its next statement so: the stores send it once more on a fresh connection.
 */
export function endedByServer(error: unknown): boolean {
  const state = sqlState(error);
  return state === '57P01' || state === '57P02' || state === '57P03';
}

/** A unique-key violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** node-postgres's own messages for a connection that failed, closed or timed out (no SQLSTATE). */
const CLIENT_FAILURES: readonly (readonly [RegExp, StoreUnavailableReason])[] = [
  [/^Query read timeout$/, 'timeout'],
  [/timeout exceeded when trying to connect|Connection terminated due to connection timeout/, 'timeout'],
  [/^Connection terminated|not queryable|Client has encountered a connection error/, 'unreachable'],
];

/**
 * Why a driver error means the server cannot serve the call for now, or `undefined` when it means
 * something else (a bad query, a constraint, a permission: not transient).
 *
 * Source: PostgreSQL manual, Appendix A "PostgreSQL Error Codes" (class 08 connection
 * exception, 53 insufficient resources, 57P01-57P03 shutdown and startup, 57014 query canceled
 * by `statement_timeout`, 55P03 lock not available, 40001/40P01 serialization and deadlock,
 * 25P03 idle-in-transaction timeout).
 */
export function transientReason(error: unknown): StoreUnavailableReason | undefined {
  const state = sqlState(error);
  if (state !== undefined) {
    if (state.startsWith('08')) return 'unreachable';
    if (state === '57P01' || state === '57P02' || state === '57P03') return 'restarting';
    if (state === '57014' || state === '25P03' || state === '57P05') return 'timeout';
    if (state.startsWith('53') || state === '55P03' || state === '40001' || state === '40P01') return 'busy';
    return undefined;
  }
  const network = networkFailure(error);
  if (network !== undefined) return network;
  const message = error instanceof Error ? error.message : '';
  for (const [pattern, reason] of CLIENT_FAILURES) if (pattern.test(message)) return reason;
  return undefined;
}

/** Errors of connections that could not be made (nothing was sent on them): see {@link notSent}. */
const unsent = new WeakSet<object>();

/**
 * Marks a failure to get a connection (refused, timed out, closed during its start-up): a
 * statement that met it was never sent.
 *
 * @returns The error, marked.
 */
export function notSent(error: unknown): unknown {
  if (typeof error === 'object' && error !== null) unsent.add(error);
  return error;
}

/** Whether a failed statement was never sent: its connection could not be made ({@link notSent}). */
export function neverSent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && unsent.has(error);
}

/**
 * The error a store call rejects with: a transient driver error wrapped in
 * {@link SessionStoreUnavailable} (its `outcomeUnknown` set for a write whose statement may have
 * reached the server but whose answer never came; not for one never sent, {@link neverSent}),
 * anything else as it was.
 */
export function storeError(error: unknown, what: string, write: boolean): unknown {
  if (error instanceof SessionStoreUnavailable) return error;
  const reason = transientReason(error);
  if (reason === undefined) return error;
  const message = error instanceof Error ? error.message : String(error);
  // A server that answered with an error rolled the statement back; no answer leaves it unknown,
  // unless the statement never left (no connection).
  const outcomeUnknown = write && sqlState(error) === undefined && !neverSent(error);
  return new SessionStoreUnavailable(reason, `${what}: ${message}`, { cause: error, outcomeUnknown });
}

/**
 * A 64-bit advisory lock key (the first 8 bytes of the SHA-256 of its parts, each ended by a NUL),
 * as an SQL literal: what it locks (`session`, `schema`, `resumes`), the table prefix, and the
 * session id, so different prefixes (deployments, tests) lock apart.
 */
export function lockKey(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return BigInt.asIntN(64, hash.digest().readBigUInt64BE(0)).toString();
}
