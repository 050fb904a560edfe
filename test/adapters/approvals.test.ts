/**
 * Approvals through the five tool loops: a mutating call whose policy asks for a person's yes
 * holds the turn (nothing mutates, the step waits with its requests and a state), and `resume`
 * records the decisions and runs what was approved once, in this loop or a new one on the same
 * ledger and session. Denied calls are answered truthfully; every history the loop returns is one
 * the format's check accepts.
 */
import { describe, expect, it } from 'vitest';
import { MemoryEffectLedger } from 'turngate';
import { approvalPolicy } from 'turngate/approvals';
import { checkTranscriptJson } from 'turngate/transcripts';
import { ADAPTERS, type AdapterName, type AnyStep, FORMAT, historyOf, loopOf, replyOf, Tools } from './reply-shapes.ts';

const policy = approvalPolicy(Tools, 'v1', {
  send_email: (input) => (input.to.endsWith('@inside') ? 'not_required' : 'required'),
});
const email = (id: string, to: string) => ({ id, name: 'send_email', input: { to, body: 'b' } });

function accepted(adapter: AdapterName, history: readonly unknown[], step: AnyStep): string {
  const report = checkTranscriptJson([...history, ...step.messages], { format: FORMAT[adapter] });
  return report.result === 'rejected' ? report.failures.map((f) => f.rule).join(', ') : report.result;
}

const resultOf = (step: AnyStep, id: string) => step.results.find((r) => r.toolCallId === id);

describe.each(ADAPTERS)('%s: approvals', (adapter) => {
  it('a call that needs approval holds the turn; approved, it runs once, however often resume is called', async () => {
    const ledger = new MemoryEffectLedger();
    const history = historyOf(adapter);
    const { loop, counter } = loopOf(adapter, { ledger, sessionId: 's1', approvals: policy });
    const reply = replyOf(adapter, [{ id: 'c0', name: 'get_weather', input: { city: 'Oslo' } }, email('c1', 'ada@x')]);
    const waiting = await loop.answer(history, reply);
    expect(waiting.done).toBe(true);
    expect(waiting.messages).toEqual([]);
    expect(waiting.approvals.map((a) => [a.toolCallId, a.toolName, a.state])).toEqual([
      ['c1', 'send_email', 'awaiting_approval'],
    ]);
    expect(counter.sent).toHaveLength(0);
    // The state is JSON data: it travels through a database or a queue.
    const state = JSON.parse(JSON.stringify(waiting.state));
    const decision = { toolCallId: 'c1', verdict: 'approve' as const, reason: 'expected', decidedBy: 'ada' };
    const step = await loop.resume(state, [decision]);
    expect(counter.sent).toEqual([{ to: 'ada@x', body: 'b' }]);
    expect(step.done).toBe(false);
    expect(accepted(adapter, history, step)).toBe('accepted');
    expect(step.mutations.map((m) => m.outcome)).toEqual(['performed']);
    // The signal delivered twice, and to a new loop on the same ledger: nothing more runs.
    const again = await loop.resume(state, [decision]);
    const other = loopOf(adapter, { ledger, sessionId: 's1', approvals: policy });
    const third = await other.loop.resume(state, [decision]);
    expect(counter.sent.length + other.counter.sent.length).toBe(1);
    expect([again, third].map((s) => s.mutations.map((m) => m.outcome))).toEqual([['replayed'], ['replayed']]);
  });

  it('denied: answered "not run: declined by", nothing sent; an approved and a not-required call of the same turn run', async () => {
    const ledger = new MemoryEffectLedger();
    const history = historyOf(adapter);
    const { loop, counter } = loopOf(adapter, { ledger, sessionId: 's1', approvals: policy });
    const reply = replyOf(adapter, [
      { id: 'c0', name: 'get_weather', input: { city: 'Oslo' } },
      email('c1', 'ada@x'),
      email('c2', 'eve@x'),
      email('c3', 'ops@inside'),
    ]);
    const waiting = await loop.answer(history, reply);
    expect(waiting.approvals.map((a) => a.toolCallId)).toEqual(['c1', 'c2']);
    expect(counter.sent).toHaveLength(0);
    const step = await loop.resume(waiting.state, [
      { toolCallId: 'c1', verdict: 'approve', reason: '', decidedBy: 'ada' },
      { toolCallId: 'c2', verdict: 'deny', reason: 'not to eve', decidedBy: 'ada' },
    ]);
    expect(counter.sent.map((s) => s.to).sort()).toEqual(['ada@x', 'ops@inside']);
    expect(resultOf(step, 'c2')?.error).toMatchObject({
      errorMessage: 'not run: declined by ada: not to eve',
      retryable: false,
    });
    expect(resultOf(step, 'c0')?.status).toBe('ok');
    expect(accepted(adapter, history, step)).toBe('accepted');
  });

  it('one decision of two: the step keeps waiting and nothing runs', async () => {
    const { loop, counter } = loopOf(adapter, { ledger: new MemoryEffectLedger(), sessionId: 's1', approvals: policy });
    const waiting = await loop.answer(
      historyOf(adapter),
      replyOf(adapter, [email('c1', 'ada@x'), email('c2', 'bob@x')]),
    );
    const still = await loop.resume(waiting.state, [
      { toolCallId: 'c1', verdict: 'approve', reason: '', decidedBy: 'ada' },
    ]);
    expect(still.approvals.map((a) => a.toolCallId)).toEqual(['c2']);
    expect(still.done).toBe(true);
    expect(counter.sent).toHaveLength(0);
  });

  it('a policy changed while the turn waited asks again and runs nothing on the old approval', async () => {
    const ledger = new MemoryEffectLedger();
    const history = historyOf(adapter);
    const before = loopOf(adapter, { ledger, sessionId: 's1', approvals: policy });
    const waiting = await before.loop.answer(history, replyOf(adapter, [email('c1', 'ada@x')]));
    const stricter = approvalPolicy(Tools, 'v2', { send_email: 'always' });
    const after = loopOf(adapter, { ledger, sessionId: 's1', approvals: stricter });
    const step = await after.loop.resume(waiting.state, [
      { toolCallId: 'c1', verdict: 'approve', reason: '', decidedBy: 'ada' },
    ]);
    expect(after.counter.sent).toHaveLength(0);
    expect(step.approvals.map((a) => a.toolCallId)).toEqual(['c1']);
  });

  it('a decision for a call the step does not wait for is a TypeError naming the field', async () => {
    const { loop } = loopOf(adapter, { ledger: new MemoryEffectLedger(), sessionId: 's1', approvals: policy });
    const waiting = await loop.answer(historyOf(adapter), replyOf(adapter, [email('c1', 'ada@x')]));
    await expect(
      loop.resume(waiting.state, [{ toolCallId: 'forged', verdict: 'approve', reason: '', decidedBy: 'mallory' }]),
    ).rejects.toThrow(/decisions\[0\]\.toolCallId: expected one of the waiting calls \(c1\)/);
    await expect(loop.resume({ kind: 'other' }, [])).rejects.toThrow(/resume: state: expected a waiting step's state/);
  });
});

it('approvals need a ledger that keeps them: a plain EffectLedger is a TypeError naming options.ledger', () => {
  const plain = { begin: () => ({ claimed: true as const }), finish: () => undefined, read: () => undefined };
  expect(() => loopOf('anthropic', { ledger: plain, sessionId: 's1', approvals: policy })).toThrow(
    /options\.ledger: approvals need/,
  );
});

describe('an approval across processes (SQLite store ledger)', () => {
  it('one process waits, another resumes with the decision, a third resumes again: one email', async () => {
    const { execFileSync } = await import('node:child_process');
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const script = new URL('../fixtures/adapter-approval.mjs', import.meta.url).pathname;
    const dir = mkdtempSync(join(tmpdir(), 'turngate-approval-'));
    const args = [join(dir, 'chat.db'), join(dir, 'outbox.txt'), join(dir, 'state.json')];
    const run = (mode: string) =>
      JSON.parse(execFileSync(process.execPath, [script, ...args, mode], { encoding: 'utf8' }));
    const asked = run('ask');
    expect(asked).toMatchObject({ waiting: ['call_1'], messages: 0 });
    const resumed = run('resume');
    expect(resumed).toMatchObject({ waiting: [], mutations: ['performed'], messages: 2 });
    expect(resumed.pid).not.toBe(asked.pid);
    expect(run('resume')).toMatchObject({ mutations: ['replayed'] });
    expect(
      readFileSync(args[1] as string, 'utf8')
        .trim()
        .split('\n'),
    ).toEqual(['ada@example.com']);
  });
});
