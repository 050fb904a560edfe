/**
 * A complete typed agent loop against a scripted model that replays a recorded Anthropic
 * conversation, under turngate's default profile: no policy documents, no invented refs.
 *
 * Turn 1 (`stop_reason: tool_use`): the model reads a file, searches the repo, and asks CI for a
 * status (a tool that fails with a typed error envelope). `settle` answers every call with the
 * handler of its tool, `useAll` disposes of every result, `closeJoin` runs the join check with
 * the context evidence the default profile derives, so the loop may continue.
 * Turn 2 (`tool_use`): the model calls `update_issue`, a `mutation: true` tool. `settle` records
 * it pending; the closed turn declares it as a mutation intent (phase 1). A stale policy is
 * refused; `settleMutations` admits the turn, runs the call once through the gate, and re-closes
 * the turn with its output as the call's result (phase 2), which is what goes back to the model.
 * Turn 3 (`end_turn`): a read-only turn authorizes no mutation at all.
 *
 * The test suite runs `runAgentLoop()` (test/examples.test.ts).
 */
import { match } from 'ts-pattern';
import * as v from 'valibot';
import {
  admitMutation,
  callSpec,
  closeJoin,
  defineTools,
  requestTools,
  settle,
  settleMutations,
  useAll,
  type JoinClosed,
  type ToolHandlers,
  type ToolResult,
} from 'turngate';
import type { StopReasonOf } from 'turngate/join-check';
import type { RequestedToolCall } from 'turngate/types';

/** The tools, as a class: type errors and hovers then say `JoinClosed<Tools>`. */
export class Tools extends defineTools({
  read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
  search_repo: { input: v.object({ query: v.string() }), output: v.object({ hits: v.array(v.string()) }) },
  ci_status: { input: v.object({ branch: v.string() }), output: v.object({ state: v.picklist(['green', 'red']) }) },
  update_issue: {
    input: v.object({ id: v.string(), status: v.picklist(['open', 'closed']), comment: v.string() }),
    output: v.object({ ok: v.boolean() }),
    mutation: true,
  },
}) {}

/** What the recorded model said, turn by turn. */
const recording: readonly { stopReason: StopReasonOf<'anthropic'>; toolCalls: RequestedToolCall[] }[] = [
  {
    stopReason: 'tool_use',
    toolCalls: [
      { toolCallId: 'toolu_01', toolName: 'read_file', input: { path: 'src/billing/invoice.ts' } },
      { toolCallId: 'toolu_02', toolName: 'search_repo', input: { query: 'applyDiscount(' } },
      { toolCallId: 'toolu_03', toolName: 'ci_status', input: { branch: 'fix/discount-rounding' } },
    ],
  },
  {
    stopReason: 'tool_use',
    toolCalls: [
      {
        toolCallId: 'toolu_04',
        toolName: 'update_issue',
        input: {
          id: 'BILL-1207',
          status: 'closed',
          comment: 'Rounding fixed in applyDiscount; verified by reading the code.',
        },
      },
    ],
  },
  { stopReason: 'end_turn', toolCalls: [] },
];

/** The read tools' implementations. `ci_status` fails the way a real backend does. */
const handlers: ToolHandlers<Tools> = {
  read_file: async ({ path }) => ({
    text: `// ${path}\nexport const applyDiscount = (c: number) => Math.round(c * 0.9);`,
  }),
  search_repo: async () => ({ hits: ['src/billing/invoice.ts:212', 'src/billing/coupon.ts:48'] }),
  ci_status: async () => {
    throw Object.assign(new Error('CI API answered 503 after 3 tries'), {
      code: 'upstream_unavailable',
      retryable: true,
    });
  },
};

function describeResult(result: ToolResult<Tools>): string {
  return match(result)
    .with({ toolName: 'read_file', status: 'ok' }, (r) => `read ${r.output.text.split('\n')[0]}`)
    .with({ toolName: 'search_repo', status: 'ok' }, (r) => `found ${r.output.hits.length} hits`)
    .with({ toolName: 'ci_status', status: 'ok' }, (r) => `CI is ${r.output.state}`)
    .with({ toolName: 'update_issue', status: 'ok' }, (r) => `updated: ok=${r.output.ok}`)
    .with({ status: 'error' }, (r) => `${r.toolName} failed: ${r.error.errorCode} (retryable: ${r.error.retryable})`)
    .exhaustive();
}

/** One model turn: answer every call, dispose of every result, close through the join check. */
async function runTurn(index: number): Promise<JoinClosed<Tools>> {
  const said = recording[index];
  if (said === undefined) throw new Error(`no recorded turn ${index}`);
  const spec = callSpec({
    callId: `billing-agent/run-42/turn-${index + 1}`,
    modelRef: 'recorded/claude-sonnet-4-5',
    actionMode: 'code',
    sessionId: 'billing-agent/run-42',
  });
  if (!spec.ok) throw new Error(spec.failures.map((f) => f.detail).join('; '));
  const requests = requestTools(spec.value, Tools, said.toolCalls);
  if (!requests.ok) throw new Error(requests.failures.map((f) => f.detail).join('; '));
  const results = await settle(requests.value, handlers);
  if (!results.ok) throw new Error(results.failures.map((f) => f.detail).join('; '));
  const use = useAll(results.value, (result) =>
    result.status === 'ok'
      ? { disposition: 'consumed', evidence: { summaryRef: `summary://turn-${index + 1}` } }
      : 'observed',
  );
  if (!use.ok) throw new Error(use.failures.map((f) => f.detail).join('; '));
  const closed = closeJoin(use.value, { protocolState: { format: 'anthropic', stopReason: said.stopReason } });
  if (!closed.ok) throw new Error(closed.failures.map((f) => `${f.class} ${f.ids?.join(',') ?? ''}`).join('; '));
  return closed.value;
}

/** Runs the loop; returns what it logged, so a test can check it. */
export async function runAgentLoop(): Promise<string[]> {
  const log: string[] = [];
  const updates: string[] = [];

  // Turn 1: tool calls from model output (plain string ids) -> closure by construction.
  const first = await runTurn(0);
  for (const result of first.results) log.push(describeResult(result));
  const n = first.normalized;
  log.push(
    `turn 1 closed: ${first.report.result}, continues: ${n.protocolState.continuationAllowed}, ` +
      `context rows: ${n.toolRender?.length ?? 0} render, ${n.reminderQueue?.length ?? 0} queue, ${n.stateViews?.length ?? 0} view`,
  );

  // Turn 2, phase 1: the model's mutation call is pending; the closed turn declares it.
  const second = await runTurn(1);
  log.push(`turn 2 pending: ${second.pendingMutations.join(', ')} (intent ${second.intents[0]?.kind})`);
  const stale = admitMutation(second, { mutationPolicyDigest: 'pol.issues-write.v1' });
  if (!stale.ok) log.push(`refused: ${stale.failures.map((f) => f.class).join(', ')}`);

  // Phase 2: the gate runs the call once, with exactly the input the model sent.
  const capabilities = { requiredCapabilities: ['issues:write'], capabilityClaims: ['issues:write'] };
  const final = await settleMutations(
    second,
    {
      update_issue: async (input, witness) => {
        updates.push(`${input.id} -> ${input.status} (witness ${witness.joinSetDigest.slice(0, 19)}…)`);
        return { ok: true };
      },
    },
    capabilities,
  );
  if (!final.ok) throw new Error(final.failures.map((f) => f.class).join('; '));
  for (const result of final.value.results) log.push(`toolu result for the model: ${describeResult(result)}`);
  log.push(`mutation ran: ${updates.join('')}`);
  const again = await settleMutations(second, { update_issue: async () => ({ ok: false }) }, capabilities);
  log.push(
    `settled again: ${again.ok ? again.value.mutations.map((m) => m.outcome).join(', ') : 'failed'}, effects: ${updates.length}`,
  );

  // Turn 3: the model only answers; a read-only turn authorizes no mutation.
  const third = await runTurn(2);
  const nothing = admitMutation(third, capabilities);
  if (!nothing.ok) log.push(`turn 3 authorizes nothing: ${nothing.failures.map((f) => f.class).join(', ')}`);
  return log;
}
