/**
 * valibot schemas of the extended profile's row evidence (tool-calling harness design notes
 * §4.2-4.4) and of the whole extended join-check input. Read only when the input opts in with
 * `"profile": "turngate.harness.extended.v1"`; premath's fields of the same rows are read by
 * the premath schemas, so an extended input is first a premath input.
 *
 * Where the notes leave a format open, these rows define it; each field's TSDoc says what a
 * harness records there.
 *
 * @module
 */
import * as v from 'valibot';
import { ExtendedCallSpecInputSchema } from './extended-policies.ts';
import { count, defaultBool, optionalCount, optionalText, rows, text, textList } from './fields.ts';
import type { JoinCheckInputWire } from './schemas.ts';
import { extension, struct } from './struct.ts';

/**
 * The profile id a join-check input gives in its top-level `profile` field to be checked under
 * the extended profile. Without it (or with `null`) the input is checked as premath checks it,
 * byte for byte.
 *
 * @example
 * ```ts
 * import { EXTENDED_PROFILE } from 'turngate/evidence';
 * EXTENDED_PROFILE; //=> 'turngate.harness.extended.v1'
 * ```
 */
export const EXTENDED_PROFILE = 'turngate.harness.extended.v1';

function optionalBlock<TSchema extends v.GenericSchema>(schema: TSchema) {
  return v.optional(v.nullable(schema));
}

/**
 * The extended fields of a `toolRequests[]` row (design notes §4.2):
 * - `parentToolCallId`: for a call made by code (`callerId` other than `direct`), the tool call
 *   id of the code-execution call that made it: the caller edge `parent -> this call`;
 * - `searchId`: the `toolSearches[]` row that discovered a deferred tool (premath's
 *   `searchRefDigest` may name the search by its digest instead);
 * - `exampleDigest`: the digest of the usage examples the model was shown with this tool;
 * - `transportIndex`: the call's position in the model's output (0-based);
 * - `adapterProfileRef`: in text mode, the adapter profile that turned text into this call.
 */
export const ExtendedToolRequestInputSchema = extension('toolRequests[] row', {
  parentToolCallId: optionalText,
  searchId: optionalText,
  exampleDigest: optionalText,
  transportIndex: optionalCount,
  adapterProfileRef: optionalText,
});

/** Truncation metadata of a tool response: middle truncation keeps a head and a tail. Units: UTF-8 bytes. */
export const TruncationInputSchema = struct('truncation', {
  originalBytes: count,
  headBytes: count,
  tailBytes: count,
  marker: text,
});

/** Boundary evidence of a shell-executed result: where it ran, in which sandbox, what it ran. */
export const ShellEvidenceInputSchema = struct('shell', {
  workdir: optionalText,
  sandboxProfile: optionalText,
  commandDigest: optionalText,
});

/** One artifact a tool wrote: its path (or ref) and the digest of what was written. */
export const ArtifactWriteInputSchema = struct('artifactWrites[] row', { path: text, digest: text });

/** Token counts of a pre-context-filtered retrieval: what was loaded and what the raw content was. */
export const TokenUsageInputSchema = struct('tokenUsage', { filteredTokens: count, unfilteredTokens: count });

/**
 * The extended fields of a `toolResults[]` row (design notes §4.3):
 * - `terminal` (default `true`): `false` for a progress or partial row, which does not answer the call;
 * - `transportIndex`: the output's position in the message that returned it (0-based);
 * - `payloadBytes`: the UTF-8 size of the response as returned, when it was not truncated;
 * - `truncation`: truncation metadata, when it was;
 * - `shell`: boundary evidence of a shell-executed row;
 * - `artifactWrites`: the artifacts the call wrote;
 * - `provenanceRef`: the command, API or runtime route that produced the row;
 * - `tokenUsage`: filtered vs unfiltered token counts of a pre-context-filtered retrieval.
 */
export const ExtendedToolResultInputSchema = extension('toolResults[] row', {
  terminal: v.optional(v.boolean(), true),
  transportIndex: optionalCount,
  payloadBytes: optionalCount,
  truncation: optionalBlock(TruncationInputSchema),
  shell: optionalBlock(ShellEvidenceInputSchema),
  artifactWrites: rows(ArtifactWriteInputSchema),
  provenanceRef: optionalText,
  tokenUsage: optionalBlock(TokenUsageInputSchema),
});

/**
 * The extended fields of a `toolUse[]` row (design notes §4.4): what a `consumed` result was
 * consumed into (`summaryRef`, `handoffRef` or `mutationInputRef`).
 */
export const ExtendedToolUseInputSchema = extension('toolUse[] row', {
  summaryRef: optionalText,
  handoffRef: optionalText,
  mutationInputRef: optionalText,
});

/**
 * A `toolSearches[]` row: one tool search over the deferred catalog (design notes §4.2
 * `searchRef`): the query, the catalog digest it searched, the tool names it returned and the
 * digest of that result set.
 */
export const ToolSearchInputSchema = struct('toolSearches[] row', {
  searchId: text,
  query: text,
  catalogDigest: text,
  resultToolNames: textList,
  resultSetDigest: text,
});

/**
 * A `guardrailDecisions[]` row: one guardrail's decision at one stage (`pre_flight`, `input`,
 * `output`), its place in the turn (`sequence`), whether it tripped, the stage policy it ran
 * under, and, when configured, the call it judged and its threshold or model provenance.
 */
export const GuardrailDecisionInputSchema = struct('guardrailDecisions[] row', {
  decisionId: text,
  stage: text,
  guardrailId: text,
  sequence: count,
  triggered: defaultBool,
  policyDigest: text,
  toolCallId: optionalText,
  thresholdRef: optionalText,
  modelRef: optionalText,
});

/**
 * A `transfers[]` row: one handoff across an orchestrator/specialist boundary. `fan_out` sends
 * work to `target` with `artifactRefs` and a `returnPathRef`; `fan_in` brings it back, naming
 * the outgoing transfer it answers (`answersTransferId`).
 */
export const TransferInputSchema = struct('transfers[] row', {
  transferId: text,
  direction: text,
  target: text,
  artifactRefs: textList,
  returnPathRef: optionalText,
  answersTransferId: optionalText,
});

/** A `traceExports[]` row: where a trace of this turn was sent (`dashboard` or `internal_processor`). */
export const TraceExportInputSchema = struct('traceExports[] row', {
  exportId: text,
  sink: text,
  processorRef: optionalText,
});

/** One item a compaction carried forward: its kind (e.g. `plan`, `tool_call`) and ref. */
export const CarriedItemInputSchema = struct('carriedItems[] row', { kind: text, ref: text });

/**
 * The `compaction` artifact of a resumed turn: the policy it ran under, the digests of the
 * history it replaced and of its summary, and the items it carried forward.
 */
export const CompactionInputSchema = struct('compaction', {
  compactionId: text,
  policyDigest: text,
  sourceDigest: text,
  summaryDigest: text,
  carriedItems: rows(CarriedItemInputSchema),
});

/** The `loopState`: the 1-based iteration of the agent loop this turn is, and its human checkpoints. */
export const LoopStateInputSchema = struct('loopState', { iteration: count, checkpointRefs: textList });

/**
 * An eval run behind a policy change: its lineage (run, dataset, the policy evaluated, the gate
 * policy it was judged by) and its confusion counts on labeled data.
 */
export const EvalRunInputSchema = struct('evalRun', {
  runId: optionalText,
  gatePolicyDigest: optionalText,
  policyDigest: optionalText,
  datasetRef: optionalText,
  datasetDigest: optionalText,
  truePositives: count,
  falsePositives: count,
  falseNegatives: count,
  trueNegatives: optionalCount,
});

/** A red-team run behind a policy change: lineage, plugins and strategies used, probes and successful attacks. */
export const RedTeamRunInputSchema = struct('redTeamRun', {
  runId: optionalText,
  gatePolicyDigest: optionalText,
  policyDigest: optionalText,
  plugins: textList,
  strategies: textList,
  probes: count,
  successfulAttacks: count,
});

/** How a policy change is undone: the policy digest it restores and where the rollback is recorded. */
export const RollbackInputSchema = struct('rollback', { targetPolicyDigest: optionalText, ref: optionalText });

/**
 * The `policyChange` of a turn that changes a governance policy (from one digest to another),
 * with the eval and red-team runs that gate it; a self-evolving change (proposed by the agent)
 * also binds a retry policy, an escalation action and a rollback.
 */
export const PolicyChangeInputSchema = struct('policyChange', {
  changeId: text,
  fromPolicyDigest: text,
  toPolicyDigest: text,
  selfEvolution: defaultBool,
  evalRun: optionalBlock(EvalRunInputSchema),
  redTeamRun: optionalBlock(RedTeamRunInputSchema),
  retryPolicyDigest: optionalText,
  escalationAction: optionalText,
  rollback: optionalBlock(RollbackInputSchema),
});

/**
 * The optional top-level `mutationIntent`: the mutation the caller means to perform after the
 * turn, so the report also decides `MutationReady` (HARNESS-TYPESTATE §6; design notes §4.6).
 */
export const MutationIntentInputSchema = struct('mutationIntent', {
  activeMutationPolicyDigest: text,
  requiredCapabilities: textList,
  capabilityClaims: textList,
});

/** The extended part of the `evidence` object: extended fields of premath's rows plus the extended rows. */
export const ExtendedEvidenceInputSchema = extension('evidence', {
  callSpec: ExtendedCallSpecInputSchema,
  toolRequests: rows(ExtendedToolRequestInputSchema),
  toolResults: rows(ExtendedToolResultInputSchema),
  toolUse: rows(ExtendedToolUseInputSchema),
  toolSearches: rows(ToolSearchInputSchema),
  guardrailDecisions: rows(GuardrailDecisionInputSchema),
  transfers: rows(TransferInputSchema),
  traceExports: rows(TraceExportInputSchema),
  contextReads: textList,
  compaction: optionalBlock(CompactionInputSchema),
  loopState: optionalBlock(LoopStateInputSchema),
  policyChange: optionalBlock(PolicyChangeInputSchema),
});

/**
 * The extended part of a join-check input: the `profile` field, the extended evidence and the
 * `mutationIntent`. Read beside {@link JoinCheckInputSchema}, which reads premath's part.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ExtendedJoinCheckInputSchema } from 'turngate/evidence';
 * const input = v.parse(ExtendedJoinCheckInputSchema, {
 *   profile: 'turngate.harness.extended.v1',
 *   evidence: { callSpec: { observabilityMode: 'disabled' }, traceExports: [] },
 * });
 * input.evidence.callSpec.observabilityMode; //=> 'disabled'
 * ```
 */
export const ExtendedJoinCheckInputSchema = extension('join-check input', {
  profile: optionalText,
  evidence: ExtendedEvidenceInputSchema,
  mutationIntent: optionalBlock(MutationIntentInputSchema),
});

/** The decoded extended fields of a `toolRequests[]` row. */
export type ExtendedToolRequestInput = v.InferOutput<typeof ExtendedToolRequestInputSchema>;
/** The decoded extended fields of a `toolResults[]` row. */
export type ExtendedToolResultInput = v.InferOutput<typeof ExtendedToolResultInputSchema>;
/** The decoded extended fields of a `toolUse[]` row. */
export type ExtendedToolUseInput = v.InferOutput<typeof ExtendedToolUseInputSchema>;
/** A decoded `toolSearches[]` row. */
export type ToolSearchInput = v.InferOutput<typeof ToolSearchInputSchema>;
/** A decoded `guardrailDecisions[]` row. */
export type GuardrailDecisionInput = v.InferOutput<typeof GuardrailDecisionInputSchema>;
/** A decoded `transfers[]` row. */
export type TransferInput = v.InferOutput<typeof TransferInputSchema>;
/** A decoded `traceExports[]` row. */
export type TraceExportInput = v.InferOutput<typeof TraceExportInputSchema>;
/** A decoded `compaction` artifact. */
export type CompactionInput = v.InferOutput<typeof CompactionInputSchema>;
/** A decoded `policyChange`. */
export type PolicyChangeInput = v.InferOutput<typeof PolicyChangeInputSchema>;
/** A decoded `mutationIntent`. */
export type MutationIntentInput = v.InferOutput<typeof MutationIntentInputSchema>;
/** The decoded extended part of the `evidence` object. */
export type ExtendedEvidenceInput = v.InferOutput<typeof ExtendedEvidenceInputSchema>;
/** The decoded extended part of a join-check input. */
export type ExtendedJoinCheckInput = v.InferOutput<typeof ExtendedJoinCheckInputSchema>;
/**
 * What a caller may pass for a whole join-check input under the extended profile: premath's
 * fields and the extended ones, before defaults.
 *
 * @example
 * ```ts
 * import { joinCheck } from 'turngate/join-check';
 * import type { ExtendedJoinCheckInputWire } from 'turngate/evidence';
 * declare const evidence: ExtendedJoinCheckInputWire['evidence'];
 * const input: ExtendedJoinCheckInputWire = {
 *   profile: 'turngate.harness.extended.v1',
 *   evidence: { ...evidence, callSpec: { ...evidence.callSpec, observabilityMode: 'disabled' }, traceExports: [] },
 *   mutationIntent: { activeMutationPolicyDigest: 'pol.mut.v1', requiredCapabilities: ['issues:write'] },
 * };
 * joinCheck(input);
 * ```
 */
export type ExtendedJoinCheckInputWire = JoinCheckInputWire & v.InferInput<typeof ExtendedJoinCheckInputSchema>;
