/**
 * Store faults through the harness: which bucket and category a store's failure becomes, that
 * the cause is kept, and what the harness tells the store when it takes a session.
 */
import { describe, expect, it } from 'vitest';
import {
  createChatHarness,
  InMemorySessionStore,
  type LockedSession,
  type SaveOptions,
  type SessionLockOptions,
  type SessionRecord,
  SessionLockTimeout,
  SessionStoreUnavailable,
  sequentialGraph,
  suspend,
  type ChatTurnOutcome,
} from './index.ts';
import type { ChatMessage } from '../transcripts/index.ts';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const reply = sequentialGraph({
  entry: 'n',
  nodes: { n: () => ({ messages: [{ role: 'assistant', content: 'ok' }] }) },
  edges: [],
});
const approval = sequentialGraph({
  entry: 'gate',
  nodes: { gate: () => suspend({ signal_id: 'approve' }), after: () => undefined },
  edges: [{ from: 'gate', to: 'after' }],
});

/** A store that fails one step with the given error, once armed. */
class FaultyStore extends InMemorySessionStore {
  failing: 'lock' | 'save' | 'find' | undefined;
  taken: SessionLockOptions[] = [];
  constructor(private readonly error: unknown) {
    super();
  }
  override withSessionLock<T>(
    sessionId: string,
    body: (session: LockedSession) => Promise<T>,
    options?: SessionLockOptions,
  ): Promise<T> {
    this.taken.push(options ?? {});
    if (this.failing === 'lock') return Promise.reject(this.error);
    return super.withSessionLock(sessionId, body, options);
  }
  override save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expectedVersion: number,
    options?: SaveOptions,
  ): Promise<number> {
    if (this.failing === 'save') return Promise.reject(this.error);
    return super.save(sessionId, record, expectedVersion, options);
  }
  override findSuspension(signalId: string) {
    if (this.failing === 'find') return Promise.reject(this.error);
    return super.findSuspension(signalId);
  }
}

function errored(outcome: ChatTurnOutcome | undefined) {
  if (outcome?.outcome !== 'errored') throw new Error(`expected errored, got ${outcome?.outcome}`);
  return { bucket: outcome.errorBucket, category: outcome.errorCategory, cause: outcome.cause };
}

describe('store faults through the harness', () => {
  const unavailable = () => new SessionStoreUnavailable('unreachable', 'connect ECONNREFUSED 127.0.0.1:5432');

  it('answers a store that cannot be reached as retryable, naming the step, keeping the cause', async () => {
    for (const [step, category] of [
      ['lock', 'session_load_failed'],
      ['save', 'session_save_failed'],
    ] as const) {
      const error = unavailable();
      const store = new FaultyStore(error);
      const harness = createChatHarness({ graph: reply, store });
      expect((await harness.send('s', user('one'))).outcome).toBe('completed');
      const before = await store.load('s');
      store.failing = step;
      expect(errored(await harness.send('s', user('two')))).toEqual({
        bucket: 'retryable_transient',
        category,
        cause: error,
      });
      store.failing = undefined;
      expect(await store.load('s')).toEqual(before);
      expect((await harness.send('s', user('two'))).outcome).toBe('completed');
    }
  });

  it('answers a suspension the store cannot keep for now as retryable suspension_persistence_failed', async () => {
    const error = new SessionStoreUnavailable('timeout', 'Query read timeout', { outcomeUnknown: true });
    const store = new FaultyStore(error);
    store.failing = 'save';
    const outcome = errored(await createChatHarness({ graph: approval, store }).send('s', user('go')));
    expect(outcome).toEqual({ bucket: 'retryable_transient', category: 'suspension_persistence_failed', cause: error });
    expect((outcome.cause as SessionStoreUnavailable).outcomeUnknown).toBe(true);
  });

  it('answers a session held elsewhere too long as retryable (SessionLockTimeout is unavailable, busy)', async () => {
    const error = new SessionLockTimeout('s', 30_000);
    expect(error).toBeInstanceOf(SessionStoreUnavailable);
    expect(error.code).toBe('busy');
    const store = new FaultyStore(error);
    store.failing = 'lock';
    expect(errored(await createChatHarness({ graph: reply, store }).send('s', user('hi'))).bucket).toBe(
      'retryable_transient',
    );
  });

  it('keeps session_terminating for a store error that is not transient', async () => {
    const error = new Error('permission denied for table turngate_sessions');
    const store = new FaultyStore(error);
    store.failing = 'save';
    expect(errored(await createChatHarness({ graph: reply, store }).send('s', user('hi')))).toEqual({
      bucket: 'session_terminating',
      category: 'session_save_failed',
      cause: error,
    });
  });

  it('answers a signal whose suspension cannot be looked up for now as retryable', async () => {
    const error = unavailable();
    const store = new FaultyStore(error);
    const harness = createChatHarness({ graph: approval, store });
    expect((await harness.send('s', user('go'))).outcome).toBe('suspended');
    store.failing = 'find';
    expect(errored(await harness.signal('approve', {}))).toEqual({
      bucket: 'retryable_transient',
      category: 'session_load_failed',
      cause: error,
    });
    store.failing = undefined;
    expect((await harness.signal('approve', {}))?.outcome).toBe('completed');
  });

  it('tells the store the version it holds and the send key when it takes the session', async () => {
    const store = new FaultyStore(undefined);
    const harness = createChatHarness({ graph: reply, store });
    await harness.send('s', user('one'));
    await harness.send('s', user('two'), { idempotencyKey: 'k2' });
    expect(store.taken).toEqual([{}, { knownVersion: 1, sendKey: 'k2' }]);
  });
});
