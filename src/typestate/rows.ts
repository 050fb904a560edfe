/**
 * The evidence rows the transitions hand to the join check, and the failure helpers they share.
 * Internal.
 *
 * @module
 */
import { checkJoinRowsOwnData, checkOwnData, type JoinRowsReport } from '../check/internal.ts';
import type { CarriedRows } from '../normalize/internal.ts';
import type { JoinCheckReport } from '../check/index.ts';
import type { JoinCheckInputWire } from '../evidence/index.ts';
import type { Result } from '../failures/index.ts';
import * as v from 'valibot';
import { issuePath } from '../evidence/index.ts';
import { MAX_DATA_DEPTH, snapshotOwnData, type OwnDataError, type OwnDataOptions } from '../internal/own-data.ts';
import type { ToolErrorEnvelope } from './results.ts';
import { firstFailure, fail } from '../failures/internal.ts';

type EvidenceWire = JoinCheckInputWire['evidence'];
type RequestRow = NonNullable<EvidenceWire['toolRequests']>[number];
type ResultRow = NonNullable<EvidenceWire['toolResults']>[number];
type UseRow = NonNullable<EvidenceWire['toolUse']>[number];

/**
 * How deep a tool output (a result payload) may nest: the data limit less the four levels the
 * join-check input wraps it in (`{ evidence: { toolResults: [{ payload } ] } }`), so an output
 * accepted here is one the join check (and premath, reading the same JSON) accepts.
 */
export const PAYLOAD_MAX_DEPTH = MAX_DATA_DEPTH - 4;

/** The `tool.schema_invalid` failed result for a value that could not be snapshotted at a boundary. */
export function notData(error: OwnDataError): Result<never> {
  return fail('tool.schema_invalid', `${error.path === '' ? 'the value' : error.path}: ${error.detail}`);
}

/**
 * Reads a caller's value at a boundary: a snapshot of its own data (no prototype, getter, cycle
 * or depth can fool or crash what follows), parsed by `schema`, and the parsed output copied
 * again without a prototype, so an optional field it lacks reads `undefined` whatever
 * `Object.prototype` holds. Never throws.
 */
export function parseOwnData<TSchema extends v.GenericSchema>(
  schema: TSchema,
  value: unknown,
  options: OwnDataOptions & { readonly root: string },
): Result<v.InferOutput<TSchema>> {
  const snapshot = snapshotOwnData(value, options);
  if (!snapshot.ok) return notData(firstFailure(snapshot));
  const parsed = v.safeParse(schema, snapshot.value);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issuePath(issue);
    const at = path === '' || path.startsWith('[') ? `${options.root}${path}` : `${options.root}.${path}`;
    return fail('tool.schema_invalid', `${at}: ${issue.message}`);
  }
  const own = snapshotOwnData(parsed.output, options);
  if (!own.ok) return notData(firstFailure(own));
  return { ok: true, value: own.value as v.InferOutput<TSchema> };
}

/**
 * Runs the join check over evidence the transitions assembled. The input is snapshotted first
 * (own data, null-prototype objects), so the check cannot read a field the rows do not hold
 * from a polluted `Object.prototype`. Evidence that is not a turn is `tool.schema_invalid`.
 */
export function check(input: JoinCheckInputWire): Result<JoinCheckReport> {
  const snapshot = snapshotOwnData(input);
  if (!snapshot.ok) return notData(firstFailure(snapshot));
  // The snapshot is own data: the join check's own boundary copy of it would be the same copy again.
  const outcome = checkOwnData(snapshot.value);
  return outcome.ok ? outcome : fail('tool.schema_invalid', outcome.failures.map((error) => error.message).join(' '));
}

/**
 * Runs the join rules alone (`checkJoinRows`) over the rows of a turn not yet closed, read as
 * {@link check} reads them: the transitions before `closeJoin` need the join's failures and the
 * result digests, not the closed turn's set digests, which `closeJoin` takes once. `carried`:
 * the row sets the state before normalized (see {@link carriedRows}), left out of `input`.
 */
export function checkStage(input: JoinCheckInputWire, carried: CarriedRows = {}): Result<JoinRowsReport> {
  const snapshot = snapshotOwnData(input);
  if (!snapshot.ok) return notData(firstFailure(snapshot));
  const outcome = checkJoinRowsOwnData(snapshot.value, carried);
  return outcome.ok ? outcome : fail('tool.schema_invalid', outcome.failures.map((error) => error.message).join(' '));
}

/**
 * The call and result rows each minted `ToolRequests` and `ToolResults` was checked with,
 * normalized: the next step of the turn checks only its own rows against them.
 */
const NORMALIZED_ROWS = new WeakMap<object, JoinRowsReport>();

/** Keeps the rows `state` (just minted) was checked with, for the next step of its turn. */
export function carryRows<T extends object>(state: T, report: JoinRowsReport): T {
  NORMALIZED_ROWS.set(state, report);
  return state;
}

/** The rows `state` was checked with, when it was minted by a step that keeps them. */
export function carriedRows(state: object): JoinRowsReport | undefined {
  return NORMALIZED_ROWS.get(state);
}

/** The protocol state of a stage check (before `closeJoin`): only the join rows matter. */
export const STAGE_PROTOCOL = { stopReason: 'tool_use', continuationAllowed: false } as const;

/** The `toolRequests` rows of the calls (admitted and refused). */
export function callRows(
  calls: readonly { readonly toolCallId: string; readonly toolName: string; readonly callerId?: string }[],
): RequestRow[] {
  return calls.map((c) =>
    c.callerId === undefined
      ? { toolCallId: c.toolCallId, toolName: c.toolName }
      : { toolCallId: c.toolCallId, toolName: c.toolName, callerId: c.callerId },
  );
}

/**
 * A result as the rows need it: the output of an ok result (with its digest once the join check
 * has taken it), the envelope of an error.
 */
export type RowResult =
  | {
      readonly toolCallId: string;
      readonly status: 'ok';
      readonly output: unknown;
      readonly resultDigest?: string;
    }
  | { readonly toolCallId: string; readonly status: 'error'; readonly error: ToolErrorEnvelope };

/**
 * The `toolResults` rows. An ok result's digest is its output's: a result that holds it already
 * (every typed result does: `mintResults` took it from the join check, `recordMutations` computed
 * it) gives the digest, so a later transition neither copies nor digests the output again; a
 * result without one, or with a `null` output (a `null` payload has no digest in the evidence),
 * gives its output as the payload.
 */
export function resultRows(results: readonly RowResult[]): ResultRow[] {
  return results.map((r) =>
    r.status === 'ok'
      ? r.resultDigest === undefined || r.output === null || r.output === undefined
        ? { toolCallId: r.toolCallId, status: 'ok', payload: r.output }
        : { toolCallId: r.toolCallId, status: 'ok', resultDigest: r.resultDigest }
      : {
          toolCallId: r.toolCallId,
          status: 'error',
          errorCode: r.error.errorCode,
          retryable: r.error.retryable,
          errorMessage: r.error.errorMessage,
        },
  );
}

/** The `toolUse` rows. */
export function useRows(
  uses: readonly {
    readonly toolCallId: string;
    readonly disposition: string;
    readonly resultDigest?: string;
    readonly reasonCode?: string;
  }[],
): UseRow[] {
  return uses.map((u) => ({
    toolCallId: u.toolCallId,
    disposition: u.disposition,
    ...(u.resultDigest === undefined ? {} : { resultDigest: u.resultDigest }),
    ...(u.reasonCode === undefined ? {} : { reasonCode: u.reasonCode }),
  }));
}
