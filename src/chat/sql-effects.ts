/**
 * The effect ledger's rows in the SQL stores (SQLite, PostgreSQL): one layout, one reading of a
 * row, one lease rule. Internal.
 *
 * Table `<prefix>_effects`: `effect_key` (key), `tool_call_id`, `tool_name`, `input_digest`,
 * `join_set_digest`, `state` (`started`, `completed`, `failed`), `outcome` (JSON: the output of a
 * completed effect, the error envelope of a failed one; null while started), `started_at`
 * (milliseconds since the epoch, the claiming process's clock), `claimant` (the claimant token
 * of the `begin` that claimed it, or null; a column added to older tables on first use).
 *
 * @module
 */
import type { JsonValue } from '../canonical/index.ts';
import type { EffectClaim, EffectEnd, EffectEntry, EffectRecord, ToolErrorEnvelope } from '../typestate/index.ts';
import { plainEntry, resumesClaim, storedRecord } from '../typestate/internal.ts';

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
  readonly claimant?: string | null;
}

/** The columns of a new `started` row, in insert order (the last: the claimant token, or null). */
export function startedColumns(
  entry: EffectEntry,
  now: number,
  claimant: string | undefined,
): [string, string, string, string, string, number, string | null] {
  const e = plainEntry(entry);
  return [e.key, e.toolCallId, e.toolName, e.inputDigest, e.joinSetDigest, now, claimant ?? null];
}

/**
 * What a `begin` that found a row answers: the claim resumed (`claimed: true`) when the row is
 * this claimant's own `started` claim (`resumesClaim`), else the row's record.
 *
 * @param row - The row the key holds.
 * @param claimant - The `begin`'s claimant token, if any.
 * @param leaseMs - The lease of a started effect.
 * @param now - The clock's reading.
 */
export function claimOf(row: EffectRow, claimant: string | undefined, leaseMs: number, now: number): EffectClaim {
  const record = effectRecord(row, leaseMs, now);
  return resumesClaim(record, row.claimant, claimant) ? { claimed: true } : { claimed: false, record };
}

/** The `state` and `outcome` columns of an end. */
export function endColumns(end: EffectEnd): [string, string] {
  return end.state === 'completed' ? ['completed', JSON.stringify(end.output)] : ['failed', JSON.stringify(end.error)];
}

/** A row as an effect record (`storedRecord`: a `started` row older than the lease reads `unknown_after_crash`). */
export function effectRecord(row: EffectRow, leaseMs: number, now: number): EffectRecord {
  const entry: EffectEntry = {
    key: row.effect_key,
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    inputDigest: row.input_digest,
    joinSetDigest: row.join_set_digest,
  };
  const ended = row.outcome === null ? undefined : (JSON.parse(row.outcome) as unknown);
  return storedRecord(
    {
      entry,
      state: row.state,
      ...(row.state === 'completed' && { output: ended as JsonValue }),
      ...(row.state === 'failed' && { error: ended as ToolErrorEnvelope }),
      startedAt: Number(row.started_at),
    },
    leaseMs,
    now,
  );
}
