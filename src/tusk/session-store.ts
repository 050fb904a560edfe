/**
 * The session artifact and the feature ledger on disk: reads that name the file in every error,
 * and atomic read-modify-write updates (one at a time per file in a process). A failed update
 * leaves the file exactly as it was. A path that is a symbolic link is refused for writing (the
 * rename would replace the link); reads and writes remove the temp files of writers that were
 * killed before their rename.
 *
 * @module
 */
import { HarnessInputError } from './errors.ts';
import {
  DEFAULT_FEATURE_LEDGER_PATH,
  parseFeatureLedger,
  projectFeatures,
  renderFeatureLedger,
  upsertFeature,
  type FeatureLedger,
  type FeatureUpdate,
} from './feature-ledger.ts';
import {
  readIfExists,
  refuseSymlink,
  removeStrayTemps,
  withFileLock,
  writeFileAtomic,
  type AtomicWriteHooks,
} from './files.ts';
import { issueMemorySnapshotRef } from './issues.ts';
import {
  bootstrapSession,
  parseSession,
  renderSession,
  updateSession,
  type HarnessBootstrap,
  type HarnessSession,
  type SessionUpdate,
} from './session.ts';

/**
 * Where a store gets the time: a function returning the clock reading (default `new Date()`).
 *
 * @example
 * ```ts
 * import type { StoreClock } from 'turngate/tusk';
 * const fixed: StoreClock = { clock: () => new Date('2026-02-22T01:00:00Z') };
 * ```
 */
export interface StoreClock {
  /** Returns the current time. */
  readonly clock?: (() => Date) | undefined;
}

function located<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof HarnessInputError && error.path === undefined) {
      throw new HarnessInputError(error.field, error.expected, { path });
    }
    throw error;
  }
}

/**
 * Reads a session artifact, or `undefined` when the file does not exist.
 *
 * Removes the temp files that writers killed before their rename left beside it first
 * (`.<name>.<pid>.<12 hex digits>.tmp` of a process that is gone; best effort).
 *
 * Source: the Tusk harness contract §11.
 *
 * @param path - The artifact's path (premath's default: `.premath/harness_session.json`).
 * @returns The normalized session, or `undefined`.
 * @throws {@link HarnessInputError} (with `path`) for a malformed artifact; the I/O error for an unreadable file.
 * @example
 * ```ts
 * import { readSessionIfExists } from 'turngate/tusk';
 * const session = await readSessionIfExists('.premath/harness_session.json');
 * session?.state; // 'active' | 'stopped' | undefined
 * ```
 */
export async function readSessionIfExists(path: string): Promise<HarnessSession | undefined> {
  await removeStrayTemps(path);
  const bytes = await readIfExists(path);
  return bytes === undefined ? undefined : located(path, () => parseSession(new TextDecoder().decode(bytes)));
}

/**
 * Reads a session artifact that must exist.
 *
 * @param path - The artifact's path.
 * @returns The normalized session.
 * @throws {@link HarnessInputError} (with `path`) when the file is missing or malformed.
 * @example
 * ```ts
 * import { readSession } from 'turngate/tusk';
 * const { sessionId, state } = await readSession('.premath/harness_session.json');
 * ```
 */
export async function readSession(path: string): Promise<HarnessSession> {
  const session = await readSessionIfExists(path);
  if (session === undefined)
    throw new HarnessInputError('', 'expected a harness session artifact, found no file', { path });
  return session;
}

/** {@link writeSession} with the crash-test hooks. Internal. */
export async function writeSessionWithHooks(
  path: string,
  update: SessionUpdate,
  options: StoreClock,
  hooks: AtomicWriteHooks,
): Promise<HarnessSession> {
  return withFileLock(path, async () => {
    await refuseSymlink(path);
    const existing = await readSessionIfExists(path);
    const issuesPath = update.issuesPath ?? existing?.issuesPath;
    let issuesSnapshotRef = update.issuesSnapshotRef;
    if (issuesSnapshotRef === undefined && issuesPath !== undefined) {
      const issues = await readIfExists(issuesPath);
      issuesSnapshotRef = issues === undefined ? null : issueMemorySnapshotRef(issues, issuesPath);
    }
    const next = updateSession(existing, { ...update, issuesSnapshotRef }, (options.clock ?? (() => new Date()))());
    await writeFileAtomic(path, renderSession(next), hooks);
    return next;
  });
}

/**
 * Writes the session artifact in place ({@link updateSession}'s determinism rules) and
 * atomically: temp file, fsync, rename, fsync of the directory, so a crash leaves the old
 * artifact or the new one, never a torn file. When the session has an `issuesPath`, the
 * `issuesSnapshotRef` is derived from that file now (absent when it does not exist). Writes to
 * one path from one process run one at a time. Temp files that killed writers left beside the
 * artifact are removed first. A `path` that is a symbolic link is refused: the rename would
 * replace the link and leave its target as it was; write to the target's path instead.
 *
 * Source: the Tusk harness contract §11; HARNESS-RUNTIME §4.
 *
 * @param path - The artifact's path (its directory is created when missing).
 * @param update - The write.
 * @param options - The clock.
 * @returns The session written.
 * @throws {@link HarnessInputError} (with `path`) for a malformed existing artifact or issue memory, or a
 *   `path` that is a symbolic link (nothing written).
 * @example
 * ```ts
 * import { writeSession } from 'turngate/tusk';
 * const session = await writeSession('.premath/harness_session.json', { state: 'stopped', issueId: 'bd-7', nextStep: 'claim next ready issue' });
 * session.stoppedAt === session.updatedAt; //=> true
 * ```
 */
export async function writeSession(
  path: string,
  update: SessionUpdate,
  options: StoreClock = {},
): Promise<HarnessSession> {
  return writeSessionWithHooks(path, update, options, {});
}

/**
 * Reads a feature ledger, or `undefined` when the file does not exist.
 *
 * Source: HARNESS-RUNTIME §5.
 *
 * @param path - The ledger's path (premath's default: `.premath/harness_feature_ledger.json`).
 * @returns The ledger, or `undefined`.
 * @throws {@link HarnessInputError} (with `path`) for a malformed ledger.
 * @example
 * ```ts
 * import { readFeatureLedger } from 'turngate/tusk';
 * const ledger = await readFeatureLedger('.premath/harness_feature_ledger.json');
 * ledger?.features.length;
 * ```
 */
export async function readFeatureLedger(path: string): Promise<FeatureLedger | undefined> {
  await removeStrayTemps(path);
  const bytes = await readIfExists(path);
  return bytes === undefined ? undefined : located(path, () => parseFeatureLedger(new TextDecoder().decode(bytes)));
}

/**
 * Inserts or updates one feature row of the ledger on disk ({@link upsertFeature}), atomically.
 * Like {@link writeSession}, refuses a `path` that is a symbolic link and removes the temp files
 * of killed writers.
 *
 * Source: HARNESS-RUNTIME §5.
 *
 * @param path - The ledger's path (created when missing).
 * @param update - The row write.
 * @param options - The clock.
 * @returns The ledger written.
 * @throws {@link HarnessInputError} for a malformed existing ledger, a bad update, or a `path` that is a
 *   symbolic link (nothing written).
 * @example
 * ```ts
 * import { writeFeature } from 'turngate/tusk';
 * await writeFeature('.premath/harness_feature_ledger.json', { featureId: 'bd-7', status: 'completed', verificationRefs: ['ci://run/42'] });
 * ```
 */
export async function writeFeature(
  path: string,
  update: FeatureUpdate,
  options: StoreClock = {},
): Promise<FeatureLedger> {
  return withFileLock(path, async () => {
    await refuseSymlink(path);
    const next = upsertFeature(await readFeatureLedger(path), update, (options.clock ?? (() => new Date()))());
    await writeFileAtomic(path, renderFeatureLedger(next));
    return next;
  });
}

/**
 * The `bootstrap` projection from the files: the session artifact (which must exist) and, when
 * the feature ledger exists, its projection (a rejected ledger is refused).
 *
 * Source: the Tusk harness contract §11 (`bootstrap`); HARNESS-RUNTIME §4, §5.
 *
 * @param paths - The session path and the feature ledger path (default `.premath/harness_feature_ledger.json`).
 * @returns The bootstrap projection.
 * @throws {@link HarnessInputError} (with `path`) for a missing or malformed session, a malformed or rejected ledger.
 * @example
 * ```ts
 * import { bootstrapFromFiles } from 'turngate/tusk';
 * const boot = await bootstrapFromFiles({ sessionPath: '.premath/harness_session.json' });
 * if (boot.mode === 'attach') console.log(`a loop was running on ${boot.resumeIssueId}`);
 * ```
 */
export async function bootstrapFromFiles(paths: {
  readonly sessionPath: string;
  readonly featureLedgerPath?: string | undefined;
}): Promise<HarnessBootstrap> {
  const session = await readSession(paths.sessionPath);
  const featureLedgerRef = paths.featureLedgerPath ?? DEFAULT_FEATURE_LEDGER_PATH;
  const ledger = await readFeatureLedger(featureLedgerRef);
  const features = ledger === undefined ? undefined : located(featureLedgerRef, () => projectFeatures(ledger));
  return bootstrapSession(session, { sessionRef: paths.sessionPath, featureLedgerRef, features });
}
