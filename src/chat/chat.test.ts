import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { checkTranscript } from '../transcripts/index.ts';
import {
  createChatHarness,
  InMemorySessionStore,
  sequentialGraph,
  suspend,
  type ChatTurnOutcome,
  type SessionStore,
} from './index.ts';
import type { ChatMessage, ToolCall } from '../transcripts/index.ts';

const text = (m: ChatMessage) =>
  typeof (m as { content?: unknown }).content === 'string' ? (m as { content: string }).content : '';

const echo = sequentialGraph({
  entry: 'echo',
  nodes: {
    echo: (state) => ({
      messages: [
        { role: 'assistant', content: `echo: ${text(state.messages[state.messages.length - 1] as ChatMessage)}` },
      ],
    }),
  },
  edges: [],
});

describe('send()', () => {
  it('runs 1,000 concurrent sends on one session one after another, in send order', async () => {
    const harness = createChatHarness({ graph: echo });
    const outcomes = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => harness.send('one', { role: 'user', content: `m${i}` })),
    );
    expect(outcomes.every((o) => o.outcome === 'completed')).toBe(true);
    const last = outcomes[999] as Extract<ChatTurnOutcome, { outcome: 'completed' }>;
    const history = last.finalState.messages;
    expect(history).toHaveLength(2000);
    expect(history.map(text)).toEqual(history.map((_, i) => (i % 2 === 0 ? `m${i / 2}` : `echo: m${(i - 1) / 2}`)));
    expect(outcomes.map((o) => o.dispatchPath)).toEqual(['3.1', ...Array(999).fill('3.2')]);
  });

  it('keeps 1,000 sessions running in parallel independent', async () => {
    const store = new InMemorySessionStore();
    const harness = createChatHarness({ graph: echo, store });
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) => harness.send(`s${i}`, { role: 'user', content: `hello ${i}` })),
    );
    for (const i of [0, 1, 500, 999]) {
      const record = await store.load(`s${i}`);
      expect(record?.state.messages.map(text)).toEqual([`hello ${i}`, `echo: hello ${i}`]);
    }
  });

  it('validates the session id and the message before loading the session or running the graph', async () => {
    const store = new InMemorySessionStore();
    const load = vi.spyOn(store, 'load');
    const invoke = vi.fn(echo.invoke);
    const harness = createChatHarness({ graph: { invoke }, store });
    const bad = await harness.send('s', { role: 'assistant', content: '' });
    expect(bad).toMatchObject({
      outcome: 'errored',
      errorBucket: 'user_correctable',
      errorCategory: 'chat_message_shape_invalid',
    });
    const noId = await harness.send('  ', { role: 'user', content: 'hi' });
    expect(noId).toMatchObject({ outcome: 'errored', errorCategory: 'harness_session_id_unresolved' });
    // biome-ignore lint/plugin: the test sends a message its types forbid (no media_type), to check the run-time refusal
    const image = await harness.send('s', {
      role: 'user',
      content: [{ type: 'image', source: { type: 'inline', base64_data: 'AAAA' } }],
    } as never);
    expect(image.outcome === 'errored' && text(image.reply)).toMatch(/media_type/);
    // biome-ignore lint/plugin: the test sends a message its types forbid, to check the run-time refusal
    const noUrl = await harness.send('s', {
      role: 'user',
      content: [{ type: 'image', source: { type: 'url' } }],
    } as never);
    expect(noUrl.outcome === 'errored' && text(noUrl.reply)).toMatch(/content\[0\]\.source\.url is required/);
    expect(load).not.toHaveBeenCalled();
    expect(invoke).not.toHaveBeenCalled();
  });

  it.each([
    ['load', 'session_load_failed', 'session_terminating'],
    ['save', 'session_save_failed', 'session_terminating'],
  ] as const)(
    'maps a store %s fault to %s and leaves the stored session byte-identical',
    async (method, category, bucket) => {
      const inner = new InMemorySessionStore();
      const harness = createChatHarness({ graph: echo, store: inner });
      await harness.send('kept', { role: 'user', content: 'first' });
      const before = JSON.stringify(await inner.load('kept'));
      const faulty: SessionStore = {
        load: (id) => (method === 'load' ? Promise.reject(new Error('disk on fire')) : inner.load(id)),
        save: (id, r, v, o) => (method === 'save' ? Promise.reject(new Error('disk full')) : inner.save(id, r, v, o)),
        delete: (id) => inner.delete(id),
        findSuspension: (id) => inner.findSuspension(id),
        listSuspended: (o) => inner.listSuspended(o),
      };
      const outcome = await createChatHarness({ graph: echo, store: faulty }).send('kept', {
        role: 'user',
        content: 'second',
      });
      expect(outcome).toMatchObject({
        outcome: 'errored',
        errorBucket: bucket,
        errorCategory: category,
        reply: { role: 'system' },
      });
      expect(JSON.stringify(await inner.load('kept'))).toBe(before);
    },
  );

  it('buckets graph errors and saves nothing; unknown categories are retryable', async () => {
    const store = new InMemorySessionStore();
    const failing = sequentialGraph({
      entry: 'a',
      nodes: {
        a: () => ({ messages: [{ role: 'assistant', content: 'partial' }] }),
        b: () => {
          throw Object.assign(new Error('boom'), { category: 'something_new' });
        },
      },
      edges: [{ from: 'a', to: 'b' }],
    });
    const outcome = await createChatHarness({ graph: failing, store }).send('s', { role: 'user', content: 'go' });
    expect(outcome).toMatchObject({
      outcome: 'errored',
      errorBucket: 'retryable_transient',
      errorCategory: 'something_new',
    });
    expect(await store.load('s')).toBeUndefined();
  });
});

describe('suspension and listeners', () => {
  const awaitsTransfer = (messages: readonly ChatMessage[]) => {
    const last = messages.at(-1);
    return last?.role === 'assistant' && (last.tool_calls?.length ?? 0) > 0;
  };
  const approval = sequentialGraph({
    entry: 'call',
    nodes: {
      call: (state) =>
        state.messages.at(-1)?.role === 'tool'
          ? { messages: [{ role: 'assistant', content: 'Transfer done.' }] }
          : {
              messages: [
                {
                  role: 'assistant',
                  content: [],
                  tool_calls: [{ id: 'call_t', name: 'bank.transfer', arguments: { amount: 500 } }],
                },
              ],
            },
      gate: (state) =>
        awaitsTransfer(state.messages) && state['approved'] !== true
          ? suspend({ signal_id: 'transfer-ok' })
          : undefined,
      answer: (state) =>
        awaitsTransfer(state.messages) && state['approved'] === true
          ? {
              messages: [
                { role: 'tool', tool_call_id: 'call_t', content: 'sent' },
                { role: 'assistant', content: 'Transfer done.' },
              ],
            }
          : undefined,
    },
    edges: [
      { from: 'call', to: 'gate' },
      { from: 'gate', to: 'answer' },
    ],
  });

  it('holds open calls while suspended; the resumed turn closes them; the listener fires once', async () => {
    const harness = createChatHarness({ graph: approval, initialState: { approved: false } });
    const heard: ChatTurnOutcome[] = [];
    const unsubscribe = harness.subscribe('bank', (o) => heard.push(o));
    const first = await harness.send('bank', { role: 'user', content: 'Send Bob $500' });
    expect(first).toMatchObject({ outcome: 'suspended', signalDescriptor: { signal_id: 'transfer-ok' } });
    expect(heard).toHaveLength(0);
    const blocked = await harness.send('bank', { role: 'user', content: 'hello?' });
    expect(blocked).toMatchObject({ outcome: 'errored', errorCategory: 'chat_message_shape_invalid' });
    const resumed = await harness.signal('transfer-ok', { approved: true });
    expect(resumed).toMatchObject({ outcome: 'completed', dispatchPath: '3.3' });
    expect(heard).toHaveLength(1);
    expect(heard[0]?.outcome === 'completed' && heard[0].replies.map((m) => m.role)).toEqual(['tool', 'assistant']);
    expect(await harness.signal('transfer-ok', { approved: true })).toBeUndefined();
    unsubscribe();
    await harness.send('bank', { role: 'user', content: 'thanks' });
    expect(heard).toHaveLength(1);
  });

  it('lets the caller answer an open call with a tool-role message; the stale signal then resumes nothing', async () => {
    const harness = createChatHarness({ graph: approval, initialState: { approved: false } });
    const heard: ChatTurnOutcome[] = [];
    harness.subscribe('bank', (o) => heard.push(o));
    await harness.send('bank', { role: 'user', content: 'Send Bob $500' });
    const answered = await harness.send('bank', { role: 'tool', tool_call_id: 'call_t', content: 'done by hand' });
    expect(answered.outcome === 'completed' && answered.finalState.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    // The tool message ended the suspension in the store: nothing waits on the signal any more.
    expect(await harness.signal('transfer-ok', { approved: true })).toBeUndefined();
    expect(await harness.listSuspended()).toEqual([]);
    expect(heard).toHaveLength(0);
  });

  it('keeps waiting when a resumed turn suspends again on the same signal', async () => {
    const twice = sequentialGraph({
      entry: 'gate',
      nodes: {
        gate: () => suspend({ signal_id: 'sig' }),
        check: (state) => (state['approved'] === true ? undefined : suspend({ signal_id: 'sig' })),
        done: () => ({ messages: [{ role: 'assistant', content: 'approved' }] }),
      },
      edges: [
        { from: 'gate', to: 'check' },
        { from: 'check', to: 'done' },
      ],
    });
    const harness = createChatHarness({ graph: twice, initialState: { approved: false } });
    const heard: ChatTurnOutcome[] = [];
    harness.subscribe('s', (o) => heard.push(o));
    expect((await harness.send('s', { role: 'user', content: 'go' })).outcome).toBe('suspended');
    expect((await harness.signal('sig', { approved: false }))?.outcome).toBe('suspended');
    expect(heard).toHaveLength(0);
    expect(await harness.signal('sig', { approved: true })).toMatchObject({
      outcome: 'completed',
      replies: [{ role: 'assistant', content: 'approved' }],
    });
    expect(heard).toHaveLength(1);
  });
});

describe('properties', () => {
  const assistantText = fc
    .string({ minLength: 1, maxLength: 8 })
    .map((content): ChatMessage => ({ role: 'assistant', content }));

  it('replies are exactly the messages the graph appended, in order, whatever the history', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(assistantText, { maxLength: 6 }),
        fc.array(fc.array(assistantText, { maxLength: 3 }), { maxLength: 4 }),
        async (appended, earlier) => {
          const queue = [...earlier, appended];
          const graph = sequentialGraph({
            entry: 'n',
            nodes: { n: () => ({ messages: queue.shift() ?? [] }) },
            edges: [],
          });
          const harness = createChatHarness({ graph });
          let outcome: ChatTurnOutcome | undefined;
          for (let i = 0; i <= earlier.length; i++)
            outcome = await harness.send('p', { role: 'user', content: `u${i}` });
          expect(outcome?.outcome === 'completed' && outcome.replies).toEqual(appended);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the chat check (the harness closure rule) accepts exactly the tails where every call is answered once and no reply is orphaned', () => {
    const ids = ['a', 'b', 'c'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...ids), { maxLength: 4 }),
        fc.array(fc.constantFrom(...ids, 'z'), { maxLength: 4 }),
        (callIds, replyIds) => {
          const calls: ToolCall[] = callIds.map((id) => ({ id, name: 'tool', arguments: {} }));
          const first = calls[0];
          const asked: ChatMessage[] =
            first === undefined ? [] : [{ role: 'assistant', content: [], tool_calls: [first, ...calls.slice(1)] }];
          const tail: ChatMessage[] = [
            ...asked,
            ...replyIds.map((id) => ({ role: 'tool' as const, tool_call_id: id, content: 'r' })),
          ];
          const unique = (xs: string[]) => new Set(xs).size === xs.length;
          const closed =
            unique(callIds) &&
            unique(replyIds) &&
            callIds.length === replyIds.length &&
            callIds.every((id) => replyIds.includes(id));
          expect(checkTranscript(tail, { format: 'chat' }).result === 'accepted').toBe(closed);
        },
      ),
    );
  });
});

describe('listeners of resumes run elsewhere', () => {
  it('hear them without a call when pollResumesEveryMs is set, until close()', async () => {
    const store = new InMemorySessionStore();
    const graph = sequentialGraph({
      entry: 'gate',
      nodes: {
        gate: (state) =>
          state['approved'] === true ? undefined : suspend({ signal_id: `go-${state.messages.length}` }),
        done: () => ({ messages: [{ role: 'assistant', content: 'done' }], approved: false }),
      },
      edges: [{ from: 'gate', to: 'done' }],
    });
    const runner = createChatHarness({ graph, store });
    const watcher = createChatHarness({ graph, store, pollResumesEveryMs: 5 });
    const heard: ChatTurnOutcome[] = [];
    watcher.subscribe('s', (o) => heard.push(o));
    await runner.send('s', { role: 'user', content: 'first' });
    await runner.signal('go-1', { approved: true });
    await vi.waitFor(() => expect(heard).toHaveLength(1), { timeout: 2000, interval: 5 });
    expect(heard[0]).toMatchObject({ outcome: 'completed', dispatchPath: '3.3', replies: [{ content: 'done' }] });
    watcher.close();
    expect((await runner.send('s', { role: 'user', content: 'second' })).outcome).toBe('suspended');
    expect((await runner.signal('go-3', { approved: true }))?.outcome).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(heard).toHaveLength(1);
  });
});
