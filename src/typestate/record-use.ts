/**
 * `ToolUse`: one disposition per result (`recordUse`).
 *
 * @module
 */
import * as v from 'valibot';
import { asciiLowercase, digest, trimWhiteSpace, type JsonValue, isBlank } from '../canonical/index.ts';
import type { Failure, Result } from '../failures/index.ts';
import { ownEntries } from '../internal/entries.ts';
import type { ToolUseDisposition } from '../normalize/index.ts';
import { deepFreeze, expectMinted, mint, type Branded } from './brand.ts';
import type { ToolUseInputRow, UseEvidence } from './inputs.ts';
import type { UseRowsCheck } from './message-checks.ts';
import type { StateArgument } from './messages.ts';
import type { ToolResults } from './record-results.ts';
import { failedWith, failure, FailureCollector } from '../failures/internal.ts';
import { callRows, carriedRows, checkStage, parseOwnData, resultRows, STAGE_PROTOCOL, useRows } from './rows.ts';
import type { ToolDefinitions, ToolDefinitionsOf, ToolsOf } from './tools.ts';

/**
 * A recorded tool-use row, bound to the digest of the result it used.
 *
 * @example
 * ```ts
 * import type { ToolUseRow } from 'turngate/types';
 * declare const row: ToolUseRow;
 * row.resultDigest;
 * ```
 */
export interface ToolUseRow extends ToolUseInputRow {
  /** The digest of the result used, when the result was `ok`. */
  readonly resultDigest?: string;
}

/**
 * The tool-use dispositions of the results.
 *
 * @example
 * ```ts
 * import type { ToolUse } from 'turngate';
 * declare const use: ToolUse;
 * use.uses.map((u) => `${u.toolCallId}: ${u.disposition}`);
 * ```
 */
export type ToolUse<TTools extends ToolDefinitionsOf<TTools> = ToolDefinitions> = Branded<
  'ToolUse',
  {
    /** The results these rows dispose of. */
    readonly results: ToolResults<TTools>;
    /** One row per result, in the order given. */
    readonly uses: readonly ToolUseRow[];
    /** The registry's definitions type, for type-level queries only: absent at run time. */
    readonly '~tools'?: TTools;
  }
>;

const optionalText = v.optional(v.string());
const RowSchema = v.object(
  ownEntries({
    toolCallId: v.string(),
    disposition: v.string(),
    reasonCode: optionalText,
    evidence: v.optional(
      v.object(
        ownEntries({
          summaryRef: optionalText,
          handoffRef: optionalText,
          mutationInputRef: optionalText,
          mutationInput: v.optional(v.unknown()),
        }),
      ),
    ),
  }),
);

const named = (ref: string | undefined): boolean => ref !== undefined && !isBlank(ref);

/** The problem with one row that the join check does not see, or `undefined`. */
function rowProblem(row: v.InferOutput<typeof RowSchema>): Failure | undefined {
  const id = row.toolCallId;
  const disposition = asciiLowercase(trimWhiteSpace(row.disposition));
  const e = row.evidence;
  if (disposition === 'consumed' && !(named(e?.summaryRef) || named(e?.handoffRef) || named(e?.mutationInputRef))) {
    return failure(
      'mutation.use_evidence_missing',
      `${id} is consumed without evidence: give evidence.summaryRef, handoffRef or mutationInputRef`,
      [id],
    );
  }
  if (e?.mutationInput !== undefined && !named(e.mutationInputRef)) {
    return failure('tool.schema_invalid', `${id}: evidence.mutationInput needs the mutationInputRef it is bound to`, [
      id,
    ]);
  }
  if (disposition === 'discarded_with_reason' && !named(row.reasonCode)) {
    return failure('tool.schema_invalid', `${id} is discarded_with_reason without a reasonCode`, [id]);
  }
  return undefined;
}

/**
 * The one rule for a result that admits only some dispositions (a result reported with
 * `admissibleDispositions`, such as a delegated call that broke its contract): a disposition
 * outside the list fails. `recordUse` (and so `useAll` and the builder's `.use`) applies it to
 * every row; `turngate/outcome`'s `checkUse` is this rule for a validation record.
 *
 * Failure class: `tool.schema_invalid` (the use row does not fit the result it names), with the
 * tool call id.
 *
 * Source: ADR 0014 Decision §1; TOOL-CALLING-HARNESS-TYPESTATE §4.4.
 *
 * @param toolCallId - The result's tool call id.
 * @param disposition - The disposition to record (after trimming and ASCII lowercasing).
 * @param admissible - The result's admissible dispositions; `undefined` admits every one.
 * @param why - What restricts the result, for the message (default: `its result`).
 * @returns `undefined` when admissible, else the failure.
 * @example
 * ```ts
 * import { checkAdmissibleDisposition } from 'turngate';
 * checkAdmissibleDisposition('toolu_01', 'consumed', ['discarded_with_reason', 'retry_scheduled'])?.detail;
 * //=> 'toolu_01: its result admits only some dispositions; its disposition must be discarded_with_reason or retry_scheduled, not consumed'
 * checkAdmissibleDisposition('toolu_01', 'retry_scheduled', ['discarded_with_reason', 'retry_scheduled']); //=> undefined
 * ```
 */
export function checkAdmissibleDisposition(
  toolCallId: string,
  disposition: string,
  admissible: readonly ToolUseDisposition[] | undefined,
  why = 'its result admits only some dispositions',
): Failure | undefined {
  if (admissible === undefined || (admissible as readonly string[]).includes(disposition)) return undefined;
  return failure(
    'tool.schema_invalid',
    `${toolCallId}: ${why}; its disposition must be ${admissible.join(' or ')}, not ${disposition}`,
    [toolCallId],
  );
}

/**
 * Mints `ToolUse`: one disposition per result. The rows are read as own data first. Rows of `ok`
 * results are bound to the digest of the result they used.
 *
 * Failure classes: `tool.use_without_result` (a disposition for a call without a result),
 * `mutation.use_evidence_missing` (a `consumed` row without a summary, handoff or mutation-input
 * ref), `tool.schema_invalid` (a malformed row, an unknown disposition, a
 * `discarded_with_reason` row without `reasonCode`, a `mutationInput` without its ref, two
 * different dispositions for one call, a disposition outside its result's
 * `admissibleDispositions`: see {@link checkAdmissibleDisposition}).
 *
 * Source: HARNESS-TYPESTATE §5; TOOL-CALLING-HARNESS-TYPESTATE §4.4.
 *
 * @param results - `ToolResults` from `recordResults` or `settle`.
 * @param uses - The dispositions.
 * @returns `ToolUse`, or failures: one per class, sorted by class, ids merged and sorted.
 * @throws {@link TypestateError} when `results` was not minted by `recordResults`.
 *
 * @example
 * ```ts
 * import { recordUse, type ToolResults } from 'turngate';
 * declare const results: ToolResults;
 * recordUse(results, [
 *   { toolCallId: 'toolu_01', disposition: 'consumed', evidence: { summaryRef: 'summary://turn-1' } },
 *   { toolCallId: 'toolu_02', disposition: 'discarded_with_reason', reasonCode: 'stale' },
 * ]);
 * ```
 */
export function recordUse<TResults, const TRows extends readonly ToolUseInputRow[]>(
  results: StateArgument<
    TResults,
    'ToolResults',
    'call settle(requests, handlers) or recordResults(requests, results) first'
  >,
  uses: UseRowsCheck<TRows>,
): Result<ToolUse<ToolsOf<TResults>>>;
export function recordUse(results: ToolResults, uses: readonly ToolUseInputRow[]): Result<ToolUse> {
  expectMinted(results, 'ToolResults');
  const parsed = parseOwnData(v.array(RowSchema), uses, { root: 'uses' });
  if (!parsed.ok) return parsed;
  const problems = new FailureCollector().addAll(parsed.value.map(rowProblem).filter((p) => p !== undefined));
  const admissible = new Map(
    results.results.map((r) => [r.toolCallId, r.status === 'error' ? r.admissibleDispositions : undefined]),
  );
  for (const u of parsed.value) {
    const disposition = asciiLowercase(trimWhiteSpace(u.disposition));
    const refused = checkAdmissibleDisposition(u.toolCallId, disposition, admissible.get(u.toolCallId));
    if (refused !== undefined) problems.addAll([refused]);
  }
  const bound = new Map<string, { id: string; digest: string }>();
  for (const u of parsed.value) {
    const ref = u.evidence?.mutationInputRef;
    if (ref === undefined || u.evidence?.mutationInput === undefined) continue;
    const key = trimWhiteSpace(ref);
    const inputDigest = digest(u.evidence.mutationInput as JsonValue);
    const first = bound.get(key);
    if (first === undefined) bound.set(key, { id: u.toolCallId, digest: inputDigest });
    else if (first.digest !== inputDigest) {
      problems.add('tool.schema_invalid', `mutationInputRef ${JSON.stringify(key)} is bound to two different inputs`, [
        first.id,
        u.toolCallId,
      ]);
    }
  }
  if (!problems.empty) return problems.failed();
  const digests = new Map(results.results.map((r) => [r.toolCallId, r.status === 'ok' ? r.resultDigest : undefined]));
  const rows: ToolUseRow[] = parsed.value.map((u) => {
    const resultDigest = digests.get(u.toolCallId);
    const e = u.evidence;
    const evidence: UseEvidence | undefined =
      e === undefined
        ? undefined
        : {
            ...(e.summaryRef === undefined ? {} : { summaryRef: e.summaryRef }),
            ...(e.handoffRef === undefined ? {} : { handoffRef: e.handoffRef }),
            ...(e.mutationInputRef === undefined ? {} : { mutationInputRef: trimWhiteSpace(e.mutationInputRef) }),
            ...(e.mutationInput === undefined ? {} : { mutationInput: e.mutationInput }),
          };
    const row = {
      toolCallId: u.toolCallId,
      disposition: asciiLowercase(trimWhiteSpace(u.disposition)) as ToolUseDisposition,
      ...(u.reasonCode === undefined ? {} : { reasonCode: u.reasonCode }),
      ...(evidence === undefined ? {} : { evidence }),
    };
    return resultDigest === undefined ? row : { ...row, resultDigest };
  });
  const requests = results.requests;
  // The call and result rows as the step that minted `results` normalized them, when it kept them.
  const carried = carriedRows(results);
  const checked = checkStage(
    {
      evidence: {
        callSpec: requests.callSpec.spec,
        ...(carried === undefined
          ? {
              toolRequests: callRows([...requests.requests, ...requests.refused]),
              toolResults: resultRows(results.results),
            }
          : {}),
        toolUse: useRows(rows),
        protocolState: STAGE_PROTOCOL,
      },
    },
    carried === undefined ? {} : { toolRequests: carried.toolRequests, toolResults: carried.toolResults },
  );
  if (!checked.ok) return checked;
  const stage = checked.value.failures.filter((f) => f.class === 'tool.use_without_result');
  if (stage.length > 0) return failedWith(stage);
  return { ok: true, value: mint('ToolUse', { results, uses: deepFreeze(rows) }) };
}
