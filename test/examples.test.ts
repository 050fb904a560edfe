import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../examples/agent-loop.ts';

describe('examples/agent-loop.ts', () => {
  it('answers every call, closes the turn, and mutates only through MutationReady', async () => {
    const log = await runAgentLoop();
    expect(log.slice(0, 3)).toEqual([
      'read // src/billing/invoice.ts',
      'found 2 hits',
      'ci.status failed: upstream_unavailable (retryable: true)',
    ]);
    expect(log[3]).toMatch(/^turn closed: accepted, join-set sha256:/);
    expect(log[4]).toBe('refused: mutation.policy_digest_mismatch');
    expect(log[5]).toMatch(/^mutation ran: ok=true; BILL-1207 -> closed \(witness sha256:/);
    expect(log[6]).toBe('second use refused: TypestateError spent');
    expect(log).toHaveLength(7);
  });
});

import { runChatExample } from '../examples/chat.ts';

describe('examples/chat.ts', () => {
  it('suspends for approval, resumes through the listener, and refuses malformed input', async () => {
    expect(await runChatExample()).toEqual([
      'completed: assistant',
      'suspended on refund:A-1001 with 4 pending messages',
      "errored (user_correctable/chat_message_shape_invalid): That request couldn't be processed: this conversation is waiting for the result of a tool call. Please adjust your message and try again.",
      'listener: completed: tool > assistant',
      'order status: refunded',
      "errored (user_correctable/chat_message_shape_invalid): That request couldn't be processed: content: expected a non-empty string. Please adjust your message and try again.",
    ]);
  });
});
