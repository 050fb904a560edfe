/**
 * The fail-closed class taxonomy: every class of HARNESS-TYPESTATE §8 and of the tool-calling
 * harness design notes §7, once each, then turngate's own classes of the gate at the adapter
 * boundary and of approvals (docs/APPROVALS.md), each with a one-line description and its source.
 *
 * @module
 */
import type { ResultOf } from '../internal/result.ts';

/**
 * Where a failure class is defined.
 */
export type FailureClassSource =
  | 'HARNESS-TYPESTATE §8'
  | 'TOOL-CALLING-HARNESS-TYPESTATE §7'
  | 'HARNESS-TYPESTATE §8; TOOL-CALLING-HARNESS-TYPESTATE §7'
  | 'turngate: the gate at the adapter boundary (README §Provider adapters)'
  | 'turngate: approvals bound to the intent (docs/APPROVALS.md §3)';

const BOTH = 'HARNESS-TYPESTATE §8; TOOL-CALLING-HARNESS-TYPESTATE §7';
const SPEC = 'HARNESS-TYPESTATE §8';
const NOTES = 'TOOL-CALLING-HARNESS-TYPESTATE §7';
// turngate's own classes: what the tool loop refuses beyond the join check (not in either list).
const GATE = 'turngate: the gate at the adapter boundary (README §Provider adapters)';
// turngate's own classes of approvals: decided by the effect ledger and the approval rules.
const APPROVALS = 'turngate: approvals bound to the intent (docs/APPROVALS.md §3)';

/**
 * Every fail-closed class, in the order of the two lists that define them. Each entry names
 * the class, says in one line what it means, and cites its source (`HARNESS-TYPESTATE §8` is
 * the normative contract; `TOOL-CALLING-HARNESS-TYPESTATE §7` is the tool-calling harness design notes).
 *
 * @example
 * ```ts
 * import { FAILURE_CLASSES } from 'turngate';
 * FAILURE_CLASSES.find((c) => c.class === 'tool.result_missing')?.description;
 * //=> 'A requested tool call has no terminal result row.'
 * ```
 */
export const FAILURE_CLASSES = [
  {
    class: 'tool.schema_invalid',
    source: BOTH,
    description:
      'A tool input, output or error row does not match its schema (an error row without a machine-readable envelope included).',
  },
  {
    class: 'tool.unknown_or_disallowed',
    source: NOTES,
    description: 'A tool call names a tool that is not registered or not allowed for this turn.',
  },
  {
    class: 'tool.discovery_mismatch',
    source: NOTES,
    description: 'A discovered tool does not match the tool catalog digest it was resolved against.',
  },
  {
    class: 'tool.discovery_unresolved',
    source: NOTES,
    description: 'A tool found by search was never resolved to a catalog identity.',
  },
  {
    class: 'tool.example_digest_mismatch',
    source: NOTES,
    description: 'The usage examples attached to a tool do not match the CallSpec tool example digest.',
  },
  {
    class: 'tool.caller_not_allowed',
    source: NOTES,
    description: "The caller of a tool is not in that tool's allowed callers.",
  },
  { class: 'tool.result_missing', source: BOTH, description: 'A requested tool call has no terminal result row.' },
  {
    class: 'tool.result_orphan',
    source: BOTH,
    description: 'A result row answers a tool call that was never requested.',
  },
  {
    class: 'tool.join_incomplete',
    source: BOTH,
    description: 'The request/result/use join of the turn, or the fan-out/fan-in of its transfers, is not closed.',
  },
  { class: 'tool.use_missing', source: BOTH, description: 'A terminal result has no tool-use disposition.' },
  {
    class: 'tool.use_unknown_result',
    source: NOTES,
    description: 'A tool-use row references a result the turn does not hold (another digest) or a non-terminal one.',
  },
  {
    class: 'tool.use_without_result',
    source: BOTH,
    description: 'A tool-use row names a tool call that has no terminal result.',
  },
  {
    class: 'tool.parallel_policy_violation',
    source: NOTES,
    description: 'Branch cardinality breaks the parallel policy (e.g. two invocations in one json-mode action).',
  },
  {
    class: 'tool.programmatic_caller_edge_invalid',
    source: NOTES,
    description: 'A tool call made from code execution lacks a valid caller edge to its parent.',
  },
  {
    class: 'tool.response_truncation_policy_violation',
    source: BOTH,
    description: 'A truncated tool response does not follow the truncation policy.',
  },
  {
    class: 'protocol.stop_reason_unhandled',
    source: BOTH,
    description: 'The stop reason is not one the protocol policy handles (tool_use, pause_turn, max_tokens, end_turn).',
  },
  {
    class: 'protocol.parallel_transport_order_invalid',
    source: BOTH,
    description: 'Parallel tool calls and their outputs are out of the required transport order.',
  },
  {
    class: 'runtime.shell_boundary_violation',
    source: NOTES,
    description:
      'A shell-executed result lacks boundary evidence (workdir, sandbox profile, command digest) or breaks it.',
  },
  {
    class: 'runtime.compaction_state_invalid',
    source: NOTES,
    description: 'A compaction artifact fails its continuity check before a resumed turn.',
  },
  {
    class: 'context.queue_policy_violation',
    source: BOTH,
    description: 'Reminder queue, render or state-view evidence is absent or bound to another policy digest.',
  },
  {
    class: 'context.injection_point_missing',
    source: BOTH,
    description: 'A result has no render row, or no state view is present, when context must be rebuilt.',
  },
  {
    class: 'coordination.decomposition_policy_violation',
    source: BOTH,
    description: 'The execution pattern or decomposition policy is not the admissible one.',
  },
  {
    class: 'governance.claim_id_invalid',
    source: SPEC,
    description: 'The governance profile names a claim id other than profile.doctrine_inf_governance.v0.',
  },
  {
    class: 'governance.policy_package_unpinned',
    source: BOTH,
    description: 'A claimed governance profile has no pinned policy package (ref, expected and bound digests).',
  },
  {
    class: 'governance.policy_package_mismatch',
    source: BOTH,
    description: 'The bound governance policy digest differs from the expected one.',
  },
  {
    class: 'governance.guardrail_stage_missing',
    source: NOTES,
    description: 'A required guardrail stage decision (pre_flight, input, output) is missing.',
  },
  {
    class: 'governance.guardrail_stage_order_invalid',
    source: NOTES,
    description: 'Guardrail stage decisions are not in the order pre_flight, input, output.',
  },
  {
    class: 'governance.eval_gate_unmet',
    source: NOTES,
    description: 'Eval thresholds (precision, recall, F1) are not met for a governance-policy mutation.',
  },
  {
    class: 'governance.eval_lineage_missing',
    source: NOTES,
    description: 'The eval results behind a gate have no lineage to their dataset and run.',
  },
  {
    class: 'governance.self_evolution_retry_missing',
    source: NOTES,
    description: 'A self-evolving policy change lacks its retry policy binding.',
  },
  {
    class: 'governance.self_evolution_escalation_missing',
    source: NOTES,
    description: 'A self-evolving policy change lacks its escalation path.',
  },
  {
    class: 'governance.self_evolution_rollback_missing',
    source: NOTES,
    description: 'A self-evolving policy change lacks its rollback path.',
  },
  {
    class: 'governance.redteam_gate_unmet',
    source: NOTES,
    description: 'The adversarial regression (red-team) gate is not met.',
  },
  {
    class: 'governance.trace_mode_violation',
    source: NOTES,
    description: 'Tracing runs in an observability mode the policy does not allow.',
  },
  {
    class: 'governance.risk_tier_profile_missing',
    source: NOTES,
    description: 'The risk tier has no bound control profile.',
  },
  {
    class: 'handoff.required_artifact_missing',
    source: BOTH,
    description: 'A handoff lacks an artifact its contract requires.',
  },
  {
    class: 'handoff.target_not_allowed',
    source: BOTH,
    description: 'A handoff targets an agent its contract does not allow, or is absent where a target is constrained.',
  },
  {
    class: 'handoff.return_path_missing',
    source: BOTH,
    description: 'A handoff that must name a return path does not.',
  },
  {
    class: 'context.scope_violation',
    source: NOTES,
    description: 'A role reads or writes outside its allowed context scope.',
  },
  {
    class: 'mutation.policy_digest_mismatch',
    source: NOTES,
    description: "The turn's mutation policy digest differs from the active policy's.",
  },
  {
    class: 'mutation.capability_claim_missing',
    source: NOTES,
    description: 'A capability claim the intended mutation requires is missing.',
  },
  {
    class: 'mutation.use_evidence_missing',
    source: BOTH,
    description: 'A consumed result, or the witness linkage a mutation needs, lacks its evidence.',
  },
  {
    class: 'mutation.read_failed',
    source: GATE,
    description: "A read tool of the turn failed, so the turn's mutating calls did not run.",
  },
  {
    class: 'mutation.stop_reason_unsafe',
    source: GATE,
    description:
      'The reply stopped for a reason under which no mutation runs: cut off, filtered, failed, or final while it holds tool calls.',
  },
  {
    class: 'mutation.aborted',
    source: GATE,
    description: 'The step was aborted before the mutation started.',
  },
  {
    class: 'effect.record_mismatch',
    source: GATE,
    description:
      "The effect ledger holds a record under the intent's key for another tool or input: it is not replayed and the effect does not run.",
  },
  {
    class: 'approval.missing',
    source: APPROVALS,
    description: 'A mutation that needs an approval has no approval record, or its record is unreadable.',
  },
  {
    class: 'approval.pending',
    source: APPROVALS,
    description: 'The approval of a mutation was requested and no decision is recorded yet.',
  },
  {
    class: 'approval.denied',
    source: APPROVALS,
    description: 'The approval of a mutation was denied: it does not run.',
  },
  {
    class: 'approval.intent_mismatch',
    source: APPROVALS,
    description: "An approval names another call, tool, input or tool schema than the mutation's.",
  },
  {
    class: 'approval.policy_changed',
    source: APPROVALS,
    description: 'An approval was given under another policy version than the active one: ask again.',
  },
  {
    class: 'approval.expired',
    source: APPROVALS,
    description: 'An approval, or its request, expired before the mutation started.',
  },
  {
    class: 'approval.decision_conflict',
    source: APPROVALS,
    description: 'A decision differs from the decision already recorded for the same request (the first is final).',
  },
  {
    class: 'approval.token_invalid',
    source: APPROVALS,
    description: 'A signed approval token is malformed or its signature does not verify.',
  },
] as const satisfies readonly { class: string; source: FailureClassSource; description: string }[];

/**
 * A machine-readable fail-closed class, e.g. `tool.result_missing`.
 *
 * Source: HARNESS-TYPESTATE §8; TOOL-CALLING-HARNESS-TYPESTATE §7.
 *
 * @example
 * ```ts
 * import type { FailureClass } from 'turngate';
 * const handled: FailureClass[] = ['tool.result_missing', 'tool.result_orphan'];
 * ```
 */
export type FailureClass = (typeof FAILURE_CLASSES)[number]['class'];

/**
 * One entry of {@link FAILURE_CLASSES}.
 */
export type FailureClassInfo = (typeof FAILURE_CLASSES)[number];

const BY_CLASS: ReadonlyMap<string, FailureClassInfo> = new Map(FAILURE_CLASSES.map((entry) => [entry.class, entry]));

/**
 * Whether a string is a known failure class.
 *
 * @param value - Any string.
 * @returns `true` when `value` is in {@link FAILURE_CLASSES}.
 * @example
 * ```ts
 * import { isFailureClass } from 'turngate';
 * isFailureClass('tool.result_missing'); //=> true
 * isFailureClass('tool.result_lost'); //=> false
 * ```
 */
export function isFailureClass(value: string): value is FailureClass {
  return BY_CLASS.has(value);
}

/**
 * The description and source of a failure class.
 *
 * @param failureClass - A known class.
 * @returns Its entry in {@link FAILURE_CLASSES}.
 * @example
 * ```ts
 * import { describeFailureClass } from 'turngate';
 * describeFailureClass('tool.use_missing').source; //=> 'HARNESS-TYPESTATE §8; TOOL-CALLING-HARNESS-TYPESTATE §7'
 * ```
 */
export function describeFailureClass(failureClass: FailureClass): FailureClassInfo {
  return BY_CLASS.get(failureClass) as FailureClassInfo;
}

/**
 * One fail-closed failure: its class, a sentence on what caused it, and the ids involved
 * (tool call ids, artifact refs) when there are any.
 *
 * @example
 * ```ts
 * import type { Failure } from 'turngate';
 * const failure: Failure = { class: 'tool.result_missing', detail: 'Requested tool calls have no terminal result.', ids: ['tc-2'] };
 * ```
 */
export interface Failure {
  /** The failure class. */
  readonly class: FailureClass;
  /** What caused it, in one sentence. */
  readonly detail: string;
  /** The ids that caused it (tool call ids, artifact refs, targets), sorted; absent when none apply. */
  readonly ids?: readonly string[];
}

/**
 * A result of a fail-closed step: a value, or the failures that stopped it. `failures` is never
 * empty when `ok` is `false`. The failure type defaults to {@link Failure}; the input decoders
 * use the same shape with their own error type (`Result<JoinCheckInput, EvidenceInputError>`),
 * schema validation with `SchemaIssue`, the chat message check with a one-line string.
 *
 * Source: ARCHITECTURE.md "Failures".
 *
 * @example
 * ```ts
 * import type { Result } from 'turngate';
 * function unwrap<T>(result: Result<T>): T {
 *   if (result.ok) return result.value;
 *   throw new Error(result.failures.map((f) => f.class).join(', '));
 * }
 * ```
 */
export type Result<T, F = Failure> = ResultOf<T, F>;
