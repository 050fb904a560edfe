/**
 * valibot schemas of the extended CallSpec: the optional fields of the tool-calling harness
 * design notes §4.1 beyond HARNESS-TYPESTATE §3.1's minimum. They are read only when the
 * join-check input opts into the extended profile (`"profile": "turngate.harness.extended.v1"`).
 *
 * The notes name most of these fields as a policy plus its digest (`guardrailStagePolicyDigest`).
 * A check cannot judge evidence against a digest alone, so each policy is given inline under
 * the notes' name without `Digest` (`guardrailStagePolicy`); the join check computes its digest,
 * binds it in the extended witness, and, when the digest field is given too, requires the two to
 * agree. Enum values are trimmed and lowercased, lists are trimmed, deduplicated and sorted, in
 * normalization, as for premath's rows.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §4.1 (fields), §3 (production constraints behind them).
 *
 * @module
 */
import * as v from 'valibot';
import { count, defaultBool, optionalCount, optionalText, ratio, rows, text, textList } from './fields.ts';
import { extension, struct } from './struct.ts';

/**
 * The provider tool-choice policy: `mode` is `auto`, `any` or `specific`; `specific` names the
 * one tool the model may call in `toolName`.
 */
export const ToolChoiceInputSchema = struct('toolChoice', { mode: text, toolName: optionalText });

/**
 * One tool of the `toolPolicy` allow-list: its name, the digest of its input schema, the digest
 * of its usage examples, whether it is loaded only when discovered (`deferLoading`), and which
 * callers may invoke it (`allowedCallers`: `direct` is the model itself, any other name is a
 * programmatic caller such as `code_execution`; absent means `['direct']`).
 */
export const ToolPolicyEntryInputSchema = struct('toolPolicy.tools[] row', {
  toolName: text,
  schemaDigest: text,
  exampleDigest: optionalText,
  deferLoading: defaultBool,
  allowedCallers: v.optional(v.array(text)),
});

/**
 * The `toolPolicy`: the allow-list of tools this turn may call, which is also the discoverable
 * catalog that `toolCatalogDigest` binds.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ToolPolicyInputSchema } from 'turngate/evidence';
 * const policy = v.parse(ToolPolicyInputSchema, { tools: [{ toolName: 'fs.read', schemaDigest: 'sha256:1f' }] });
 * policy.tools[0]?.deferLoading; //=> false
 * ```
 */
export const ToolPolicyInputSchema = struct('toolPolicy', { tools: rows(ToolPolicyEntryInputSchema) });

/** Whether tools may filter content before it is loaded into the model's context. */
export const PreContextFilterPolicyInputSchema = struct('preContextFilterPolicy', { enabled: defaultBool });

/** Whether parallel tool branches are admissible, and at most how many. */
export const ParallelPolicyInputSchema = struct('parallelPolicy', {
  allowed: v.boolean(),
  maxBranches: optionalCount,
});

/**
 * The tool transport flags: `parallelToolCalls` (the provider flag; default `true`) and the
 * ordering contract between calls and their outputs, `strict` or `unordered` (default).
 */
export const ToolTransportPolicyInputSchema = struct('toolTransportPolicy', {
  parallelToolCalls: v.optional(v.boolean(), true),
  ordering: optionalText,
});

/**
 * The truncation contract for tool responses: a budget of `maxBytes` UTF-8 bytes kept per
 * response, and the marker put where the middle of a response was cut out.
 */
export const ToolResponseTruncationPolicyInputSchema = struct('toolResponseTruncationPolicy', {
  maxBytes: count,
  marker: text,
});

/**
 * The execution boundary: which tools run shell commands, which tools are the edit surface
 * (e.g. `apply_patch`; when any is named, shell tools may not write artifacts), and the
 * directories a shell command may run in.
 */
export const ExecutionBoundaryPolicyInputSchema = struct('executionBoundaryPolicy', {
  shellTools: textList,
  editTools: textList,
  allowedWorkdirs: textList,
});

/** The compaction policy: the kinds of item a compaction must carry forward. */
export const CompactionPolicyInputSchema = struct('compactionPolicy', { requiredItemKinds: textList });

/** The guardrail stage policy: the stages that need a decision (default: all three). */
export const GuardrailStagePolicyInputSchema = struct('guardrailStagePolicy', { requiredStages: textList });

/**
 * The eval gate: precision, recall and F1 thresholds (0 to 1) a policy change must meet on
 * labeled data, and the least number of labeled examples (default 1).
 */
export const EvalGatePolicyInputSchema = struct('evalGatePolicy', {
  minPrecision: ratio,
  minRecall: ratio,
  minF1: ratio,
  minLabeledExamples: optionalCount,
});

/**
 * The red-team gate: the least number of adversarial probes, the most successful attacks
 * tolerated (default 0), and the plugins and strategies a run must include.
 */
export const RedTeamPolicyInputSchema = struct('redTeamPolicy', {
  minProbes: count,
  maxSuccessfulAttacks: optionalCount,
  requiredPlugins: textList,
  requiredStrategies: textList,
});

/**
 * The control profile bound to the risk tier: its tier, a ref naming it, and the controls it
 * requires (`guardrail_stages`, `eval_gate`, `redteam_gate`, `human_checkpoint`, `sandbox`,
 * `zero_data_retention`).
 */
export const RiskControlProfileInputSchema = struct('riskControlProfile', {
  tier: text,
  profileRef: text,
  requiredControls: textList,
});

/**
 * The context scope of the current role: the refs it may read (materialized inputs, state-view
 * sources) and write (artifacts), each a ref or a prefix ending at a `/` boundary.
 */
export const ContextScopeInputSchema = struct('contextScope', {
  role: optionalText,
  readRefs: textList,
  writeRefs: textList,
});

/**
 * The handoff contract: allowed transfer targets, artifacts every outgoing transfer must carry,
 * whether it must name a return path, artifacts every returning transfer must carry, and the
 * roles that may transfer (empty: any role).
 */
export const HandoffContractInputSchema = struct('handoffContract', {
  allowedTargets: textList,
  requiredArtifactRefs: textList,
  requireReturnPath: defaultBool,
  returnArtifactRefs: textList,
  allowedRoles: textList,
});

/** The stop policy: the most loop iterations, and whether continuing needs a human checkpoint. */
export const StopPolicyInputSchema = struct('stopPolicy', {
  maxIterations: optionalCount,
  checkpointRequired: defaultBool,
});

/**
 * The protocol state policy: the stop reasons this turn handles (a subset of `tool_use`,
 * `pause_turn`, `max_tokens`, `end_turn`) and those after which the loop may continue.
 */
export const ProtocolStatePolicyInputSchema = struct('protocolStatePolicy', {
  handledStopReasons: textList,
  continueOn: textList,
});

function optionalBlock<TSchema extends v.GenericSchema>(schema: TSchema) {
  return v.optional(v.nullable(schema));
}

/**
 * The extended fields of `evidence.callSpec` (design notes §4.1), each optional; premath's
 * eleven §3.1 fields are read by {@link CallSpecInputSchema}.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ExtendedCallSpecInputSchema } from 'turngate/evidence';
 * const spec = v.parse(ExtendedCallSpecInputSchema, { callId: 'turn-1', observabilityMode: 'disabled' });
 * spec.observabilityMode; //=> 'disabled'
 * ```
 */
export const ExtendedCallSpecInputSchema = extension('callSpec', {
  toolChoice: optionalBlock(ToolChoiceInputSchema),
  toolPolicy: optionalBlock(ToolPolicyInputSchema),
  toolCatalogDigest: optionalText,
  deferPolicyDigest: optionalText,
  toolExampleDigest: optionalText,
  allowedCallersDigest: optionalText,
  preContextFilterPolicy: optionalBlock(PreContextFilterPolicyInputSchema),
  evalProfileRef: optionalText,
  parallelPolicy: optionalBlock(ParallelPolicyInputSchema),
  toolTransportPolicy: optionalBlock(ToolTransportPolicyInputSchema),
  toolResponseTruncationPolicy: optionalBlock(ToolResponseTruncationPolicyInputSchema),
  executionBoundaryPolicy: optionalBlock(ExecutionBoundaryPolicyInputSchema),
  runtimeSandboxRef: optionalText,
  compactionPolicy: optionalBlock(CompactionPolicyInputSchema),
  compactionPolicyDigest: optionalText,
  guardrailStagePolicy: optionalBlock(GuardrailStagePolicyInputSchema),
  guardrailStagePolicyDigest: optionalText,
  evalGatePolicy: optionalBlock(EvalGatePolicyInputSchema),
  evalGatePolicyDigest: optionalText,
  redTeamPolicy: optionalBlock(RedTeamPolicyInputSchema),
  redTeamPolicyDigest: optionalText,
  observabilityMode: optionalText,
  riskTier: optionalText,
  riskControlProfile: optionalBlock(RiskControlProfileInputSchema),
  orchestrationRole: optionalText,
  contextScope: optionalBlock(ContextScopeInputSchema),
  contextScopeDigest: optionalText,
  handoffContract: optionalBlock(HandoffContractInputSchema),
  handoffContractDigest: optionalText,
  stopPolicy: optionalBlock(StopPolicyInputSchema),
  protocolStatePolicy: optionalBlock(ProtocolStatePolicyInputSchema),
});

/** A decoded `toolPolicy`. */
export type ToolPolicyInput = v.InferOutput<typeof ToolPolicyInputSchema>;
/** A decoded `toolPolicy.tools[]` row. */
export type ToolPolicyEntryInput = v.InferOutput<typeof ToolPolicyEntryInputSchema>;
/** The decoded extended fields of `evidence.callSpec`. */
export type ExtendedCallSpecInput = v.InferOutput<typeof ExtendedCallSpecInputSchema>;
