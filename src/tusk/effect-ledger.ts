/**
 * The effect ledger in the Tusk harness's files: one JSON file per effect in a directory (for
 * example `.premath/effects/`), claimed by creating it exclusively, so processes sharing the
 * directory run each effect once, and a restart finds what ran.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as v from 'valibot';
import type { JsonValue } from '../canonical/index.ts';
import { ledgerClock } from '../internal/durations.ts';
import { schemaIssuePath } from '../internal/path.ts';
import type {
  ApprovalLedger,
  EffectClaim,
  EffectEnd,
  EffectEntry,
  EffectLedger,
  EffectLedgerOptions,
  EffectRecord,
  StoredApproval,
} from '../typestate/index.ts';
import { plainEntry, resumesClaim, storedRecord } from '../typestate/internal.ts';
import { HarnessInputError } from './errors.ts';
import { withProcessLock } from './file-lock.ts';
import { createFileExclusive, readIfExists, writeFileAtomic } from './files.ts';

const text = v.pipe(v.string(), v.minLength(1));
const Stored = v.object({
  key: text,
  toolCallId: text,
  toolName: text,
  inputDigest: text,
  joinSetDigest: text,
  startedAt: v.pipe(v.number(), v.finite()),
  state: v.picklist(['started', 'completed', 'failed']),
  claimant: v.optional(v.string()),
  output: v.optional(v.unknown()),
  error: v.optional(v.object({ errorCode: text, retryable: v.boolean(), errorMessage: v.string() })),
});
type Stored = v.InferOutput<typeof Stored>;
const StoredApprovalFile = v.object({
  key: text,
  requestDigest: text,
  request: text,
  decision: v.nullable(text),
});

/**
 * An effect ledger in a directory: `<dir>/<sha256 of the key>.json` per effect, holding the
 * entry, its state (`started`, `completed`, `failed`), how it ended, and `startedAt` (ms since
 * the epoch). A claim creates the file exclusively (a temp file linked into place: whole or
 * absent after a crash), so of several processes claiming one effect exactly one runs it; an
 * end replaces the file atomically. A `started` effect with no end reads `unknown_after_crash`
 * once older than `leaseMs`.
 *
 * Approval records (docs/APPROVALS.md) sit beside the effects, `<dir>/<sha256 of the key>.approval.json`:
 * a request is created exclusively; replacing it and recording a decision read, compare and
 * replace it atomically under the file's process lock (`<file>.lock`), so of several processes
 * one decides.
 *
 * Source: HARNESS-TYPESTATE §6 (an admitted mutation runs once); the Tusk harness contract §11
 * (artifacts on disk, replaced atomically).
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { FileEffectLedger } from 'turngate/tusk';
 * const ledger = new FileEffectLedger(join(mkdtempSync(join(tmpdir(), 'fx-')), 'effects'));
 * const entry = { key: 'k', toolCallId: 'toolu_05', toolName: 'issue.update', inputDigest: 'sha256:0', joinSetDigest: 'sha256:1' };
 * (await ledger.begin(entry)).claimed; //=> true
 * (await ledger.begin(entry)).claimed; //=> false
 * ```
 */
export class FileEffectLedger implements EffectLedger, ApprovalLedger {
  readonly #dir: string;
  readonly #leaseMs: number;
  readonly #now: () => number;

  /**
   * Opens a ledger directory (created on the first claim).
   *
   * @param dir - The directory.
   * @param options - The lease of a started effect, the clock.
   * @throws TypeError for a blank directory, a negative or non-finite `leaseMs`.
   */
  constructor(dir: string, options: EffectLedgerOptions = {}) {
    if (typeof dir !== 'string' || dir.trim() === '')
      throw new TypeError('FileEffectLedger: dir: expected a directory path');
    const { leaseMs, now } = ledgerClock('FileEffectLedger', options);
    this.#dir = dir;
    this.#leaseMs = leaseMs;
    this.#now = now;
  }

  /** The file of `key`. */
  pathOf(key: string): string {
    return join(this.#dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  }

  /**
   * Claims `entry.key` unless a record exists; the existing record otherwise (a `started` one
   * claimed under the same `claimant` token is resumed: `claimed: true`).
   */
  async begin(entry: EffectEntry, claimant?: string): Promise<EffectClaim> {
    const stored: Stored = {
      ...plainEntry(entry),
      startedAt: this.#now(),
      state: 'started',
      ...(claimant !== undefined && { claimant }),
    };
    if (await createFileExclusive(this.pathOf(entry.key), `${JSON.stringify(stored)}\n`)) return { claimed: true };
    const existing = await this.#stored(entry.key);
    if (existing === undefined) throw new Error(`FileEffectLedger: ${this.pathOf(entry.key)} vanished`);
    const record = this.#record(existing);
    return resumesClaim(record, existing.claimant, claimant) ? { claimed: true } : { claimed: false, record };
  }

  /** Records how the claimed effect of `key` ended (an end already recorded stays). */
  async finish(key: string, end: EffectEnd): Promise<void> {
    const path = this.pathOf(key);
    const stored = await this.#stored(key);
    if (stored === undefined)
      throw new TypeError(`FileEffectLedger.finish: no effect was begun under ${key} (${path})`);
    if (stored.state !== 'started') return;
    const { output: _output, error: _error, ...entry } = stored;
    await writeFileAtomic(path, `${JSON.stringify({ ...entry, ...end })}\n`);
  }

  /** The record of `key`, or `undefined`. @throws HarnessInputError naming the file for a file that is not a record. */
  async read(key: string): Promise<EffectRecord | undefined> {
    const stored = await this.#stored(key);
    return stored === undefined ? undefined : this.#record(stored);
  }

  /** A stored effect as its record. */
  #record(stored: Stored): EffectRecord {
    const { state, output, error, startedAt } = stored;
    return storedRecord(
      { entry: plainEntry(stored), state, output: output as JsonValue | undefined, error, startedAt },
      this.#leaseMs,
      this.#now(),
    );
  }

  /** The approval file of `key`. */
  approvalPathOf(key: string): string {
    return join(this.#dir, `${createHash('sha256').update(key).digest('hex')}.approval.json`);
  }

  /** Stores an approval request unless one of its key exists (created exclusively). */
  async insertApproval(stored: StoredApproval): Promise<boolean> {
    const record: StoredApproval = { ...stored, decision: null };
    return createFileExclusive(this.approvalPathOf(stored.key), `${JSON.stringify(record)}\n`);
  }

  /** Replaces the approval of `stored.key` while its request digest is `previousDigest`. */
  replaceApproval(stored: StoredApproval, previousDigest: string): Promise<boolean> {
    return this.#swapApproval(stored.key, (held) =>
      held.requestDigest === previousDigest ? { ...stored, decision: null } : undefined,
    );
  }

  /** Records a decision on the undecided approval of `key` with request digest `requestDigest`. */
  recordDecision(key: string, requestDigest: string, decision: string): Promise<boolean> {
    return this.#swapApproval(key, (held) =>
      held.requestDigest === requestDigest && held.decision === null ? { ...held, decision } : undefined,
    );
  }

  /**
   * The stored approval of `key`, or `undefined`. A file that is not an approval record is
   * returned as a record whose request is the file's text: the rules read it as unreadable
   * (`approval.missing`), so nothing runs on it.
   */
  async readApproval(key: string): Promise<StoredApproval | undefined> {
    const bytes = await readIfExists(this.approvalPathOf(key));
    if (bytes === undefined) return undefined;
    const raw = new TextDecoder().decode(bytes);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    const parsed = v.safeParse(StoredApprovalFile, json);
    return parsed.success ? parsed.output : { key, requestDigest: '', request: raw, decision: null };
  }

  /** Reads, compares and replaces an approval file under its process lock; whether it changed. */
  #swapApproval(key: string, next: (held: StoredApproval) => StoredApproval | undefined): Promise<boolean> {
    const path = this.approvalPathOf(key);
    return withProcessLock(path, async () => {
      const held = await this.readApproval(key);
      const replaced = held === undefined ? undefined : next(held);
      if (replaced === undefined) return false;
      await writeFileAtomic(path, `${JSON.stringify(replaced)}\n`);
      return true;
    });
  }

  async #stored(key: string): Promise<Stored | undefined> {
    const path = this.pathOf(key);
    const bytes = await readIfExists(path);
    if (bytes === undefined) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new HarnessInputError('', 'expected an effect record (JSON)', { path });
    }
    const parsed = v.safeParse(Stored, json);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const field = schemaIssuePath(issue.path);
      throw new HarnessInputError(field === '' ? 'effect' : `effect.${field}`, issue.message, { path });
    }
    return parsed.output;
  }
}
