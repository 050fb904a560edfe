/**
 * The effect ledger in this process's memory, with its approval records.
 *
 * @module
 */
import type { ApprovalLedger, StoredApproval } from './approval-records.ts';
import {
  type EffectClaim,
  type EffectEnd,
  type EffectEntry,
  type EffectRecord,
  plainEntry,
  resumesClaim,
  type SyncEffectLedger,
} from './ledger.ts';

/**
 * An effect ledger in this process's memory: effects run once across every turn, re-closure
 * and retry that share this object, not across processes or restarts (use the SQLite or
 * PostgreSQL store's ledger for those). Records are kept until the object is dropped. It keeps
 * approval records too ({@link ApprovalLedger}; docs/APPROVALS.md).
 *
 * @example
 * ```ts
 * import { MemoryEffectLedger } from 'turngate';
 * const ledger = new MemoryEffectLedger();
 * await ledger.begin({ key: 'k', toolCallId: 'toolu_05', toolName: 'send_email', inputDigest: 'sha256:0', joinSetDigest: 'sha256:1' });
 * ledger.finish('k', { state: 'completed', output: { sent: true } });
 * ledger.read('k')?.state; //=> 'completed'
 * ```
 */
export class MemoryEffectLedger implements SyncEffectLedger, ApprovalLedger {
  readonly #records = new Map<string, EffectRecord>();
  readonly #claimants = new Map<string, string>();
  readonly #approvals = new Map<string, StoredApproval>();

  /** Stores an approval request unless one of its key exists. */
  insertApproval(stored: StoredApproval): boolean {
    if (this.#approvals.has(stored.key)) return false;
    this.#approvals.set(stored.key, Object.freeze({ ...stored, decision: null }));
    return true;
  }

  /** Replaces the approval of `stored.key` while its request digest is `previousDigest`. */
  replaceApproval(stored: StoredApproval, previousDigest: string): boolean {
    if (this.#approvals.get(stored.key)?.requestDigest !== previousDigest) return false;
    this.#approvals.set(stored.key, Object.freeze({ ...stored, decision: null }));
    return true;
  }

  /** Records a decision on the undecided approval of `key` with request digest `requestDigest`. */
  recordDecision(key: string, requestDigest: string, decision: string): boolean {
    const held = this.#approvals.get(key);
    if (held?.requestDigest !== requestDigest || held.decision !== null) return false;
    this.#approvals.set(key, Object.freeze({ ...held, decision }));
    return true;
  }

  /** The stored approval of `key`, or `undefined`. */
  readApproval(key: string): StoredApproval | undefined {
    return this.#approvals.get(key);
  }

  /** Claims `entry.key` unless a record exists (a `started` one of the same `claimant` is resumed). */
  begin(entry: EffectEntry, claimant?: string): EffectClaim {
    const record = this.#records.get(entry.key);
    if (record !== undefined)
      return resumesClaim(record, this.#claimants.get(entry.key), claimant)
        ? { claimed: true }
        : { claimed: false, record };
    this.#records.set(entry.key, Object.freeze({ ...plainEntry(entry), state: 'started' }));
    if (claimant !== undefined) this.#claimants.set(entry.key, claimant);
    return { claimed: true };
  }

  /** Records how the effect of `key` ended. @throws TypeError when `key` was never begun. */
  finish(key: string, end: EffectEnd): void {
    const record = this.#records.get(key);
    if (record === undefined) throw new TypeError(`MemoryEffectLedger.finish: no effect was begun under ${key}`);
    this.#records.set(key, Object.freeze({ ...plainEntry(record), ...end }));
  }

  /** The record of `key`, or `undefined`. */
  read(key: string): EffectRecord | undefined {
    return this.#records.get(key);
  }

  /** How many effects it holds. */
  get size(): number {
    return this.#records.size;
  }
}
