/**
 * The harness's side of idempotent sends, whatever the store: a store that keeps no sends
 * (no `findSend`) refuses keyed sends, and a bad key is refused before the store is touched. The
 * stores' side (replay, reuse, restart, kept keys) is in test/session-store-suite.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  createChatHarness,
  InMemorySessionStore,
  type LockedSession,
  type SessionStore,
  sequentialGraph,
} from './index.ts';

const hello = { role: 'user', content: 'hello' } as const;

/** A graph that answers every message, counting its invocations. */
function counting() {
  let runs = 0;
  const graph = sequentialGraph({
    entry: 'n',
    nodes: {
      n: () => {
        runs++;
        return { messages: [{ role: 'assistant', content: 'hi' }] };
      },
    },
    edges: [],
  });
  return { graph, runs: () => runs };
}

/** The in-memory store without `findSend`, with or without its session lock (whose session has no `findSend` either). */
function keepingNoSends(inner: InMemorySessionStore, withLock: boolean): SessionStore {
  const store: SessionStore = {
    load: (id) => inner.load(id),
    save: (id, record, expected, options) => inner.save(id, record, expected, options),
    delete: (id) => inner.delete(id),
    findSuspension: (signal) => inner.findSuspension(signal),
    listSuspended: (options) => inner.listSuspended(options),
    version: (id) => inner.version(id),
  };
  if (!withLock) return store;
  return {
    ...store,
    withSessionLock: (id, body) =>
      inner.withSessionLock(id, (session) => {
        const { findSend: _kept, ...rest } = session;
        return body(rest satisfies LockedSession);
      }),
  };
}

describe('idempotent sends: what the harness decides', () => {
  it.each([
    ['without a session lock', false],
    ['with a session lock', true],
  ])(
    'refuses a keyed send on a store that keeps no sends (%s): harness_idempotency_unsupported, nothing runs',
    async (_, withLock) => {
      const inner = new InMemorySessionStore();
      const { graph, runs } = counting();
      const harness = createChatHarness({ graph, store: keepingNoSends(inner, withLock) });
      const refused = await harness.send('s', hello, { idempotencyKey: 'req-1' });
      expect(refused).toMatchObject({
        outcome: 'errored',
        errorBucket: 'session_terminating',
        errorCategory: 'harness_idempotency_unsupported',
      });
      expect(runs()).toBe(0);
      expect(await inner.load('s')).toBeUndefined();
      // Without a key the same store serves the send.
      expect((await harness.send('s', hello)).outcome).toBe('completed');
      expect(runs()).toBe(1);
    },
  );

  it('refuses a key that is empty, a lone surrogate, longer than 256 characters or not a string, before touching the store', async () => {
    const touched: string[] = [];
    const inner = new InMemorySessionStore();
    const watched = new Proxy(inner, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          touched.push(String(key));
          return Reflect.apply(value, target, args);
        };
      },
    });
    const { graph, runs } = counting();
    const harness = createChatHarness({ graph, store: watched });
    touched.length = 0; // creating the harness reads where the resume log ends
    const invalid: unknown[] = ['', '\ud800', 'k'.repeat(257), 42, null];
    for (const key of invalid) {
      // The key as an application without types may pass it.
      const outcome = await harness.send('s', hello, { idempotencyKey: key as string });
      expect(outcome).toMatchObject({
        outcome: 'errored',
        errorBucket: 'session_terminating',
        errorCategory: 'harness_idempotency_key_invalid',
      });
    }
    expect(touched).toEqual([]);
    expect(runs()).toBe(0);
    // The longest key there may be, and a key of any plane, are accepted.
    for (const key of ['k'.repeat(256), 'req-\u{1F600}'])
      expect((await harness.send(`s-${key.length}`, hello, { idempotencyKey: key })).outcome).toBe('completed');
    expect(runs()).toBe(2);
  });
});
