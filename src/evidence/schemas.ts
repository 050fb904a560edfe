/**
 * valibot schemas of every row of the `harness-join-check` input, field for field as premath's
 * `TypestateEvidenceInput` and `JoinCheckInput` read them (camelCase wire names).
 *
 * Absent-versus-null rules follow serde: an optional field may be absent or `null`; a list
 * field may be absent (empty) but not `null`; a required string must be present and a string;
 * unknown fields are ignored. Trimming, lowercasing, enum checks and dedup happen in
 * normalization, as in premath.
 *
 * Source: HARNESS-TYPESTATE §3 (typed evidence contract); premath `harness-join-check` input.
 *
 * @module
 */
import * as v from 'valibot';
import { anyJson, defaultBool, optionalBool, optionalText, rows, text, textList } from './fields.ts';
import { struct } from './struct.ts';

/**
 * The `callSpec` row: the HARNESS-TYPESTATE §3.1 minimum binding fields. Every field is a required,
 * non-blank string.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { CallSpecInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(CallSpecInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const CallSpecInputSchema = struct('callSpec', {
  callId: text,
  modelRef: text,
  actionMode: text,
  executionPattern: text,
  normalizerId: text,
  mutationPolicyDigest: text,
  governancePolicyDigest: text,
  toolRenderProtocolDigest: text,
  reminderQueuePolicyDigest: text,
  stateViewPolicyDigest: text,
  decompositionPolicyDigest: text,
});

/**
 * A `toolRequests[]` row: one tool call the model asked for, keyed by `toolCallId`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ToolRequestInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(ToolRequestInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const ToolRequestInputSchema = struct('toolRequests[] row', {
  toolCallId: text,
  toolName: text,
  schemaDigest: optionalText,
  callerId: optionalText,
  searchRefDigest: optionalText,
});

/**
 * A `toolResults[]` row: the terminal result of one tool call. An error row carries the
 * machine-readable envelope (`errorCode`, `retryable`, `errorMessage`) directly or inside
 * `rawError` (`errorCode`/`code`, `retryable`, `errorMessage`/`message`).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ToolResultInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(ToolResultInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const ToolResultInputSchema = struct('toolResults[] row', {
  toolCallId: text,
  status: optionalText,
  resultDigest: optionalText,
  payload: anyJson,
  errorCode: optionalText,
  retryable: optionalBool,
  errorMessage: optionalText,
  rawError: anyJson,
});

/**
 * A `toolUse[]` row: what the turn did with one terminal result. `reasonCode` (a non-blank
 * string) is read only for TOOL-CALLING-HARNESS-TYPESTATE's `discarded_with_reason` (where it is required) and `retry_scheduled`; on other
 * dispositions it is ignored, as premath ignores unknown fields.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ToolUseInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(ToolUseInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const ToolUseInputSchema = struct('toolUse[] row', {
  toolCallId: text,
  disposition: text,
  resultDigest: optionalText,
  reasonCode: anyJson,
});

/**
 * The `protocolState` row: the provider stop reason and whether the loop may continue.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ProtocolStateInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(ProtocolStateInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const ProtocolStateInputSchema = struct('protocolState', {
  stopReason: text,
  continuationAllowed: defaultBool,
});

/**
 * The optional `handoff` packet: transfer target, required artifacts, return path.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { HandoffInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(HandoffInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const HandoffInputSchema = struct('handoff', {
  target: text,
  requiredArtifactRefs: textList,
  returnPathRef: optionalText,
});

/**
 * A `toolRender[]` row: the dual rendering of one tool result (operator + model-facing).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ToolRenderInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(ToolRenderInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const ToolRenderInputSchema = struct('toolRender[] row', {
  toolCallId: text,
  operatorPayloadDigest: text,
  reminderRenderDigest: text,
  injectionPoint: text,
  policyDigest: text,
});

/**
 * A `reminderQueue[]` row: one reduced reminder queue.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ReminderQueueInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(ReminderQueueInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const ReminderQueueInputSchema = struct('reminderQueue[] row', {
  queueId: text,
  reducedDigest: text,
  policyDigest: text,
});

/**
 * A `stateViews[]` row: one conversation-state view used for stop/continue decisions.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { StateViewInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(StateViewInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const StateViewInputSchema = struct('stateViews[] row', {
  viewId: text,
  viewDigest: text,
  policyDigest: text,
  sourceRefs: textList,
});

/**
 * The `evidence` object of one turn (HARNESS-TYPESTATE §3.2).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { EvidenceInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(EvidenceInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const EvidenceInputSchema = struct('evidence', {
  callSpec: CallSpecInputSchema,
  toolRequests: rows(ToolRequestInputSchema),
  toolResults: rows(ToolResultInputSchema),
  toolUse: rows(ToolUseInputSchema),
  protocolState: ProtocolStateInputSchema,
  handoff: v.optional(v.nullable(HandoffInputSchema)),
  toolRender: rows(ToolRenderInputSchema),
  reminderQueue: rows(ReminderQueueInputSchema),
  stateViews: rows(StateViewInputSchema),
  sessionRefs: textList,
  trajectoryRefs: textList,
});

/**
 * The governance policy provenance of a claimed governance profile.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { PolicyProvenanceInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(PolicyProvenanceInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const PolicyProvenanceInputSchema = struct('policyProvenance', {
  pinned: v.boolean(),
  packageRef: optionalText,
  expectedDigest: optionalText,
  boundDigest: optionalText,
});

/**
 * The optional `governanceProfile` block (claim `profile.doctrine_inf_governance.v0`).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { GovernanceProfileInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(GovernanceProfileInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const GovernanceProfileInputSchema = struct('governanceProfile', {
  claimId: optionalText,
  claimed: v.boolean(),
  policyProvenance: v.optional(v.nullable(PolicyProvenanceInputSchema)),
});

/**
 * The optional `protocolConstraints` block.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { ProtocolConstraintsInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(ProtocolConstraintsInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const ProtocolConstraintsInputSchema = struct('protocolConstraints', {
  parallelTransportOrderValid: optionalBool,
});

/**
 * The optional `handoffConstraints` block: required artifacts, allowed targets, return path.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { HandoffConstraintsInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(HandoffConstraintsInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const HandoffConstraintsInputSchema = struct('handoffConstraints', {
  requiredArtifactRefs: textList,
  allowedTargets: textList,
  requireReturnPath: defaultBool,
});

/**
 * The optional `truncationConstraints` block.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { TruncationConstraintsInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(TruncationConstraintsInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const TruncationConstraintsInputSchema = struct('truncationConstraints', {
  required: defaultBool,
  valid: defaultBool,
});

/**
 * The optional `decompositionConstraints` block.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { DecompositionConstraintsInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(DecompositionConstraintsInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const DecompositionConstraintsInputSchema = struct('decompositionConstraints', {
  admissible: optionalBool,
  expectedExecutionPattern: optionalText,
  expectedPolicyDigest: optionalText,
});

/**
 * The whole `harness-join-check` input: evidence plus optional constraint blocks.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { JoinCheckInputSchema } from 'turngate/evidence';
 * declare const wire: unknown;
 * const row = v.safeParse(JoinCheckInputSchema, wire);
 * if (row.success) row.output;
 * ```
 */
export const JoinCheckInputSchema = struct('join-check input', {
  evidence: EvidenceInputSchema,
  governanceProfile: v.optional(v.nullable(GovernanceProfileInputSchema)),
  protocolConstraints: v.optional(v.nullable(ProtocolConstraintsInputSchema)),
  handoffConstraints: v.optional(v.nullable(HandoffConstraintsInputSchema)),
  truncationConstraints: v.optional(v.nullable(TruncationConstraintsInputSchema)),
  decompositionConstraints: v.optional(v.nullable(DecompositionConstraintsInputSchema)),
});

/**
 * A decoded `callSpec` row.
 */
export type CallSpecInput = v.InferOutput<typeof CallSpecInputSchema>;
/**
 * A decoded `toolRequests[]` row.
 */
export type ToolRequestInput = v.InferOutput<typeof ToolRequestInputSchema>;
/**
 * A decoded `toolResults[]` row.
 */
export type ToolResultInput = v.InferOutput<typeof ToolResultInputSchema>;
/**
 * A decoded `toolUse[]` row.
 */
export type ToolUseInput = v.InferOutput<typeof ToolUseInputSchema>;
/**
 * A decoded `protocolState` row.
 */
export type ProtocolStateInput = v.InferOutput<typeof ProtocolStateInputSchema>;
/**
 * A decoded `handoff` packet.
 */
export type HandoffInput = v.InferOutput<typeof HandoffInputSchema>;
/**
 * A decoded `toolRender[]` row.
 */
export type ToolRenderInput = v.InferOutput<typeof ToolRenderInputSchema>;
/**
 * A decoded `reminderQueue[]` row.
 */
export type ReminderQueueInput = v.InferOutput<typeof ReminderQueueInputSchema>;
/**
 * A decoded `stateViews[]` row.
 */
export type StateViewInput = v.InferOutput<typeof StateViewInputSchema>;
/**
 * A decoded `evidence` object.
 */
export type EvidenceInput = v.InferOutput<typeof EvidenceInputSchema>;
/**
 * A decoded `governanceProfile` block.
 */
export type GovernanceProfileInput = v.InferOutput<typeof GovernanceProfileInputSchema>;
/**
 * A decoded `protocolConstraints` block.
 */
export type ProtocolConstraintsInput = v.InferOutput<typeof ProtocolConstraintsInputSchema>;
/**
 * A decoded `handoffConstraints` block.
 */
export type HandoffConstraintsInput = v.InferOutput<typeof HandoffConstraintsInputSchema>;
/**
 * A decoded `truncationConstraints` block.
 */
export type TruncationConstraintsInput = v.InferOutput<typeof TruncationConstraintsInputSchema>;
/**
 * A decoded `decompositionConstraints` block.
 */
export type DecompositionConstraintsInput = v.InferOutput<typeof DecompositionConstraintsInputSchema>;
/**
 * A decoded `harness-join-check` input.
 */
export type JoinCheckInput = v.InferOutput<typeof JoinCheckInputSchema>;
/**
 * What a caller may pass for a `harness-join-check` input (before defaults).
 *
 * @example
 * ```ts
 * import { joinCheck } from 'turngate/join-check';
 * import type { JoinCheckInputWire } from 'turngate/evidence';
 * declare const evidence: JoinCheckInputWire['evidence'];
 * const input: JoinCheckInputWire = { evidence, truncationConstraints: { required: true, valid: true } };
 * joinCheck(input);
 * ```
 */
export type JoinCheckInputWire = v.InferInput<typeof JoinCheckInputSchema>;
