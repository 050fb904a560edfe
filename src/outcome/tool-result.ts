/**
 * From a delegation to a tool result row of a turn: an `ok` row with the value in the contract's
 * spelling, or an error row with the typed envelope HARNESS-TYPESTATE §3.2 requires
 * (`errorCode`, `retryable`, `errorMessage`), which the join check accepts like any failed call.
 * The validation record travels beside the row, and a row whose call broke its contract admits
 * only the dispositions `discarded_with_reason` and `retry_scheduled`.
 *
 * The typestate layer sits below this one and does not import it: its rows and transitions take
 * these values structurally (see docs/guide/outcome.md).
 *
 * Source: ADR 0014, Decision §1 (violations are typed, observable failures); HARNESS-TYPESTATE
 * §3.2 (error envelope); TOOL-CALLING-HARNESS-TYPESTATE §4.4 (dispositions).
 *
 * @module
 */
import type { Failure } from '../failures/index.ts';
import type { ToolUseDisposition } from '../normalize/index.ts';
import { checkAdmissibleDisposition, type ToolErrorEnvelope } from '../typestate/index.ts';
import type { Delegation, ValidationRecord } from './delegation.ts';
import type { OutcomeError } from './outcome.ts';

/**
 * The dispositions a result admits when its call broke its contract (a `contract_violation`,
 * `precondition_failed` or `unknown_method`): set aside with a reason, or retried. Never
 * `consumed`, and never `observed`: nothing true can be read from it.
 *
 * @example
 * ```ts
 * import { VIOLATION_DISPOSITIONS } from 'turngate/outcome';
 * VIOLATION_DISPOSITIONS; //=> ['discarded_with_reason', 'retry_scheduled']
 * ```
 */
export const VIOLATION_DISPOSITIONS = Object.freeze(['discarded_with_reason', 'retry_scheduled'] as const);

/**
 * A disposition in {@link VIOLATION_DISPOSITIONS}.
 *
 * @example
 * ```ts
 * import type { ViolationDisposition } from 'turngate/outcome';
 * const disposition: ViolationDisposition = 'retry_scheduled';
 * ```
 */
export type ViolationDisposition = (typeof VIOLATION_DISPOSITIONS)[number];

const BOUNDARY_RESULTS: ReadonlySet<ValidationRecord['result']> = new Set([
  'contract_violation',
  'precondition_failed',
  'unknown_method',
]);

/**
 * Whether a validation record says the call broke its contract (rather than succeeding, or
 * failing in the tool's own words).
 *
 * @param record - A delegation's record.
 * @returns `true` for `contract_violation`, `precondition_failed` and `unknown_method`.
 * @example
 * ```ts
 * import { isContractBreach, type ValidationRecord } from 'turngate/outcome';
 * declare const record: ValidationRecord;
 * const mustDiscard = isContractBreach(record);
 * ```
 */
export function isContractBreach(record: ValidationRecord): boolean {
  return BOUNDARY_RESULTS.has(record.result);
}

/**
 * The machine-readable envelope of an error outcome, as a failed tool result row carries it:
 * `errorCode` is the error type, `retryable` and the message as the outcome says (the boundary's
 * own errors are never retryable).
 *
 * Source: HARNESS-TYPESTATE §3.2.
 *
 * @param error - The error arm of an outcome.
 * @returns The envelope.
 * @example
 * ```ts
 * import { errorEnvelopeOf, Outcome } from 'turngate/outcome';
 * errorEnvelopeOf(Outcome.error('upstream_unavailable', 'feed returned 503', { retryable: true }));
 * //=> { errorCode: 'upstream_unavailable', retryable: true, errorMessage: 'feed returned 503' }
 * ```
 */
export function errorEnvelopeOf(error: OutcomeError<string, unknown>): ToolErrorEnvelope {
  return { errorCode: error.errorType, retryable: error.retryable, errorMessage: error.message };
}

/**
 * A tool result row made from a delegation: what a turn's `recordResults` takes (`toolCallId`,
 * `status`, then `output` or `error`), plus the validation record and, for a call that broke its
 * contract, the dispositions it admits.
 *
 * @example
 * ```ts
 * import type { ContractedToolResult } from 'turngate/outcome';
 * const row = (result: ContractedToolResult) => (result.status === 'ok' ? result.output : result.error.errorCode);
 * ```
 */
export type ContractedToolResult<TValue = unknown> =
  | {
      readonly toolCallId: string;
      readonly status: 'ok';
      /** The value in the contract's spelling. */
      readonly output: TValue;
      readonly validation: ValidationRecord;
    }
  | {
      readonly toolCallId: string;
      readonly status: 'error';
      readonly error: ToolErrorEnvelope;
      readonly validation: ValidationRecord;
      /** Present when the call broke its contract: {@link VIOLATION_DISPOSITIONS}. */
      readonly admissibleDispositions?: readonly ViolationDisposition[];
    };

/**
 * Turns a delegation into the tool result row of tool call `toolCallId`: `ok` with the checked
 * value, or `error` with {@link errorEnvelopeOf} the outcome. The row keeps the validation
 * record; a row whose call broke its contract also lists its admissible dispositions. The row is
 * frozen (the value inside is left as it is).
 *
 * Source: ADR 0014 Scope 5 (observability); HARNESS-TYPESTATE §3.2.
 *
 * @param toolCallId - The id of the tool call the delegation answered.
 * @param delegation - From `delegate` or `delegateAsync`.
 * @returns The row.
 * @example
 * ```ts
 * import { defineContracts, delegate, Outcome, toToolResult } from 'turngate/outcome';
 * const { web_fetcher } = defineContracts({ web_fetcher: { deliverable: { type: 'object', required: ['body'] } } });
 * const row = toToolResult('toolu_01', delegate(web_fetcher, {}, () => Outcome.ok({ Body: '<rss/>' })));
 * row.status === 'error' && row.error.errorCode; //=> 'contract_violation'
 * row.status === 'error' && row.admissibleDispositions; //=> ['discarded_with_reason', 'retry_scheduled']
 * ```
 */
export function toToolResult<TValue>(
  toolCallId: string,
  delegation: Delegation<TValue, OutcomeError<string, unknown>>,
): ContractedToolResult<TValue> {
  const { outcome, record } = delegation;
  if (outcome.status === 'ok')
    return Object.freeze({ toolCallId, status: 'ok', output: outcome.value, validation: record });
  const error = Object.freeze(errorEnvelopeOf(outcome));
  return Object.freeze(
    isContractBreach(record)
      ? { toolCallId, status: 'error', error, validation: record, admissibleDispositions: VIOLATION_DISPOSITIONS }
      : { toolCallId, status: 'error', error, validation: record },
  );
}

/**
 * Checks a disposition for a result against its validation record: a result whose call broke its
 * contract may only be `discarded_with_reason` or `retry_scheduled`. This is the rule a turn's
 * `recordUse` applies to rows carrying a record.
 *
 * Failure class: `tool.schema_invalid` (the use row does not fit the result it names), with the
 * tool call id.
 *
 * Source: ADR 0014 Decision §1; TOOL-CALLING-HARNESS-TYPESTATE §4.4.
 *
 * @param toolCallId - The result's tool call id.
 * @param record - The result's validation record.
 * @param disposition - The disposition to record.
 * @returns `undefined` when admissible, else the failure.
 * @example
 * ```ts
 * import { checkUse, type ValidationRecord } from 'turngate/outcome';
 * declare const violated: ValidationRecord; // result: 'contract_violation'
 * checkUse('toolu_01', violated, 'consumed')?.class; // 'tool.schema_invalid'
 * checkUse('toolu_01', violated, 'retry_scheduled'); // undefined
 * ```
 */
export function checkUse(
  toolCallId: string,
  record: ValidationRecord,
  disposition: ToolUseDisposition,
): Failure | undefined {
  const producer = record.method === null ? record.tool : `${record.tool}.${record.method}`;
  return checkAdmissibleDisposition(
    toolCallId,
    disposition,
    isContractBreach(record) ? VIOLATION_DISPOSITIONS : undefined,
    `the result of ${producer} broke its contract (${record.result})`,
  );
}
