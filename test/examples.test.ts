import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../examples/agent-loop.ts';

describe('examples/agent-loop.ts', () => {
  it('answers every call, closes turns under the default profile, and mutates only through the gate', async () => {
    const log = await runAgentLoop();
    expect(log.slice(0, 3)).toEqual([
      'read // src/billing/invoice.ts',
      'found 2 hits',
      'ci_status failed: upstream_unavailable (retryable: true)',
    ]);
    expect(log[3]).toBe('turn 1 closed: accepted, continues: true, context rows: 3 render, 1 queue, 1 view');
    expect(log[4]).toBe('turn 2 pending: toolu_04 (intent tool_call)');
    expect(log[5]).toBe('refused: mutation.policy_digest_mismatch');
    expect(log[6]).toBe('toolu result for the model: updated: ok=true');
    expect(log[7]).toMatch(/^mutation ran: BILL-1207 -> closed \(witness sha256:/);
    expect(log[8]).toBe('settled again: performed, effects: 1');
    expect(log[9]).toBe('turn 3 authorizes nothing: mutation.use_evidence_missing');
    expect(log).toHaveLength(10);
  });
});

import { runChatExample } from '../examples/chat.ts';

describe('examples/chat.ts', () => {
  it('suspends for approval, resumes through the listener, and refuses malformed input', async () => {
    expect(await runChatExample()).toEqual([
      'completed: assistant',
      'suspended on refund:A-1001 with 4 pending messages',
      "errored (user_correctable/chat_message_shape_invalid): That request couldn't be processed: tool calls call_refund await their tool replies. Please adjust your message and try again.",
      'listener: completed: tool > assistant',
      'order status: refunded',
      "errored (user_correctable/chat_message_shape_invalid): That request couldn't be processed: content: expected a non-empty string. Please adjust your message and try again.",
    ]);
  });
});
