/**
 * The effect ledger: the gate's record of which mutation intents started and how they ended,
 * keyed by the intent (not by the object that admitted it), so a replayed model reply, a
 * re-closed turn, a retry, a second process or a restart never runs an effect again.
 *
 * This module decides (the key, the states, what a record means for the call); the stores keep
 * the records: {@link MemoryEffectLedger} here, `SqliteSessionStore#effectLedger()` and
 * `PostgresSessionStore#effectLedger()` in the chat stores.
 *
 * @module
 */
import { digest, type JsonValue } from '../canonical/index.ts';
import type { MutationIntent } from './intents.ts';
import type { ToolErrorEnvelope } from './results.ts';

/**
 * Where an effect stands in a ledger:
 * - `started`: claimed, no end recorded yet (it is running, here or in another process);
 * - `completed`: it ran and returned (`output` is what it returned, as JSON data);
 * - `failed`: it ran and threw, or returned an output its schema refuses (`error`);
 * - `unknown_after_crash`: started and never ended, and its claim is older than the store's
 *   lease: the process that ran it is gone, and whether the effect happened is unknown.
 *
 * @example
 * ```ts
 * import type { EffectState } from 'turngate/types';
 * const settled: EffectState[] = ['completed', 'failed'];
 * ```
 */
export type EffectState = 'started' | 'completed' | 'failed' | 'unknown_after_crash';

/**
 * What the gate claims in a ledger before an effect runs: the idempotency key and what it names.
 *
 * @example
 * ```ts
 * import type { EffectEntry } from 'turngate/types';
 * const entry: EffectEntry = { key: 'sha256:…', toolCallId: 'toolu_05', toolName: 'send_email', inputDigest: 'sha256:…', joinSetDigest: 'sha256:…' };
 * ```
 */
export interface EffectEntry {
  /** The idempotency key ({@link effectKey} by default, or the user's key). */
  readonly key: string;
  /** The tool call the intent belongs to (for a `mutation_input` intent, the consumed result's call). */
  readonly toolCallId: string;
  /** The mutation tool (for `performMutation` of a `mutation_input` intent: its `mutationInputRef`). */
  readonly toolName: string;
  /** `sha256:` digest of the bound input. */
  readonly inputDigest: string;
  /** The join-set digest of the closed turn that admitted it (the witness linkage). */
  readonly joinSetDigest: string;
}

/**
 * One effect as a ledger holds it: the entry, its state, and how it ended.
 *
 * @example
 * ```ts
 * import type { EffectRecord } from 'turngate';
 * declare const record: EffectRecord;
 * if (record.state === 'completed') record.output;
 * ```
 */
export interface EffectRecord extends EffectEntry {
  /** Where it stands. */
  readonly state: EffectState;
  /** What it returned (`completed` only; `null` when its value was not JSON data). */
  readonly output?: JsonValue;
  /** The error it ended with (`failed` only). */
  readonly error?: ToolErrorEnvelope;
}

/**
 * How an effect ended, as the gate reports it to {@link EffectLedger.finish}.
 *
 * @example
 * ```ts
 * import type { EffectEnd } from 'turngate/types';
 * const end: EffectEnd = { state: 'completed', output: { sent: true } };
 * ```
 */
export type EffectEnd =
  | { readonly state: 'completed'; readonly output: JsonValue }
  | { readonly state: 'failed'; readonly error: ToolErrorEnvelope };

/**
 * What {@link EffectLedger.begin} answers: `claimed` (no record existed; this caller now holds
 * `started` and must run the effect and `finish` it), or the record that already exists (the
 * effect must not run).
 *
 * @example
 * ```ts
 * import type { EffectClaim } from 'turngate/types';
 * declare const claim: EffectClaim;
 * const runIt = claim.claimed;
 * ```
 */
export type EffectClaim = { readonly claimed: true } | { readonly claimed: false; readonly record: EffectRecord };

/**
 * A store of effect records, keyed by idempotency key. `begin` must be atomic: of any number of
 * concurrent `begin`s of one key (in one process or several), exactly one is `claimed`. The
 * gate calls `begin` before an effect and `finish` after it; nothing else writes.
 *
 * Implementations: {@link MemoryEffectLedger} (one process), `SqliteSessionStore#effectLedger()`
 * (`turngate/chat/sqlite`), `PostgresSessionStore#effectLedger()` (`turngate/chat/postgres`).
 * Source: HARNESS-TYPESTATE §6 (an admitted mutation runs once).
 *
 * @example
 * ```ts
 * import { MemoryEffectLedger, type EffectLedger } from 'turngate';
 * const ledger: EffectLedger = new MemoryEffectLedger();
 * (await ledger.begin({ key: 'k', toolCallId: 'toolu_05', toolName: 'send_email', inputDigest: 'sha256:0', joinSetDigest: 'sha256:1' })).claimed; //=> true
 * ```
 */
export interface EffectLedger {
  /**
   * Claims `entry.key` (records `started`) unless a record exists; the existing record otherwise.
   * `claimant`, when given, is recorded with the claim: a token the caller makes for one claim
   * (one `begin` and its retries, never reused for another). A retried `begin` with the same
   * token, whose first answer was lost (a connection cut after the claim was stored), resumes
   * its own `started` claim (`claimed: true`) instead of reading it as another's; once the claim
   * is older than the lease it reads `unknown_after_crash` to everyone. Without a token a
   * claim is never resumed.
   */
  begin(entry: EffectEntry, claimant?: string): EffectClaim | Promise<EffectClaim>;
  /** Records how the claimed effect of `key` ended. */
  finish(key: string, end: EffectEnd): void | Promise<void>;
  /** The record of `key`, or `undefined`. */
  read(key: string): EffectRecord | undefined | Promise<EffectRecord | undefined>;
}

/**
 * An {@link EffectLedger} whose methods answer at once (no promise): {@link MemoryEffectLedger}
 * and the SQLite store's ledger.
 *
 * @example
 * ```ts
 * import { MemoryEffectLedger } from 'turngate';
 * import type { SyncEffectLedger } from 'turngate/types';
 * const ledger: SyncEffectLedger = new MemoryEffectLedger();
 * ledger.read('k'); //=> undefined
 * ```
 */
export interface SyncEffectLedger extends EffectLedger {
  begin(entry: EffectEntry, claimant?: string): EffectClaim;
  finish(key: string, end: EffectEnd): void;
  read(key: string): EffectRecord | undefined;
}

/**
 * The default idempotency key of an intent: the `sha256:` digest of its kind, its target (the
 * tool call id, or the `mutationInputRef`), its tool and its input digest. The same model call
 * with the same input has the same key in every turn, process and restart; another input or
 * another tool has another. Where tool call ids are not unique across replies (toEvidence names
 * Gemini calls without an id by position: `send_email#1` in every reply), give an
 * `idempotencyKey` that also holds the reply (the Gemini adapter does).
 *
 * @param intent - The intent.
 * @param toolName - The tool that runs it (a `tool_call` intent's own tool; for a
 *   `mutation_input` intent, the tool `performMutationTool` names, or `''` for `performMutation`).
 * @returns The key, `sha256:` and 64 hex digits.
 * @example
 * ```ts
 * import { effectKey } from 'turngate';
 * effectKey({ kind: 'tool_call', toolCallId: 'toolu_05', toolName: 'send_email', inputDigest: 'sha256:00' }, 'send_email').startsWith('sha256:'); //=> true
 * ```
 */
export function effectKey(intent: MutationIntent, toolName: string): string {
  return digest({
    kind: intent.kind,
    target: intent.kind === 'tool_call' ? intent.toolCallId : intent.mutationInputRef,
    toolName,
    inputDigest: intent.inputDigest,
  });
}

/**
 * Options of `admitMutation` (and `settleMutations`) for the effects of the admission.
 *
 * @example
 * ```ts
 * import { MemoryEffectLedger } from 'turngate';
 * import type { AdmitOptions } from 'turngate/types';
 * const options: AdmitOptions = { ledger: new MemoryEffectLedger(), idempotencyKey: (intent) => `email:${intent.toolCallId}` };
 * ```
 */
export interface AdmitOptions {
  /**
   * Where each effect is claimed before it runs and its end recorded after: an intent the
   * ledger already holds does not run again (across turns, retries, processes and restarts,
   * as far as the ledger reaches). Without one, an intent runs at most once per turn (every
   * closure of the same requests) and nothing is recorded beyond this process.
   */
  readonly ledger?: EffectLedger;
  /** The idempotency key of an intent; default {@link effectKey} (call id, tool, input digest). */
  readonly idempotencyKey?: (intent: MutationIntent) => string;
  /**
   * The approvals the admission's effects need: each effect begins through `beginGated` (the
   * policy's verdict for its input; an approved, unexpired record of this very intent, consumed by
   * the claim) instead of a plain claim. The ledger must keep approvals (an `ApprovalLedger`: a
   * store's `approvalLedger()`, `MemoryEffectLedger`). Source: docs/APPROVALS.md §2.
   */
  readonly approvals?: AdmissionApprovals;
}

/**
 * What an admission's effects are judged by when they need approval: the policy
 * (`approvalPolicy`), the time (milliseconds since the epoch; the gate reads no clock of its own),
 * the digest of each tool's input schema (an approval is of the schema it was asked under), and
 * the session, which the policy's functions see.
 *
 * @example
 * ```ts
 * import type { AdmissionApprovals } from 'turngate/types';
 * const approvals: AdmissionApprovals = { policy: { version: 'v1', rules: {} }, now: () => Date.now(), schemaDigest: () => 'sha256:0' };
 * ```
 */
export interface AdmissionApprovals {
  /** The policy (`approvalPolicy(Tools, version, rules)`). */
  readonly policy: { readonly version: string; readonly rules: unknown };
  /** The time now, milliseconds since the epoch. */
  readonly now: () => number;
  /** The digest of a tool's input schema. */
  readonly schemaDigest: (toolName: string) => string;
  /** The session the turns belong to, for the policy's functions. */
  readonly sessionId?: string;
}

const admissions = new WeakMap<object, AdmitOptions>();

/** Binds an admission's options to its `MutationReady`. Internal: `admitMutation` calls it. */
export function bindAdmission(ready: object, options: AdmitOptions): void {
  admissions.set(ready, options);
}

/** The options `ready` was admitted with. Internal. */
export function admissionOf(ready: object): AdmitOptions {
  return admissions.get(ready) ?? {};
}

/**
 * Options of a durable effect ledger (`effectLedger()` of the SQLite and PostgreSQL stores,
 * `FileEffectLedger` of the Tusk harness).
 *
 * @example
 * ```ts
 * import type { EffectLedgerOptions } from 'turngate/types';
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

/**
 * An effect as a durable ledger stores it: the entry, the stored state (`started`, `completed`,
 * `failed`), how it ended, and when it was claimed (milliseconds since the epoch).
 */
export interface StoredEffect {
  readonly entry: EffectEntry;
  readonly state: string;
  readonly output?: JsonValue | undefined;
  readonly error?: ToolErrorEnvelope | undefined;
  readonly startedAt: number;
}

/**
 * A stored effect as a record: an end as recorded; a claim with no end reads `started` within
 * its lease and `unknown_after_crash` after it. Internal: one reading (and one lease rule) for
 * every durable ledger (SQLite, PostgreSQL, files).
 */
export function storedRecord(stored: StoredEffect, leaseMs: number, now: number): EffectRecord {
  const entry = plainEntry(stored.entry);
  if (stored.state === 'completed') return { ...entry, state: 'completed', output: stored.output ?? null };
  if (stored.state === 'failed' && stored.error !== undefined)
    return { ...entry, state: 'failed', error: stored.error };
  return { ...entry, state: now - stored.startedAt > leaseMs ? 'unknown_after_crash' : 'started' };
}

/**
 * Whether a `begin` resumes the claim a record holds: the record is `started` (within its lease)
 * and was claimed under the same claimant token. Internal: one rule for every ledger.
 *
 * @param record - The record the key holds.
 * @param stored - The claimant token recorded with the claim (`undefined` or `null`: none).
 * @param claimant - The token of this `begin` (`undefined`: none, never resumes).
 */
export function resumesClaim(
  record: EffectRecord,
  stored: string | null | undefined,
  claimant: string | undefined,
): boolean {
  return claimant !== undefined && stored === claimant && record.state === 'started';
}

/** The entry's own fields (a record passed back in keeps no state). Internal. */
export function plainEntry(entry: EffectEntry): EffectEntry {
  return {
    key: entry.key,
    toolCallId: entry.toolCallId,
    toolName: entry.toolName,
    inputDigest: entry.inputDigest,
    joinSetDigest: entry.joinSetDigest,
  };
}

/**
 * What a call whose effect already has a record is answered, without running it: the recorded
 * output (`completed`), the recorded error (`failed`), or, for `started` and
 * `unknown_after_crash`, an error saying the outcome is unknown (never "failed": a model told
 * "failed" runs it again). Internal: the gate and `recordMutations` use it.
 */
export function recordedAnswer(
  record: EffectRecord,
):
  | { readonly status: 'ok'; readonly output: JsonValue }
  | { readonly status: 'error'; readonly error: ToolErrorEnvelope } {
  if (record.state === 'completed') return { status: 'ok', output: record.output ?? null };
  if (record.state === 'failed' && record.error !== undefined) return { status: 'error', error: record.error };
  return { status: 'error', error: unknownOutcome(record.toolName, record.state) };
}

/** The error envelope of an effect whose outcome is unknown. Internal: one home for the text. */
export function unknownOutcome(toolName: string, state: EffectState): ToolErrorEnvelope {
  const why =
    state === 'started'
      ? 'it was started and has not finished'
      : 'it was started and its process ended before an outcome was recorded';
  return {
    errorCode: 'effect_outcome_unknown',
    retryable: false,
    errorMessage: `${toolName} was not run again: ${why}. Its outcome is unknown; check before retrying.`,
  };
}

/**
 * What a ledger's `begin` answered, read from its own fields only (a planted prototype field is
 * not one): a claim, the existing record, or `undefined` for an answer that is neither. Internal:
 * the gate and the tool loop's recorded replies read every `begin` through it.
 */
export function readClaim(begun: unknown): EffectClaim | undefined {
  if (begun === null || typeof begun !== 'object') return undefined;
  if (Object.hasOwn(begun, 'claimed') && (begun as { readonly claimed: unknown }).claimed === true)
    return { claimed: true };
  if (!Object.hasOwn(begun, 'record')) return undefined;
  const record: unknown = (begun as { readonly record: unknown }).record;
  return record !== null && typeof record === 'object' ? { claimed: false, record: record as EffectRecord } : undefined;
}
