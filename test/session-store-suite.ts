/**
 * The session store conformance suite: one set of tests every `SessionStore` turngate ships
 * must pass (in-memory, SQLite, PostgreSQL), run by `src/chat/store.test.ts` and
 * `test/postgres/store.test.ts`. Part one checks the store's own contract; part two runs the
 * harness over it (restart, two harnesses, signals delivered twice, failed turns); part three
 * checks idempotent sends (`send(..., { idempotencyKey })`) through the harness.
 */
import { describe, expect, it } from 'vitest';
import {
  createChatHarness,
  sequentialGraph,
  SessionWriteConflict,
  SignalIdInUse,
  suspend,
  type ChatGraph,
  type ChatTurnOutcome,
  type SendRecord,
  type SessionRecord,
  type SessionStore,
  type Suspension,
} from '../src/chat/index.ts';
import type { ChatMessage } from '../src/transcripts/index.ts';

/** A fresh, empty store, and how to dispose of it. */
export interface StoreUnderTest {
  readonly store: SessionStore;
  /** A second store object on the same data (what a restarted process opens), when the store has one. */
  readonly reopen?: () => SessionStore;
  /** Whether two store objects on the same data hold sessions against each other (another process's turns). */
  readonly locksAcrossStores: boolean;
  readonly dispose?: () => Promise<void> | void;
}

/** Options the suite passes to a store it makes (each the store's option of that name). */
export interface StoreOptions {
  readonly resumeLogSize?: number;
  /** How many idempotency keys a session keeps. */
  readonly sendKeysKept?: number;
}

/** Makes a fresh store, with the options when given. */
export type StoreFactory = (options?: StoreOptions) => StoreUnderTest | Promise<StoreUnderTest>;

const user = (content: string): ChatMessage => ({ role: 'user', content });
const suspensionOn = (signalId: string, openIds: readonly string[] = []): Suspension => ({
  invocationId: `inv-${signalId}`,
  node: 'gate',
  descriptor: { signal_id: signalId, metadata: { kind: 'approval' } },
  openToolCalls: openIds.map((id) => ({ id, name: 'bank.transfer', arguments: { amount: 5 } })),
});

async function using<T>(factory: StoreFactory, body: (s: StoreUnderTest) => Promise<T>, options?: StoreOptions) {
  const subject = await factory(options);
  try {
    return await body(subject);
  } finally {
    await subject.dispose?.();
  }
}

/** Runs the suite against one store implementation. */
export function sessionStoreSuite(name: string, factory: StoreFactory): void {
  describe(`${name} session store: the SessionStore contract`, () => {
    it('round-trips records and versions, refuses a stale version, deletes', () =>
      using(factory, async ({ store }) => {
        expect(await store.load('s')).toBeUndefined();
        expect(await store.version?.('s')).toBe(store.version === undefined ? undefined : 0);
        expect(await store.save('s', { state: { messages: [user('hi')], n: 1, nested: { a: [1, 'x'] } } }, 0)).toBe(1);
        expect(await store.save('s', { state: { messages: [] } }, 1)).toBe(2);
        await expect(store.save('s', { state: { messages: [] } }, 1)).rejects.toBeInstanceOf(SessionWriteConflict);
        await expect(store.save('s', { state: { messages: [] } }, 0)).rejects.toBeInstanceOf(SessionWriteConflict);
        expect(await store.load('s')).toEqual({ version: 2, state: { messages: [] } });
        await store.delete('s');
        await store.delete('s');
        expect(await store.load('s')).toBeUndefined();
        expect(await store.save('s', { state: { messages: [] } }, 0)).toBe(1);
      }));

    it('keeps values exactly: text of every plane, escapes, numbers, nesting', () =>
      using(factory, async ({ store }) => {
        const message: ChatMessage = {
          role: 'assistant',
          content: [],
          tool_calls: [
            {
              id: 'call_\u00e9\u{1F600}',
              name: 'search',
              arguments: { q: 'a\u0000b\n"\\', n: 0.1, big: 1e21, small: -5e-324, deep: [[[{ x: null }]]], empty: {} },
            },
          ],
        };
        const state = {
          messages: [message, { role: 'tool', tool_call_id: 'call_\u00e9\u{1F600}', content: '\ud800 lone' }],
          count: 3,
        };
        await store.save('v', { state: state as SessionRecord['state'] }, 0);
        const loaded = await store.load('v');
        expect(JSON.stringify(loaded?.state.messages)).toBe(JSON.stringify(state.messages));
        expect(loaded?.state['count']).toBe(3);
      }));

    it('does not let callers change what is stored except through save', () =>
      using(factory, async ({ store }) => {
        const record = { state: { messages: [user('a')], tags: ['x'] } };
        await store.save('s', record, 0);
        (record.state.messages as unknown[]).push(user('b'));
        record.state.tags.push('y');
        const loaded = await store.load('s');
        try {
          (loaded?.state.messages as unknown[] | undefined)?.push(user('c'));
          (loaded?.state['tags'] as unknown[] | undefined)?.push('z');
        } catch {
          // A store may return frozen values.
        }
        expect(await store.load('s')).toEqual({ version: 1, state: { messages: [user('a')], tags: ['x'] } });
      }));

    it('appends after an unchangedPrefix that matches, ignores one that does not, rewrites without one', () =>
      using(factory, async ({ store }) => {
        const history = [user('a'), user('b')];
        await store.save('s', { state: { messages: history } }, 0);
        await store.save('s', { state: { messages: [...history, user('c')] } }, 1, { unchangedPrefix: 2 });
        expect((await store.load('s'))?.state.messages).toEqual([user('a'), user('b'), user('c')]);
        await store.save('s', { state: { messages: [user('x'), user('y')] } }, 2, { unchangedPrefix: 7 });
        expect((await store.load('s'))?.state.messages).toEqual([user('x'), user('y')]);
        await store.save('s', { state: { messages: [user('z')] } }, 3);
        expect((await store.load('s'))?.state.messages).toEqual([user('z')]);
      }));

    it('lets exactly one of several saves against the same version win', () =>
      using(factory, async ({ store }) => {
        await store.save('race', { state: { messages: [] } }, 0);
        const results = await Promise.allSettled(
          Array.from({ length: 6 }, (_, i) => store.save('race', { state: { messages: [user(`w${i}`)] } }, 1)),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(SessionWriteConflict);
        expect((await store.load('race'))?.version).toBe(2);
      }));

    it('saves the suspension with the state and removes it with the next save or a delete', () =>
      using(factory, async ({ store }) => {
        const suspension = suspensionOn('approve-1', ['call_1']);
        await store.save('s', { state: { messages: [user('go')] }, suspension }, 0);
        expect(await store.load('s')).toEqual({ version: 1, state: { messages: [user('go')] }, suspension });
        expect(await store.findSuspension('approve-1')).toEqual({ ...suspension, sessionId: 's', sessionVersion: 1 });
        expect(await store.listSuspended()).toEqual([{ ...suspension, sessionId: 's', sessionVersion: 1 }]);
        await store.save('s', { state: { messages: [user('go'), user('done')] } }, 1, { unchangedPrefix: 1 });
        expect(await store.findSuspension('approve-1')).toBeUndefined();
        expect(await store.listSuspended()).toEqual([]);
        await store.save('s', { state: { messages: [] }, suspension: suspensionOn('approve-2') }, 2);
        await store.delete('s');
        expect(await store.findSuspension('approve-2')).toBeUndefined();
        expect(await store.listSuspended()).toEqual([]);
      }));

    it('refuses a signal id another session waits on, and changes nothing', () =>
      using(factory, async ({ store }) => {
        await store.save('a', { state: { messages: [user('a')] }, suspension: suspensionOn('shared') }, 0);
        await store.save('b', { state: { messages: [user('b')] } }, 0);
        const before = JSON.stringify([await store.load('a'), await store.load('b')]);
        await expect(
          store.save('b', { state: { messages: [user('b'), user('b2')] }, suspension: suspensionOn('shared') }, 1),
        ).rejects.toBeInstanceOf(SignalIdInUse);
        expect(JSON.stringify([await store.load('a'), await store.load('b')])).toBe(before);
        expect((await store.findSuspension('shared'))?.sessionId).toBe('a');
        // The session that holds it may suspend on it again.
        await store.save('a', { state: { messages: [user('a')] }, suspension: suspensionOn('shared') }, 1);
        expect((await store.findSuspension('shared'))?.sessionVersion).toBe(2);
      }));

    it('lists suspensions in UTF-8 byte order, by page and by session', () =>
      using(factory, async ({ store }) => {
        const ids = ['b', 'a', '\uff21', '\u{1F600}', 'a2'];
        for (const [i, id] of ids.entries())
          await store.save(`s${i}`, { state: { messages: [] }, suspension: suspensionOn(id) }, 0);
        const all = await store.listSuspended();
        expect(all.map((s) => s.descriptor.signal_id)).toEqual(['a', 'a2', 'b', '\uff21', '\u{1F600}']);
        const first = await store.listSuspended({ limit: 2 });
        const rest = await store.listSuspended({ after: first.at(-1)?.descriptor.signal_id ?? '' });
        expect([...first, ...rest]).toEqual(all);
        expect((await store.listSuspended({ sessionId: 's2' })).map((s) => s.descriptor.signal_id)).toEqual(['\uff21']);
      }));

    it('logs completed resumes in order and keeps the last resumeLogSize entries', () =>
      using(
        factory,
        async ({ store }) => {
          if (store.readResumes === undefined) throw new Error('the bundled stores all log resumes');
          const start = await store.readResumes(undefined);
          expect(start.entries).toEqual([]);
          for (let i = 0; i < 5; i++) {
            const replies = [{ role: 'assistant' as const, content: `r${i}` }];
            await store.save(`s${i}`, { state: { messages: replies } }, 0, {
              resumed: { signalId: `sig-${i}`, invocationId: `inv-${i}`, resumedBy: 'h1', replies },
            });
          }
          const log = await store.readResumes(start.cursor);
          expect(log.entries.map((e) => [e.sessionId, e.signalId, e.resumedBy])).toEqual([
            ['s2', 'sig-2', 'h1'],
            ['s3', 'sig-3', 'h1'],
            ['s4', 'sig-4', 'h1'],
          ]);
          expect(log.entries[0]?.replies).toEqual([{ role: 'assistant', content: 'r2' }]);
          const seqs = log.entries.map((e) => e.seq);
          expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
          expect(log.cursor).toBe(seqs.at(-1));
          expect((await store.readResumes(log.cursor)).entries).toEqual([]);
          expect((await store.readResumes(start.cursor, 1)).entries).toHaveLength(1);
        },
        { resumeLogSize: 3 },
      ));

    it('keeps a send with its save, finds it by session and key, forgets it with a delete', () =>
      using(factory, async ({ store }) => {
        const findSend = store.findSend?.bind(store);
        if (findSend === undefined) throw new Error('the bundled stores all keep sends');
        const sent: SendRecord = {
          key: 'msg-1',
          messageDigest: 'sha256:aa',
          outcome: {
            outcome: 'completed',
            replies: [{ role: 'assistant', content: 'hi \u{1F600}' }],
            dispatchPath: '3.1',
          },
        };
        await store.save('s', { state: { messages: [user('a')] } }, 0, { send: sent });
        expect(await findSend('s', 'msg-1')).toEqual(sent);
        expect(await findSend('s', 'msg-2')).toBeUndefined();
        expect(await findSend('other', 'msg-1')).toBeUndefined();
        // A save that conflicts keeps nothing; a save without a send keeps what was kept.
        await expect(
          store.save('s', { state: { messages: [] } }, 0, { send: { ...sent, key: 'lost' } }),
        ).rejects.toBeInstanceOf(SessionWriteConflict);
        expect(await findSend('s', 'lost')).toBeUndefined();
        await store.save('s', { state: { messages: [user('a'), user('b')] } }, 1, { unchangedPrefix: 1 });
        expect(await findSend('s', 'msg-1')).toEqual(sent);
        const suspended: SendRecord = {
          key: 'msg-3',
          messageDigest: 'sha256:bb',
          outcome: {
            outcome: 'suspended',
            signalDescriptor: { signal_id: 'approve-3', metadata: { amount: [5, null] } },
            pendingMessages: [
              { role: 'assistant', content: [], tool_calls: [{ id: 'c3', name: 'pay', arguments: {} }] },
            ],
            invocationId: 'inv-3',
            dispatchPath: '3.2',
          },
        };
        await store.save('s', { state: { messages: [] }, suspension: suspensionOn('approve-3') }, 2, {
          send: suspended,
        });
        expect(await findSend('s', 'msg-3')).toEqual(suspended);
        // What a caller does to what it got does not change what is kept.
        const got = await findSend('s', 'msg-1');
        try {
          if (got?.outcome.outcome === 'completed') (got.outcome.replies as ChatMessage[]).push(user('x'));
        } catch {
          // A store may return frozen values.
        }
        expect(await findSend('s', 'msg-1')).toEqual(sent);
        await store.delete('s');
        expect(await findSend('s', 'msg-1')).toBeUndefined();
        expect(await findSend('s', 'msg-3')).toBeUndefined();
        await store.save('s', { state: { messages: [] } }, 0);
        expect(await findSend('s', 'msg-1')).toBeUndefined();
      }));

    it('keeps the newest sendKeysKept keys per session, forgetting the oldest first', () =>
      using(
        factory,
        async ({ store }) => {
          const findSend = store.findSend?.bind(store);
          if (findSend === undefined) throw new Error('the bundled stores all keep sends');
          const send = (key: string): SendRecord => ({
            key,
            messageDigest: `sha256:${key}`,
            outcome: { outcome: 'completed', replies: [], dispatchPath: '3.2' },
          });
          for (const [version, key] of ['k1', 'k2', 'k3'].entries())
            await store.save('s', { state: { messages: [] } }, version, { send: send(key) });
          await store.save('t', { state: { messages: [] } }, 0, { send: send('k1') });
          expect(await findSend('s', 'k1')).toBeUndefined();
          expect(await findSend('s', 'k2')).toEqual(send('k2'));
          expect(await findSend('s', 'k3')).toEqual(send('k3'));
          expect(await findSend('t', 'k1')).toEqual(send('k1'));
          await store.save('s', { state: { messages: [] } }, 3, { send: send('k4') });
          expect([await findSend('s', 'k2'), await findSend('s', 'k3')]).toEqual([undefined, send('k3')]);
        },
        { sendKeysKept: 2 },
      ));

    it('holds a session for one body at a time; a body that throws saves nothing', () =>
      using(factory, async ({ store }) => {
        const lock = store.withSessionLock;
        if (lock === undefined) throw new Error('the bundled stores all lock sessions');
        const events: string[] = [];
        const body = (tag: string) => async (session: Parameters<Parameters<typeof lock>[1]>[0]) => {
          events.push(`${tag}:start`);
          const version = await session.version();
          await new Promise((resolve) => setTimeout(resolve, 20));
          await session.save({ state: { messages: [user(tag)] } }, version);
          // Work after the save (the harness's own, e.g. notifying listeners) is still inside the hold.
          await new Promise((resolve) => setTimeout(resolve, 20));
          events.push(`${tag}:end`);
        };
        await Promise.all([lock.call(store, 'L', body('one')), lock.call(store, 'L', body('two'))]);
        expect(events).toEqual(['one:start', 'one:end', 'two:start', 'two:end']);
        expect((await store.load('L'))?.version).toBe(2);
        await expect(
          lock.call(store, 'L', async () => {
            throw new Error('the turn failed');
          }),
        ).rejects.toThrow('the turn failed');
        expect((await store.load('L'))?.version).toBe(2);
        await lock.call(store, 'L', async (session) => {
          await session.save({ state: { messages: [] } }, 2);
          await expect(session.save({ state: { messages: [] } }, 3)).rejects.toThrow(/saves once/);
        });
      }));
  });

  describe(`${name} session store: the harness over it`, () => {
    const approval = sequentialGraph({
      entry: 'ask',
      nodes: {
        ask: (state) =>
          state['approved'] === true
            ? undefined
            : {
                messages: [
                  {
                    role: 'assistant',
                    content: [],
                    tool_calls: [{ id: `call_${state.messages.length}`, name: 'refund', arguments: {} }],
                  },
                ],
              },
        gate: (state) =>
          state['approved'] === true ? undefined : suspend({ signal_id: `refund:${String(state['order'])}` }),
        refund: (state) => {
          const last = state.messages.at(-1);
          const id = last?.role === 'assistant' ? last.tool_calls?.[0]?.id : undefined;
          return id === undefined
            ? undefined
            : {
                messages: [
                  { role: 'tool', tool_call_id: id, content: 'refunded' },
                  { role: 'assistant', content: 'Refunded.' },
                ],
                approved: false,
              };
        },
      },
      edges: [
        { from: 'ask', to: 'gate' },
        { from: 'gate', to: 'refund' },
      ],
    });

    it('resumes after a restart: a new harness finds the suspension in the store', () =>
      using(factory, async ({ store, reopen }) => {
        const first = createChatHarness({ graph: approval, store, initialState: { order: 'A-1' } });
        expect((await first.send('conv', user('Refund A-1'))).outcome).toBe('suspended');
        const later = reopen?.() ?? store;
        const second = createChatHarness({ graph: approval, store: later, initialState: { order: 'A-1' } });
        expect((await second.listSuspended()).map((s) => [s.sessionId, s.descriptor.signal_id])).toEqual([
          ['conv', 'refund:A-1'],
        ]);
        const heard: ChatTurnOutcome[] = [];
        second.subscribe('conv', (o) => heard.push(o));
        const resumed = await second.signal('refund:A-1', { approved: true });
        expect(resumed).toMatchObject({
          outcome: 'completed',
          dispatchPath: '3.3',
          replies: [{ role: 'tool' }, { role: 'assistant', content: 'Refunded.' }],
        });
        expect(heard).toHaveLength(1);
        expect(await second.signal('refund:A-1', { approved: true })).toBeUndefined();
        expect(await later.listSuspended()).toEqual([]);
        expect((await second.send('conv', user('thanks'))).outcome).toBe('suspended');
      }));

    it('resumes a signal delivered twice at once only once, across two harnesses', () =>
      using(factory, async ({ store, reopen, locksAcrossStores }) => {
        let refunds = 0;
        const counting = sequentialGraph({
          entry: 'gate',
          nodes: {
            gate: (state) => (state['approved'] === true ? undefined : suspend({ signal_id: 'once' })),
            act: () => {
              refunds++;
              return { messages: [{ role: 'assistant', content: 'done' }] };
            },
          },
          edges: [{ from: 'gate', to: 'act' }],
        });
        const a = createChatHarness({ graph: counting, store });
        const b = createChatHarness({ graph: counting, store: (locksAcrossStores ? reopen?.() : undefined) ?? store });
        await a.send('s', user('go'));
        const outcomes = await Promise.all([
          a.signal('once', { approved: true }),
          b.signal('once', { approved: true }),
        ]);
        const completed = outcomes.filter((o) => o?.outcome === 'completed');
        expect(completed).toHaveLength(1);
        for (const o of outcomes)
          if (o?.outcome !== 'completed')
            expect(
              o === undefined || (o.outcome === 'errored' && o.errorCategory === 'suspension_record_invalid'),
            ).toBe(true);
        expect(refunds).toBe(1);
      }));

    it('tells a harness of resumes another harness ran (pollResumes), and not of its own', () =>
      using(factory, async ({ store, reopen }) => {
        const runner = createChatHarness({ graph: approval, store, initialState: { order: 'B-2' } });
        const watcher = createChatHarness({
          graph: approval,
          store: reopen?.() ?? store,
          initialState: { order: 'B-2' },
        });
        const heardByWatcher: ChatTurnOutcome[] = [];
        const heardByRunner: ChatTurnOutcome[] = [];
        watcher.subscribe('conv', (o) => heardByWatcher.push(o));
        runner.subscribe('conv', (o) => heardByRunner.push(o));
        await runner.send('conv', user('Refund B-2'));
        await runner.signal('refund:B-2', { approved: true });
        expect(heardByRunner).toHaveLength(1);
        expect(heardByWatcher).toHaveLength(0);
        const entries = await watcher.pollResumes();
        expect(entries.map((e) => [e.sessionId, e.signalId])).toEqual([['conv', 'refund:B-2']]);
        expect(heardByWatcher).toHaveLength(1);
        expect(heardByWatcher[0]).toMatchObject({
          outcome: 'completed',
          dispatchPath: '3.3',
          replies: [{ role: 'tool' }, { role: 'assistant', content: 'Refunded.' }],
        });
        expect(await watcher.pollResumes()).toEqual([]);
        expect(await runner.pollResumes()).toEqual([]);
        expect(heardByRunner).toHaveLength(1);
      }));

    it('leaves the store as it was after every failed turn', () =>
      using(factory, async ({ store }) => {
        const graph = sequentialGraph({
          entry: 'n',
          nodes: {
            n: (state) => {
              const text = (state.messages.at(-1) as { content?: unknown }).content;
              if (text === 'throw') throw new TypeError('boom');
              if (text === 'dangle')
                return {
                  messages: [{ role: 'assistant', content: [], tool_calls: [{ id: 'c', name: 't', arguments: {} }] }],
                };
              if (text === 'bad message') return { messages: [{ role: 'assistant', content: '' }] };
              if (text === 'bad state') return { messages: [], when: new Date(0) };
              return { messages: [{ role: 'assistant', content: 'ok' }] };
            },
          },
          edges: [],
        });
        const harness = createChatHarness({ graph, store });
        await harness.send('s', user('first'));
        const before = JSON.stringify(await store.load('s'));
        for (const input of ['throw', 'dangle', 'bad message', 'bad state']) {
          const outcome = await harness.send('s', user(input));
          expect(outcome).toMatchObject({ outcome: 'errored', errorBucket: 'session_terminating' });
          expect(JSON.stringify(await store.load('s'))).toBe(before);
        }
        expect((await harness.send('s', user('again'))).outcome).toBe('completed');
      }));
  });

  describe(`${name} session store: idempotent sends through the harness`, () => {
    /**
     * A graph that answers each user message with a numbered reply (`reply <n>`, n counting its
     * invocations across every harness that uses it); `wait` is answered `waiting <n>` and
     * suspends on `wait-<n>`; `fail once` throws the first time it runs.
     */
    function countingGraph(): { graph: ChatGraph; readonly runs: () => number } {
      let runs = 0;
      let failed = false;
      const graph = sequentialGraph({
        entry: 'reply',
        nodes: {
          reply: (state) => {
            runs++;
            const text = (state.messages.at(-1) as { content?: unknown }).content;
            if (text === 'fail once' && !failed) {
              failed = true;
              throw new Error('the model is down');
            }
            if (text === 'wait') return { messages: [{ role: 'assistant', content: `waiting ${runs}` }] };
            return { messages: [{ role: 'assistant', content: `reply ${runs}` }] };
          },
          gate: (state) => {
            const last = state.messages.at(-1) as { content?: unknown };
            return typeof last.content === 'string' && last.content.startsWith('waiting ')
              ? suspend({ signal_id: `wait-${runs}` })
              : undefined;
          },
        },
        edges: [{ from: 'reply', to: 'gate' }],
      });
      return { graph, runs: () => runs };
    }

    it('runs a keyed send once: the same send again replays its replies without invoking the graph', () =>
      using(factory, async ({ store }) => {
        const { graph, runs } = countingGraph();
        const harness = createChatHarness({ graph, store });
        const first = await harness.send('s', user('hello'), { idempotencyKey: 'msg-1' });
        expect(first).toMatchObject({ outcome: 'completed', replies: [{ role: 'assistant', content: 'reply 1' }] });
        expect(first).not.toHaveProperty('replayed');
        const stored = JSON.stringify(await store.load('s'));
        const again = await harness.send('s', user('hello'), { idempotencyKey: 'msg-1' });
        expect(again).toMatchObject({ outcome: 'completed', replayed: true, dispatchPath: '3.1' });
        expect(again.outcome === 'completed' && again.replies).toEqual(first.outcome === 'completed' && first.replies);
        expect(runs()).toBe(1);
        expect(JSON.stringify(await store.load('s'))).toBe(stored);
        // A new key is a new turn.
        expect(await harness.send('s', user('hello'), { idempotencyKey: 'msg-2' })).toMatchObject({
          outcome: 'completed',
          replies: [{ content: 'reply 2' }],
        });
        expect(runs()).toBe(2);
      }));

    it('refuses the same key with another message (harness_idempotency_key_reused) and saves nothing', () =>
      using(factory, async ({ store }) => {
        const { graph, runs } = countingGraph();
        const harness = createChatHarness({ graph, store });
        await harness.send('s', user('pay 5'), { idempotencyKey: 'msg-1' });
        const stored = JSON.stringify(await store.load('s'));
        const reused = await harness.send('s', user('pay 500'), { idempotencyKey: 'msg-1' });
        expect(reused).toMatchObject({ outcome: 'errored', errorCategory: 'harness_idempotency_key_reused' });
        expect(runs()).toBe(1);
        expect(JSON.stringify(await store.load('s'))).toBe(stored);
      }));

    it('replays a suspended send with the same descriptor, pending messages and invocation id', () =>
      using(factory, async ({ store }) => {
        const { graph, runs } = countingGraph();
        const harness = createChatHarness({ graph, store });
        const first = await harness.send('s', user('wait'), { idempotencyKey: 'msg-1' });
        expect(first).toMatchObject({ outcome: 'suspended', signalDescriptor: { signal_id: 'wait-1' } });
        const again = await harness.send('s', user('wait'), { idempotencyKey: 'msg-1' });
        expect(again).toEqual({ ...first, replayed: true });
        expect(runs()).toBe(1);
        expect((await store.listSuspended()).map((s) => s.descriptor.signal_id)).toEqual(['wait-1']);
      }));

    it('replays from a reopened store (a restarted process)', () =>
      using(factory, async ({ store, reopen }) => {
        const { graph, runs } = countingGraph();
        const first = await createChatHarness({ graph, store }).send('s', user('hello'), { idempotencyKey: 'msg-1' });
        const later = createChatHarness({ graph, store: reopen?.() ?? store });
        const again = await later.send('s', user('hello'), { idempotencyKey: 'msg-1' });
        expect(again).toMatchObject({ outcome: 'completed', replayed: true });
        expect(again.outcome === 'completed' && again.replies).toEqual(first.outcome === 'completed' && first.replies);
        expect(runs()).toBe(1);
      }));

    it('saves nothing for an errored keyed turn, so its retry runs', () =>
      using(factory, async ({ store }) => {
        const { graph, runs } = countingGraph();
        const harness = createChatHarness({ graph, store });
        const failed = await harness.send('s', user('fail once'), { idempotencyKey: 'msg-1' });
        expect(failed).toMatchObject({ outcome: 'errored' });
        expect(await store.load('s')).toBeUndefined();
        expect(await store.findSend?.('s', 'msg-1')).toBeUndefined();
        const retried = await harness.send('s', user('fail once'), { idempotencyKey: 'msg-1' });
        expect(retried).toMatchObject({ outcome: 'completed', replies: [{ content: 'reply 2' }] });
        expect(retried).not.toHaveProperty('replayed');
        expect(runs()).toBe(2);
      }));

    it('keeps keys per session: the same key on two sessions runs both', () =>
      using(factory, async ({ store }) => {
        const { graph, runs } = countingGraph();
        const harness = createChatHarness({ graph, store });
        const a = await harness.send('a', user('hello'), { idempotencyKey: 'msg-1' });
        const b = await harness.send('b', user('hello'), { idempotencyKey: 'msg-1' });
        for (const outcome of [a, b]) expect(outcome).not.toHaveProperty('replayed');
        expect([a, b].map((o) => o.outcome === 'completed' && o.replies[0]?.content)).toEqual(['reply 1', 'reply 2']);
        expect(runs()).toBe(2);
      }));

    it('forgets keys beyond sendKeysKept, oldest first: a forgotten key runs again', () =>
      using(
        factory,
        async ({ store }) => {
          const { graph, runs } = countingGraph();
          const harness = createChatHarness({ graph, store });
          for (const key of ['msg-1', 'msg-2', 'msg-3']) await harness.send('s', user(key), { idempotencyKey: key });
          expect(runs()).toBe(3);
          expect(await harness.send('s', user('msg-3'), { idempotencyKey: 'msg-3' })).toMatchObject({ replayed: true });
          expect(await harness.send('s', user('msg-2'), { idempotencyKey: 'msg-2' })).toMatchObject({ replayed: true });
          expect(runs()).toBe(3);
          const forgotten = await harness.send('s', user('msg-1'), { idempotencyKey: 'msg-1' });
          expect(forgotten).toMatchObject({ outcome: 'completed', replies: [{ content: 'reply 4' }] });
          expect(forgotten).not.toHaveProperty('replayed');
          expect(runs()).toBe(4);
        },
        { sendKeysKept: 2 },
      ));
  });
}
