/**
 * A complete typed agent loop against a scripted model that replays a recorded conversation.
 *
 * Turn 1 (code mode): the model reads a file and searches the repo (two read tools) and asks
 * CI for a status (a tool that fails with a typed error envelope). `settle` answers every call,
 * `useAll` disposes of every result, `closeJoin` runs the join check.
 * Turn 2: the model proposes an issue update. `issues.update` is a `mutation: true` tool: it
 * cannot run in `settle`; it runs only through `admitMutation` -> `performMutationTool`.
 *
 * The test suite runs `runAgentLoop()` (test/examples.test.ts).
 */
import * as v from 'valibot';
import { match } from 'ts-pattern';
import {
  admitMutation,
  callSpec,
  closeJoin,
  defineTools,
  performMutationTool,
  requestTools,
  settle,
  useAll,
  type RequestedToolCall,
  type ToolResult,
} from 'turngate';

export const tools = defineTools({
  'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
  'repo.search': { input: v.object({ query: v.string() }), output: v.object({ hits: v.array(v.string()) }) },
  'ci.status': { input: v.object({ branch: v.string() }), output: v.object({ state: v.picklist(['green', 'red']) }) },
  'issues.update': {
    input: v.object({ id: v.string(), status: v.picklist(['open', 'closed']), comment: v.string() }),
    output: v.object({ ok: v.boolean() }),
    mutation: true,
  },
});
type Tools = typeof tools.definitions;

/** What the recorded model said, turn by turn. */
const recording = [
  {
    stopReason: 'tool_use',
    toolCalls: [
      { toolCallId: 'toolu_01', toolName: 'fs.read', input: { path: 'src/billing/invoice.ts' } },
      { toolCallId: 'toolu_02', toolName: 'repo.search', input: { query: 'applyDiscount(' } },
      { toolCallId: 'toolu_03', toolName: 'ci.status', input: { branch: 'fix/discount-rounding' } },
    ] satisfies RequestedToolCall[],
  },
  {
    stopReason: 'end_turn',
    proposal: {
      id: 'BILL-1207',
      status: 'closed' as const,
      comment: 'Rounding fixed in applyDiscount; CI status unavailable, verified by reading the code.',
    },
  },
] as const;

/** The read tools' implementations. `ci.status` fails the way a real backend does. */
async function runTool(name: string, input: unknown): Promise<unknown> {
  switch (name) {
    case 'fs.read':
      return {
        text: `// ${(input as { path: string }).path}\nexport const applyDiscount = (c: number) => Math.round(c * 0.9);`,
      };
    case 'repo.search':
      return { hits: ['src/billing/invoice.ts:212', 'src/billing/coupon.ts:48'] };
    case 'ci.status':
      throw Object.assign(new Error('CI API answered 503 after 3 tries'), {
        code: 'upstream_unavailable',
        retryable: true,
      });
    default:
      throw new Error(`no implementation for ${name}`);
  }
}

function describeResult(result: ToolResult<Tools>): string {
  return match(result)
    .with({ toolName: 'fs.read', status: 'ok' }, (r) => `read ${r.output.text.split('\n')[0]}`)
    .with({ toolName: 'repo.search', status: 'ok' }, (r) => `found ${r.output.hits.length} hits`)
    .with({ toolName: 'ci.status', status: 'ok' }, (r) => `CI is ${r.output.state}`)
    .with({ toolName: 'issues.update', status: 'ok' }, (r) => `updated: ${r.output.ok}`)
    .with({ status: 'error' }, (r) => `${r.toolName} failed: ${r.error.errorCode} (retryable: ${r.error.retryable})`)
    .exhaustive();
}

/** Runs the loop; returns what it logged, so a test can check it. */
export async function runAgentLoop(): Promise<string[]> {
  const log: string[] = [];
  const updates: string[] = [];
  const spec = callSpec({
    callId: 'billing-agent/run-42/turn-1',
    modelRef: 'recorded/claude-sonnet-4-5',
    actionMode: 'code',
    executionPattern: 'parallel',
    normalizerId: 'nf.v1',
    mutationPolicyDigest: 'pol.issues-write.v2',
    governancePolicyDigest: 'pol.gov.v1',
    toolRenderProtocolDigest: 'pol.render.v1',
    reminderQueuePolicyDigest: 'pol.queue.v1',
    stateViewPolicyDigest: 'pol.view.v1',
    decompositionPolicyDigest: 'pol.decomp.v1',
  });
  if (!spec.ok) throw new Error(spec.failures.map((f) => f.detail).join('; '));

  // Turn 1: tool calls from model output (plain string ids) -> closure by construction.
  const [first, second] = recording;
  const requests = requestTools(spec.value, tools, first.toolCalls);
  if (!requests.ok) throw new Error(requests.failures.map((f) => f.detail).join('; '));
  const results = await settle(requests.value, (request) => runTool(request.toolName, request.input));
  if (!results.ok) throw new Error(results.failures.map((f) => f.detail).join('; '));
  for (const result of results.value.results) log.push(describeResult(result));
  const use = useAll(results.value, (result) =>
    result.status === 'ok'
      ? { disposition: 'consumed', evidence: { mutationInputRef: `mutation://issues/${second.proposal.id}` } }
      : 'observed',
  );
  if (!use.ok) throw new Error(use.failures.map((f) => f.detail).join('; '));
  const ids = results.value.results.map((r) => r.toolCallId);
  const closed = closeJoin(use.value, {
    protocolState: { stopReason: first.stopReason, continuationAllowed: true },
    toolRender: ids.map((id) => ({
      toolCallId: id,
      operatorPayloadDigest: `op:${id}`,
      reminderRenderDigest: `rem:${id}`,
      injectionPoint: 'tool_response',
      policyDigest: 'pol.render.v1',
    })),
    reminderQueue: [{ queueId: 'reminders', reducedDigest: 'sha256:reduced', policyDigest: 'pol.queue.v1' }],
    stateViews: [{ viewId: 'open-files', viewDigest: 'sha256:view', policyDigest: 'pol.view.v1' }],
    sessionRefs: ['session://billing-agent/run-42'],
    trajectoryRefs: ['trajectory://billing-agent/run-42/1'],
  });
  if (!closed.ok) throw new Error(closed.failures.map((f) => `${f.class} ${f.ids?.join(',') ?? ''}`).join('; '));
  log.push(
    `turn closed: ${closed.value.report.result}, join-set ${closed.value.normalized.digests.joinSetDigest.slice(0, 19)}…`,
  );

  // Turn 2: the proposed mutation. First with a stale policy: refused, nothing runs.
  const stale = admitMutation(closed.value, { mutationPolicyDigest: 'pol.issues-write.v1' });
  if (!stale.ok) log.push(`refused: ${stale.failures.map((f) => f.class).join(', ')}`);
  const ready = admitMutation(closed.value, {
    mutationPolicyDigest: 'pol.issues-write.v2',
    requiredCapabilities: ['issues:write'],
    capabilityClaims: ['issues:write'],
  });
  if (!ready.ok) throw new Error(ready.failures.map((f) => f.class).join('; '));
  const done = await performMutationTool(
    ready.value,
    tools,
    'issues.update',
    second.proposal,
    async (input, witness) => {
      updates.push(`${input.id} -> ${input.status} (witness ${witness.joinSetDigest.slice(0, 19)}…)`);
      return { ok: true };
    },
  );
  log.push(`mutation ran: ok=${done.value.ok}; ${updates.join('')}`);
  await performMutationTool(ready.value, tools, 'issues.update', second.proposal, async () => ({ ok: true })).catch(
    (error: Error) => log.push(`second use refused: ${error.name} ${(error as Error & { code?: string }).code ?? ''}`),
  );
  return log;
}
