/**
 * The lease and the clock of a durable effect ledger's options, checked: one reading for the
 * SQLite, PostgreSQL and file ledgers. Internal.
 *
 * @module
 */

/** The default lease of a started effect: 5 minutes, in milliseconds. */
const DEFAULT_EFFECT_LEASE_MS = 300_000;

/**
 * The lease (default 5 minutes) and the clock (default `Date.now`) of ledger options.
 *
 * @param owner - What is reading them, for the error (`SqliteSessionStore.effectLedger`).
 * @param options - `leaseMs` and `now`.
 * @throws TypeError naming the field for a negative or non-finite lease, or a clock that is not a function.
 */
export function ledgerClock(
  owner: string,
  options: { readonly leaseMs?: number; readonly now?: () => number },
): { leaseMs: number; now: () => number } {
  const leaseMs = options.leaseMs ?? DEFAULT_EFFECT_LEASE_MS;
  if (typeof leaseMs !== 'number' || !Number.isFinite(leaseMs) || leaseMs < 0)
    throw new TypeError(`${owner}: options.leaseMs: expected milliseconds >= 0, got ${String(leaseMs)}`);
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError(`${owner}: options.now: expected a function`);
  return { leaseMs, now };
}
