/**
 * Types of normalized extended-profile evidence (`turngate.harness.extended_normalized.v1`) and
 * the vocabularies its enum fields take. Shapes are the wire shapes the report prints: camelCase
 * keys; optional fields and lists absent when empty, so these objects digest as they are.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §4.1-4.4.
 *
 * @module
 */

/**
 * The kind of the extended section of a report.
 *
 * @example
 * ```ts
 * import { EXTENDED_NORMALIZED_KIND } from 'turngate/normalize';
 * EXTENDED_NORMALIZED_KIND; //=> 'turngate.harness.extended_normalized.v1'
 * ```
 */
export const EXTENDED_NORMALIZED_KIND = 'turngate.harness.extended_normalized.v1';

/**
 * The guardrail stages, in the order they must run. Source: design notes §3, §4.5.
 *
 * @example
 * ```ts
 * import { GUARDRAIL_STAGES } from 'turngate/normalize';
 * GUARDRAIL_STAGES.indexOf('input'); //=> 1
 * ```
 */
export const GUARDRAIL_STAGES = ['pre_flight', 'input', 'output'] as const;
/** One of {@link GUARDRAIL_STAGES}. */
export type GuardrailStage = (typeof GUARDRAIL_STAGES)[number];

/** The tool-choice modes of §4.1 `toolChoice`. */
export const TOOL_CHOICE_MODES = ['auto', 'any', 'specific'] as const;
/** The transport ordering contracts of `toolTransportPolicy.ordering`. */
export const TRANSPORT_ORDERINGS = ['strict', 'unordered'] as const;
/** The observability modes of §4.1 `observabilityMode`. */
export const OBSERVABILITY_MODES = ['dashboard', 'internal_processor', 'disabled'] as const;
/** Where a trace may be exported (`traceExports[].sink`). */
export const TRACE_SINKS = ['dashboard', 'internal_processor'] as const;
/** The risk tiers of §4.1 `riskTier`. */
export const RISK_TIERS = ['low', 'moderate', 'high'] as const;
/** The orchestration roles of §4.1 `orchestrationRole`. */
export const ORCHESTRATION_ROLES = ['orchestrator', 'specialist'] as const;
/** The transfer directions of `transfers[].direction`. */
export const TRANSFER_DIRECTIONS = ['fan_out', 'fan_in'] as const;
/** The terminal escalation actions of HARNESS-RETRY-ESCALATION §3. */
export const ESCALATION_ACTIONS = ['issue_discover', 'mark_blocked', 'stop'] as const;
/** The execution patterns of §4.1 `executionPattern`. */
export const EXECUTION_PATTERNS = [
  'single',
  'chain',
  'route',
  'parallel',
  'orchestrator_workers',
  'evaluator_optimizer',
] as const;

/**
 * The controls a risk-tier control profile may require, each satisfied by a CallSpec setting:
 * `guardrail_stages` (a `guardrailStagePolicy`), `eval_gate` (an `evalGatePolicy`),
 * `redteam_gate` (a `redTeamPolicy`), `human_checkpoint` (`stopPolicy.checkpointRequired`),
 * `sandbox` (a `runtimeSandboxRef`), `zero_data_retention` (an `observabilityMode` other than
 * `dashboard`).
 *
 * @example
 * ```ts
 * import { RISK_CONTROLS } from 'turngate/normalize';
 * RISK_CONTROLS.includes('zero_data_retention'); //=> true
 * ```
 */
export const RISK_CONTROLS = [
  'guardrail_stages',
  'eval_gate',
  'redteam_gate',
  'human_checkpoint',
  'sandbox',
  'zero_data_retention',
] as const;
/** One of {@link RISK_CONTROLS}. */
export type RiskControl = (typeof RISK_CONTROLS)[number];

/** The caller name of a call the model made itself (as in `allowedCallers`). */
export const DIRECT_CALLER = 'direct';

/** A normalized `toolPolicy.tools[]` row; `allowedCallers` defaults to `['direct']`. */
export interface NormalizedToolPolicyEntry {
  readonly toolName: string;
  readonly schemaDigest: string;
  readonly exampleDigest?: string;
  readonly deferLoading: boolean;
  /** Sorted, deduplicated; `['direct']` when the row gave none; absent when the row gave an empty list. */
  readonly allowedCallers?: readonly string[];
}

/** The normalized extended CallSpec: only the fields the input gave, policies normalized. */
export interface NormalizedExtendedCallSpec {
  readonly toolChoice?: { readonly mode: (typeof TOOL_CHOICE_MODES)[number]; readonly toolName?: string };
  readonly toolPolicy?: { readonly tools?: readonly NormalizedToolPolicyEntry[] };
  readonly toolCatalogDigest?: string;
  readonly deferPolicyDigest?: string;
  readonly toolExampleDigest?: string;
  readonly allowedCallersDigest?: string;
  readonly preContextFilterPolicy?: { readonly enabled: boolean };
  readonly evalProfileRef?: string;
  readonly parallelPolicy?: { readonly allowed: boolean; readonly maxBranches?: number };
  readonly toolTransportPolicy?: {
    readonly parallelToolCalls: boolean;
    readonly ordering: (typeof TRANSPORT_ORDERINGS)[number];
  };
  readonly toolResponseTruncationPolicy?: { readonly maxBytes: number; readonly marker: string };
  readonly executionBoundaryPolicy?: {
    readonly shellTools?: readonly string[];
    readonly editTools?: readonly string[];
    readonly allowedWorkdirs?: readonly string[];
  };
  readonly runtimeSandboxRef?: string;
  readonly compactionPolicy?: { readonly requiredItemKinds?: readonly string[] };
  readonly compactionPolicyDigest?: string;
  /** `requiredStages` in stage order; all three when the input gave none. */
  readonly guardrailStagePolicy?: { readonly requiredStages: readonly GuardrailStage[] };
  readonly guardrailStagePolicyDigest?: string;
  readonly evalGatePolicy?: {
    readonly minPrecision: number;
    readonly minRecall: number;
    readonly minF1: number;
    readonly minLabeledExamples: number;
  };
  readonly evalGatePolicyDigest?: string;
  readonly redTeamPolicy?: {
    readonly minProbes: number;
    readonly maxSuccessfulAttacks: number;
    readonly requiredPlugins?: readonly string[];
    readonly requiredStrategies?: readonly string[];
  };
  readonly redTeamPolicyDigest?: string;
  readonly observabilityMode?: (typeof OBSERVABILITY_MODES)[number];
  readonly riskTier?: (typeof RISK_TIERS)[number];
  readonly riskControlProfile?: {
    readonly tier: (typeof RISK_TIERS)[number];
    readonly profileRef: string;
    readonly requiredControls?: readonly RiskControl[];
  };
  readonly orchestrationRole?: (typeof ORCHESTRATION_ROLES)[number];
  readonly contextScope?: {
    readonly role?: (typeof ORCHESTRATION_ROLES)[number];
    readonly readRefs?: readonly string[];
    readonly writeRefs?: readonly string[];
  };
  readonly contextScopeDigest?: string;
  readonly handoffContract?: {
    readonly allowedTargets?: readonly string[];
    readonly requiredArtifactRefs?: readonly string[];
    readonly requireReturnPath: boolean;
    readonly returnArtifactRefs?: readonly string[];
    readonly allowedRoles?: readonly (typeof ORCHESTRATION_ROLES)[number][];
  };
  readonly handoffContractDigest?: string;
  readonly stopPolicy?: { readonly maxIterations?: number; readonly checkpointRequired: boolean };
  readonly protocolStatePolicy?: {
    readonly handledStopReasons?: readonly string[];
    readonly continueOn?: readonly string[];
  };
}

/** The extended fields of one request row. */
export interface NormalizedExtendedToolRequest {
  readonly toolCallId: string;
  readonly parentToolCallId?: string;
  readonly searchId?: string;
  readonly exampleDigest?: string;
  readonly transportIndex?: number;
  readonly adapterProfileRef?: string;
}

/** The extended fields of one result row. */
export interface NormalizedExtendedToolResult {
  readonly toolCallId: string;
  /** `false` for a progress or partial row, which does not answer its call. */
  readonly terminal: boolean;
  readonly transportIndex?: number;
  readonly payloadBytes?: number;
  readonly truncation?: {
    readonly originalBytes: number;
    readonly headBytes: number;
    readonly tailBytes: number;
    readonly marker: string;
  };
  readonly shell?: { readonly workdir?: string; readonly sandboxProfile?: string; readonly commandDigest?: string };
  /** Sorted by path. */
  readonly artifactWrites?: readonly { readonly path: string; readonly digest: string }[];
  readonly provenanceRef?: string;
  readonly tokenUsage?: { readonly filteredTokens: number; readonly unfilteredTokens: number };
}

/** The extended fields of one tool-use row. */
export interface NormalizedExtendedToolUse {
  readonly toolCallId: string;
  readonly summaryRef?: string;
  readonly handoffRef?: string;
  readonly mutationInputRef?: string;
}

/** One tool search, with the digest of its `searchRef` (query and result-set digest). */
export interface NormalizedToolSearch {
  readonly searchId: string;
  readonly query: string;
  readonly catalogDigest: string;
  /** Sorted, deduplicated; absent when empty. */
  readonly resultToolNames?: readonly string[];
  readonly resultSetDigest: string;
  /** `digest({ query, resultSetDigest })`: what a request's `searchRefDigest` names. */
  readonly searchRefDigest: string;
}

/** One guardrail decision. */
export interface NormalizedGuardrailDecision {
  readonly decisionId: string;
  readonly stage: GuardrailStage;
  readonly guardrailId: string;
  readonly sequence: number;
  readonly triggered: boolean;
  readonly policyDigest: string;
  readonly toolCallId?: string;
  readonly thresholdRef?: string;
  readonly modelRef?: string;
}

/** One transfer across an orchestrator/specialist boundary. */
export interface NormalizedTransfer {
  readonly transferId: string;
  readonly direction: (typeof TRANSFER_DIRECTIONS)[number];
  readonly target: string;
  readonly artifactRefs?: readonly string[];
  readonly returnPathRef?: string;
  readonly answersTransferId?: string;
}

/** One trace export. */
export interface NormalizedTraceExport {
  readonly exportId: string;
  readonly sink: (typeof TRACE_SINKS)[number];
  readonly processorRef?: string;
}

/** The compaction artifact; carried items sorted by kind, then ref. */
export interface NormalizedCompaction {
  readonly compactionId: string;
  readonly policyDigest: string;
  readonly sourceDigest: string;
  readonly summaryDigest: string;
  readonly carriedItems?: readonly { readonly kind: string; readonly ref: string }[];
}

/** The eval run behind a policy change. */
export interface NormalizedEvalRun {
  readonly runId?: string;
  readonly gatePolicyDigest?: string;
  readonly policyDigest?: string;
  readonly datasetRef?: string;
  readonly datasetDigest?: string;
  readonly truePositives: number;
  readonly falsePositives: number;
  readonly falseNegatives: number;
  readonly trueNegatives?: number;
}

/** The red-team run behind a policy change. */
export interface NormalizedRedTeamRun {
  readonly runId?: string;
  readonly gatePolicyDigest?: string;
  readonly policyDigest?: string;
  readonly plugins?: readonly string[];
  readonly strategies?: readonly string[];
  readonly probes: number;
  readonly successfulAttacks: number;
}

/** A governance policy change and what gates it. */
export interface NormalizedPolicyChange {
  readonly changeId: string;
  readonly fromPolicyDigest: string;
  readonly toPolicyDigest: string;
  readonly selfEvolution: boolean;
  readonly evalRun?: NormalizedEvalRun;
  readonly redTeamRun?: NormalizedRedTeamRun;
  readonly retryPolicyDigest?: string;
  readonly escalationAction?: (typeof ESCALATION_ACTIONS)[number];
  readonly rollback?: { readonly targetPolicyDigest?: string; readonly ref?: string };
}

/** The mutation the caller means to perform after the turn. */
export interface NormalizedMutationIntent {
  readonly activeMutationPolicyDigest: string;
  readonly requiredCapabilities?: readonly string[];
  readonly capabilityClaims?: readonly string[];
}

/**
 * The digests the extended profile computes: one per inline policy (what the CallSpec's digest
 * field of the same name must equal), and `extendedDigest` over the whole extended evidence.
 */
export interface ExtendedDigestBundle {
  /** `digest` of the catalog: `[{ toolName, schemaDigest }]` of `toolPolicy`, sorted by name. */
  readonly toolCatalogDigest?: string;
  /** `digest` of the sorted names of the `deferLoading` tools. */
  readonly deferPolicyDigest?: string;
  /** `digest` of `[{ toolName, exampleDigest }]` of the tools that have one, sorted by name. */
  readonly toolExampleDigest?: string;
  /** `digest` of `[{ toolName, allowedCallers }]` of every tool (absent lists left out), sorted by name. */
  readonly allowedCallersDigest?: string;
  readonly compactionPolicyDigest?: string;
  readonly guardrailStagePolicyDigest?: string;
  readonly evalGatePolicyDigest?: string;
  readonly redTeamPolicyDigest?: string;
  readonly contextScopeDigest?: string;
  readonly handoffContractDigest?: string;
  /** `digest` of the normalized extended evidence (everything but `digests` and `mutationIntent`). */
  readonly extendedDigest: string;
}

/**
 * The extended section of a report: the extended evidence, normalized (trimmed, enum fields
 * lowercased, keyed rows deduplicated and sorted by id, lists sorted), with its digests.
 * Rows of premath's surfaces are listed only when they carry an extended field.
 *
 * @example
 * ```ts
 * import type { ExtendedNormalized } from 'turngate/normalize';
 * function sandbox(extended: ExtendedNormalized): string | undefined {
 *   return extended.callSpec.runtimeSandboxRef;
 * }
 * ```
 */
export interface ExtendedNormalized {
  readonly schema: 1;
  readonly kind: typeof EXTENDED_NORMALIZED_KIND;
  readonly callSpec: NormalizedExtendedCallSpec;
  readonly toolRequests?: readonly NormalizedExtendedToolRequest[];
  readonly toolResults?: readonly NormalizedExtendedToolResult[];
  readonly toolUse?: readonly NormalizedExtendedToolUse[];
  readonly toolSearches?: readonly NormalizedToolSearch[];
  readonly guardrailDecisions?: readonly NormalizedGuardrailDecision[];
  readonly transfers?: readonly NormalizedTransfer[];
  readonly traceExports?: readonly NormalizedTraceExport[];
  readonly contextReads?: readonly string[];
  readonly compaction?: NormalizedCompaction;
  readonly loopState?: { readonly iteration: number; readonly checkpointRefs?: readonly string[] };
  readonly policyChange?: NormalizedPolicyChange;
  readonly mutationIntent?: NormalizedMutationIntent;
  readonly digests: ExtendedDigestBundle;
}
