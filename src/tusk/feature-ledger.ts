/**
 * The feature ledger (`premath.harness.feature_ledger.v1`): the harness's typed task list, with
 * the deterministic next-feature rule that `bootstrap` projects. Pure.
 *
 * @module
 */
import { compareUtf8 } from '../canonical/index.ts';
import {
  cleanOptional,
  cleanRefs,
  compact,
  exactString,
  inOrder,
  fieldPath,
  objectAt,
  optionalString,
  parseJsonText,
  refList,
  requiredString,
  requiredTimestamp,
  schemaOne,
} from './decode.ts';
import { HarnessInputError } from './errors.ts';
import { formatRfc3339 } from './time.ts';
import { quote } from '../internal/display.ts';

/** The ledger kind. Source: HARNESS-RUNTIME §2, §5. */
export const FEATURE_LEDGER_KIND = 'premath.harness.feature_ledger.v1';
/** The ledger's default path. Source: HARNESS-RUNTIME §2. */
export const DEFAULT_FEATURE_LEDGER_PATH = '.premath/harness_feature_ledger.json';

/**
 * A feature's status. Source: HARNESS-RUNTIME §5.
 *
 * @example
 * ```ts
 * import type { FeatureStatus } from 'turngate/tusk';
 * const status: FeatureStatus = 'in_progress';
 * ```
 */
export type FeatureStatus = 'pending' | 'in_progress' | 'blocked' | 'completed';

const STATUSES: readonly string[] = ['pending', 'in_progress', 'blocked', 'completed'];

/**
 * One feature (a bounded work item) of the ledger.
 *
 * @example
 * ```ts
 * import type { FeatureRow } from 'turngate/tusk';
 * const row: FeatureRow = { featureId: 'bd-7', status: 'completed', verificationRefs: ['ci://run/42'], updatedAt: '2026-02-22T01:00:00Z' };
 * ```
 */
export interface FeatureRow {
  /** The feature id (unique in the ledger). */
  readonly featureId: string;
  /** Its status; a value outside {@link FeatureStatus} is reported by {@link checkFeatureLedger}. */
  readonly status: string;
  /** The linked issue. */
  readonly issueId?: string;
  /** A compact summary. */
  readonly summary?: string;
  /** Instruction refs, sorted and deduplicated. */
  readonly instructionRefs?: readonly string[];
  /** Verification refs, sorted and deduplicated; a completed feature needs at least one. */
  readonly verificationRefs?: readonly string[];
  /** When the row was last written (RFC 3339). */
  readonly updatedAt: string;
}

/**
 * The feature ledger: one row per feature, kept sorted by `featureId`.
 *
 * Source: HARNESS-RUNTIME §5; the Tusk harness contract §7, §11 (bootstrap feature projection).
 *
 * @example
 * ```ts
 * import type { FeatureLedger } from 'turngate/tusk';
 * const ledger: FeatureLedger = { schema: 1, ledgerKind: 'premath.harness.feature_ledger.v1', updatedAt: '2026-02-22T01:00:00Z',
 *   features: [{ featureId: 'bd-7', status: 'pending', updatedAt: '2026-02-22T01:00:00Z' }] };
 * ```
 */
export interface FeatureLedger {
  /** Always 1. */
  readonly schema: 1;
  /** Always `premath.harness.feature_ledger.v1`. */
  readonly ledgerKind: typeof FEATURE_LEDGER_KIND;
  /** The session artifact this ledger continues from. */
  readonly sessionRef?: string;
  /** When the ledger was last written (RFC 3339). */
  readonly updatedAt: string;
  /** The features. */
  readonly features: readonly FeatureRow[];
}

const ROW_FIELDS = ['featureId', 'status', 'issueId', 'summary', 'instructionRefs', 'verificationRefs', 'updatedAt'];
const LEDGER_FIELDS = ['schema', 'ledgerKind', 'sessionRef', 'updatedAt', 'features'];

type RowFields = Pick<FeatureRow, 'featureId' | 'status' | 'updatedAt'> & {
  readonly [K in 'issueId' | 'summary' | 'instructionRefs' | 'verificationRefs']-?: FeatureRow[K] | undefined;
};

function row(f: RowFields): FeatureRow {
  return compact<FeatureRow>({
    featureId: f.featureId,
    status: f.status,
    issueId: f.issueId,
    summary: f.summary,
    instructionRefs: f.instructionRefs,
    verificationRefs: f.verificationRefs,
    updatedAt: f.updatedAt,
  });
}

function ledger(
  f: Pick<FeatureLedger, 'updatedAt' | 'features'> & { readonly sessionRef: string | undefined },
): FeatureLedger {
  return compact<FeatureLedger>(
    {
      schema: 1,
      ledgerKind: FEATURE_LEDGER_KIND,
      sessionRef: f.sessionRef,
      updatedAt: f.updatedAt,
      features: Object.freeze([...f.features]),
    },
    ['features'],
  );
}

/**
 * Reads a feature ledger from parsed JSON or JSON text: checks the kind, schema and each row's
 * required fields and RFC 3339 timestamps, and normalizes strings and ref lists.
 *
 * @param value - Parsed JSON or JSON text.
 * @returns The ledger.
 * @throws {@link HarnessInputError} naming the field (`ledger.features[1].updatedAt`, ...).
 * @example
 * ```ts
 * import { parseFeatureLedger } from 'turngate/tusk';
 * parseFeatureLedger({ schema: 1, ledgerKind: 'premath.harness.feature_ledger.v1', updatedAt: '2026-02-22T01:00:00Z', features: [] }).features; //=> []
 * ```
 */
export function parseFeatureLedger(value: unknown): FeatureLedger {
  const input = typeof value === 'string' ? parseJsonText(value, 'ledger') : value;
  const f = objectAt(input, 'ledger', LEDGER_FIELDS, 'a harness feature ledger');
  schemaOne(f);
  exactString(f, 'ledgerKind', FEATURE_LEDGER_KIND);
  const rawFeatures = Object.hasOwn(f.value, 'features') ? f.value['features'] : [];
  if (!Array.isArray(rawFeatures)) {
    throw new HarnessInputError('ledger.features', 'expected an array of feature rows');
  }
  const features = rawFeatures.map((item, index) => {
    const r = objectAt(item, fieldPath('ledger.features', index), ROW_FIELDS, 'a feature row');
    return row({
      featureId: requiredString(r, 'featureId'),
      status: requiredString(r, 'status'),
      issueId: optionalString(r, 'issueId'),
      summary: optionalString(r, 'summary'),
      instructionRefs: refList(r, 'instructionRefs'),
      verificationRefs: refList(r, 'verificationRefs'),
      updatedAt: requiredTimestamp(r, 'updatedAt'),
    });
  });
  return ledger({
    sessionRef: optionalString(f, 'sessionRef'),
    updatedAt: requiredTimestamp(f, 'updatedAt'),
    features,
  });
}

/**
 * A problem {@link checkFeatureLedger} found.
 *
 * @example
 * ```ts
 * import type { FeatureLedgerFinding } from 'turngate/tusk';
 * const finding: FeatureLedgerFinding = { class: 'harness_feature_ledger.feature_id.duplicate', featureId: 'bd-7', message: 'featureId must be unique' };
 * ```
 */
export interface FeatureLedgerFinding {
  /** The finding's class (premath's `harness_feature_ledger.*` vocabulary). */
  readonly class: string;
  /** The feature it is about, when it is about one. */
  readonly featureId?: string;
  /** What is wrong. */
  readonly message: string;
}

/**
 * What the ledger projects for `bootstrap`.
 *
 * @example
 * ```ts
 * import type { FeatureProjection } from 'turngate/tusk';
 * const projection: FeatureProjection = { nextFeatureId: 'bd-8', closureComplete: false, featureCount: 3 };
 * ```
 */
export interface FeatureProjection {
  /** The next feature: the smallest `in_progress` id, else the smallest `pending` id, else `null`. */
  readonly nextFeatureId: string | null;
  /** Whether the ledger is valid, non-empty and every feature is `completed`. */
  readonly closureComplete: boolean;
  /** How many features there are. */
  readonly featureCount: number;
}

/**
 * The result of {@link checkFeatureLedger}.
 *
 * @example
 * ```ts
 * import type { FeatureLedgerCheck } from 'turngate/tusk';
 * declare const check: FeatureLedgerCheck;
 * const blocked = check.result === 'rejected' ? check.failureClasses : [];
 * ```
 */
export interface FeatureLedgerCheck extends FeatureProjection {
  /** `accepted` when there are no findings. */
  readonly result: 'accepted' | 'rejected';
  /** The findings' classes, sorted, once each. */
  readonly failureClasses: readonly string[];
  /** Every finding, in ledger order. */
  readonly findings: readonly FeatureLedgerFinding[];
}

/**
 * Checks a feature ledger and computes its projection: at least one feature, unique ids, a
 * known status, at most one `in_progress` feature, a verification ref on every completed
 * feature; with `requireClosure`, every feature completed. The next feature is the
 * lexicographically (UTF-8 byte order) smallest `in_progress` id, else the smallest `pending`
 * id, else `null`.
 *
 * Source: HARNESS-RUNTIME §5 (feature ledger contract, next rule).
 *
 * @param ledger - The ledger.
 * @param options - `requireClosure` adds the closure condition.
 * @returns The check with its projection.
 * @example
 * ```ts
 * import { checkFeatureLedger, parseFeatureLedger } from 'turngate/tusk';
 * const ledger = parseFeatureLedger({ schema: 1, ledgerKind: 'premath.harness.feature_ledger.v1', updatedAt: '2026-02-22T01:00:00Z', features: [
 *   { featureId: 'b', status: 'pending', updatedAt: '2026-02-22T01:00:00Z' },
 *   { featureId: 'a', status: 'completed', verificationRefs: ['ci://1'], updatedAt: '2026-02-22T01:00:00Z' },
 * ] });
 * const check = checkFeatureLedger(ledger);
 * [check.result, check.nextFeatureId, check.closureComplete]; //=> ['accepted', 'b', false]
 * ```
 */
export function checkFeatureLedger(
  ledger: FeatureLedger,
  options: { readonly requireClosure?: boolean } = {},
): FeatureLedgerCheck {
  const findings: FeatureLedgerFinding[] = [];
  const add = (cls: string, message: string, featureId?: string) =>
    findings.push(featureId === undefined ? { class: cls, message } : { class: cls, featureId, message });
  if (ledger.features.length === 0)
    add('harness_feature_ledger.empty', 'ledger.features must contain at least one row');
  const seen = new Set<string>();
  const inProgress: string[] = [];
  const pending: string[] = [];
  let completed = 0;
  for (const feature of ledger.features) {
    const id = feature.featureId;
    if (seen.has(id)) add('harness_feature_ledger.feature_id.duplicate', 'featureId must be unique', id);
    seen.add(id);
    if (!STATUSES.includes(feature.status)) {
      add(
        'harness_feature_ledger.status.invalid',
        `feature status \`${feature.status}\` is invalid (expected pending|in_progress|blocked|completed)`,
        id,
      );
    }
    if (feature.status === 'in_progress') inProgress.push(id);
    if (feature.status === 'pending') pending.push(id);
    if (feature.status === 'completed') {
      completed++;
      if ((feature.verificationRefs ?? []).length === 0) {
        add(
          'harness_feature_ledger.completed_missing_verification_ref',
          'completed feature requires at least one verificationRef',
          id,
        );
      }
    }
  }
  if (inProgress.length > 1) {
    add('harness_feature_ledger.in_progress.non_contractible', 'at most one feature may be in_progress');
  }
  const closureComplete = findings.length === 0 && ledger.features.length > 0 && completed === ledger.features.length;
  if (options.requireClosure === true && !closureComplete) {
    add('harness_feature_ledger.closure_incomplete', 'require-closure set but ledger is not closed');
  }
  const smallest = (ids: string[]) => [...ids].sort(compareUtf8)[0];
  return Object.freeze({
    result: findings.length === 0 ? 'accepted' : 'rejected',
    failureClasses: [...new Set(findings.map((f) => f.class))].sort(compareUtf8),
    findings,
    nextFeatureId: smallest(inProgress) ?? smallest(pending) ?? null,
    closureComplete,
    featureCount: ledger.features.length,
  });
}

/**
 * The bootstrap projection of a ledger; a ledger that fails {@link checkFeatureLedger} is
 * refused, so a broken task list never picks the next target.
 *
 * Source: HARNESS-RUNTIME §5 (`harness-session bootstrap` projects the ledger).
 *
 * @param ledger - The ledger.
 * @returns The projection.
 * @throws {@link HarnessInputError} (field `ledger`) listing the failure classes of a rejected ledger.
 * @example
 * ```ts
 * import { parseFeatureLedger, projectFeatures } from 'turngate/tusk';
 * projectFeatures(parseFeatureLedger({ schema: 1, ledgerKind: 'premath.harness.feature_ledger.v1', updatedAt: '2026-02-22T01:00:00Z',
 *   features: [{ featureId: 'a', status: 'in_progress', updatedAt: '2026-02-22T01:00:00Z' }] }));
 * //=> { nextFeatureId: 'a', closureComplete: false, featureCount: 1 }
 * ```
 */
export function projectFeatures(ledger: FeatureLedger): FeatureProjection {
  const check = checkFeatureLedger(ledger);
  if (check.result === 'rejected') {
    throw new HarnessInputError(
      'ledger',
      `expected a valid feature ledger, rejected: ${check.failureClasses.join(', ')}`,
    );
  }
  return {
    nextFeatureId: check.nextFeatureId,
    closureComplete: check.closureComplete,
    featureCount: check.featureCount,
  };
}

/**
 * One write of a feature row. `issueId` and `summary`: `undefined` keeps, a blank string
 * removes. Ref lists: `undefined` or empty keeps, otherwise replaces (normalized).
 *
 * @example
 * ```ts
 * import type { FeatureUpdate } from 'turngate/tusk';
 * const update: FeatureUpdate = { featureId: 'bd-7', status: 'completed', verificationRefs: ['ci://run/42'] };
 * ```
 */
export interface FeatureUpdate {
  /** The feature to insert or update. */
  readonly featureId: string;
  /** Its new status. */
  readonly status: FeatureStatus;
  /** The linked issue. */
  readonly issueId?: string | undefined;
  /** A compact summary. */
  readonly summary?: string | undefined;
  /** Instruction refs. */
  readonly instructionRefs?: readonly string[] | undefined;
  /** Verification refs. */
  readonly verificationRefs?: readonly string[] | undefined;
  /** The session artifact this ledger continues from (sets the ledger's `sessionRef`). */
  readonly sessionRef?: string | undefined;
}

/**
 * Inserts or updates one feature row (premath's `harness-feature write`): the row's and the
 * ledger's `updatedAt` become `now`, rows stay sorted by `featureId`.
 *
 * Source: HARNESS-RUNTIME §5.
 *
 * @param existingLedger - The ledger on disk, or `undefined` for a new one.
 * @param update - The write.
 * @param now - The clock reading.
 * @returns The new ledger.
 * @throws {@link HarnessInputError} for a blank `featureId` or an unknown status.
 * @example
 * ```ts
 * import { upsertFeature } from 'turngate/tusk';
 * const ledger = upsertFeature(undefined, { featureId: 'bd-7', status: 'pending' }, new Date('2026-02-22T01:00:00Z'));
 * upsertFeature(ledger, { featureId: 'bd-7', status: 'in_progress' }, new Date('2026-02-22T01:05:00Z')).features[0]?.status; //=> 'in_progress'
 * ```
 */
export function upsertFeature(
  existingLedger: FeatureLedger | undefined,
  update: FeatureUpdate,
  now: Date,
): FeatureLedger {
  const featureId = cleanOptional(update.featureId, 'update.featureId');
  if (featureId === undefined) throw new HarnessInputError('update.featureId', 'expected a non-blank string');
  if (!STATUSES.includes(update.status)) {
    throw new HarnessInputError(
      'update.status',
      `expected pending, in_progress, blocked or completed, received ${quote(update.status)}`,
    );
  }
  const at = formatRfc3339(now);
  const features = [...(existingLedger?.features ?? [])];
  const index = features.findIndex((f) => f.featureId === featureId);
  const existing = index === -1 ? undefined : features[index];
  const refs = (key: 'instructionRefs' | 'verificationRefs') => {
    const next = update[key] === undefined ? [] : cleanRefs(update[key], `update.${key}`);
    return next.length > 0 ? next : existing?.[key];
  };
  const next = row({
    featureId,
    status: update.status,
    issueId: update.issueId === undefined ? existing?.issueId : cleanOptional(update.issueId, 'update.issueId'),
    summary: update.summary === undefined ? existing?.summary : cleanOptional(update.summary, 'update.summary'),
    instructionRefs: refs('instructionRefs'),
    verificationRefs: refs('verificationRefs'),
    updatedAt: at,
  });
  if (index === -1) features.push(next);
  else features[index] = next;
  features.sort((a, b) => compareUtf8(a.featureId, b.featureId));
  const sessionRef =
    update.sessionRef === undefined
      ? existingLedger?.sessionRef
      : cleanOptional(update.sessionRef, 'update.sessionRef');
  return ledger({ sessionRef, updatedAt: at, features });
}

/**
 * The ledger as written to disk: pretty JSON in premath's field order and a final newline.
 *
 * @param ledger - The ledger.
 * @returns The file text.
 * @example
 * ```ts
 * import { renderFeatureLedger, upsertFeature } from 'turngate/tusk';
 * renderFeatureLedger(upsertFeature(undefined, { featureId: 'a', status: 'pending' }, new Date('2026-02-22T01:00:00Z'))).split('\n')[2];
 * //=> '  "ledgerKind": "premath.harness.feature_ledger.v1",'
 * ```
 */
export function renderFeatureLedger(ledger: FeatureLedger): string {
  const body = inOrder({ ...ledger, features: ledger.features.map((f) => inOrder(f, ROW_FIELDS)) }, LEDGER_FIELDS);
  return `${JSON.stringify(body, null, 2)}\n`;
}
