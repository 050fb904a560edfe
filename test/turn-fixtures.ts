/** Shared fixtures for typestate and builder tests: a tool registry, CallSpecs per mode, closed turns. */
import * as v from 'valibot';
import {
  admitMutation,
  callSpec,
  defineTools,
  turn,
  type CallSpec,
  type JoinClosed,
  type MutationReady,
} from '../src/index.ts';
import type { ActionMode, CloseContext, RequestedToolCall, ToolUseInputRow } from '../src/types.ts';

export class Tools extends defineTools({
  read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
  search_web: { input: v.object({ query: v.string() }), output: v.object({ hits: v.number() }) },
  exec_only: { input: v.object({}), output: v.object({}), allowedCallers: ['code_execution/1'] },
  update_issue: {
    input: v.object({ id: v.string(), status: v.string() }),
    output: v.object({ ok: v.boolean() }),
    mutation: true,
  },
}) {}

/** A CallSpec of the given mode with custom (non-default) policy digests: context must be given. */
export function specFor<const TMode extends ActionMode>(actionMode: TMode): CallSpec<TMode> {
  const spec = callSpec({
    callId: `turn-${actionMode}`,
    modelRef: 'model/1',
    actionMode: actionMode as ActionMode,
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

/** A CallSpec of the given mode under the default profile. */
export function defaultSpec<const TMode extends ActionMode>(
  actionMode: TMode,
  callId = `turn-${actionMode}`,
): CallSpec<TMode> {
  const spec = callSpec({ callId, modelRef: 'model/1', actionMode: actionMode as ActionMode });
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

/** A close context with full (custom-policy) context evidence for the given result ids (continuation allowed). */
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

/** A closed custom-profile turn: a read, a failed search, and a pending update_issue call (tc-3). */
export function closedTurn(): JoinClosed<Tools> {
  const closed = turn(specFor('code'), Tools)
    .request('tc-1', 'read_file', { path: 'a.md' })
    .request('tc-2', 'search_web', { query: 'x' })
    .request('tc-3', 'update_issue', { id: '7', status: 'closed' })
    .result('tc-1', { status: 'ok', output: { text: 'A' } })
    .result('tc-2', { status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'slow' } })
    .result('tc-3', { status: 'pending' })
    .use('tc-1', 'consumed', { evidence: { mutationInputRef: 'mutation://issues/7' } })
    .use('tc-2', 'observed')
    .use('tc-3', 'retry_scheduled', { reasonCode: 'mutation_pending' })
    .close(continuing(['tc-1', 'tc-2', 'tc-3']));
  if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
  return closed.value;
}

export function ready(): MutationReady<Tools> {
  const admitted = admitMutation(closedTurn(), policy);
  if (!admitted.ok) throw new Error(JSON.stringify(admitted.failures));
  return admitted.value;
}

export const classes = (r: { ok: boolean; failures?: readonly { class: string }[] }) =>
  r.ok ? [] : (r.failures ?? []).map((f) => f.class);

/** Every key of a JSON value, at any depth, added to `into`: the field names a pollution test plants. */
export function jsonKeys(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) jsonKeys(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.add(key);
      jsonKeys(item, into);
    }
  }
  return into;
}

/**
 * Runs `run` with `Object.prototype` polluted by the given keys (enumerable, as a buggy
 * `merge` would leave them), and removes them again.
 */
export function withPollution<T>(pollution: Readonly<Record<string, unknown>>, run: () => T): T {
  const proto = Object.prototype as Record<string, unknown>;
  for (const [key, value] of Object.entries(pollution)) proto[key] = value;
  try {
    return run();
  } finally {
    for (const key of Object.keys(pollution)) delete proto[key];
  }
}

/** The polluted outcome mints nothing the clean one does not: it fails, or it is the same. */
export function mintsNothingMore<T>(
  polluted: { ok: boolean; value?: T },
  clean: { ok: boolean; value?: T },
  view: (value: T) => unknown,
): void {
  if (!polluted.ok) return;
  if (!clean.ok) throw new Error('a polluted prototype minted a state the clean input does not');
  const same = JSON.stringify(view(polluted.value as T)) === JSON.stringify(view(clean.value as T));
  if (!same) throw new Error('a polluted prototype minted a different state');
}

/** Calls as a model sends them (names are `string`): the types leave them to the run-time check. */
export const fromModel = (calls: RequestedToolCall[]): RequestedToolCall[] => calls;

/** Use rows as built at run time: the types leave them to the run-time check. */
export const rowsAtRunTime = (rows: ToolUseInputRow[]): ToolUseInputRow[] => rows;
