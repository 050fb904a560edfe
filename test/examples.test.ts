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
  it('runs a tool loop, suspends for approval, resumes after a restart through the listener, keeps a cause', async () => {
    expect(await runChatExample()).toEqual([
      'suspended on refund:A-1001 with 4 pending messages',
      "errored (user_correctable/chat_message_shape_invalid): That request couldn't be processed: this conversation is waiting for the result of a tool call. Please adjust your message and try again.",
      'waiting: support-1 on refund:A-1001, open call_refund',
      'listener: completed: tool > assistant',
      'order status: refunded',
      'nothing waits for that signal',
      'errored (retryable_transient/provider_rate_limited): I had trouble responding. Try again in a moment.',
      'cause for the logs: Error: 429 rate_limit_error: org-7f3a',
    ]);
  });
});
