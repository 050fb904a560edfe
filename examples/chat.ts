/**
 * A chat agent with a tool loop and an approval step: the refund tool needs a human's approval,
 * so the turn suspends with a pending message; the approval arrives as a signal, the turn
 * resumes, and the subscribed listener receives the result. Every outcome is matched with
 * ts-pattern. The test suite runs `runChatExample()` (test/examples.test.ts).
 */
import { match } from 'ts-pattern';
import {
  ChatError,
  createChatHarness,
  sequentialGraph,
  suspend,
  type ChatMessage,
  type ChatState,
  type ChatTurnOutcome,
} from 'turngate/chat';

const orders: Record<string, { total: number; status: string }> = { 'A-1001': { total: 42.5, status: 'delivered' } };

/** The last message, and whether it is an assistant tool call waiting for approval. */
const last = (state: ChatState): ChatMessage | undefined => state.messages.at(-1);
const awaitingApproval = (state: ChatState) => {
  const message = last(state);
  return message?.role === 'assistant' && (message.tool_calls ?? []).some((call) => call.name === 'orders.refund');
};

/** A scripted model: looks the order up, then asks to refund it. */
function model(state: ChatState): Partial<ChatState> {
  const message = last(state);
  if (message?.role === 'user' && typeof message.content === 'string' && message.content.includes('refund')) {
    const found = orders['A-1001'];
    if (found === undefined) throw new ChatError('provider_invalid_request', 'order A-1001 not found');
    return {
      messages: [
        {
          role: 'assistant',
          content: [],
          tool_calls: [{ id: 'call_lookup', name: 'orders.lookup', arguments: { id: 'A-1001' } }],
        },
        { role: 'tool', tool_call_id: 'call_lookup', content: JSON.stringify(found) },
        { role: 'assistant', content: `Order A-1001 (${found.total} EUR) can be refunded. I need approval first.` },
        {
          role: 'assistant',
          content: [],
          tool_calls: [{ id: 'call_refund', name: 'orders.refund', arguments: { id: 'A-1001', amount: found.total } }],
        },
      ],
    };
  }
  return { messages: [{ role: 'assistant', content: 'How can I help with your order?' }] };
}

const graph = sequentialGraph({
  entry: 'model',
  nodes: {
    model,
    approval: (state) =>
      awaitingApproval(state) && state['approved'] !== true
        ? suspend({ signal_id: 'refund:A-1001', metadata: { action: 'orders.refund' } })
        : undefined,
    refund: (state) => {
      if (!awaitingApproval(state)) return undefined;
      const order = orders['A-1001'];
      if (order !== undefined) order.status = 'refunded';
      return {
        messages: [
          { role: 'tool', tool_call_id: 'call_refund', content: JSON.stringify({ refunded: true }) },
          { role: 'assistant', content: 'Refunded 42.5 EUR to your card.' },
        ],
      };
    },
  },
  edges: [
    { from: 'model', to: 'approval' },
    { from: 'approval', to: 'refund' },
  ],
});

function describe(outcome: ChatTurnOutcome): string {
  return match(outcome)
    .with({ outcome: 'completed' }, (o) => `completed: ${o.replies.map((m) => m.role).join(' > ')}`)
    .with(
      { outcome: 'suspended' },
      (o) => `suspended on ${o.signalDescriptor.signal_id} with ${o.pendingMessages.length} pending messages`,
    )
    .with(
      { outcome: 'errored' },
      (o) =>
        `errored (${o.errorBucket}/${o.errorCategory ?? '?'}): ${typeof o.reply.content === 'string' ? o.reply.content : ''}`,
    )
    .exhaustive();
}

/** Runs the conversation; returns what it logged. */
export async function runChatExample(): Promise<string[]> {
  const log: string[] = [];
  const harness = createChatHarness({ graph, initialState: { approved: false } });
  const unsubscribe = harness.subscribe('support-1', (outcome) => log.push(`listener: ${describe(outcome)}`));
  log.push(describe(await harness.send('support-1', { role: 'user', content: 'Hi' })));
  log.push(describe(await harness.send('support-1', { role: 'user', content: 'Please refund order A-1001' })));
  log.push(describe(await harness.send('support-1', { role: 'user', content: 'Is it done?' })));
  await harness.signal('refund:A-1001', { approved: true });
  log.push(`order status: ${orders['A-1001']?.status ?? '?'}`);
  log.push(describe(await harness.send('support-1', { role: 'user', content: '' })));
  unsubscribe();
  return log;
}
