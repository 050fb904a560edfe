/**
 * Normalization of extended-profile evidence (`turngate.harness.extended_normalized.v1`): the
 * same rules as premath's rows (trim, lowercase enum fields, deduplicate and sort keyed rows and
 * refs lists, leave absent what is empty), plus the digest of every inline policy.
 *
 * @module
 */
import { shielded } from '../internal/detach.ts';
import { compareUtf8, digest } from '../canonical/index.ts';
import type {
  EvidenceInput,
  ExtendedJoinCheckInput,
  ExtendedToolRequestInput,
  ExtendedToolResultInput,
  ExtendedToolUseInput,
  GuardrailDecisionInput,
  PolicyChangeInput,
  ToolSearchInput,
  TraceExportInput,
  TransferInput,
} from '../evidence/index.ts';
import { setList, setOptional, type Mutable } from '../internal/fields.ts';
import {
  ESCALATION_ACTIONS,
  EXTENDED_NORMALIZED_KIND,
  GUARDRAIL_STAGES,
  TRACE_SINKS,
  TRANSFER_DIRECTIONS,
  type ExtendedDigestBundle,
  type ExtendedNormalized,
  type NormalizedCompaction,
  type NormalizedExtendedToolRequest,
  type NormalizedExtendedToolResult,
  type NormalizedExtendedToolUse,
  type NormalizedGuardrailDecision,
  type NormalizedPolicyChange,
  type NormalizedToolSearch,
  type NormalizedTraceExport,
  type NormalizedTransfer,
} from './extended-types.ts';
import { normalizeCallSpec, policyDigests } from './extended-call-spec.ts';
import { keyedRows, normalizeRefs, oneOf, optional, optionalOneOf, required } from './rows.ts';

/** Pairs the extended part of each premath row with that row's `toolCallId`. */
function withIds<T>(premathRows: readonly { toolCallId: string }[], extended: readonly T[]) {
  return premathRows.map((row, index) => ({ toolCallId: row.toolCallId, ext: extended[index] as T }));
}

function normalizeRequest(
  row: { toolCallId: string; ext: ExtendedToolRequestInput },
  at: string,
): NormalizedExtendedToolRequest {
  const out: Mutable<NormalizedExtendedToolRequest> = { toolCallId: required(row.toolCallId, `${at}.toolCallId`) };
  setOptional(out, 'parentToolCallId', optional(row.ext.parentToolCallId, `${at}.parentToolCallId`));
  setOptional(out, 'searchId', optional(row.ext.searchId, `${at}.searchId`));
  setOptional(out, 'exampleDigest', optional(row.ext.exampleDigest, `${at}.exampleDigest`));
  setOptional(out, 'transportIndex', row.ext.transportIndex ?? undefined);
  setOptional(out, 'adapterProfileRef', optional(row.ext.adapterProfileRef, `${at}.adapterProfileRef`));
  return out;
}

function normalizeResult(
  row: { toolCallId: string; ext: ExtendedToolResultInput },
  at: string,
): NormalizedExtendedToolResult {
  const r = row.ext;
  const out: Mutable<NormalizedExtendedToolResult> = {
    toolCallId: required(row.toolCallId, `${at}.toolCallId`),
    terminal: r.terminal,
  };
  setOptional(out, 'transportIndex', r.transportIndex ?? undefined);
  setOptional(out, 'payloadBytes', r.payloadBytes ?? undefined);
  if (r.truncation) {
    out.truncation = {
      originalBytes: r.truncation.originalBytes,
      headBytes: r.truncation.headBytes,
      tailBytes: r.truncation.tailBytes,
      marker: required(r.truncation.marker, `${at}.truncation.marker`),
    };
  }
  if (r.shell) {
    const shell: Mutable<NonNullable<NormalizedExtendedToolResult['shell']>> = {};
    setOptional(shell, 'workdir', optional(r.shell.workdir, `${at}.shell.workdir`));
    setOptional(shell, 'sandboxProfile', optional(r.shell.sandboxProfile, `${at}.shell.sandboxProfile`));
    setOptional(shell, 'commandDigest', optional(r.shell.commandDigest, `${at}.shell.commandDigest`));
    out.shell = shell;
  }
  const writes = keyedRows(
    r.artifactWrites,
    `${at.slice('evidence.'.length)}.artifactWrites`,
    'path',
    (w, wAt) => ({ path: required(w.path, `${wAt}.path`), digest: required(w.digest, `${wAt}.digest`) }),
    (w) => w.path,
  );
  if (writes.length > 0) out.artifactWrites = writes;
  setOptional(out, 'provenanceRef', optional(r.provenanceRef, `${at}.provenanceRef`));
  if (r.tokenUsage)
    out.tokenUsage = { filteredTokens: r.tokenUsage.filteredTokens, unfilteredTokens: r.tokenUsage.unfilteredTokens };
  return out;
}

function normalizeUse(row: { toolCallId: string; ext: ExtendedToolUseInput }, at: string): NormalizedExtendedToolUse {
  const out: Mutable<NormalizedExtendedToolUse> = { toolCallId: required(row.toolCallId, `${at}.toolCallId`) };
  setOptional(out, 'summaryRef', optional(row.ext.summaryRef, `${at}.summaryRef`));
  setOptional(out, 'handoffRef', optional(row.ext.handoffRef, `${at}.handoffRef`));
  setOptional(out, 'mutationInputRef', optional(row.ext.mutationInputRef, `${at}.mutationInputRef`));
  return out;
}

function normalizeSearch(row: ToolSearchInput, at: string): NormalizedToolSearch {
  const query = required(row.query, `${at}.query`);
  const resultSetDigest = required(row.resultSetDigest, `${at}.resultSetDigest`);
  const out: Mutable<NormalizedToolSearch> = {
    searchId: required(row.searchId, `${at}.searchId`),
    query,
    catalogDigest: required(row.catalogDigest, `${at}.catalogDigest`),
    resultSetDigest,
    searchRefDigest: digest({ query, resultSetDigest }),
  };
  setList(out, 'resultToolNames', normalizeRefs(row.resultToolNames, `${at}.resultToolNames`));
  return out;
}

function normalizeDecision(row: GuardrailDecisionInput, at: string): NormalizedGuardrailDecision {
  const out: Mutable<NormalizedGuardrailDecision> = {
    decisionId: required(row.decisionId, `${at}.decisionId`),
    stage: oneOf(row.stage, GUARDRAIL_STAGES, `${at}.stage`),
    guardrailId: required(row.guardrailId, `${at}.guardrailId`),
    sequence: row.sequence,
    triggered: row.triggered,
    policyDigest: required(row.policyDigest, `${at}.policyDigest`),
  };
  setOptional(out, 'toolCallId', optional(row.toolCallId, `${at}.toolCallId`));
  setOptional(out, 'thresholdRef', optional(row.thresholdRef, `${at}.thresholdRef`));
  setOptional(out, 'modelRef', optional(row.modelRef, `${at}.modelRef`));
  return out;
}

function normalizeTransfer(row: TransferInput, at: string): NormalizedTransfer {
  const out: Mutable<NormalizedTransfer> = {
    transferId: required(row.transferId, `${at}.transferId`),
    direction: oneOf(row.direction, TRANSFER_DIRECTIONS, `${at}.direction`),
    target: required(row.target, `${at}.target`),
  };
  setList(out, 'artifactRefs', normalizeRefs(row.artifactRefs, `${at}.artifactRefs`));
  setOptional(out, 'returnPathRef', optional(row.returnPathRef, `${at}.returnPathRef`));
  setOptional(out, 'answersTransferId', optional(row.answersTransferId, `${at}.answersTransferId`));
  return out;
}

function normalizeTraceExport(row: TraceExportInput, at: string): NormalizedTraceExport {
  const out: Mutable<NormalizedTraceExport> = {
    exportId: required(row.exportId, `${at}.exportId`),
    sink: oneOf(row.sink, TRACE_SINKS, `${at}.sink`),
  };
  setOptional(out, 'processorRef', optional(row.processorRef, `${at}.processorRef`));
  return out;
}

function normalizeCompaction(row: NonNullable<ExtendedJoinCheckInput['evidence']['compaction']>): NormalizedCompaction {
  const at = 'evidence.compaction';
  // Two fields only, so a repeat is identical: deduplicate, then sort by kind, then ref.
  const byKey = new Map<string, { kind: string; ref: string }>();
  row.carriedItems.forEach((item, index) => {
    const itemAt = `${at}.carriedItems[${index}]`;
    const kind = required(item.kind, `${itemAt}.kind`);
    const ref = required(item.ref, `${itemAt}.ref`);
    byKey.set(JSON.stringify([kind, ref]), { kind, ref });
  });
  const items = [...byKey.values()].sort((a, b) => compareUtf8(a.kind, b.kind) || compareUtf8(a.ref, b.ref));
  const out: Mutable<NormalizedCompaction> = {
    compactionId: required(row.compactionId, `${at}.compactionId`),
    policyDigest: required(row.policyDigest, `${at}.policyDigest`),
    sourceDigest: required(row.sourceDigest, `${at}.sourceDigest`),
    summaryDigest: required(row.summaryDigest, `${at}.summaryDigest`),
  };
  if (items.length > 0) out.carriedItems = items;
  return out;
}

function normalizePolicyChange(row: PolicyChangeInput): NormalizedPolicyChange {
  const at = 'evidence.policyChange';
  const out: Mutable<NormalizedPolicyChange> = {
    changeId: required(row.changeId, `${at}.changeId`),
    fromPolicyDigest: required(row.fromPolicyDigest, `${at}.fromPolicyDigest`),
    toPolicyDigest: required(row.toPolicyDigest, `${at}.toPolicyDigest`),
    selfEvolution: row.selfEvolution,
  };
  if (row.evalRun) {
    const r = row.evalRun;
    const run: Mutable<NonNullable<NormalizedPolicyChange['evalRun']>> = {
      truePositives: r.truePositives,
      falsePositives: r.falsePositives,
      falseNegatives: r.falseNegatives,
    };
    for (const name of ['runId', 'gatePolicyDigest', 'policyDigest', 'datasetRef', 'datasetDigest'] as const) {
      setOptional(run, name, optional(r[name], `${at}.evalRun.${name}`));
    }
    setOptional(run, 'trueNegatives', r.trueNegatives ?? undefined);
    out.evalRun = run;
  }
  if (row.redTeamRun) {
    const r = row.redTeamRun;
    const run: Mutable<NonNullable<NormalizedPolicyChange['redTeamRun']>> = {
      probes: r.probes,
      successfulAttacks: r.successfulAttacks,
    };
    for (const name of ['runId', 'gatePolicyDigest', 'policyDigest'] as const) {
      setOptional(run, name, optional(r[name], `${at}.redTeamRun.${name}`));
    }
    setList(run, 'plugins', normalizeRefs(r.plugins, `${at}.redTeamRun.plugins`));
    setList(run, 'strategies', normalizeRefs(r.strategies, `${at}.redTeamRun.strategies`));
    out.redTeamRun = run;
  }
  setOptional(out, 'retryPolicyDigest', optional(row.retryPolicyDigest, `${at}.retryPolicyDigest`));
  setOptional(
    out,
    'escalationAction',
    optionalOneOf(row.escalationAction, ESCALATION_ACTIONS, `${at}.escalationAction`),
  );
  if (row.rollback) {
    const rollback: Mutable<NonNullable<NormalizedPolicyChange['rollback']>> = {};
    setOptional(
      rollback,
      'targetPolicyDigest',
      optional(row.rollback.targetPolicyDigest, `${at}.rollback.targetPolicyDigest`),
    );
    setOptional(rollback, 'ref', optional(row.rollback.ref, `${at}.rollback.ref`));
    out.rollback = rollback;
  }
  return out;
}

/**
 * Normalizes the extended part of a join-check input into `turngate.harness.extended_normalized.v1`:
 * premath's normalization rules applied to the extended fields, rows of premath's surfaces
 * paired with their `toolCallId` and listed only when they carry an extended field, the digest
 * of every inline policy, and `extendedDigest` over all of it. Equivalent inputs give
 * byte-identical output.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §4.1-4.4; DIGESTS.md (the rules it shares with premath).
 *
 * @param extended - The decoded extended part (see {@link decodeExtendedInput}).
 * @param evidence - The decoded premath evidence of the same input (for the rows' `toolCallId`s).
 * @returns The normalized extended evidence.
 * @throws {@link EvidenceInputError} for a blank required field, an enum value outside its
 *   vocabulary, a `specific` tool choice without a tool name, or conflicting rows that share an id.
 * @example
 * ```ts
 * import { decodeExtendedInput, decodeJoinCheckInput } from 'turngate/evidence';
 * import { normalizeExtended } from 'turngate/normalize';
 * const input = {
 *   profile: 'turngate.harness.extended.v1',
 *   evidence: {
 *     callSpec: { callId: 'c', modelRef: 'm', actionMode: 'json', executionPattern: 'single', normalizerId: 'n',
 *       mutationPolicyDigest: 'p', governancePolicyDigest: 'g', toolRenderProtocolDigest: 'r',
 *       reminderQueuePolicyDigest: 'q', stateViewPolicyDigest: 's', decompositionPolicyDigest: 'd',
 *       observabilityMode: ' Internal_Processor ' },
 *     protocolState: { stopReason: 'end_turn' },
 *   },
 * };
 * const premath = decodeJoinCheckInput(input);
 * const extended = decodeExtendedInput(input);
 * if (premath.ok && extended.ok && extended.value)
 *   normalizeExtended(extended.value, premath.value.evidence).callSpec.observabilityMode; //=> 'internal_processor'
 * ```
 */
export function normalizeExtended(extended: ExtendedJoinCheckInput, evidence: EvidenceInput): ExtendedNormalized {
  const e = extended.evidence;
  // Shielded: the digests below read optional fields of the rows built here, which must read as
  // absent whatever a polluted Object.prototype holds.
  const callSpec = shielded(normalizeCallSpec(e.callSpec));
  const body: Mutable<Omit<ExtendedNormalized, 'digests' | 'mutationIntent'>> = {
    schema: 1,
    kind: EXTENDED_NORMALIZED_KIND,
    callSpec,
  };
  const requests = keyedRows(
    withIds(evidence.toolRequests, e.toolRequests),
    'toolRequests',
    'toolCallId',
    normalizeRequest,
    (r) => r.toolCallId,
  ).filter((r) => Object.keys(r).length > 1);
  const results = keyedRows(
    withIds(evidence.toolResults, e.toolResults),
    'toolResults',
    'toolCallId',
    normalizeResult,
    (r) => r.toolCallId,
  ).filter((r) => !r.terminal || Object.keys(r).length > 2);
  const uses = keyedRows(
    withIds(evidence.toolUse, e.toolUse),
    'toolUse',
    'toolCallId',
    normalizeUse,
    (r) => r.toolCallId,
  ).filter((r) => Object.keys(r).length > 1);
  const searches = keyedRows(e.toolSearches, 'toolSearches', 'searchId', normalizeSearch, (r) => r.searchId);
  const decisions = keyedRows(
    e.guardrailDecisions,
    'guardrailDecisions',
    'decisionId',
    normalizeDecision,
    (r) => r.decisionId,
  );
  const transfers = keyedRows(e.transfers, 'transfers', 'transferId', normalizeTransfer, (r) => r.transferId);
  const traces = keyedRows(e.traceExports, 'traceExports', 'exportId', normalizeTraceExport, (r) => r.exportId);
  if (requests.length > 0) body.toolRequests = requests;
  if (results.length > 0) body.toolResults = results;
  if (uses.length > 0) body.toolUse = uses;
  if (searches.length > 0) body.toolSearches = searches;
  if (decisions.length > 0) body.guardrailDecisions = decisions;
  if (transfers.length > 0) body.transfers = transfers;
  if (traces.length > 0) body.traceExports = traces;
  setList(body, 'contextReads', normalizeRefs(e.contextReads, 'evidence.contextReads'));
  if (e.compaction) body.compaction = normalizeCompaction(e.compaction);
  if (e.loopState) {
    const loopState: Mutable<NonNullable<ExtendedNormalized['loopState']>> = { iteration: e.loopState.iteration };
    setList(
      loopState,
      'checkpointRefs',
      normalizeRefs(e.loopState.checkpointRefs, 'evidence.loopState.checkpointRefs'),
    );
    body.loopState = loopState;
  }
  if (e.policyChange) body.policyChange = normalizePolicyChange(e.policyChange);

  const digests: ExtendedDigestBundle = { ...policyDigests(callSpec), extendedDigest: digest(shielded(body)) };
  const out: Mutable<ExtendedNormalized> = { ...body, digests };
  const intent = extended.mutationIntent;
  if (intent) {
    const at = 'mutationIntent';
    const normalizedIntent: Mutable<NonNullable<ExtendedNormalized['mutationIntent']>> = {
      activeMutationPolicyDigest: required(intent.activeMutationPolicyDigest, `${at}.activeMutationPolicyDigest`),
    };
    setList(
      normalizedIntent,
      'requiredCapabilities',
      normalizeRefs(intent.requiredCapabilities, `${at}.requiredCapabilities`),
    );
    setList(normalizedIntent, 'capabilityClaims', normalizeRefs(intent.capabilityClaims, `${at}.capabilityClaims`));
    out.mutationIntent = normalizedIntent;
  }
  return out;
}
