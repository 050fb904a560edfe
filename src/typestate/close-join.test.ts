import { describe, expect, it } from 'vitest';
import {
  classes,
  closedTurn,
  continuing,
  defaultSpec,
  endTurn,
  mintsNothingMore,
  policy,
  specFor,
  Tools,
  withPollution,
} from '../../test/turn-fixtures.ts';
import { digest } from '../canonical/index.ts';
import {
  admitMutation,
  closeJoin,
  DEFAULT_CALL_SPEC_FIELDS,
  recordResults,
  recordUse,
  requestTools,
  TypestateError,
  type CallSpec,
} from '../index.ts';
import type { CloseContext } from '../types.ts';

function used(spec: CallSpec, ids: readonly string[] = ['a', 'b']) {
  const requested = requestTools(
    spec,
    Tools,
    ids.map((id) => ({ toolCallId: id, toolName: 'read_file', input: { path: id } })),
  );
  if (!requested.ok) throw new Error('setup');
  const results = recordResults(
    requested.value,
    ids.map((id) => ({ toolCallId: id, status: 'ok' as const, output: { text: id } })),
  );
  if (!results.ok) throw new Error('setup');
  const use = recordUse(
    results.value,
    ids.map((id) => ({ toolCallId: id, disposition: 'observed' as const })),
  );
  if (!use.ok) throw new Error('setup');
  return use.value;
}

describe('closeJoin under the default profile', () => {
  it('closes a continuing tool_use turn with context evidence derived from its own results', () => {
    const closed = closeJoin(used(defaultSpec('code')), {
      protocolState: { format: 'anthropic', stopReason: 'tool_use' },
    });
    if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
    const n = closed.value.normalized;
    expect(n.protocolState).toEqual({ stopReason: 'tool_use', continuationAllowed: true });
    expect(n.contextState.continuationContextReady).toBe(true);
    expect(n.toolRender?.map((r) => [r.toolCallId, r.policyDigest])).toEqual([
      ['a', DEFAULT_CALL_SPEC_FIELDS.toolRenderProtocolDigest],
      ['b', DEFAULT_CALL_SPEC_FIELDS.toolRenderProtocolDigest],
    ]);
    expect(n.toolRender?.[0]?.operatorPayloadDigest).toBe(digest({ text: 'a' }));
    expect(n.reminderQueue?.map((q) => q.queueId)).toEqual(['tool_results']);
    expect(n.stateViews?.map((s) => s.viewId)).toEqual(['turn']);
    expect(n.sessionRefs).toEqual(['session://turn-code']);
    expect(n.trajectoryRefs).toEqual(['trajectory://turn-code/turn-code']);
  });

  it('derives the same evidence for the same turn (digests are deterministic)', () => {
    const first = closeJoin(used(defaultSpec('code')));
    const second = closeJoin(used(defaultSpec('code')));
    expect(first.ok && first.value.normalized.digests.joinSetDigest).toBe(
      second.ok && second.value.normalized.digests.joinSetDigest,
    );
  });

  it('maps provider stop reasons through the one table, and defaults by the chat rule', () => {
    const use = used(defaultSpec('code'));
    const stop = (context: CloseContext) => {
      const closed = closeJoin(use, context);
      return closed.ok ? closed.value.normalized.protocolState : classes(closed);
    };
    expect(stop({})).toEqual({ stopReason: 'tool_use', continuationAllowed: true });
    expect(stop({ protocolState: { format: 'openai-chat', stopReason: 'tool_calls' } })).toEqual({
      stopReason: 'tool_use',
      continuationAllowed: true,
    });
    expect(stop({ protocolState: { format: 'gemini', stopReason: 'STOP' } })).toEqual({
      stopReason: 'tool_use',
      continuationAllowed: true,
    });
    expect(stop({ protocolState: { format: 'aisdk', stopReason: 'stop' } })).toEqual({
      stopReason: 'end_turn',
      continuationAllowed: false,
    });
    expect(stop({ protocolState: { format: 'anthropic', stopReason: 'refusal' } })).toEqual([
      'protocol.stop_reason_unhandled',
    ]);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(stop({ protocolState: { format: 'anthropic', stopReason: 'tool_call' } as never })).toEqual([
      'protocol.stop_reason_unhandled',
    ]);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(stop({ protocolState: { format: 'cohere', stopReason: 'x' } as never })).toEqual(['tool.schema_invalid']);
    const none = closeJoin(used(defaultSpec('code'), []));
    expect(none.ok && none.value.normalized.protocolState.stopReason).toBe('end_turn');
  });

  it('leaves a custom-profile turn to its caller: continuing without context fails closed', () => {
    expect(classes(closeJoin(used(specFor('code')), { protocolState: { stopReason: 'tool_use' } }))).toEqual([
      'context.injection_point_missing',
      'context.queue_policy_violation',
    ]);
    expect(closeJoin(used(specFor('code')), continuing(['a', 'b'])).ok).toBe(true);
    expect(closeJoin(used(specFor('code')), endTurn).ok).toBe(true);
  });
});

describe('closeJoin and the minted states', () => {
  it('mints frozen states, evidence included, only when the evidence holds', () => {
    const closed = closedTurn();
    expect(Object.isFrozen(closed)).toBe(true);
    expect(closed.report.result).toBe('accepted');
    expect(closed.results.map((r) => r.status)).toEqual(['ok', 'error', 'error']);
    expect(() => {
      (closed.normalized.callSpec as { mutationPolicyDigest: string }).mutationPolicyDigest = 'pol.other';
    }).toThrow(TypeError);
    expect(() => {
      (closed.results as unknown[]).push({});
    }).toThrow(TypeError);
    expect(Object.isFrozen(closed.report.witness.digests)).toBe(true);
  });

  it('declares its mutation intents: the pending mutation call, bound to its input digest', () => {
    const closed = closedTurn();
    expect(closed.pendingMutations).toEqual(['tc-3']);
    expect(closed.intents).toEqual([
      {
        kind: 'tool_call',
        toolCallId: 'tc-3',
        toolName: 'update_issue',
        inputDigest: digest({ id: '7', status: 'closed' }),
      },
    ]);
  });

  it('names the unanswered call', () => {
    const requested = requestTools(specFor('code'), Tools, [
      { toolCallId: 'a', toolName: 'read_file', input: { path: 'x' } },
      { toolCallId: 'b', toolName: 'read_file', input: { path: 'y' } },
    ]);
    if (!requested.ok) throw new Error('setup');
    const resulted = recordResults(requested.value, [{ toolCallId: 'a', status: 'ok', output: { text: 'x' } }]);
    if (!resulted.ok) throw new Error('setup');
    const use = recordUse(resulted.value, [{ toolCallId: 'a', disposition: 'observed' }]);
    if (!use.ok) throw new Error('setup');
    const closed = closeJoin(use.value, endTurn);
    expect(classes(closed)).toEqual(['tool.join_incomplete', 'tool.result_missing']);
    if (!closed.ok) expect(closed.failures.find((f) => f.class === 'tool.result_missing')?.ids).toEqual(['b']);
  });

  it('refuses states that were not minted, or minted as another state', () => {
    const spec = specFor('code');
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => requestTools({ ...spec } as never, Tools, [])).toThrow(TypestateError);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => recordResults(spec as never, [])).toThrow(/is a CallSpec/);
    expect(() => requestTools(structuredClone(spec), Tools, [])).toThrow(TypestateError);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => admitMutation(JSON.parse(JSON.stringify(closedTurn())) as never, policy)).toThrow(TypestateError);
    expect(() => admitMutation(Object.assign({}, closedTurn()), policy)).toThrow(TypestateError);
    // A state that holds the tool registry (a function) cannot even be cloned.
    expect(() => structuredClone(closedTurn())).toThrow(/could not be cloned/);
  });

  it('reads the context as own data: polluted refs or evidence mint nothing more', () => {
    const use = used(defaultSpec('code'));
    const context: CloseContext = { sessionRefs: [], trajectoryRefs: [] };
    const clean = closeJoin(use, context);
    const polluted = withPollution(
      { sessionRefs: ['session://forged'], trajectoryRefs: ['trajectory://forged'], evidence: {}, toolUse: [] },
      () => closeJoin(use, context),
    );
    mintsNothingMore(polluted, clean, (v) => v.normalized);
    const hostile = closeJoin(use, {
      get sessionRefs(): string[] {
        throw new Error('boom');
      },
    });
    expect(classes(hostile)).toEqual(['tool.schema_invalid']);
  });
});
