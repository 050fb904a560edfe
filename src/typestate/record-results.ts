/**
 * `ToolResults`: the terminal results of requested calls (`recordResults`).
 *
 * @module
 */
import { isBlank } from '../canonical/index.ts';
import * as v from 'valibot';
import type { Failure, Result } from '../failures/index.ts';
import { ownEntries } from '../internal/entries.ts';
import { TOOL_USE_DISPOSITIONS, type ToolUseDisposition } from '../normalize/index.ts';
import { snapshotOwnData, snapshotProblem } from '../internal/own-data.ts';
import { deepFreeze, expectMinted, mint, type Branded } from './brand.ts';
import type { StateArgument } from './messages.ts';
import type { ToolRequests } from './requests.ts';
import { ownError, type ReportedToolResult, type ToolErrorEnvelope, type ToolResult } from './results.ts';
import {
  callRows,
  carriedRows,
  carryRows,
  checkStage,
  PAYLOAD_MAX_DEPTH,
  parseOwnData,
  resultRows,
  STAGE_PROTOCOL,
} from './rows.ts';
import { formatIssues, validateWith } from './schema.ts';
import {
  registryDefinitions,
  type ToolDefinition,
  type ToolDefinitions,
  type ToolDefinitionsOf,
  type ToolsOf,
} from './tools.ts';
import { firstFailure, failedWith, failure, FailureCollector } from '../failures/internal.ts';

/**
 * The terminal results recorded for a turn's calls, typed by tool, in the order given.
 *
 * @example
 * ```ts
 * import type { ToolResults } from 'turngate';
 * declare const results: ToolResults;
 * results.results.filter((r) => r.status === 'error').map((r) => r.toolCallId);
 * ```
 */
export type ToolResults<TTools extends ToolDefinitionsOf<TTools> = ToolDefinitions> = Branded<
  'ToolResults',
  {
    /** The requests these results answer. */
    readonly requests: ToolRequests<TTools>;
    /** The results, typed by tool. */
    readonly results: readonly ToolResult<TTools>[];
    /** The registry's definitions type, for type-level queries only: absent at run time. */
    readonly '~tools'?: TTools;
  }
>;

const text = v.pipe(
  v.string(),
  v.check((s) => !isBlank(s), 'expected a non-blank string'),
);
const RowSchema = v.variant('status', [
  v.object(
    ownEntries({ toolCallId: text, status: v.literal('ok'), output: v.unknown(), validation: v.optional(v.unknown()) }),
  ),
  v.object(
    ownEntries({
      toolCallId: text,
      status: v.literal('error'),
      error: v.object(ownEntries({ errorCode: text, retryable: v.boolean(), errorMessage: text })),
      validation: v.optional(v.unknown()),
      admissibleDispositions: v.optional(
        v.pipe(
          v.array(v.picklist(TOOL_USE_DISPOSITIONS)),
          v.minLength(1, 'expected at least one disposition (a result must admit one)'),
        ),
      ),
    }),
  ),
  v.object(ownEntries({ toolCallId: text, status: v.literal('pending') })),
]);

/** A result row once its output is checked. Internal. */
export type TypedRow = { readonly toolCallId: string; readonly toolName: string; readonly validation?: unknown } & (
  | { readonly status: 'ok'; readonly output: unknown }
  | {
      readonly status: 'error';
      readonly error: ToolErrorEnvelope;
      readonly admissibleDispositions?: readonly ToolUseDisposition[];
    }
);

/** The validation record and admissible dispositions a reported row carries onto its typed result. */
function carried(row: {
  readonly validation?: unknown;
  readonly admissibleDispositions?: readonly ToolUseDisposition[] | undefined;
}): { readonly validation?: unknown; readonly admissibleDispositions?: readonly ToolUseDisposition[] } {
  return {
    ...(row.validation === undefined ? {} : { validation: row.validation }),
    ...(row.admissibleDispositions === undefined ? {} : { admissibleDispositions: row.admissibleDispositions }),
  };
}

/**
 * Checks a tool's output: own JSON data, then its output schema, then the parsed value again as
 * JSON data no deeper than a payload may nest. Never throws. Internal: `recordResults` and
 * `settle` share it.
 */
export function checkOutput(definition: ToolDefinition, toolName: string, raw: unknown): Result<unknown, string> {
  const data = snapshotOwnData(raw, { root: 'output' });
  if (!data.ok)
    return { ok: false, failures: [`the output of ${toolName} is not JSON data: ${snapshotProblem(data)}`] };
  const parsed = validateWith(definition.output, data.value);
  if (!parsed.ok) {
    return {
      ok: false,
      failures: [`the output of ${toolName} does not match its schema: ${formatIssues(parsed.failures)}`],
    };
  }
  const payload = snapshotOwnData(parsed.value, { root: 'output', maxDepth: PAYLOAD_MAX_DEPTH });
  if (!payload.ok)
    return { ok: false, failures: [`the output of ${toolName} is not JSON data: ${snapshotProblem(payload)}`] };
  return { ok: true, value: payload.value };
}

/** The envelope of a pending mutation call. Internal. */
export function pendingError(toolName: string): ToolErrorEnvelope {
  return ownError(
    'mutation_pending',
    `${toolName} is a mutation tool: it runs through the mutation gate (admitMutation, then performMutationTool or settleMutations)`,
  );
}

/** The typed result row for one reported result, or the failure that refuses it. */
function typeRow(
  row: v.InferOutput<typeof RowSchema>,
  request: { readonly toolName: string } | undefined,
  refused: { readonly toolName: string; readonly failure: Failure } | undefined,
  definition: ToolDefinition | undefined,
): TypedRow | Failure {
  const id = row.toolCallId;
  const toolName = request?.toolName ?? refused?.toolName ?? '';
  if (refused !== undefined && row.status !== 'error') {
    return failure(
      refused.failure.class,
      `${id} was refused (${refused.failure.detail}); only an error result answers it`,
      [id],
    );
  }
  if (row.status === 'error') return { toolCallId: id, toolName, status: 'error', error: row.error, ...carried(row) };
  if (row.status === 'pending') {
    if (definition?.mutation !== true) {
      return failure('tool.schema_invalid', `${id}: only a call of a mutation: true tool can be pending`, [id]);
    }
    return { toolCallId: id, toolName, status: 'error', error: pendingError(toolName) };
  }
  if (definition === undefined) return { toolCallId: id, toolName, status: 'ok', output: row.output, ...carried(row) };
  if (definition.mutation === true) {
    return failure(
      'tool.schema_invalid',
      `${id}: the output of mutation tool ${toolName} is recorded only by the mutation gate (record it pending; recordMutations records what ran)`,
      [id],
    );
  }
  const output = checkOutput(definition, toolName, row.output);
  return output.ok
    ? { toolCallId: id, toolName, status: 'ok', output: output.value, ...carried(row) }
    : failure('tool.schema_invalid', firstFailure(output), [id]);
}

/** Checks checked rows against the requests through the join check and mints `ToolResults`. Internal. */
export function mintResults<TTools extends ToolDefinitionsOf<TTools>>(
  requests: ToolRequests<TTools>,
  typed: readonly TypedRow[],
): Result<ToolResults<TTools>> {
  // The call rows as requestTools normalized them, when it kept them.
  const carried = carriedRows(requests)?.toolRequests;
  const checked = checkStage(
    {
      evidence: {
        callSpec: requests.callSpec.spec,
        ...(carried === undefined ? { toolRequests: callRows([...requests.requests, ...requests.refused]) } : {}),
        toolResults: resultRows(typed),
        protocolState: STAGE_PROTOCOL,
      },
    },
    carried === undefined ? {} : { toolRequests: carried },
  );
  if (!checked.ok) return checked;
  const stage = checked.value.failures.filter(
    (f) => f.class === 'tool.result_orphan' || f.class === 'tool.schema_invalid',
  );
  if (stage.length > 0) return failedWith(stage);
  const digests = new Map(checked.value.toolResults.map((r) => [r.toolCallId, r.resultDigest]));
  // Each ok output passed its tool's output schema (checkOutput): this is where the rows become typed.
  const bound = typed.map(
    (r) => (r.status === 'ok' ? { ...r, resultDigest: digests.get(r.toolCallId) ?? '' } : r) as ToolResult<TTools>,
  );
  return { ok: true, value: carryRows(mint('ToolResults', { requests, results: deepFreeze(bound) }), checked.value) };
}

/**
 * Mints `ToolResults`: the terminal results of requested calls. The results are read as own data
 * first (a payload nested too deep, a cycle, a getter that throws, a value that is not JSON data
 * is a failure, never a throw). An `ok` output is validated against its tool's output schema and
 * digested; an error carries the typed envelope; `pending` records a `mutation: true` call as
 * waiting for the mutation gate (error code `mutation_pending`).
 *
 * Failure classes (from the join check where it applies): `tool.result_orphan` (a result for a
 * call never requested); `tool.schema_invalid` (a malformed row, an output that fails its schema
 * or is not JSON data, an error envelope with a blank field, two different results for one call,
 * an `ok` result for a mutation tool, `pending` for any other tool, an `admissibleDispositions`
 * list that is empty or names an unknown disposition); the refusal's class for an `ok` result to
 * a refused call.
 *
 * A row's `validation` record and an error row's `admissibleDispositions` are kept on its typed
 * result (`turngate/outcome`'s `toToolResult` writes both) and never reach the join check's
 * evidence or a digest: the result digests are those of the same rows without them.
 *
 * Source: HARNESS-TYPESTATE §3.2, §5; TOOL-CALLING-HARNESS-TYPESTATE §4.3.
 *
 * @param requests - `ToolRequests` from `requestTools`.
 * @param results - One result per call answered so far.
 * @returns `ToolResults`, or failures: one per class, sorted by class, ids merged and sorted.
 * @throws {@link TypestateError} when `requests` was not minted by `requestTools`.
 *
 * @example
 * ```ts
 * import { recordResults, type ToolRequests } from 'turngate';
 * declare const requests: ToolRequests;
 * recordResults(requests, [
 *   { toolCallId: 'toolu_01', status: 'ok', output: { text: '# turngate' } },
 *   { toolCallId: 'toolu_02', status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'no answer in 5 s' } },
 * ]);
 * ```
 */
export function recordResults<TRequests>(
  requests: StateArgument<TRequests, 'ToolRequests', 'call requestTools(spec, tools, calls) first'>,
  results: readonly ReportedToolResult[],
): Result<ToolResults<ToolsOf<TRequests>>>;
export function recordResults(requests: ToolRequests, results: readonly ReportedToolResult[]): Result<ToolResults> {
  expectMinted(requests, 'ToolRequests');
  const parsed = parseOwnData(v.array(RowSchema), results, { root: 'results', maxDepth: PAYLOAD_MAX_DEPTH + 2 });
  if (!parsed.ok) return parsed;
  const definitions = registryDefinitions(requests.tools);
  const admitted = new Map(requests.requests.map((r) => [r.toolCallId, r]));
  const refused = new Map(requests.refused.map((r) => [r.toolCallId, r]));
  const failures = new FailureCollector();
  const typed: TypedRow[] = [];
  for (const row of parsed.value) {
    const request = admitted.get(row.toolCallId);
    const definition = request === undefined ? undefined : definitions[request.toolName];
    const outcome = typeRow(row, request, refused.get(row.toolCallId), definition);
    if ('class' in outcome) failures.addAll([outcome]);
    else typed.push(outcome);
  }
  if (!failures.empty) return failures.failed();
  return mintResults(requests, typed);
}
