/** Shared fixtures for typestate and builder tests: a tool registry and CallSpecs per mode. */
import * as v from 'valibot';
import { callSpec, defineTools, type ActionMode, type CallSpec, type CloseContext } from '../src/index.ts';

export const tools = defineTools({
  'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
  'web.search': { input: v.object({ query: v.string() }), output: v.object({ hits: v.number() }) },
  'code.exec_only': { input: v.object({}), output: v.object({}), allowedCallers: ['code_execution/1'] },
  'issues.update': {
    input: v.object({ id: v.string(), status: v.string() }),
    output: v.object({ ok: v.boolean() }),
    mutation: true,
  },
});

export function specFor<const TMode extends ActionMode>(actionMode: TMode): CallSpec<TMode> {
  const spec = callSpec({
    callId: `turn-${actionMode}`,
    modelRef: 'model/1',
    actionMode,
    executionPattern: 'single',
    normalizerId: 'nf.v1',
    mutationPolicyDigest: 'pol.mut.v1',
    governancePolicyDigest: 'pol.gov',
    toolRenderProtocolDigest: 'pol.render',
    reminderQueuePolicyDigest: 'pol.queue',
    stateViewPolicyDigest: 'pol.view',
    decompositionPolicyDigest: 'pol.decomp',
  });
  if (!spec.ok) throw new Error(JSON.stringify(spec.failures));
  // biome-ignore lint/plugin: callSpec's mode parameter is `string` here; the fixture narrows it to the mode it asked for
  return spec.value as unknown as CallSpec<TMode>;
}

/** A close context for a turn that ends (no continuation), linked to a session and trajectory. */
export const endTurn: CloseContext = {
  protocolState: { stopReason: 'end_turn', continuationAllowed: false },
  sessionRefs: ['session://test'],
  trajectoryRefs: ['trajectory://test/1'],
};

/** A close context with full context evidence for the given result ids (continuation allowed). */
export function continuing(ids: readonly string[]): CloseContext {
  return {
    protocolState: { stopReason: 'tool_use', continuationAllowed: true },
    toolRender: ids.map((id) => ({
      toolCallId: id,
      operatorPayloadDigest: `op-${id}`,
      reminderRenderDigest: `rem-${id}`,
      injectionPoint: 'tool_response',
      policyDigest: 'pol.render',
    })),
    reminderQueue: [{ queueId: 'q', reducedDigest: 'q', policyDigest: 'pol.queue' }],
    stateViews: [{ viewId: 'v', viewDigest: 'v', policyDigest: 'pol.view' }],
    sessionRefs: ['session://test'],
    trajectoryRefs: ['trajectory://test/1'],
  };
}
