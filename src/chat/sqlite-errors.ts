/**
 * What a better-sqlite3 error means to the SQLite session store: a busy or locked database (the
 * one transient failure, wrapped in `SessionStoreUnavailable`), and the wrapper every store call
 * runs in.
 *
 * @module
 */
import { className, ownString } from '../internal/own-field.ts';
import { SessionStoreUnavailable } from './store-errors.ts';

/**
 * Whether a better-sqlite3 error says another connection holds what the statement needs past the
 * busy timeout: `SQLITE_BUSY`, `SQLITE_LOCKED` and their extended codes (`SQLITE_BUSY_SNAPSHOT`,
 * `SQLITE_LOCKED_SHAREDCACHE`, ...). Read by name and code, so an error of another copy of
 * better-sqlite3 (a database the caller opened) is recognized too.
 *
 * Source: https://www.sqlite.org/rescode.html (SQLITE_BUSY, SQLITE_LOCKED).
 *
 * @param error - A thrown value.
 */
export function isBusy(error: unknown): boolean {
  return className(error) === 'SqliteError' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(ownString(error, 'code') ?? '');
}

/**
 * The error a store call throws for what SQLite threw: a busy or locked database becomes
 * {@link SessionStoreUnavailable} (`busy`, the SQLite error as `cause`; a save's `outcomeUnknown`
 * is false, since SQLite rolled the transaction back); any other error is itself.
 *
 * @param call - What failed, for the message (`save of session "s"`).
 * @param error - What SQLite threw.
 */
function unavailable(call: string, error: unknown): unknown {
  if (!isBusy(error)) return error;
  const code = ownString(error, 'code') ?? 'SQLITE_BUSY';
  return new SessionStoreUnavailable('busy', `SqliteSessionStore: ${call}: the database is busy (${code})`, {
    cause: error,
    outcomeUnknown: false,
  });
}

/**
 * Runs one store call, turning a busy database into {@link SessionStoreUnavailable} (see
 * {@link unavailable}).
 *
 * @param call - What runs, for the message.
 * @param run - The call.
 */
export function served<T>(call: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw unavailable(call, error);
  }
}
