import { describe, expect, it } from 'vitest';
import { FAILURE_CLASSES, describeFailureClass, isFailureClass } from './index.ts';

// HARNESS-TYPESTATE §8, the normative minimum, as the spec lists it.
const SPEC_CLASSES = [
  'tool.schema_invalid',
  'tool.result_missing',
  'tool.result_orphan',
  'tool.use_missing',
  'tool.use_without_result',
  'tool.join_incomplete',
  'tool.response_truncation_policy_violation',
  'protocol.stop_reason_unhandled',
  'protocol.parallel_transport_order_invalid',
  'context.injection_point_missing',
  'context.queue_policy_violation',
  'coordination.decomposition_policy_violation',
  'handoff.required_artifact_missing',
  'handoff.target_not_allowed',
  'handoff.return_path_missing',
  'mutation.use_evidence_missing',
  'governance.claim_id_invalid',
  'governance.policy_package_unpinned',
  'governance.policy_package_mismatch',
];

describe('FAILURE_CLASSES', () => {
  it('lists each class once, with a description and a source', () => {
    const names = FAILURE_CLASSES.map((c) => c.class);
    expect(new Set(names).size).toBe(names.length);
    const specs = FAILURE_CLASSES.filter((c) => !c.source.startsWith('turngate:'));
    expect(specs).toHaveLength(42); // 41 of the design notes §7 + governance.claim_id_invalid of §8
    // turngate's own: the gate at the adapter boundary, after every spec class.
    expect(names.slice(specs.length)).toEqual([
      'mutation.read_failed',
      'mutation.stop_reason_unsafe',
      'mutation.aborted',
      'effect.record_mismatch',
      'approval.missing',
      'approval.pending',
      'approval.denied',
      'approval.intent_mismatch',
      'approval.policy_changed',
      'approval.expired',
      'approval.decision_conflict',
      'approval.token_invalid',
    ]);
    for (const entry of FAILURE_CLASSES) {
      expect(entry.class).toMatch(/^[a-z]+\.[a-z_]+$/);
      expect(entry.description).toMatch(/^[A-Z].*\.$/);
      expect(entry.source).toMatch(/§/);
    }
  });

  it('holds every HARNESS-TYPESTATE §8 class and cites §8 for it', () => {
    for (const name of SPEC_CLASSES) {
      expect(isFailureClass(name)).toBe(true);
      if (isFailureClass(name)) expect(describeFailureClass(name).source).toContain('HARNESS-TYPESTATE §8');
    }
    expect(isFailureClass('tool.result_lost')).toBe(false);
  });
});
