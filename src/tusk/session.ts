/**
 * The `HarnessSession` artifact (`premath.harness.session.v1`): reading it, updating it in place
 * under the determinism rules, and projecting it for `bootstrap`. Pure: the time is a parameter.
 *
 * @module
 */
import {
  cleanOptional,
  cleanRefs,
  compact,
  exactString,
  inOrder,
  objectAt,
  optionalString,
  optionalTimestamp,
  parseJsonText,
  refList,
  requiredString,
  requiredTimestamp,
  schemaOne,
} from './decode.ts';
import { HarnessInputError } from './errors.ts';
import type { FeatureProjection } from './feature-ledger.ts';
import { formatRfc3339 } from './time.ts';
import { quote } from '../internal/display.ts';

/** The session artifact kind. Source: the Tusk harness contract §11. */
export const SESSION_KIND = 'premath.harness.session.v1';
/** The bootstrap projection kind. Source: the Tusk harness contract §11. */
export const BOOTSTRAP_KIND = 'premath.harness.bootstrap.v1';
/** The session artifact's default path. Source: the Tusk harness contract §11. */
export const DEFAULT_SESSION_PATH = '.premath/harness_session.json';

/**
 * The session states: `active` while a loop runs, `stopped` after a handoff.
 *
 * @example
 * ```ts
 * import type { HarnessSessionState } from 'turngate/tusk';
 * const state: HarnessSessionState = 'stopped';
 * ```
 */
export type HarnessSessionState = 'active' | 'stopped';

/**
 * The minimal handoff artifact for fresh-context restartability: compact continuity state plus
 * refs to the authority artifacts (issues, instructions, witnesses). Optional fields are absent,
 * never blank; ref lists are trimmed, sorted (UTF-8 byte order) and deduplicated; `stoppedAt`
 * is present exactly when `state` is `stopped`; every timestamp is RFC 3339.
 *
 * Source: the Tusk harness contract §11; HARNESS-RUNTIME §4.
 *
 * @example
 * ```ts
 * import type { HarnessSession } from 'turngate/tusk';
 * const session: HarnessSession = {
 *   schema: 1, sessionKind: 'premath.harness.session.v1', sessionId: 'hs1_20260222T010000Z_bd-7', state: 'stopped',
 *   issueId: 'bd-7', nextStep: 'claim next ready issue',
 *   startedAt: '2026-02-22T01:00:00Z', updatedAt: '2026-02-22T01:30:00Z', stoppedAt: '2026-02-22T01:30:00Z',
 * };
 * ```
 */
export interface HarnessSession {
  /** Always 1. */
  readonly schema: 1;
  /** Always `premath.harness.session.v1`. */
  readonly sessionKind: typeof SESSION_KIND;
  /** The session id; kept across updates in place unless overridden. */
  readonly sessionId: string;
  /** `active` or `stopped`. */
  readonly state: HarnessSessionState;
  /** The current or resumed issue. */
  readonly issueId?: string;
  /** A compact handoff summary. */
  readonly summary?: string;
  /** The next-step recommendation for the next session. */
  readonly nextStep?: string;
  /** Instruction witness refs, sorted and deduplicated. */
  readonly instructionRefs?: readonly string[];
  /** Gate/CI witness refs, sorted and deduplicated (stop/handoff `lease://handoff/...` refs included). */
  readonly witnessRefs?: readonly string[];
  /** Site lineage refs (`ctx://`, `cover://`, `refinement://`), sorted and deduplicated. */
  readonly lineageRefs?: readonly string[];
  /** When the session started (RFC 3339); kept across updates in place. */
  readonly startedAt: string;
  /** When the session was last written (RFC 3339); refreshed by every update. */
  readonly updatedAt: string;
  /** When the session stopped (RFC 3339); present exactly when `state` is `stopped`. */
  readonly stoppedAt?: string;
  /** The issue memory path the snapshot ref was derived from. */
  readonly issuesPath?: string;
  /** The issue memory snapshot ref (`iss1_<hex>`); stable for unchanged issue memory. */
  readonly issuesSnapshotRef?: string;
}

const FIELDS = [
  'schema',
  'sessionKind',
  'sessionId',
  'state',
  'issueId',
  'summary',
  'nextStep',
  'instructionRefs',
  'witnessRefs',
  'lineageRefs',
  'startedAt',
  'updatedAt',
  'stoppedAt',
  'issuesPath',
  'issuesSnapshotRef',
] as const;

/** Builds the (frozen) artifact in premath's field order, leaving out absent fields and empty lists. */
type Required = 'schema' | 'sessionKind' | 'sessionId' | 'state' | 'startedAt' | 'updatedAt';
type SessionFields = Pick<HarnessSession, 'sessionId' | 'state' | 'startedAt' | 'updatedAt'> & {
  readonly [K in Exclude<keyof HarnessSession, Required>]-?: HarnessSession[K] | undefined;
};

function build(f: SessionFields): HarnessSession {
  return compact<HarnessSession>({
    schema: 1,
    sessionKind: SESSION_KIND,
    sessionId: f.sessionId,
    state: f.state,
    issueId: f.issueId,
    summary: f.summary,
    nextStep: f.nextStep,
    instructionRefs: f.instructionRefs,
    witnessRefs: f.witnessRefs,
    lineageRefs: f.lineageRefs,
    startedAt: f.startedAt,
    updatedAt: f.updatedAt,
    stoppedAt: f.stoppedAt,
    issuesPath: f.issuesPath,
    issuesSnapshotRef: f.issuesSnapshotRef,
  });
}

/**
 * Reads a session artifact from parsed JSON: checks the kind, schema, state and required
 * fields, validates every timestamp as RFC 3339 and that `stoppedAt` is present exactly when
 * stopped, and normalizes it (strings trimmed, blank optional strings dropped, ref lists
 * trimmed, sorted and deduplicated).
 *
 * Source: the Tusk harness contract §11; HARNESS-RUNTIME §4.
 *
 * @param value - Parsed JSON (e.g. from `parseJson`), or JSON text.
 * @returns The normalized session.
 * @throws {@link HarnessInputError} naming the field (`session.updatedAt`, ...) and what was expected.
 * @example
 * ```ts
 * import { parseSession } from 'turngate/tusk';
 * const session = parseSession({ schema: 1, sessionKind: 'premath.harness.session.v1', sessionId: ' hs-1 ', state: 'active',
 *   summary: '  ', witnessRefs: ['b', 'a', 'b'], startedAt: '2026-02-22T01:00:00Z', updatedAt: '2026-02-22T01:00:00Z' });
 * session.sessionId; //=> 'hs-1'
 * session.witnessRefs; //=> ['a', 'b']
 * session.summary; //=> undefined
 * ```
 */
export function parseSession(value: unknown): HarnessSession {
  const input = typeof value === 'string' ? parseJsonText(value, 'session') : value;
  const f = objectAt(input, 'session', FIELDS, 'a harness session artifact');
  schemaOne(f);
  exactString(f, 'sessionKind', SESSION_KIND);
  const state = requiredString(f, 'state');
  if (state !== 'active' && state !== 'stopped') {
    throw new HarnessInputError('session.state', `expected "active" or "stopped", received ${quote(state)}`);
  }
  const stoppedAt = optionalTimestamp(f, 'stoppedAt');
  if (state === 'stopped' && stoppedAt === undefined) {
    throw new HarnessInputError('session.stoppedAt', 'required when state is "stopped"');
  }
  if (state === 'active' && stoppedAt !== undefined) {
    throw new HarnessInputError('session.stoppedAt', 'must be absent when state is "active"');
  }
  return build({
    sessionId: requiredString(f, 'sessionId'),
    state,
    issueId: optionalString(f, 'issueId'),
    summary: optionalString(f, 'summary'),
    nextStep: optionalString(f, 'nextStep'),
    instructionRefs: refList(f, 'instructionRefs'),
    witnessRefs: refList(f, 'witnessRefs'),
    lineageRefs: refList(f, 'lineageRefs'),
    startedAt: requiredTimestamp(f, 'startedAt'),
    updatedAt: requiredTimestamp(f, 'updatedAt'),
    stoppedAt,
    issuesPath: optionalString(f, 'issuesPath'),
    issuesSnapshotRef: optionalString(f, 'issuesSnapshotRef'),
  });
}

/**
 * One write of the session artifact. A field left `undefined` keeps the existing value; a
 * string is trimmed and a blank one removes the field; a ref list replaces the existing one
 * (normalized; `[]` clears it).
 *
 * @example
 * ```ts
 * import type { SessionUpdate } from 'turngate/tusk';
 * const update: SessionUpdate = { state: 'stopped', issueId: 'bd-7', nextStep: 'claim next ready issue', witnessRefs: ['lease://handoff/bd-7/released/ab12'] };
 * ```
 */
export interface SessionUpdate {
  /** The new state. */
  readonly state: HarnessSessionState;
  /** An explicit session id (overrides the existing one). */
  readonly sessionId?: string | undefined;
  /** The current or resumed issue. */
  readonly issueId?: string | undefined;
  /** A compact handoff summary. */
  readonly summary?: string | undefined;
  /** The next-step recommendation. */
  readonly nextStep?: string | undefined;
  /** Instruction witness refs. */
  readonly instructionRefs?: readonly string[] | undefined;
  /** Gate/CI witness refs. */
  readonly witnessRefs?: readonly string[] | undefined;
  /** Site lineage refs. */
  readonly lineageRefs?: readonly string[] | undefined;
  /** The issue memory path. */
  readonly issuesPath?: string | undefined;
  /**
   * The issue memory snapshot ref derived from `issuesPath` now (`issuesSnapshotRef`), or
   * `null` when there is no issue memory at that path. `undefined` keeps the existing ref.
   */
  readonly issuesSnapshotRef?: string | null | undefined;
}

function sessionToken(value: string): string {
  let out = '';
  for (const ch of value) {
    if (/^[A-Za-z0-9]$/.test(ch)) out += ch.toLowerCase();
    else if (ch === '-' || ch === '_') out += ch;
    else out += '_';
  }
  const trimmed = out.replace(/^_+|_+$/g, '');
  return trimmed === '' ? 'session' : trimmed;
}

/**
 * A new session id as premath forms one: `hs1_<YYYYMMDDTHHMMSSZ>` from the clock, plus
 * `_<issue token>` (ASCII letters and digits lowercased, `-` and `_` kept, anything else `_`)
 * when there is an issue.
 *
 * @param now - The clock reading.
 * @param issueId - The session's issue, if any.
 * @returns The id.
 * @example
 * ```ts
 * import { newSessionId } from 'turngate/tusk';
 * newSessionId(new Date('2026-02-22T01:02:03Z'), 'BD-7/a'); //=> 'hs1_20260222T010203Z_bd-7_a'
 * ```
 */
export function newSessionId(now: Date, issueId?: string): string {
  const stamp = formatRfc3339(now).replace(/[-:]/g, '');
  return issueId === undefined ? `hs1_${stamp}` : `hs1_${stamp}_${sessionToken(issueId)}`;
}

/**
 * Applies one write to the session artifact under the determinism rules:
 * - `sessionId` is kept unless the update overrides it (a new session gets {@link newSessionId});
 * - `startedAt` is kept; `updatedAt` is always `now`;
 * - `stoppedAt` is `now` when the new state is `stopped` and absent when `active`;
 * - strings are trimmed and blank optional strings are dropped; ref lists are trimmed, sorted
 *   and deduplicated.
 *
 * Source: the Tusk harness contract §11 (determinism rules); HARNESS-RUNTIME §4.
 *
 * @param existing - The artifact on disk, or `undefined` for a new session.
 * @param update - The write.
 * @param now - The clock reading (the harness never reads a clock here).
 * @returns The new artifact.
 * @throws {@link HarnessInputError} for a bad state or a blank timestamp.
 * @example
 * ```ts
 * import { updateSession } from 'turngate/tusk';
 * const started = updateSession(undefined, { state: 'active', issueId: 'bd-7' }, new Date('2026-02-22T01:00:00Z'));
 * const stopped = updateSession(started, { state: 'stopped', summary: ' done ' }, new Date('2026-02-22T01:30:00Z'));
 * [stopped.sessionId, stopped.startedAt, stopped.updatedAt, stopped.stoppedAt, stopped.summary];
 * //=> ['hs1_20260222T010000Z_bd-7', '2026-02-22T01:00:00Z', '2026-02-22T01:30:00Z', '2026-02-22T01:30:00Z', 'done']
 * ```
 */
export function updateSession(existing: HarnessSession | undefined, update: SessionUpdate, now: Date): HarnessSession {
  if (update.state !== 'active' && update.state !== 'stopped') {
    throw new HarnessInputError('update.state', `expected "active" or "stopped", received ${quote(update.state)}`);
  }
  const at = formatRfc3339(now);
  const pick = (key: 'issueId' | 'summary' | 'nextStep' | 'issuesPath'): string | undefined =>
    update[key] === undefined ? existing?.[key] : cleanOptional(update[key], `update.${key}`);
  const refs = (key: 'instructionRefs' | 'witnessRefs' | 'lineageRefs'): readonly string[] | undefined =>
    update[key] === undefined ? existing?.[key] : cleanRefs(update[key], `update.${key}`);
  const issueId = pick('issueId');
  const snapshot = update.issuesSnapshotRef;
  return build({
    sessionId: cleanOptional(update.sessionId, 'update.sessionId') ?? existing?.sessionId ?? newSessionId(now, issueId),
    state: update.state,
    issueId,
    summary: pick('summary'),
    nextStep: pick('nextStep'),
    instructionRefs: refs('instructionRefs'),
    witnessRefs: refs('witnessRefs'),
    lineageRefs: refs('lineageRefs'),
    startedAt: existing?.startedAt ?? at,
    updatedAt: at,
    stoppedAt: update.state === 'stopped' ? at : undefined,
    issuesPath: pick('issuesPath'),
    issuesSnapshotRef:
      snapshot === undefined
        ? existing?.issuesSnapshotRef
        : cleanOptional(snapshot ?? undefined, 'update.issuesSnapshotRef'),
  });
}

/**
 * The session artifact as written to disk: pretty JSON (two-space indent) with the fields in
 * premath's order and a final newline, the bytes premath's `harness-session write` writes.
 *
 * @param session - A session (from {@link parseSession} or {@link updateSession}).
 * @returns The file text.
 * @example
 * ```ts
 * import { renderSession, updateSession } from 'turngate/tusk';
 * renderSession(updateSession(undefined, { state: 'active', sessionId: 'hs-1' }, new Date('2026-02-22T01:00:00Z')));
 * //=> '{\n  "schema": 1,\n  "sessionKind": "premath.harness.session.v1",\n  "sessionId": "hs-1",\n  "state": "active",\n  "startedAt": "2026-02-22T01:00:00Z",\n  "updatedAt": "2026-02-22T01:00:00Z"\n}\n'
 * ```
 */
export function renderSession(session: HarnessSession): string {
  return `${JSON.stringify(inOrder(session, FIELDS), null, 2)}\n`;
}

/**
 * The `bootstrap` projection of a session (`premath.harness.bootstrap.v1`), with premath's
 * fields: absent values are `null`, ref lists are always present.
 *
 * @example
 * ```ts
 * import type { HarnessBootstrap } from 'turngate/tusk';
 * declare const bootstrap: HarnessBootstrap;
 * const resuming = bootstrap.mode === 'resume' ? bootstrap.resumeIssueId : null;
 * ```
 */
export interface HarnessBootstrap {
  /** Always `harness-session.bootstrap`. */
  readonly action: 'harness-session.bootstrap';
  /** Always `premath.harness.bootstrap.v1`. */
  readonly bootstrapKind: typeof BOOTSTRAP_KIND;
  /** The session artifact's path. */
  readonly sessionRef: string;
  /** The session id. */
  readonly sessionId: string;
  /** `resume` when the session is stopped, `attach` when it is active. */
  readonly mode: 'resume' | 'attach';
  /** The session's issue. */
  readonly resumeIssueId: string | null;
  /** The next-step recommendation. */
  readonly nextStep: string | null;
  /** The handoff summary. */
  readonly summary: string | null;
  /** Instruction refs. */
  readonly instructionRefs: readonly string[];
  /** Witness refs. */
  readonly witnessRefs: readonly string[];
  /** Lineage refs. */
  readonly lineageRefs: readonly string[];
  /** The issue memory path. */
  readonly issuesPath: string | null;
  /** The issue memory snapshot ref. */
  readonly issuesSnapshotRef: string | null;
  /** The feature ledger path consulted. */
  readonly featureLedgerRef: string;
  /** The next feature by the ledger's rule, when a ledger is present. */
  readonly nextFeatureId: string | null;
  /** Whether every feature is completed with verification, when a ledger is present. */
  readonly featureClosureComplete: boolean | null;
  /** How many features the ledger has, when a ledger is present. */
  readonly featureCount: number | null;
  /** When the session started. */
  readonly startedAt: string;
  /** When it was last written. */
  readonly updatedAt: string;
  /** When it stopped. */
  readonly stoppedAt: string | null;
}

/**
 * Projects a session for a fresh-context start: `mode` is `resume` for a stopped session and
 * `attach` for an active one (a loop that is still running, or one that crashed mid-run), with
 * the feature projection (`nextFeatureId`, `featureClosureComplete`, `featureCount`) when a
 * feature ledger is present and `null` otherwise.
 *
 * Source: the Tusk harness contract §11 (`bootstrap` output); HARNESS-RUNTIME §4, §5.
 *
 * @param session - The session artifact.
 * @param refs - The session path and the feature ledger path, and the ledger's projection when one exists.
 * @returns The bootstrap projection.
 * @example
 * ```ts
 * import { bootstrapSession, parseSession } from 'turngate/tusk';
 * const session = parseSession({ schema: 1, sessionKind: 'premath.harness.session.v1', sessionId: 'hs-1', state: 'stopped',
 *   issueId: 'bd-7', startedAt: '2026-02-22T01:00:00Z', updatedAt: '2026-02-22T01:30:00Z', stoppedAt: '2026-02-22T01:30:00Z' });
 * const boot = bootstrapSession(session, { sessionRef: '.premath/harness_session.json', featureLedgerRef: '.premath/harness_feature_ledger.json' });
 * [boot.mode, boot.resumeIssueId, boot.nextFeatureId]; //=> ['resume', 'bd-7', null]
 * ```
 */
export function bootstrapSession(
  session: HarnessSession,
  refs: {
    readonly sessionRef: string;
    readonly featureLedgerRef: string;
    readonly features?: FeatureProjection | undefined;
  },
): HarnessBootstrap {
  return Object.freeze({
    action: 'harness-session.bootstrap',
    bootstrapKind: BOOTSTRAP_KIND,
    sessionRef: refs.sessionRef,
    sessionId: session.sessionId,
    mode: session.state === 'stopped' ? 'resume' : 'attach',
    resumeIssueId: session.issueId ?? null,
    nextStep: session.nextStep ?? null,
    summary: session.summary ?? null,
    instructionRefs: session.instructionRefs ?? [],
    witnessRefs: session.witnessRefs ?? [],
    lineageRefs: session.lineageRefs ?? [],
    issuesPath: session.issuesPath ?? null,
    issuesSnapshotRef: session.issuesSnapshotRef ?? null,
    featureLedgerRef: refs.featureLedgerRef,
    nextFeatureId: refs.features?.nextFeatureId ?? null,
    featureClosureComplete: refs.features?.closureComplete ?? null,
    featureCount: refs.features?.featureCount ?? null,
    startedAt: session.startedAt,
    updatedAt: session.updatedAt,
    stoppedAt: session.stoppedAt ?? null,
  });
}
