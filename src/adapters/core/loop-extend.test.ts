import type OpenAI from 'openai';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { replyOf } from '../../../test/adapters/reply-shapes.ts';
import { defineTools } from '../../index.ts';
import { checkTranscriptJson } from '../../transcripts/index.ts';
import { type OpenAIChatToolLoop, toolLoop } from '../openai-chat/index.ts';
import { ToolLoopError } from '../index.ts';

class Tools extends defineTools({
  get_weather: { input: v.object({ city: v.string() }), output: v.string() },
}) {}

const handlers = { get_weather: async ({ city }: { city: string }) => `snow in ${city}` };

/** A completion asking for one read call with this id. */
const completion = (id: string) =>
  replyOf('openai-chat', [{ id, name: 'get_weather', input: { city: 'Oslo' } }], {
    id: `chatcmpl-${id}`,
  }) as OpenAI.ChatCompletion;

/** Runs `steps` steps of one read call each; returns the history (the caller appends each step's messages). */
async function converse(
  loop: OpenAIChatToolLoop<Tools>,
  history: OpenAI.ChatCompletionMessageParam[],
  steps: number,
  from = 0,
) {
  for (let s = from; s < from + steps; s++) {
    const step = await loop.answer(history, completion(`call_${s}`));
    history.push(...step.messages);
    if (s % 3 === 0) history.push({ role: 'user', content: `and step ${s}?` });
  }
  return history;
}

describe('the tool loop checks each step by its new messages', () => {
  it('a long conversation stays one the full check accepts', async () => {
    const loop = toolLoop({ tools: Tools, handlers });
    const history = await converse(loop, [{ role: 'user', content: 'Weather?' }], 40);
    expect(history.length).toBeGreaterThan(80);
    expect(checkTranscriptJson(history, { format: 'openai-chat' }).result).toBe('accepted');
  });

  it('a reply repeating a call id of the history is refused as the full check refuses it, before anything runs', async () => {
    const loop = toolLoop({ tools: Tools, handlers });
    const history = await converse(loop, [{ role: 'user', content: 'Weather?' }], 5);
    const error = await loop.answer(history, completion('call_2')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolLoopError);
    expect((error as ToolLoopError).code).toBe('reply_refused');
    expect((error as ToolLoopError).failures.map((f) => ('rule' in f ? `${f.rule} ${f.at}` : f.class))).toContain(
      `openai-chat.duplicate_tool_call_id messages[${history.length}].tool_calls[0]`,
    );
  });

  it('a message the caller appends that breaks a rule is refused, at its place in the whole history', async () => {
    const loop = toolLoop({ tools: Tools, handlers });
    const history = await converse(loop, [{ role: 'user', content: 'Weather?' }], 4);
    history.push({ role: 'tool', tool_call_id: 'call_9', content: 'Rain' });
    const error = await loop.answer(history, completion('call_x')).catch((e: unknown) => e);
    expect((error as ToolLoopError).failures.map((f) => ('rule' in f ? `${f.rule} ${f.at}` : f.class))).toEqual(
      checkTranscriptJson(
        [...history, completion('call_x').choices[0]?.message, { role: 'tool', tool_call_id: 'call_x', content: 'x' }],
        { format: 'openai-chat' },
      ).failures.map((f) => `${f.rule} ${f.at}`),
    );
  });

  it('an earlier history answered again (a retry from step 2) is checked as a whole history is', async () => {
    const loop = toolLoop({ tools: Tools, handlers });
    const start: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather?' }];
    const early = await converse(loop, start, 2);
    const saved = [...early];
    await converse(loop, early, 3, 2);
    // From the saved step-2 history: a new call, and then a call id the later steps used (unknown to this history).
    const step = await loop.answer(saved, completion('call_9'));
    expect(checkTranscriptJson([...saved, ...step.messages], { format: 'openai-chat' }).result).toBe('accepted');
    const again = await loop.answer([...saved, ...step.messages], completion('call_3'));
    expect(again.messages.length).toBe(2);
    const repeat = await loop.answer([...saved, ...step.messages], completion('call_9')).catch((e: unknown) => e);
    expect((repeat as ToolLoopError).code).toBe('reply_refused');
  });

  it('a history that is not the last step’s grown (messages removed, or copies) is checked whole', async () => {
    const loop = toolLoop({ tools: Tools, handlers });
    const history = await converse(loop, [{ role: 'user', content: 'Weather?' }], 3);
    // Copies of the messages, and the history without its first message: no step ended with either.
    for (const other of [structuredClone(history), history.slice(1)]) {
      const step = await loop.answer(other, completion('call_z'));
      expect(checkTranscriptJson([...other, ...step.messages], { format: 'openai-chat' }).result).toBe('accepted');
    }
    // A copy holding a message that breaks a rule is refused.
    const broken = [...structuredClone(history), { role: 'tool', tool_call_id: 'call_0', content: 'again' } as const];
    const error = await loop.answer(broken, completion('call_w')).catch((e: unknown) => e);
    expect((error as ToolLoopError).code).toBe('reply_refused');
  });
});
