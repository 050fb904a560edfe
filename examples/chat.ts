/**
 * A support agent on turngate/chat: a tool loop as a graph (the model asks for tools, a router
 * sends it to them, their results go back to the model), a refund that waits for a human's
 * approval, and a restart in between: the suspension is in the SQLite file, so the harness of
 * the "next process" finds it when the approval signal arrives, resumes the turn and tells its
 * listener. A provider failure shows what the application gets (the cause) and what the user
 * gets (the reply). Every outcome is matched with ts-pattern. The tests run `runChatExample()`
 * (test/examples.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { match } from 'ts-pattern';
import { createChatHarness, END, sequentialGraph, suspend, type ChatState, type ChatTurnOutcome } from 'turngate/chat';
import type { ToolCall } from 'turngate/transcripts';
import { SqliteSessionStore } from 'turngate/chat/sqlite';

const orders: Record<string, { total: number; status: string }> = { 'A-1001': { total: 42.5, status: 'delivered' } };

/** The tool calls the last assistant message asks for. */
const requested = (state: ChatState): readonly ToolCall[] => {
  const last = state.messages.at(-1);
  return last?.role === 'assistant' ? (last.tool_calls ?? []) : [];
};

/** A provider SDK's rate-limit error, shaped as the Anthropic and OpenAI SDKs shape theirs. */
class RateLimitError extends Error {
  readonly status = 429;
}

/** A scripted model: looks the order up, then asks to refund it, then confirms. */
function model(state: ChatState): Partial<ChatState> {
  const last = state.messages.at(-1);
  if (last?.role === 'user' && last.content === 'Are you there?')
    throw new RateLimitError('429 rate_limit_error: org-7f3a');
  if (last?.role === 'user')
    return {
      messages: [
        {
          role: 'assistant' as const,
          content: [],
          tool_calls: [{ id: 'call_lookup', name: 'orders.lookup', arguments: { id: 'A-1001' } }],
        },
      ],
    };
  if (last?.role === 'tool' && last.tool_call_id === 'call_lookup')
    return {
      messages: [
        { role: 'assistant' as const, content: 'Order A-1001 (42.5 EUR) can be refunded; I need approval first.' },
        {
          role: 'assistant' as const,
          content: [],
          tool_calls: [{ id: 'call_refund', name: 'orders.refund', arguments: { id: 'A-1001' } }],
        },
      ],
    };
  return { messages: [{ role: 'assistant' as const, content: 'Refunded 42.5 EUR to your card.' }] };
}

const graph = sequentialGraph({
  entry: 'model',
  nodes: {
    model,
    approval: (state) =>
      requested(state).some((call) => call.name === 'orders.refund') && state['approved'] !== true
        ? suspend({ signal_id: 'refund:A-1001', metadata: { action: 'orders.refund' } })
        : undefined,
    tools: (state) => ({
      messages: requested(state).map((call) => {
        const order = orders['A-1001'];
        if (call.name === 'orders.refund' && order !== undefined) order.status = 'refunded';
        return { role: 'tool' as const, tool_call_id: call.id, content: JSON.stringify(order) };
      }),
    }),
  },
  edges: [
    { from: 'model', to: (state) => (requested(state).length > 0 ? 'approval' : END) },
    { from: 'approval', to: 'tools' },
    { from: 'tools', to: 'model' },
  ],
});

function describe(outcome: ChatTurnOutcome | undefined): string {
  return match(outcome)
    .with(undefined, () => 'nothing waits for that signal')
    .with({ outcome: 'completed' }, (o) => `completed: ${o.replies.map((m) => m.role).join(' > ')}`)
    .with(
      { outcome: 'suspended' },
      (o) => `suspended on ${o.signalDescriptor.signal_id} with ${o.pendingMessages.length} pending messages`,
    )
    .with({ outcome: 'errored' }, (o) => `errored (${o.errorBucket}/${o.errorCategory}): ${String(o.reply.content)}`)
    .exhaustive();
}

/** Runs the conversation; returns what it logged. */
export async function runChatExample(): Promise<string[]> {
  const log: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'turngate-example-'));
  const file = join(dir, 'chat.db');
  try {
    // The first process: the refund request suspends for approval.
    const firstStore = new SqliteSessionStore(file);
    const first = createChatHarness({ graph, store: firstStore, initialState: { approved: false } });
    log.push(describe(await first.send('support-1', { role: 'user', content: 'Please refund order A-1001' })));
    const busy = await first.send('support-1', { role: 'user', content: 'Are you there?' });
    log.push(describe(busy));
    firstStore.close();

    // The next process (a restart): it finds the suspension in the file and resumes on the signal.
    const store = new SqliteSessionStore(file);
    const harness = createChatHarness({ graph, store, initialState: { approved: false } });
    harness.subscribe('support-1', (outcome) => log.push(`listener: ${describe(outcome)}`));
    const waiting = await harness.listSuspended();
    log.push(
      `waiting: ${waiting.map((s) => `${s.sessionId} on ${s.descriptor.signal_id}, open ${s.openToolCalls.map((c) => c.id).join(', ')}`).join('; ')}`,
    );
    await harness.signal('refund:A-1001', { approved: true });
    log.push(`order status: ${orders['A-1001']?.status ?? '?'}`);
    log.push(describe(await harness.signal('refund:A-1001', { approved: true })));

    // A provider failure: the user's reply says to try again; the application keeps the cause.
    const failed = await harness.send('support-1', { role: 'user', content: 'Are you there?' });
    log.push(describe(failed));
    if (failed.outcome === 'errored') log.push(`cause for the logs: ${String(failed.cause)}`);
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return log;
}
