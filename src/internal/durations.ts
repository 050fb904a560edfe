/**
 * Duration options (milliseconds), count options and the ledgers' clock, checked: one reading for
 * the SQLite store's lock and kept keys and the SQLite, PostgreSQL and file effect ledgers.
 * Internal.
 *
 * @module
 */

/**
 * A duration option in milliseconds: its value, or `fallback` when absent.
 *
 * @param owner - What is reading it, for the error (`SqliteSessionStore`).
 * @param field - The option's name (`lockLeaseMs`).
 * @param value - The option as given.
 * @param fallback - The default, in milliseconds.
 * @throws TypeError naming the field for a value that is not a finite number >= 0.
 */
export function milliseconds(owner: string, field: string, value: unknown, fallback: number): number {
  const ms = value ?? fallback;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
    throw new TypeError(`${owner}: options.${field}: expected milliseconds >= 0, got ${String(ms)}`);
  return ms;
}

/**
 * A count option (how many of something to keep): its value, or `fallback` when absent.
 *
 * @param owner - What is reading it, for the error (`SqliteSessionStore`).
 * @param field - The option's name (`sendKeysKept`).
 * @param value - The option as given.
 * @param fallback - The default.
 * @throws TypeError naming the field for a value that is not an integer >= 0.
 */
export function count(owner: string, field: string, value: unknown, fallback: number): number {
  const n = value ?? fallback;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new TypeError(`${owner}: options.${field}: expected an integer >= 0, got ${String(n)}`);
  return n;
}

/**
 * The lease (default 5 minutes) and the clock (default `Date.now`) of effect ledger options.
 *
 * @param owner - What is reading them, for the error (`SqliteSessionStore.effectLedger`).
 * @param options - `leaseMs` and `now`.
 * @throws TypeError naming the field for a negative or non-finite lease, or a clock that is not a function.
 */
export function ledgerClock(
  owner: string,
  options: { readonly leaseMs?: number; readonly now?: () => number },
): { leaseMs: number; now: () => number } {
  const leaseMs = milliseconds(owner, 'leaseMs', options.leaseMs, 300_000);
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError(`${owner}: options.now: expected a function`);
  return { leaseMs, now };
}
