/**
 * `durableToolLoop` on an engine in memory: a step's result kept by name and given back on a
 * second run of the workflow (a recovery), a process death played by a step that never settles
 * (its run is abandoned; nothing is recorded), and a receive that reads an inbox. The effects go
 * through one MemoryEffectLedger shared by both runs, as a database's would be.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineTools, MemoryEffectLedger } from 'turngate';
import { approvalPolicy } from 'turngate/approvals';
import { toolLoop } from 'turngate/adapters/anthropic';
import { checkTranscript } from 'turngate/transcripts';
import {
  DurableLoopError,
  durableToolLoop,
  type DurableEngine,
  type DurableSession,
  WAITING_EVENT,
} from 'turngate/durable';
import { anthropicReply } from '../fixtures/anthropic-reply.mjs';

class Tools extends defineTools({
  get_weather: { input: v.object({ city: v.string() }), output: v.string() },
  send_email: { input: v.object({ to: v.string() }), output: v.object({ sent: v.boolean() }), mutation: true },
}) {}

const input = [{ role: 'user' as const, content: 'Weather in Oslo, and email it to ada@example.com' }];
/** Never settles: the process died here. */
const death = () => new Promise<never>(() => {});

/** An engine whose steps and inbox outlive a run (the engine's database). */
function memoryEngine(records: Map<string, unknown>, inbox: unknown[] | 'dies', diesAfter?: string): DurableEngine {
  return {
    workflowId: 'wf-1',
    step: async (name, run) => {
      // biome-ignore lint/plugin: what this step recorded, by its name: the step's own result type
      if (records.has(name)) return structuredClone(records.get(name)) as never;
      const value = await run();
      if (name === diesAfter) await death(); // ran, not recorded
      records.set(name, structuredClone(value));
      return value;
    },
    receive: async () => (inbox === 'dies' ? death() : inbox.shift()),
  };
}

/** One workflow killed at `point` and recovered: the counts of model calls, reads, effects, refused histories. */
async function killedAt(point: string) {
  const records = new Map<string, unknown>();
  const ledger = new MemoryEffectLedger();
  const n = { model: [0, 0] as [number, number], reads: 0, effects: 0, rejected: 0 };
  let killing = true;
  const run = (inbox: unknown[] | 'dies') =>
    durableToolLoop(memoryEngine(records, inbox, killing && point === 'answered' ? 'turngate.answer.1' : undefined), {
      ledger,
      history: input,
      // The loop first: the message and reply types are inferred from it.
      loop: (session) =>
        toolLoop({
          tools: Tools,
          ...session,
          ...(point === 'approval' ? { approvals: approvalPolicy(Tools, 'v1', { send_email: 'always' }) } : {}),
          handlers: {
            get_weather: async ({ city }) => {
              n.reads++;
              if (killing && point === 'read') await death();
              return `snow in ${city}`;
            },
            send_email: async () => {
              if (killing && point === 'mutation') await death();
              n.effects++;
              if (killing && point === 'after-mutation') await death();
              return { sent: true };
            },
          },
        }),
      model: async (history, { turn }) => {
        const at = turn === 1 ? 0 : 1;
        n.model[at] += 1;
        const calls = n.model[at];
        if (checkTranscript(history, { format: 'anthropic' }).result !== 'accepted') n.rejected++;
        if (killing && point === 'model') return death();
        return turn === 1
          ? anthropicReply(`msg_${calls}`, [
              [`toolu_${calls}_1`, 'get_weather', { city: 'Oslo' }],
              [`toolu_${calls}_2`, 'send_email', { to: 'ada@example.com' }],
            ])
          : anthropicReply(`msg_2_${calls}`, [], { stop: 'end_turn', content: [{ type: 'text', text: 'Sent.' }] });
      },
    });
  // The first run dies at the point (killed while waiting: its receive never returns).
  void run(point === 'approval' ? 'dies' : []);
  await new Promise((resolve) => setTimeout(resolve, 20));
  killing = false;
  // The recovery; a message that is not decisions is received and ignored.
  const decisions = [{ toolCallId: 'toolu_1_2', verdict: 'approve', reason: 'expected', decidedBy: 'ada' }];
  const result = await run([{ not: 'decisions' }, decisions]);
  const unknown = result.turns.flatMap((t) => t.calls).filter((c) => c.errorCode === 'effect_outcome_unknown').length;
  return { status: result.status, ...n, unknown, waits: result.turns.reduce((sum, t) => sum + t.waits, 0) };
}

describe('durableToolLoop on an engine in memory', () => {
  it('recovers at each kill point: a recorded reply is not asked again, an effect runs at most once', async () => {
    const done = { status: 'done', rejected: 0, waits: 0 };
    expect(await killedAt('model')).toEqual({ ...done, model: [2, 1], reads: 1, effects: 1, unknown: 0 });
    expect(await killedAt('read')).toEqual({ ...done, model: [1, 1], reads: 2, effects: 1, unknown: 0 });
    expect(await killedAt('mutation')).toEqual({ ...done, model: [1, 1], reads: 2, effects: 0, unknown: 1 });
    expect(await killedAt('after-mutation')).toEqual({ ...done, model: [1, 1], reads: 2, effects: 1, unknown: 1 });
    // Killed after the answer ran (the ledger holds the effect) and before the step was recorded.
    expect(await killedAt('answered')).toEqual({ ...done, model: [1, 1], reads: 2, effects: 1, unknown: 0 });
    // Killed while waiting: the recovery waits again; the message that is not decisions is one
    // wait, the decisions another. The reads run again when the approved reply is answered (resume).
    expect(await killedAt('approval')).toEqual({ ...done, model: [1, 1], reads: 2, effects: 1, unknown: 0, waits: 2 });
  });

  it('ends approval_timed_out with the waiting state when no decision comes, having published the requests', async () => {
    const published: unknown[] = [];
    const engine: DurableEngine = {
      ...memoryEngine(new Map(), []),
      publish: async (key, value) => {
        published.push([key, value]);
      },
    };
    const result = await durableToolLoop(engine, {
      ledger: new MemoryEffectLedger(),
      history: input,
      model: async () => anthropicReply('msg_1', [['toolu_1', 'send_email', { to: 'ada@example.com' }]]),
      loop: (session) =>
        toolLoop({
          tools: Tools,
          ...session,
          approvals: approvalPolicy(Tools, 'v1', { send_email: 'always' }),
          handlers: { get_weather: async () => 'snow', send_email: async () => ({ sent: true }) },
        }),
    });
    expect(result.status).toBe('approval_timed_out');
    expect(result.waiting?.approvals.map((a) => a.toolCallId)).toEqual(['toolu_1']);
    expect(result.history).toEqual(input);
    expect(published).toEqual([[WAITING_EVENT, result.waiting?.approvals]]);
  });

  it('sends no history the format refuses: the model is not called', async () => {
    let calls = 0;
    const orphan = [
      { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_x', content: 'x' }] },
    ];
    const run = durableToolLoop(memoryEngine(new Map(), []), {
      ledger: new MemoryEffectLedger(),
      history: orphan,
      model: async () => {
        calls++;
        return anthropicReply('msg_1', []);
      },
      loop: (session) =>
        toolLoop({
          tools: Tools,
          ...session,
          handlers: { get_weather: async () => 'snow', send_email: async () => ({ sent: true }) },
        }),
    });
    await expect(run).rejects.toThrow(DurableLoopError);
    await expect(run).rejects.toThrow(/turn 1: the history is not one the provider accepts; nothing was sent/);
    expect(calls).toBe(0);
  });

  it('refuses a maxTurns or approvalTimeoutMs that is not a positive whole number, naming it', async () => {
    const ledger = new MemoryEffectLedger();
    const options = {
      ledger,
      history: input,
      model: async () => anthropicReply('msg_1', []),
      loop: (session: DurableSession) =>
        toolLoop({
          tools: Tools,
          ...session,
          handlers: { get_weather: async () => 'snow', send_email: async () => ({ sent: true }) },
        }),
    };
    await expect(durableToolLoop(memoryEngine(new Map(), []), { ...options, maxTurns: 0 })).rejects.toThrow(
      'durableToolLoop: options.maxTurns: expected a positive whole number, got 0',
    );
    await expect(durableToolLoop(memoryEngine(new Map(), []), { ...options, approvalTimeoutMs: 1.5 })).rejects.toThrow(
      'durableToolLoop: options.approvalTimeoutMs: expected a positive whole number, got 1.5',
    );
  });

  it('stops at maxTurns', async () => {
    let turn = 0;
    const result = await durableToolLoop(memoryEngine(new Map(), []), {
      ledger: new MemoryEffectLedger(),
      history: input,
      maxTurns: 2,
      model: async () => {
        turn++;
        return anthropicReply(`msg_${turn}`, [[`toolu_${turn}`, 'get_weather', { city: 'Oslo' }]]);
      },
      loop: (session) =>
        toolLoop({
          tools: Tools,
          ...session,
          handlers: { get_weather: async () => 'snow', send_email: async () => ({ sent: true }) },
        }),
    });
    expect(result.status).toBe('max_turns');
    expect(result.turns.map((t) => t.turn)).toEqual([1, 2]);
    expect(result.history).toHaveLength(5);
  });
});
