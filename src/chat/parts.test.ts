/** The harness's parts, each on its own: the session queue, the record cache, listeners, the resume feed. */
import { describe, expect, it, vi } from 'vitest';
import { RecordCache } from './cache.ts';
import { completedOutcome, ErroredOutcomes } from './outcome.ts';
import {
  DEFAULT_REPLY_TEMPLATES,
  InMemorySessionStore,
  type ChatTurnOutcome,
  type LockedSession,
  type SessionRecord,
} from './index.ts';
import { SessionQueue } from './queue.ts';
import { Listeners, ResumeFeed, SignalCoordinator } from './signals.ts';
import { holdSessions } from './turn.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('SessionQueue', () => {
  it('runs one session’s bodies in call order, one at a time, and sessions in parallel', async () => {
    const queue = new SessionQueue();
    const events: string[] = [];
    const body = (tag: string) => async () => {
      events.push(`${tag}+`);
      await tick();
      events.push(`${tag}-`);
      return tag;
    };
    const results = await Promise.all([
      queue.run('a', body('a1')),
      queue.run('b', body('b1')),
      queue.run('a', body('a2')),
    ]);
    expect(results).toEqual(['a1', 'b1', 'a2']);
    expect(events.indexOf('a1-')).toBeLessThan(events.indexOf('a2+'));
    expect(events.indexOf('b1+')).toBeLessThan(events.indexOf('a1-'));
    expect(queue.size).toBe(0);
  });

  it('goes on after a body that rejects or throws synchronously', async () => {
    const queue = new SessionQueue();
    const failed = queue.run('a', async () => {
      throw new Error('first');
    });
    const thrown = queue.run('a', (() => {
      throw new Error('sync');
    }) as () => Promise<never>);
    const next = queue.run('a', async () => 'next');
    await expect(failed).rejects.toThrow('first');
    await expect(thrown).rejects.toThrow('sync');
    expect(await next).toBe('next');
  });
});

describe('RecordCache', () => {
  const record = (version: number): SessionRecord => ({
    version,
    state: { messages: [{ role: 'user', content: `v${version}` }] },
  });
  const session = (stored: SessionRecord | undefined): LockedSession & { loads: number } => {
    const view = {
      loads: 0,
      load: async () => {
        view.loads++;
        return stored;
      },
      version: async () => stored?.version ?? 0,
      save: async () => 0,
    };
    return view;
  };

  it('answers from the cache while the stored version matches, and loads (and freezes) otherwise', async () => {
    const cache = new RecordCache(10);
    const first = session(record(1));
    const loaded = await cache.load('s', first, true);
    expect(first.loads).toBe(1);
    expect(Object.isFrozen(loaded?.state.messages[0])).toBe(true);
    expect(await cache.load('s', first, true)).toBe(loaded);
    expect(first.loads).toBe(1);
    const moved = session(record(2));
    expect((await cache.load('s', moved, true))?.version).toBe(2);
    expect(moved.loads).toBe(1);
    const noVersion = session(record(2));
    await cache.load('s', noVersion, false);
    expect(noVersion.loads).toBe(1);
  });

  it('keeps at most `capacity` sessions, dropping the least recently used', async () => {
    const cache = new RecordCache(2);
    for (const id of ['a', 'b']) cache.remember(id, record(1));
    await cache.load('a', session(record(1)), true);
    cache.remember('c', record(1));
    expect(cache.size).toBe(2);
    const b = session(record(1));
    await cache.load('b', b, true);
    expect(b.loads).toBe(1);
    const none = new RecordCache(0);
    none.remember('a', record(1));
    expect(none.size).toBe(0);
  });
});

describe('completedOutcome', () => {
  it('copies finalState on each read, as an enumerable own property, and only for its own outcome', () => {
    const state = { topic: 'rain', messages: [{ role: 'user' as const, content: 'Hi' }] };
    const outcome = completedOutcome([], state, '3.1');
    const first = outcome.finalState;
    expect(first).toEqual(state);
    expect(first).not.toBe(state);
    expect(first.messages).not.toBe(state.messages);
    (first.messages as unknown[]).push({ role: 'user', content: 'changed' });
    expect(outcome.finalState.messages).toHaveLength(1);
    expect(Object.keys(outcome)).toContain('finalState');
    expect({ ...outcome }.finalState).toEqual(state);
    const copied = Object.defineProperties({}, Object.getOwnPropertyDescriptors(outcome)) as { finalState?: unknown };
    expect(() => copied.finalState).toThrow(TypeError);
  });
});

describe('Listeners', () => {
  const completed = completedOutcome([], { messages: [] }, '3.3');

  it('tells each listener of a session once, in order, skipping a removed one and surviving one that throws', () => {
    const failures: unknown[] = [];
    const listeners = new Listeners((error, sessionId) => failures.push([(error as Error).message, sessionId]));
    const heard: string[] = [];
    listeners.subscribe('s', () => heard.push('first'));
    listeners.subscribe('s', () => {
      throw new Error('listener bug');
    });
    const stop = listeners.subscribe('s', () => heard.push('removed'));
    listeners.subscribe('other', () => heard.push('other'));
    stop();
    listeners.notify('s', completed);
    expect(heard).toEqual(['first']);
    expect(failures).toEqual([['listener bug', 's']]);
  });

  it('reports an async listener that rejects instead of leaving an unhandled rejection', async () => {
    const failures: unknown[] = [];
    const listeners = new Listeners((error, sessionId) => failures.push([(error as Error).message, sessionId]));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      listeners.subscribe('s', async () => {
        throw new Error('async listener bug');
      });
      listeners.subscribe('s', () => Promise.reject(new Error('rejected promise')));
      const heard: string[] = [];
      listeners.subscribe('s', () => heard.push('after'));
      listeners.notify('s', completed);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(heard).toEqual(['after']);
      expect(failures).toEqual([
        ['async listener bug', 's'],
        ['rejected promise', 's'],
      ]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('never tells of a suspension', () => {
    const listeners = new Listeners(() => undefined);
    const listener = vi.fn();
    listeners.subscribe('s', listener);
    const suspended: ChatTurnOutcome = {
      outcome: 'suspended',
      signalDescriptor: { signal_id: 'x' },
      pendingMessages: [],
      invocationId: 'i',
      dispatchPath: '3.3',
    };
    listeners.notify('s', suspended);
    listeners.notify(
      's',
      new ErroredOutcomes(DEFAULT_REPLY_TEMPLATES, undefined).make('provider_timeout', undefined, null),
    );
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listeners.size).toBe(1);
  });
});

describe('ResumeFeed', () => {
  const resumed = (store: InMemorySessionStore, sessionId: string, resumedBy: string) =>
    store.save(sessionId, { state: { messages: [{ role: 'assistant', content: `hi ${sessionId}` }] } }, 0, {
      resumed: {
        signalId: `sig-${sessionId}`,
        invocationId: 'i',
        resumedBy,
        replies: [{ role: 'assistant', content: `hi ${sessionId}` }],
      },
    });

  it('tells of resumes logged after it started, run by other harnesses, to sessions with listeners', async () => {
    const store = new InMemorySessionStore();
    await resumed(store, 'before', 'other');
    const listeners = new Listeners(() => undefined);
    const heard: string[] = [];
    for (const id of ['before', 'mine', 'theirs']) listeners.subscribe(id, (o) => heard.push(`${id}:${o.outcome}`));
    const feed = new ResumeFeed(store, 'me', listeners, async (id) => (await store.load(id))?.state);
    await feed.poll();
    await resumed(store, 'mine', 'me');
    await resumed(store, 'theirs', 'other');
    await resumed(store, 'unheard', 'other');
    const [a, b] = await Promise.all([feed.poll(), feed.poll()]);
    expect(a).toBe(b);
    expect(a.map((e) => e.sessionId)).toEqual(['theirs', 'unheard']);
    expect(heard).toEqual(['theirs:completed']);
    expect(await feed.poll()).toEqual([]);
  });

  it('never replays old entries when the store could not be read at the start', async () => {
    const store = new InMemorySessionStore();
    await resumed(store, 'old', 'other');
    const read = store.readResumes.bind(store);
    let down = true;
    store.readResumes = (after, limit) => (down ? Promise.reject(new Error('connection refused')) : read(after, limit));
    const listeners = new Listeners(() => undefined);
    const heard: string[] = [];
    for (const id of ['old', 'new']) listeners.subscribe(id, () => heard.push(id));
    const feed = new ResumeFeed(store, 'me', listeners, async (id) => (await store.load(id))?.state);
    down = false;
    expect(await feed.poll()).toEqual([]);
    await resumed(store, 'new', 'other');
    expect((await feed.poll()).map((e) => e.sessionId)).toEqual(['new']);
    expect(heard).toEqual(['new']);
  });
});

describe('SignalCoordinator', () => {
  const errors = new ErroredOutcomes(DEFAULT_REPLY_TEMPLATES, undefined);
  const graph = {
    invoke: vi.fn(async (state: import('./index.ts').ChatState) => ({
      outcome: 'completed' as const,
      state: { ...state, messages: [...state.messages, { role: 'assistant' as const, content: 'resumed' }] },
    })),
  };
  function coordinator(store: InMemorySessionStore) {
    const listeners = new Listeners(() => undefined);
    const heard: string[] = [];
    listeners.subscribe('s', (o) => heard.push(o.outcome));
    const turns = { graph, cache: new RecordCache(10), errors, harnessId: 'h' };
    const hold = holdSessions(new SessionQueue(), store, errors, turns.cache);
    return { signals: new SignalCoordinator({ store, turns, hold, hasVersion: true, listeners }), heard };
  }
  const suspension = { invocationId: 'inv', node: 'gate', descriptor: { signal_id: 'sig' }, openToolCalls: [] };

  it('resumes the suspension the store holds and tells the listeners; nothing when none waits', async () => {
    const store = new InMemorySessionStore();
    await store.save('s', { state: { messages: [{ role: 'user', content: 'go' }] }, suspension }, 0);
    const { signals, heard } = coordinator(store);
    expect(await signals.deliver('sig', { ok: true })).toMatchObject({ outcome: 'completed', dispatchPath: '3.3' });
    expect(graph.invoke).toHaveBeenLastCalledWith(expect.anything(), {
      invocationId: 'inv',
      sessionId: 's',
      resume: { invocationId: 'inv', node: 'gate', signalPayload: { ok: true } },
    });
    expect(heard).toEqual(['completed']);
    expect(await signals.deliver('sig', {})).toBeUndefined();
  });

  it('resumes nothing when the suspension it found has moved on, and tells no listener', async () => {
    const store = new InMemorySessionStore();
    await store.save('s', { state: { messages: [] }, suspension }, 0);
    const stale = await store.findSuspension('sig');
    await store.save('s', { state: { messages: [] }, suspension }, 1); // suspended again meanwhile
    const find = vi.spyOn(store, 'findSuspension').mockResolvedValueOnce(stale);
    const { signals, heard } = coordinator(store);
    expect(await signals.deliver('sig', {})).toMatchObject({
      outcome: 'errored',
      errorCategory: 'suspension_record_invalid',
    });
    expect(heard).toEqual([]);
    expect(find).toHaveBeenCalledOnce();
  });

  it('refuses a bad signal id or payload, and reports a store that cannot be read', async () => {
    const store = new InMemorySessionStore();
    const { signals } = coordinator(store);
    expect(await signals.deliver(' ', {})).toMatchObject({ errorCategory: 'harness_signal_correlation_failed' });
    for (const payload of [[], null, 'yes', { n: 1n }])
      expect(await signals.deliver('sig', payload)).toMatchObject({
        errorCategory: 'suspension_resume_payload_invalid',
      });
    vi.spyOn(store, 'findSuspension').mockRejectedValueOnce(new Error('disk'));
    expect(await signals.deliver('sig', {})).toMatchObject({
      errorCategory: 'session_load_failed',
      errorBucket: 'session_terminating',
    });
  });
});
