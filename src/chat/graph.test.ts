import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  createChatHarness,
  END,
  sequentialGraph,
  suspend,
  type ChatNode,
  type ChatState,
  type ChatTurnErrored,
  type SequentialGraphDefinition,
} from './index.ts';

const nothing: ChatNode = () => undefined;

const pendingCalls = (state: ChatState) => {
  const last = state.messages.at(-1);
  return last?.role === 'assistant' ? (last.tool_calls ?? []) : [];
};

/** A model that asks for `rounds` tool calls, one per step, then answers. */
function toolLoop(rounds: number, maxSteps?: number) {
  return sequentialGraph({
    entry: 'model',
    nodes: {
      model: (state) => {
        const asked = state.messages.filter((m) => m.role === 'tool').length;
        return asked < rounds
          ? {
              messages: [
                {
                  role: 'assistant',
                  content: [],
                  tool_calls: [{ id: `call_${asked}`, name: 'lookup', arguments: { n: asked } }],
                },
              ],
            }
          : { messages: [{ role: 'assistant', content: `looked up ${asked} times` }] };
      },
      tools: (state) => ({
        messages: pendingCalls(state).map((call) => ({
          role: 'tool' as const,
          tool_call_id: call.id,
          content: `result ${call.id}`,
        })),
      }),
    },
    edges: [
      { from: 'model', to: (state) => (pendingCalls(state).length > 0 ? 'tools' : END) },
      { from: 'tools', to: 'model' },
    ],
    ...(maxSteps === undefined ? {} : { maxSteps }),
  });
}

describe('sequentialGraph with conditional edges', () => {
  it('runs a tool loop as a graph: the router picks tools until the model answers', async () => {
    const outcome = await createChatHarness({ graph: toolLoop(3) }).send('s', { role: 'user', content: 'go' });
    expect(outcome.outcome === 'completed' && outcome.replies.map((m) => m.role)).toEqual([
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(outcome.outcome === 'completed' && outcome.replies.at(-1)).toEqual({
      role: 'assistant',
      content: 'looked up 3 times',
    });
  });

  it('takes an async router, and continues after the suspending node on resume with the payload merged', async () => {
    const graph = sequentialGraph({
      entry: 'ask',
      nodes: {
        ask: () => ({ messages: [{ role: 'assistant', content: 'Shall I?' }] }),
        gate: (state) => (state['approved'] === undefined ? suspend({ signal_id: 'decide' }) : undefined),
        yes: () => ({ messages: [{ role: 'assistant', content: 'Done.' }] }),
        no: () => ({ messages: [{ role: 'assistant', content: 'Cancelled.' }] }),
      },
      edges: [
        { from: 'ask', to: 'gate' },
        { from: 'gate', to: async (state) => (state['approved'] === true ? 'yes' : 'no') },
      ],
      stateSchema: v.looseObject({ approved: v.optional(v.boolean()) }),
    });
    const harness = createChatHarness({ graph });
    expect((await harness.send('s', { role: 'user', content: 'delete it' })).outcome).toBe('suspended');
    expect(await harness.signal('decide', { approved: false })).toMatchObject({
      outcome: 'completed',
      replies: [{ role: 'assistant', content: 'Cancelled.' }],
    });
    await harness.send('t', { role: 'user', content: 'delete it' });
    expect(await harness.signal('decide', { approved: 'yes' })).toMatchObject({
      outcome: 'errored',
      errorCategory: 'suspension_resume_payload_invalid',
    });
    expect(await harness.signal('decide', { approved: true })).toMatchObject({ replies: [{ content: 'Done.' }] });
  });

  it('stops a run that does not end within maxSteps, as a programming error that saves nothing', async () => {
    const harness = createChatHarness({ graph: toolLoop(10, 6) });
    const outcome = (await harness.send('s', { role: 'user', content: 'go' })) as ChatTurnErrored;
    expect(outcome).toMatchObject({
      outcome: 'errored',
      errorCategory: 'graph_programming_error',
      errorBucket: 'session_terminating',
    });
    expect((outcome.cause as Error).message).toBe('the run did not end within 6 steps (maxSteps)');
    expect(await harness.listSuspended()).toEqual([]);
  });

  it('refuses a router that names no node, and a node that returns something other than an update', async () => {
    const said = (state: ChatState) => (state.messages.at(-1) as { content: string }).content;
    const graph = sequentialGraph<string>({
      entry: 'a',
      nodes: {
        a: nothing,
        // biome-ignore lint/plugin: the node returns what its type forbids, as untyped code may
        b: (() => 42) as never,
      },
      edges: [{ from: 'a', to: (state) => (said(state) === 'x' ? 'nowhere' : 'b') }],
    });
    const harness = createChatHarness({ graph });
    const first = (await harness.send('s', { role: 'user', content: 'x' })) as ChatTurnErrored;
    expect((first.cause as Error).message).toBe('the router after node a returned "nowhere", not a node name');
    const second = (await harness.send('s', { role: 'user', content: 'y' })) as ChatTurnErrored;
    expect((second.cause as Error).message).toBe('node b returned number, not a state update');
    expect(second.errorCategory).toBe('graph_programming_error');
    expect(first.errorCategory).toBe('graph_programming_error');
  });

  it.each<[SequentialGraphDefinition<string>, string]>([
    [{ entry: 'missing', nodes: { a: nothing }, edges: [] }, 'entry "missing" names no node'],
    [{ entry: 'a', nodes: { a: nothing }, edges: [{ from: 'b', to: 'a' }] }, 'an edge leaves "b", not a node'],
    [{ entry: 'a', nodes: { a: nothing }, edges: [{ from: 'a', to: 'c' }] }, 'leads to "c", not a node'],
    [
      {
        entry: 'a',
        nodes: { a: nothing, b: nothing },
        edges: [
          { from: 'a', to: 'b' },
          { from: 'a', to: END },
        ],
      },
      'node "a" has two edges',
    ],
    [{ entry: 'END', nodes: { END: nothing }, edges: [] }, 'a node may not be named END'],
    [{ entry: 'a', nodes: { a: nothing }, edges: [], maxSteps: 0 }, 'maxSteps must be a positive integer'],
  ])('refuses an inconsistent definition at construction (%#)', (definition, message) => {
    expect(() => sequentialGraph<string>(definition)).toThrow(new RegExp(message.replace(/[()]/g, '\\$&')));
  });
});
