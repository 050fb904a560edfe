/**
 * The extended CallSpec's normalization (`callSpec` of `turngate.harness.extended_normalized.v1`):
 * its tooling, governance and orchestration policies in the report's field order, and the digest
 * of every inline policy. Internal; extended.ts applies it.
 *
 * @module
 */
import { asciiLowercase, digest } from '../canonical/index.ts';
import { EvidenceInputError } from '../evidence/index.ts';
import type { ExtendedCallSpecInput, ToolPolicyEntryInput } from '../evidence/index.ts';
import { setList, setOptional, type Mutable } from '../internal/fields.ts';
import {
  DIRECT_CALLER,
  GUARDRAIL_STAGES,
  OBSERVABILITY_MODES,
  ORCHESTRATION_ROLES,
  RISK_CONTROLS,
  RISK_TIERS,
  TOOL_CHOICE_MODES,
  TRANSPORT_ORDERINGS,
  type ExtendedDigestBundle,
  type NormalizedExtendedCallSpec,
  type NormalizedToolPolicyEntry,
} from './extended-types.ts';
import { enumList, keyedRows, normalizeRefs, oneOf, optional, optionalOneOf, required } from './rows.ts';

function normalizeToolPolicyEntry(row: ToolPolicyEntryInput, at: string): NormalizedToolPolicyEntry {
  const out: Mutable<NormalizedToolPolicyEntry> = {
    toolName: required(row.toolName, `${at}.toolName`),
    schemaDigest: required(row.schemaDigest, `${at}.schemaDigest`),
    deferLoading: row.deferLoading,
  };
  setOptional(out, 'exampleDigest', optional(row.exampleDigest, `${at}.exampleDigest`));
  setList(out, 'allowedCallers', normalizeRefs(row.allowedCallers ?? [DIRECT_CALLER], `${at}.allowedCallers`));
  return out;
}

/** The extended CallSpec, normalized: its three groups of fields in the report's field order. Internal. */
export function normalizeCallSpec(spec: ExtendedCallSpecInput): NormalizedExtendedCallSpec {
  const at = (name: string) => `evidence.callSpec.${name}`;
  const out: Mutable<NormalizedExtendedCallSpec> = {};
  normalizeToolingPolicies(spec, out, at);
  normalizeGovernancePolicies(spec, out, at);
  normalizeOrchestrationPolicies(spec, out, at);
  return out;
}

/** Tool choice, tool policy and digests, parallel and transport policy, truncation, execution boundary and sandbox. Sets them on `out` in the report's field order. */
function normalizeToolingPolicies(
  spec: ExtendedCallSpecInput,
  out: Mutable<NormalizedExtendedCallSpec>,
  at: (name: string) => string,
): void {
  if (spec.toolChoice) {
    const mode = oneOf(spec.toolChoice.mode, TOOL_CHOICE_MODES, at('toolChoice.mode'));
    const toolName = optional(spec.toolChoice.toolName, at('toolChoice.toolName'));
    if (mode === 'specific' && toolName === undefined) {
      throw new EvidenceInputError(at('toolChoice.toolName'), 'expected the tool name a `specific` tool choice names');
    }
    out.toolChoice = toolName === undefined ? { mode } : { mode, toolName };
  }
  if (spec.toolPolicy) {
    const tools = keyedRows(
      spec.toolPolicy.tools,
      'callSpec.toolPolicy.tools',
      'toolName',
      normalizeToolPolicyEntry,
      (r) => r.toolName,
    );
    out.toolPolicy = tools.length > 0 ? { tools } : {};
  }
  for (const name of ['toolCatalogDigest', 'deferPolicyDigest', 'toolExampleDigest', 'allowedCallersDigest'] as const) {
    setOptional(out, name, optional(spec[name], at(name)));
  }
  if (spec.preContextFilterPolicy) out.preContextFilterPolicy = { enabled: spec.preContextFilterPolicy.enabled };
  setOptional(out, 'evalProfileRef', optional(spec.evalProfileRef, at('evalProfileRef')));
  if (spec.parallelPolicy) {
    const policy: Mutable<NonNullable<NormalizedExtendedCallSpec['parallelPolicy']>> = {
      allowed: spec.parallelPolicy.allowed,
    };
    setOptional(policy, 'maxBranches', spec.parallelPolicy.maxBranches ?? undefined);
    out.parallelPolicy = policy;
  }
  if (spec.toolTransportPolicy) {
    out.toolTransportPolicy = {
      parallelToolCalls: spec.toolTransportPolicy.parallelToolCalls,
      ordering:
        optionalOneOf(spec.toolTransportPolicy.ordering, TRANSPORT_ORDERINGS, at('toolTransportPolicy.ordering')) ??
        'unordered',
    };
  }
  if (spec.toolResponseTruncationPolicy) {
    out.toolResponseTruncationPolicy = {
      maxBytes: spec.toolResponseTruncationPolicy.maxBytes,
      marker: required(spec.toolResponseTruncationPolicy.marker, at('toolResponseTruncationPolicy.marker')),
    };
  }
  if (spec.executionBoundaryPolicy) {
    const p = spec.executionBoundaryPolicy;
    const policy: Mutable<NonNullable<NormalizedExtendedCallSpec['executionBoundaryPolicy']>> = {};
    setList(policy, 'shellTools', normalizeRefs(p.shellTools, at('executionBoundaryPolicy.shellTools')));
    setList(policy, 'editTools', normalizeRefs(p.editTools, at('executionBoundaryPolicy.editTools')));
    setList(policy, 'allowedWorkdirs', normalizeRefs(p.allowedWorkdirs, at('executionBoundaryPolicy.allowedWorkdirs')));
    out.executionBoundaryPolicy = policy;
  }
  setOptional(out, 'runtimeSandboxRef', optional(spec.runtimeSandboxRef, at('runtimeSandboxRef')));
}

/** Compaction, guardrail stages, eval gate, red team, the policy digests, observability and risk tier. Sets them on `out` in the report's field order. */
function normalizeGovernancePolicies(
  spec: ExtendedCallSpecInput,
  out: Mutable<NormalizedExtendedCallSpec>,
  at: (name: string) => string,
): void {
  if (spec.compactionPolicy) {
    const policy: Mutable<NonNullable<NormalizedExtendedCallSpec['compactionPolicy']>> = {};
    setList(
      policy,
      'requiredItemKinds',
      normalizeRefs(spec.compactionPolicy.requiredItemKinds, at('compactionPolicy.requiredItemKinds')),
    );
    out.compactionPolicy = policy;
  }
  if (spec.guardrailStagePolicy) {
    const stages = enumList(
      spec.guardrailStagePolicy.requiredStages,
      GUARDRAIL_STAGES,
      at('guardrailStagePolicy.requiredStages'),
    );
    out.guardrailStagePolicy = {
      requiredStages: GUARDRAIL_STAGES.filter((stage) => stages.length === 0 || stages.includes(stage)),
    };
  }
  if (spec.evalGatePolicy) {
    const p = spec.evalGatePolicy;
    out.evalGatePolicy = {
      minPrecision: p.minPrecision,
      minRecall: p.minRecall,
      minF1: p.minF1,
      minLabeledExamples: p.minLabeledExamples ?? 1,
    };
  }
  if (spec.redTeamPolicy) {
    const p = spec.redTeamPolicy;
    const policy: Mutable<NonNullable<NormalizedExtendedCallSpec['redTeamPolicy']>> = {
      minProbes: p.minProbes,
      maxSuccessfulAttacks: p.maxSuccessfulAttacks ?? 0,
    };
    setList(policy, 'requiredPlugins', normalizeRefs(p.requiredPlugins, at('redTeamPolicy.requiredPlugins')));
    setList(policy, 'requiredStrategies', normalizeRefs(p.requiredStrategies, at('redTeamPolicy.requiredStrategies')));
    out.redTeamPolicy = policy;
  }
  for (const name of [
    'compactionPolicyDigest',
    'guardrailStagePolicyDigest',
    'evalGatePolicyDigest',
    'redTeamPolicyDigest',
    'contextScopeDigest',
    'handoffContractDigest',
  ] as const) {
    setOptional(out, name, optional(spec[name], at(name)));
  }
  setOptional(
    out,
    'observabilityMode',
    optionalOneOf(spec.observabilityMode, OBSERVABILITY_MODES, at('observabilityMode')),
  );
  setOptional(out, 'riskTier', optionalOneOf(spec.riskTier, RISK_TIERS, at('riskTier')));
}

/** Risk controls, orchestration role, context scope, handoff contract, stop policy and protocol state policy. Sets them on `out` in the report's field order. */
function normalizeOrchestrationPolicies(
  spec: ExtendedCallSpecInput,
  out: Mutable<NormalizedExtendedCallSpec>,
  at: (name: string) => string,
): void {
  if (spec.riskControlProfile) {
    const p = spec.riskControlProfile;
    const profile: Mutable<NonNullable<NormalizedExtendedCallSpec['riskControlProfile']>> = {
      tier: oneOf(p.tier, RISK_TIERS, at('riskControlProfile.tier')),
      profileRef: required(p.profileRef, at('riskControlProfile.profileRef')),
    };
    setList(
      profile,
      'requiredControls',
      enumList(p.requiredControls, RISK_CONTROLS, at('riskControlProfile.requiredControls')),
    );
    out.riskControlProfile = profile;
  }
  setOptional(
    out,
    'orchestrationRole',
    optionalOneOf(spec.orchestrationRole, ORCHESTRATION_ROLES, at('orchestrationRole')),
  );
  if (spec.contextScope) {
    const p = spec.contextScope;
    const scope: Mutable<NonNullable<NormalizedExtendedCallSpec['contextScope']>> = {};
    setOptional(scope, 'role', optionalOneOf(p.role, ORCHESTRATION_ROLES, at('contextScope.role')));
    setList(scope, 'readRefs', normalizeRefs(p.readRefs, at('contextScope.readRefs')));
    setList(scope, 'writeRefs', normalizeRefs(p.writeRefs, at('contextScope.writeRefs')));
    out.contextScope = scope;
  }
  if (spec.handoffContract) out.handoffContract = normalizeHandoffContract(spec.handoffContract, at);
  if (spec.stopPolicy) {
    const policy: Mutable<NonNullable<NormalizedExtendedCallSpec['stopPolicy']>> = {
      checkpointRequired: spec.stopPolicy.checkpointRequired,
    };
    setOptional(policy, 'maxIterations', spec.stopPolicy.maxIterations ?? undefined);
    out.stopPolicy = policy;
  }
  if (spec.protocolStatePolicy) out.protocolStatePolicy = normalizeProtocolStatePolicy(spec.protocolStatePolicy, at);
}

/** The digest of each inline policy: what the CallSpec's digest field of the same name must equal. Internal. */
export function policyDigests(spec: NormalizedExtendedCallSpec): Omit<ExtendedDigestBundle, 'extendedDigest'> {
  const out: Mutable<Omit<ExtendedDigestBundle, 'extendedDigest'>> = {};
  if (spec.toolPolicy) {
    const tools = spec.toolPolicy.tools ?? [];
    out.toolCatalogDigest = digest(tools.map((t) => ({ toolName: t.toolName, schemaDigest: t.schemaDigest })));
    out.deferPolicyDigest = digest(tools.filter((t) => t.deferLoading).map((t) => t.toolName));
    out.toolExampleDigest = digest(
      tools.flatMap((t) =>
        t.exampleDigest === undefined ? [] : [{ toolName: t.toolName, exampleDigest: t.exampleDigest }],
      ),
    );
    out.allowedCallersDigest = digest(
      tools.map((t) =>
        t.allowedCallers === undefined
          ? { toolName: t.toolName }
          : { toolName: t.toolName, allowedCallers: t.allowedCallers },
      ),
    );
  }
  setOptional(out, 'compactionPolicyDigest', spec.compactionPolicy && digest(spec.compactionPolicy));
  setOptional(out, 'guardrailStagePolicyDigest', spec.guardrailStagePolicy && digest(spec.guardrailStagePolicy));
  setOptional(out, 'evalGatePolicyDigest', spec.evalGatePolicy && digest(spec.evalGatePolicy));
  setOptional(out, 'redTeamPolicyDigest', spec.redTeamPolicy && digest(spec.redTeamPolicy));
  setOptional(out, 'contextScopeDigest', spec.contextScope && digest(spec.contextScope));
  setOptional(out, 'handoffContractDigest', spec.handoffContract && digest(spec.handoffContract));
  return out;
}

/** The handoff contract: its targets, artifact refs and roles as sorted, deduplicated lists. */
function normalizeHandoffContract(
  p: NonNullable<ExtendedCallSpecInput['handoffContract']>,
  at: (name: string) => string,
): NonNullable<NormalizedExtendedCallSpec['handoffContract']> {
  const contract: Mutable<NonNullable<NormalizedExtendedCallSpec['handoffContract']>> = {
    requireReturnPath: p.requireReturnPath,
  };
  setList(contract, 'allowedTargets', normalizeRefs(p.allowedTargets, at('handoffContract.allowedTargets')));
  setList(
    contract,
    'requiredArtifactRefs',
    normalizeRefs(p.requiredArtifactRefs, at('handoffContract.requiredArtifactRefs')),
  );
  setList(
    contract,
    'returnArtifactRefs',
    normalizeRefs(p.returnArtifactRefs, at('handoffContract.returnArtifactRefs')),
  );
  setList(contract, 'allowedRoles', enumList(p.allowedRoles, ORCHESTRATION_ROLES, at('handoffContract.allowedRoles')));
  return contract;
}

/** The protocol state policy: the stop reasons it handles and continues on, lowercased, sorted, deduplicated. */
function normalizeProtocolStatePolicy(
  p: NonNullable<ExtendedCallSpecInput['protocolStatePolicy']>,
  at: (name: string) => string,
): NonNullable<NormalizedExtendedCallSpec['protocolStatePolicy']> {
  const policy: Mutable<NonNullable<NormalizedExtendedCallSpec['protocolStatePolicy']>> = {};
  setList(
    policy,
    'handledStopReasons',
    normalizeRefs(
      p.handledStopReasons.map((r) => asciiLowercase(r)),
      at('protocolStatePolicy.handledStopReasons'),
    ),
  );
  setList(
    policy,
    'continueOn',
    normalizeRefs(
      p.continueOn.map((r) => asciiLowercase(r)),
      at('protocolStatePolicy.continueOn'),
    ),
  );
  return policy;
}
