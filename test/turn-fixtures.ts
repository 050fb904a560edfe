/** Shared fixtures for typestate and builder tests: a tool registry and CallSpecs per mode. */
import * as v from 'valibot';
import {
  admitMutation,
  callSpec,
  defineTools,
  turn,
  type ActionMode,
  type CallSpec,
  type CloseContext,
  type JoinClosed,
  type MutationReady,
} from '../src/index.ts';

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

export const policy = {
  mutationPolicyDigest: 'pol.mut.v1',
  requiredCapabilities: ['issues:write'],
  capabilityClaims: ['issues:write'],
};

export function closedTurn(): JoinClosed<typeof tools.definitions> {
  const closed = turn(specFor('code'), tools)
    .request('tc-1', 'fs.read', { path: 'a.md' })
    .request('tc-2', 'web.search', { query: 'x' })
    .result('tc-1', { status: 'ok', output: { text: 'A' } })
    .result('tc-2', { status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'slow' } })
    .use('tc-1', 'consumed', { evidence: { mutationInputRef: 'mutation://issues/7' } })
    .use('tc-2', 'observed')
    .close(continuing(['tc-1', 'tc-2']));
  if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
  return closed.value;
}

export function ready(): MutationReady<typeof tools.definitions> {
  const admitted = admitMutation(closedTurn(), policy);
  if (!admitted.ok) throw new Error(JSON.stringify(admitted.failures));
  return admitted.value;
}

export const classes = (r: { ok: boolean; failures?: readonly { class: string }[] }) =>
  r.ok ? [] : (r.failures ?? []).map((f) => f.class);
