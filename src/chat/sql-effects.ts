/**
 * The effect ledger's rows in the SQL stores (SQLite, PostgreSQL): one layout, one reading of a
 * row, one lease rule. Internal.
 *
 * Table `<prefix>_effects`: `effect_key` (key), `tool_call_id`, `tool_name`, `input_digest`,
 * `join_set_digest`, `state` (`started`, `completed`, `failed`), `outcome` (JSON: the output of a
 * completed effect, the error envelope of a failed one; null while started), `started_at`
 * (milliseconds since the epoch, the claiming process's clock).
 *
 * @module
 */
import type { JsonValue } from '../canonical/index.ts';
import type { EffectEnd, EffectEntry, EffectRecord, ToolErrorEnvelope } from '../typestate/index.ts';
import { plainEntry } from '../typestate/internal.ts';

/**
 * Options of a store's effect ledger (`effectLedger()` of the SQLite and PostgreSQL stores).
 *
 * @example
 * ```ts
 * import type { EffectLedgerOptions } from 'turngate/chat';
 * const options: EffectLedgerOptions = { leaseMs: 60_000 };
 * ```
 */
export interface EffectLedgerOptions {
  /**
   * How long, in milliseconds, a `started` effect with no recorded end reads as running (in
   * this process or another) before it reads as `unknown_after_crash`; default 300,000 (5 min).
   * Either way it does not run again: the call is answered "outcome unknown; check before retrying".
   */
  readonly leaseMs?: number;
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  readonly now?: () => number;
}

/** The default lease of a started effect: 5 minutes. */
export const DEFAULT_EFFECT_LEASE_MS = 300_000;

/** A row of `<prefix>_effects`, as both drivers return it. */
export interface EffectRow {
  readonly effect_key: string;
  readonly tool_call_id: string;
  readonly tool_name: string;
  readonly input_digest: string;
  readonly join_set_digest: string;
  readonly state: string;
  readonly outcome: string | null;
  readonly started_at: number | string;
}

/** The columns of a new `started` row, in insert order. */
export function startedColumns(entry: EffectEntry, now: number): [string, string, string, string, string, number] {
  const e = plainEntry(entry);
  return [e.key, e.toolCallId, e.toolName, e.inputDigest, e.joinSetDigest, now];
}

/** The `state` and `outcome` columns of an end. */
export function endColumns(end: EffectEnd): [string, string] {
  return end.state === 'completed' ? ['completed', JSON.stringify(end.output)] : ['failed', JSON.stringify(end.error)];
}

/** The lease and the clock of a ledger's options, checked. @throws TypeError naming the field. */
export function ledgerClock(store: string, options: EffectLedgerOptions): { leaseMs: number; now: () => number } {
  const leaseMs = options.leaseMs ?? DEFAULT_EFFECT_LEASE_MS;
  if (!Number.isFinite(leaseMs) || leaseMs < 0)
    throw new TypeError(`${store}.effectLedger: options.leaseMs: expected milliseconds >= 0, got ${String(leaseMs)}`);
  const now = options.now ?? Date.now;
  if (typeof now !== 'function') throw new TypeError(`${store}.effectLedger: options.now: expected a function`);
  return { leaseMs, now };
}

/** A row as an effect record: a `started` row older than the lease reads `unknown_after_crash`. */
export function effectRecord(row: EffectRow, leaseMs: number, now: number): EffectRecord {
  const entry: EffectEntry = {
    key: row.effect_key,
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    inputDigest: row.input_digest,
    joinSetDigest: row.join_set_digest,
  };
  if (row.state === 'completed' && row.outcome !== null)
    return { ...entry, state: 'completed', output: JSON.parse(row.outcome) as JsonValue };
  if (row.state === 'failed' && row.outcome !== null)
    return { ...entry, state: 'failed', error: JSON.parse(row.outcome) as ToolErrorEnvelope };
  return { ...entry, state: now - Number(row.started_at) > leaseMs ? 'unknown_after_crash' : 'started' };
}
