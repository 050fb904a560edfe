/**
 * The restart test, for any store: one process suspends a turn and exits; this process, with a
 * store of its own on the same data, finds the suspension and resumes it. Run by
 * test/restart.test.ts (SQLite) and test/postgres/store.test.ts (PostgreSQL); needs dist/.
 */
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import {
  createChatHarness,
  sequentialGraph,
  suspend,
  type ChatTurnOutcome,
  type SessionStore,
} from '../src/chat/index.ts';
import { approvalGraph } from './fixtures/approval-graph.mjs';

export async function restartAndResume(args: readonly string[], reopen: () => SessionStore): Promise<void> {
  const script = new URL('./fixtures/suspend-and-exit.mjs', import.meta.url).pathname;
  const child = JSON.parse(execFileSync(process.execPath, [script, ...args], { encoding: 'utf8' })) as {
    outcome: string;
    pid: number;
  };
  expect(child.outcome).toBe('suspended');
  expect(child.pid).not.toBe(process.pid);
  const store = reopen();
  const harness = createChatHarness({
    graph: approvalGraph(sequentialGraph, suspend),
    store,
    initialState: { approved: false },
  });
  const waiting = await harness.listSuspended();
  expect(waiting.map((s) => [s.sessionId, s.descriptor.signal_id, s.openToolCalls.map((c) => c.id)])).toEqual([
    ['restart-1', 'refund:A-1001', ['call_refund']],
  ]);
  const heard: ChatTurnOutcome[] = [];
  harness.subscribe('restart-1', (o) => heard.push(o));
  expect(await harness.signal('refund:A-1001', { approved: true })).toMatchObject({
    outcome: 'completed',
    dispatchPath: '3.3',
    replies: [
      { role: 'tool', tool_call_id: 'call_refund' },
      { role: 'assistant', content: 'Refunded.' },
    ],
  });
  expect(heard).toHaveLength(1);
  expect(await harness.signal('refund:A-1001', { approved: true })).toBeUndefined();
  expect(await harness.listSuspended()).toEqual([]);
  expect((await store.load('restart-1'))?.state.messages.map((m) => m.role)).toEqual([
    'user',
    'assistant',
    'tool',
    'assistant',
  ]);
}
