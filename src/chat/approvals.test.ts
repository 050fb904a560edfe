import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineTools, MemoryEffectLedger } from '../index.ts';
import { type ApprovalLedger, type ApprovalPolicy, approvalPolicy } from '../approvals.ts';
import { checkTranscriptJson } from '../transcripts/index.ts';
import {
  type ChatState,
  type ChatTurnOutcome,
  chatApprovals,
  createChatHarness,
  END,
  InMemorySessionStore,
  type SessionStore,
  sequentialGraph,
} from './index.ts';
import type { ChatMessage } from '../transcripts/index.ts';
import { SqliteSessionStore } from './sqlite.ts';

class Tools extends defineTools({
  lookup: { input: v.object({ q: v.string() }), output: v.string() },
  send_email: { input: v.object({ to: v.string() }), output: v.object({ sent: v.boolean() }), mutation: true },
  transfer: { input: v.object({ amount: v.number() }), output: v.object({ id: v.string() }), mutation: true },
}) {}

const policy = approvalPolicy(Tools, 'v1', {
  send_email: 'always',
  transfer: (input) => (input.amount > 100 ? 'required' : 'not_required'),
});

/** A model that asks for `calls` once, then answers with how many tool results it saw. */
function agent(
  ledger: ApprovalLedger,
  calls: ChatMessage & { role: 'assistant' },
  ran: string[],
  active: ApprovalPolicy = policy,
) {
  const { propose, wait, run } = chatApprovals({
    policy: active,
    ledger,
    effects: {
      send_email: async (input) => {
        ran.push(`send_email ${JSON.stringify(input)}`);
        return { sent: true };
      },
      transfer: async (input) => {
        ran.push(`transfer ${JSON.stringify(input)}`);
        return { id: 'tx-1' };
      },
    },
    schemaDigest: (name) => `sha256:${name}-v1`,
    now: () => 1_000,
  });
  return sequentialGraph({
    entry: 'model',
    nodes: {
      model: (state: ChatState) =>
        state.messages.at(-1)?.role === 'user'
          ? { messages: [calls] }
          : {
              messages: [
                { role: 'assistant', content: `done: ${state.messages.filter((m) => m.role === 'tool').length}` },
              ],
            },
      reads: (state: ChatState) => ({
        messages: (calls.tool_calls ?? [])
          .filter(
            (c) => c.name === 'lookup' && !state.messages.some((m) => m.role === 'tool' && m.tool_call_id === c.id),
          )
          .map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: 'found' })),
      }),
      propose,
      wait,
      run,
    },
    edges: [
      {
        from: 'model',
        to: (state) =>
          state.messages.at(-1)?.role === 'assistant' &&
          (calls.tool_calls ?? []).length > 0 &&
          state.messages.at(-1) === calls
            ? 'reads'
            : END,
      },
      { from: 'reads', to: 'propose' },
      { from: 'propose', to: 'wait' },
      { from: 'wait', to: 'run' },
      { from: 'run', to: 'model' },
    ],
  });
}

const emailCall: ChatMessage & { role: 'assistant' } = {
  role: 'assistant',
  content: [],
  tool_calls: [{ id: 'c1', name: 'send_email', arguments: { to: 'bob@example.com' } }],
};

describe('chatApprovals (harness-chat §8)', () => {
  it('suspends with the pending message; the signal carries the decision; the effect runs once; the listener fires once', async () => {
    const ran: string[] = [];
    const harness = createChatHarness({ graph: agent(new MemoryEffectLedger(), emailCall, ran) });
    const heard: ChatTurnOutcome[] = [];
    harness.subscribe('s1', (o) => heard.push(o));
    const first = await harness.send('s1', { role: 'user', content: 'mail Bob' });
    if (first.outcome !== 'suspended') throw new Error(`expected suspended, got ${JSON.stringify(first)}`);
    expect(first.pendingMessages).toEqual([emailCall]);
    expect(first.signalDescriptor.metadata).toMatchObject({
      approvals: [{ toolCallId: 'c1', toolName: 'send_email' }],
    });
    expect(ran).toEqual([]);
    const signal = first.signalDescriptor.signal_id;
    const payload = { decisions: { c1: { verdict: 'approve', decidedBy: 'ada' } } };
    const [a, b] = await Promise.all([harness.signal(signal, payload), harness.signal(signal, payload)]);
    expect([a?.outcome, b?.outcome].filter((o) => o === 'completed')).toHaveLength(1);
    expect(await harness.signal(signal, payload)).toBeUndefined();
    expect(ran).toEqual(['send_email {"to":"bob@example.com"}']);
    expect(heard).toHaveLength(1);
    expect(heard[0]?.outcome === 'completed' && heard[0].replies).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: '{"sent":true}' },
      { role: 'assistant', content: 'done: 1' },
    ]);
  });

  it('answers a declined call truthfully and runs nothing', async () => {
    const ran: string[] = [];
    const harness = createChatHarness({ graph: agent(new MemoryEffectLedger(), emailCall, ran) });
    const first = await harness.send('s1', { role: 'user', content: 'mail Bob' });
    if (first.outcome !== 'suspended') throw new Error('expected suspended');
    const resumed = await harness.signal(first.signalDescriptor.signal_id, {
      decisions: { c1: { verdict: 'deny', reason: 'wrong recipient', decidedBy: 'ada' } },
    });
    expect(resumed?.outcome === 'completed' && resumed.replies[0]).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'not run: declined by ada: wrong recipient',
    });
    expect(ran).toEqual([]);
  });

  it('resumes once from two processes sharing one SQLite file: one effect, one listener call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-chat-approvals-'));
    const stores = [0, 1].map(() => new SqliteSessionStore(join(dir, 'chat.db')));
    try {
      const ran: string[] = [];
      const harnesses = stores.map((store) =>
        createChatHarness({ graph: agent(store.approvalLedger(), emailCall, ran), store: store as SessionStore }),
      );
      const heard: string[] = [];
      for (const [i, h] of harnesses.entries()) h.subscribe('s1', () => heard.push(`harness ${i}`));
      const first = await harnesses[0]?.send('s1', { role: 'user', content: 'mail Bob' });
      if (first?.outcome !== 'suspended') throw new Error('expected suspended');
      const payload = { decisions: { c1: { verdict: 'approve', decidedBy: 'ada' } } };
      const outcomes = await Promise.all(harnesses.map((h) => h.signal(first.signalDescriptor.signal_id, payload)));
      expect(outcomes.filter((o) => o?.outcome === 'completed')).toHaveLength(1);
      expect(ran).toHaveLength(1);
      expect(heard).toHaveLength(1);
    } finally {
      for (const store of stores) store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // langchainjs#11437: one rejection among several calls removed the approved calls too and left
  // "400 No tool output found", checkpointed. Here every call gets its result, in place, and the
  // history passes the chat format's check.
  it('langchainjs#11437: a turn with a read, an approved and a denied call answers every call and stays valid', async () => {
    const ran: string[] = [];
    const mixed: ChatMessage & { role: 'assistant' } = {
      role: 'assistant',
      content: [],
      tool_calls: [
        { id: 'r1', name: 'lookup', arguments: { q: 'bob' } },
        { id: 'm1', name: 'send_email', arguments: { to: 'bob@example.com' } },
        { id: 'm2', name: 'transfer', arguments: { amount: 500 } },
        { id: 'm3', name: 'transfer', arguments: { amount: 5 } },
      ],
    };
    const harness = createChatHarness({ graph: agent(new MemoryEffectLedger(), mixed, ran) });
    const first = await harness.send('s1', { role: 'user', content: 'pay and mail' });
    if (first.outcome !== 'suspended') throw new Error('expected suspended');
    const resumed = await harness.signal(first.signalDescriptor.signal_id, {
      decisions: {
        m1: { verdict: 'approve', decidedBy: 'ada' },
        m2: { verdict: 'deny', reason: 'too much', decidedBy: 'ada' },
      },
    });
    if (resumed?.outcome !== 'completed') throw new Error(`expected completed, got ${resumed?.outcome}`);
    const history = resumed.finalState.messages;
    const answered = history.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]);
    expect(answered).toEqual([
      ['r1', 'found'],
      ['m1', '{"sent":true}'],
      ['m2', 'not run: declined by ada: too much'],
      ['m3', '{"id":"tx-1"}'],
    ]);
    expect(ran).toEqual(['send_email {"to":"bob@example.com"}', 'transfer {"amount":5}']);
    expect(checkTranscriptJson(history, { format: 'chat' }).result).toBe('accepted');
  });

  it('records an effect that throws as failed and answers with its error; refuses a bad ttlMs', async () => {
    const ledger = new MemoryEffectLedger();
    const { propose, wait, run } = chatApprovals({
      policy,
      ledger,
      effects: {
        send_email: () => {
          throw Object.assign(new Error('smtp down'), { code: 'smtp_unavailable' });
        },
      },
      schemaDigest: () => 'sha256:s',
      now: () => 1_000,
    });
    const graph = sequentialGraph({
      entry: 'model',
      nodes: { model: () => ({ messages: [emailCall] }), propose, wait, run },
      edges: [
        { from: 'model', to: 'propose' },
        { from: 'propose', to: 'wait' },
        { from: 'wait', to: 'run' },
      ],
    });
    const harness = createChatHarness({ graph });
    const first = await harness.send('s1', { role: 'user', content: 'mail Bob' });
    if (first.outcome !== 'suspended') throw new Error('expected suspended');
    const resumed = await harness.signal(first.signalDescriptor.signal_id, {
      decisions: { c1: { verdict: 'approve', decidedBy: 'ada' } },
    });
    expect(resumed?.outcome === 'completed' && JSON.parse(String(resumed.replies[0]?.content))).toEqual({
      errorCode: 'smtp_unavailable',
      retryable: false,
      errorMessage: 'smtp down',
    });
    expect(() => chatApprovals({ policy, ledger, effects: {}, schemaDigest: () => '', ttlMs: 0 })).toThrow(
      'chatApprovals: ttlMs: expected a positive number',
    );
  });

  // openai-agents-python#4896 at the chat layer: the policy changes while the turn waits; the
  // decision the signal carries was given under the old policy and runs nothing.
  it('runs nothing when the policy changes while the turn waits: the answer says to ask again', async () => {
    const ran: string[] = [];
    const ledger = new MemoryEffectLedger();
    const store = new InMemorySessionStore();
    const before = createChatHarness({ graph: agent(ledger, emailCall, ran), store });
    const first = await before.send('s1', { role: 'user', content: 'mail Bob' });
    if (first.outcome !== 'suspended') throw new Error('expected suspended');
    const v2 = approvalPolicy(Tools, 'v2', { send_email: 'always' });
    const after = createChatHarness({ graph: agent(ledger, emailCall, ran, v2), store });
    const resumed = await after.signal(first.signalDescriptor.signal_id, {
      decisions: { c1: { verdict: 'approve', decidedBy: 'ada' } },
    });
    expect(resumed?.outcome === 'completed' && resumed.replies[0]?.content).toBe(
      'not run: the approval policy changed since this call was approved; ask for approval again',
    );
    expect(ran).toEqual([]);
  });
});
