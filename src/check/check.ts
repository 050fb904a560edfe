/**
 * The join check: normalized evidence + constraints -> report with failure classes.
 *
 * @module
 */
import { JsonInputError, parseJson, prettyJson, digest, type JsonValue } from '../canonical/index.ts';
import { parseJsonData } from '../canonical/internal.ts';
import { decodeExtendedOwnData, decodeOwnData, ownJoinCheckInput } from '../evidence/internal.ts';
import {
  decodeExtendedInput,
  decodeJoinCheckInput,
  EvidenceInputError,
  EXTENDED_PROFILE,
  type ExtendedJoinCheckInput,
  type JoinCheckInput,
} from '../evidence/index.ts';
import type { Failure, Result } from '../failures/index.ts';
import { FailureCollector } from '../failures/internal.ts';
import { objectPrototypeIsClean, shielded } from '../internal/detach.ts';
import { excerpt } from '../internal/display.ts';
import { setList, setOptional, type Mutable } from '../internal/fields.ts';
import {
  normalizeEvidence,
  normalizeExtended,
  type NormalizedCallSpec,
  type NormalizedEvidence,
  type NormalizedToolRequest,
  type NormalizedToolResult,
} from '../normalize/index.ts';
import { normalizeJoin, type CarriedRows } from '../normalize/internal.ts';
import { checkExtended, extendedContext } from './extended/index.ts';
import {
  checkContext,
  checkDecomposition,
  checkErrorEnvelopes,
  checkGovernance,
  checkHandoff,
  checkJoin,
  checkStopReason,
} from './rules.ts';
import {
  EXTENDED_WITNESS_KIND,
  JOIN_CHECK_WITNESS_KIND,
  type ExtendedReport,
  type ExtendedWitness,
  type JoinCheckReport,
  type JoinInput,
  type MutationInput,
} from './types.ts';

/**
 * The {@link Result} of {@link joinCheck}: the report as `value` (accepted or rejected), or `failures`
 * holding one input error, the first problem found.
 *
 * @example
 * ```ts
 * import { joinCheck, type JoinCheckResult } from 'turngate/join-check';
 * declare const input: unknown;
 * const outcome: JoinCheckResult = joinCheck(input);
 * const verdict = outcome.ok ? outcome.value.result : `invalid: ${outcome.failures[0]?.field}`;
 * ```
 */
export type JoinCheckResult = Result<JoinCheckReport, EvidenceInputError>;

// Both inputs are built in key order, as the report prints them (see normalization's rows).
function joinInputOf(normalized: NormalizedEvidence): JoinInput {
  const digests = normalized.digests;
  const context = normalized.contextState;
  const join = normalized.joinState;
  const callSpec = normalized.callSpec;
  const out = {
    continuationContextReady: context.continuationContextReady,
    decompositionPolicyDigest: callSpec.decompositionPolicyDigest,
  } as Mutable<JoinInput>;
  setOptional(out, 'handoffDigest', digests.handoffDigest);
  out.joinClosed = join.joinClosed;
  out.joinSetDigest = digests.joinSetDigest;
  setList(out, 'missingRenderCallIds', context.missingRenderCallIds);
  setList(out, 'missingResultCallIds', join.missingResultCallIds);
  setList(out, 'missingUseCallIds', join.missingUseCallIds);
  setList(out, 'orphanResultCallIds', join.orphanResultCallIds);
  out.protocolStateDigest = digests.protocolStateDigest;
  out.queuePolicyValid = context.queuePolicyValid;
  out.queueReductionPresent = context.queueReductionPresent;
  out.reminderQueuePolicyDigest = callSpec.reminderQueuePolicyDigest;
  out.reminderQueueSetDigest = digests.reminderQueueSetDigest;
  out.renderPolicyValid = context.renderPolicyValid;
  out.requestSetDigest = digests.requestSetDigest;
  out.resultSetDigest = digests.resultSetDigest;
  out.stateViewPolicyDigest = callSpec.stateViewPolicyDigest;
  out.stateViewPolicyValid = context.stateViewPolicyValid;
  out.stateViewPresent = context.stateViewPresent;
  out.stateViewSetDigest = digests.stateViewSetDigest;
  out.toolRenderProtocolDigest = callSpec.toolRenderProtocolDigest;
  out.toolRenderSetDigest = digests.toolRenderSetDigest;
  setList(out, 'unknownUseCallIds', join.unknownUseCallIds);
  out.useSetDigest = digests.useSetDigest;
  return out;
}

function mutationInputOf(normalized: NormalizedEvidence): MutationInput {
  const context = normalized.contextState;
  const join = normalized.joinState;
  const out = {
    continuationAllowed: normalized.protocolState.continuationAllowed,
    continuationContextReady: context.continuationContextReady,
    governancePolicyDigest: normalized.callSpec.governancePolicyDigest,
    joinClosed: join.joinClosed,
  } as Mutable<MutationInput>;
  setList(out, 'missingRenderCallIds', context.missingRenderCallIds);
  setList(out, 'missingResultCallIds', join.missingResultCallIds);
  setList(out, 'missingUseCallIds', join.missingUseCallIds);
  out.mutationPolicyDigest = normalized.callSpec.mutationPolicyDigest;
  out.normalizerId = normalized.callSpec.normalizerId;
  setList(out, 'orphanResultCallIds', join.orphanResultCallIds);
  out.queuePolicyValid = context.queuePolicyValid;
  out.queueReductionPresent = context.queueReductionPresent;
  out.renderPolicyValid = context.renderPolicyValid;
  setList(out, 'sessionRefs', normalized.sessionRefs);
  out.stateViewPolicyValid = context.stateViewPolicyValid;
  out.stateViewPresent = context.stateViewPresent;
  setList(out, 'trajectoryRefs', normalized.trajectoryRefs);
  setList(out, 'unknownUseCallIds', join.unknownUseCallIds);
  return out;
}

function extendedReport(
  input: JoinCheckInput,
  extended: ExtendedJoinCheckInput,
  normalized: NormalizedEvidence,
  failures: FailureCollector,
): () => ExtendedReport {
  // Shielded from a polluted prototype, as the premath part is: an absent optional field reads as absent.
  const extendedEvidence = shielded(normalizeExtended(extended, input.evidence));
  checkExtended(extendedContext(input, normalized, extendedEvidence), failures);
  const joinSetDigest = normalized.digests.joinSetDigest;
  const extendedDigest = extendedEvidence.digests.extendedDigest;
  const witness: Mutable<ExtendedWitness> = {
    schema: 1,
    witnessKind: EXTENDED_WITNESS_KIND,
    joinSetDigest,
    extendedDigest,
    turnDigest: digest({ joinSetDigest, extendedDigest }),
  };
  setOptional(
    witness,
    'mutationIntentDigest',
    extendedEvidence.mutationIntent && digest(extendedEvidence.mutationIntent),
  );
  // The verdict on MutationReady is known once every check has run: read it when the report is built.
  return () => {
    const out: Mutable<ExtendedReport> = { normalized: extendedEvidence, witness };
    if (extendedEvidence.mutationIntent !== undefined) out.mutationReady = failures.empty;
    return out;
  };
}

/**
 * Runs the join check on a decoded input. This is the one implementation of the rules; the
 * CLI, the typestate transitions and the chat layer all call it.
 *
 * @param input - A decoded input (see {@link decodeJoinCheckInput}).
 * @param extended - The decoded extended part of the same input (see {@link decodeExtendedInput}),
 *   when it opts into the extended profile: the extended checks then run too.
 * @returns The report.
 * @throws {@link EvidenceInputError} or {@link JsonInputError} as {@link normalizeEvidence} and
 *   {@link normalizeExtended}.
 *
 * @example
 * ```ts
 * import { checkDecoded } from 'turngate/join-check';
 * import { decodeJoinCheckInput } from 'turngate/evidence';
 * declare const input: unknown;
 * const decoded = decodeJoinCheckInput(input);
 * if (decoded.ok) checkDecoded(decoded.value).result;
 * ```
 */
export function checkDecoded(input: JoinCheckInput, extended?: ExtendedJoinCheckInput): JoinCheckReport {
  // Shielded from a polluted prototype: an absent optional field (`handoff`, an empty id list) reads as absent.
  const normalized = shielded(normalizeEvidence(input.evidence));
  const failures = new FailureCollector();
  checkJoin(normalized.joinState, failures);
  checkStopReason(normalized, failures);
  if (input.protocolConstraints?.parallelTransportOrderValid === false) {
    failures.add(
      'protocol.parallel_transport_order_invalid',
      'Protocol constraints mark the parallel transport order invalid.',
    );
  }
  checkDecomposition(input.decompositionConstraints, normalized, failures);
  checkContext(normalized, failures);
  checkHandoff(input.handoffConstraints, normalized.handoff, failures);
  const truncation = input.truncationConstraints;
  if (truncation?.required && !truncation.valid) {
    failures.add(
      'tool.response_truncation_policy_violation',
      'Truncation is required but the truncated responses are not policy-valid.',
    );
  }
  checkErrorEnvelopes(input.evidence, failures);
  checkGovernance(input.governanceProfile, failures);
  const extendedPart = extended === undefined ? undefined : extendedReport(input, extended, normalized, failures);

  const list = failures.list();
  const accepted = list.length === 0;
  const report: Mutable<JoinCheckReport> = {
    action: 'harness-join-check',
    result: accepted ? 'accepted' : 'rejected',
    failureClasses: list.map((f) => f.class),
    joinClosed: accepted,
    // In key order, as the report prints it.
    witness: {
      digests: normalized.digests,
      joinInput: joinInputOf(normalized),
      mutationInput: mutationInputOf(normalized),
      schema: 1,
      witnessKind: JOIN_CHECK_WITNESS_KIND,
    },
    normalized,
    failures: list,
  };
  if (extendedPart !== undefined) {
    report.profile = EXTENDED_PROFILE;
    report.extended = extendedPart();
  }
  return report;
}

/**
 * Checks one turn's evidence: normalizes it and decides `JoinClosed` under HARNESS-TYPESTATE
 * §5, with the optional constraint blocks (governance profile, protocol, handoff, truncation,
 * decomposition). Never throws: input that is not a well-formed turn gives `{ ok: false }`.
 * The input is read once, own data only ({@link decodeJoinCheckInput}): a polluted
 * `Object.prototype`, a getter, a Proxy, a cycle or nesting deeper than 127 levels cannot change
 * the verdict or make it throw; a cycle, deep nesting or a throwing getter is `{ ok: false }`
 * naming the field. Should `Object.prototype` hold anything beyond what the language defines,
 * every object the check builds has no prototype, the report handed back included.
 *
 * Failure classes it can emit: `tool.result_missing`, `tool.result_orphan`,
 * `tool.use_missing`, `tool.use_without_result`, `tool.join_incomplete`,
 * `tool.schema_invalid` (error row without envelope), `tool.response_truncation_policy_violation`,
 * `protocol.stop_reason_unhandled`, `protocol.parallel_transport_order_invalid`,
 * `context.injection_point_missing`, `context.queue_policy_violation`,
 * `coordination.decomposition_policy_violation`, `handoff.required_artifact_missing`,
 * `handoff.target_not_allowed`, `handoff.return_path_missing`, `governance.claim_id_invalid`,
 * `governance.policy_package_unpinned`, `governance.policy_package_mismatch`.
 *
 * The extended profile: an input whose top-level `profile` is `turngate.harness.extended.v1`
 * ({@link EXTENDED_PROFILE}) is also checked against the extended CallSpec fields and row
 * evidence of the tool-calling harness design notes §4.1-4.6, which can emit every class of
 * {@link FAILURE_CLASSES}; its report adds `profile` and `extended`. Without `profile` the
 * report is premath's, whatever other fields the input carries.
 *
 * Source: HARNESS-TYPESTATE §4–§5, §8; premath `harness-join-check`; TOOL-CALLING-HARNESS-TYPESTATE
 * §4 (extended profile).
 *
 * @param input - The join-check input: `{ evidence, governanceProfile?, protocolConstraints?,
 *   handoffConstraints?, truncationConstraints?, decompositionConstraints?, profile?,
 *   mutationIntent? }`, as parsed JSON ({@link parseJson}) or built in code.
 * @returns `{ ok: true, value }` with the report (accepted or rejected), or `{ ok: false, failures }`
 *   with one {@link EvidenceInputError}.
 * @example
 * ```ts
 * import { joinCheck } from 'turngate/join-check';
 * const outcome = joinCheck({ evidence: {
 *   callSpec: { callId: 'c', modelRef: 'm', actionMode: 'json', executionPattern: 'single',
 *     normalizerId: 'n', mutationPolicyDigest: 'p', governancePolicyDigest: 'g',
 *     toolRenderProtocolDigest: 'r', reminderQueuePolicyDigest: 'q',
 *     stateViewPolicyDigest: 's', decompositionPolicyDigest: 'd' },
 *   toolRequests: [{ toolCallId: 'tc-1', toolName: 'fs.read' }],
 *   protocolState: { stopReason: 'tool_use' },
 * } });
 * if (outcome.ok) outcome.value.failureClasses; //=> ['tool.join_incomplete', 'tool.result_missing']
 * ```
 */
export function joinCheck(input: unknown): JoinCheckResult {
  const own = ownJoinCheckInput(input);
  return own.ok ? checkOwnData(own.value) : own;
}

/**
 * A bad input found while normalizing, as the join check answers it: an {@link EvidenceInputError}
 * as it is, a {@link JsonInputError} (a payload built in code) as one on `evidence`; anything else
 * is rethrown.
 */
function inputRefusal(error: unknown): { readonly ok: false; readonly failures: [EvidenceInputError] } {
  if (error instanceof EvidenceInputError) return { ok: false, failures: [error] };
  if (error instanceof JsonInputError)
    return { ok: false, failures: [new EvidenceInputError('evidence', error.message)] };
  throw error;
}

/**
 * Decodes and checks an input that is own data already (the boundary snapshot, or the parser's
 * output); the report is shielded too, so a reader of it cannot be misled by a polluted
 * prototype either. Internal: the typestate's checks call it on the snapshot they took.
 */
export function checkOwnData(input: unknown): JoinCheckResult {
  const decoded = decodeOwnData(input);
  if (!decoded.ok) return decoded;
  const extended = decodeExtendedOwnData(input);
  if (!extended.ok) return extended;
  try {
    return { ok: true, value: shielded(checkDecoded(decoded.value, extended.value)) };
  } catch (error) {
    return inputRefusal(error);
  }
}

/** What {@link checkJoinRows} finds: the join's failures and the normalized call and result rows. Internal. */
export interface JoinRowsReport {
  /** The CallSpec as normalized. */
  readonly callSpec: NormalizedCallSpec;
  /** The join's failure classes with their ids, then error rows without an envelope (`tool.schema_invalid`). */
  readonly failures: readonly Failure[];
  /** The call rows as normalized (sorted by id). */
  readonly toolRequests: readonly NormalizedToolRequest[];
  /** The result rows as normalized (sorted by id), each ok one with its digest. */
  readonly toolResults: readonly NormalizedToolResult[];
}

/**
 * The join rules alone over a turn not yet closed: the input read and decoded as by
 * {@link joinCheck}, then only the CallSpec, call, result and use rows normalized, and the join's
 * failure classes (`tool.result_missing`, `tool.result_orphan`, `tool.use_missing`,
 * `tool.use_without_result`, `tool.join_incomplete`) and the error-envelope rule
 * (`tool.schema_invalid`) applied. No set digest, no context, no stop reason: those belong to
 * the closed turn, which `closeJoin` checks whole. Internal: `callSpec` and the typestate
 * transitions before `closeJoin` call it, so a turn's digests are taken once, when it closes, and each row set is
 * normalized once before it: a step hands the sets an earlier step normalized as `carried`
 * (and leaves them out of `input`).
 *
 * @param input - A join-check input (without the extended profile).
 * @param carried - Call or result rows normalized by an earlier step of the same turn.
 * @returns The failures, the normalized CallSpec and rows, or one {@link EvidenceInputError} as
 *   {@link joinCheck} gives it.
 */
export function checkJoinRows(input: unknown, carried: CarriedRows = {}): Result<JoinRowsReport, EvidenceInputError> {
  const own = ownJoinCheckInput(input);
  return own.ok ? checkJoinRowsOwnData(own.value, carried) : own;
}

/**
 * {@link checkJoinRows} for an input that is own data already (a boundary snapshot the caller
 * took, whose copy the join check's own snapshot would only repeat). Internal.
 */
export function checkJoinRowsOwnData(
  input: unknown,
  carried: CarriedRows = {},
): Result<JoinRowsReport, EvidenceInputError> {
  const decoded = decodeOwnData(input);
  if (!decoded.ok) return decoded;
  try {
    const join = shielded(normalizeJoin(decoded.value.evidence, carried));
    const failures = new FailureCollector();
    checkJoin(join.joinState, failures);
    checkErrorEnvelopes(decoded.value.evidence, failures);
    return {
      ok: true,
      value: {
        callSpec: join.callSpec,
        failures: failures.list(),
        toolRequests: join.toolRequests,
        toolResults: join.toolResults,
      },
    };
  } catch (error) {
    return inputRefusal(error);
  }
}

/**
 * Parses JSON text (losslessly, with premath's acceptance rules) and runs {@link joinCheck}.
 * Should `Object.prototype` be polluted, the text is parsed into objects without a prototype,
 * so nothing is read from it.
 * Never throws.
 *
 * @param text - The input as JSON text or UTF-8 bytes.
 * @returns As {@link joinCheck}; JSON that does not parse (or a text too long for the engine to
 *   hold as one string) is `{ ok: false }` with field `''`.
 * @example
 * ```ts
 * import { joinCheckText } from 'turngate/join-check';
 * joinCheckText('{"evidence": ').ok; //=> false
 * ```
 */
export function joinCheckText(text: string | Uint8Array): JoinCheckResult {
  let value: JsonValue;
  try {
    // With Object.prototype polluted, parse into objects without a prototype.
    value = objectPrototypeIsClean() ? parseJson(text) : parseJsonData(text);
  } catch (error) {
    const reason =
      error instanceof JsonInputError
        ? `invalid JSON: ${error.message}`
        : `the input cannot be read: ${excerpt(error instanceof Error ? error.message : String(error))}`;
    return { ok: false, failures: [new EvidenceInputError('', reason)] };
  }
  return checkOwnData(value);
}

/**
 * The report as premath's `harness-join-check --json` prints it: `action`, `failureClasses`,
 * `joinClosed`, `normalized`, `result`, `witness`, keys sorted, two-space indentation, final
 * newline. Byte-for-byte premath's output for every input premath accepts that does not opt into
 * the extended profile; under the extended profile the same object also has `profile` and
 * `extended` (the extended section: `normalized`, `witness`, `mutationReady`).
 *
 * Source: DIGESTS.md "Output".
 *
 * @param report - A join-check report.
 * @returns The JSON text, ending in `\n`.
 * @example
 * ```ts
 * import { joinCheck, renderJoinCheckJson } from 'turngate/join-check';
 * declare const input: unknown;
 * const outcome = joinCheck(input);
 * if (outcome.ok) process.stdout.write(renderJoinCheckJson(outcome.value));
 * ```
 */
export function renderJoinCheckJson(report: JoinCheckReport): string {
  const { action, result, failureClasses, joinClosed, witness, normalized, profile, extended } = report;
  // In key order, so the writer shares these objects rather than copying them.
  if (profile === undefined || extended === undefined) {
    return `${prettyJson({ action, failureClasses, joinClosed, normalized, result, witness })}\n`;
  }
  return `${prettyJson({ action, extended, failureClasses, joinClosed, normalized, profile, result, witness })}\n`;
}
