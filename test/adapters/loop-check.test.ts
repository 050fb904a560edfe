/**
 * `ToolLoop.check`: the transcript check `answer` runs, for a history a caller keeps itself
 * (a durable workflow checks each history before its model call).
 */
import * as v from 'valibot';
import { expect, it } from 'vitest';
import { defineTools } from 'turngate';
import { toolLoop } from 'turngate/adapters/anthropic';
import { toolLoop as chatLoop } from 'turngate/adapters/openai-chat';
import { anthropicReply } from '../fixtures/anthropic-reply.mjs';

class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
const handlers = { get_weather: async ({ city }: { city: string }) => `snow in ${city}` };

it('accepts the history a step made and refuses one the provider would, naming the rule', async () => {
  const loop = toolLoop({ tools: Tools, handlers });
  const history = [{ role: 'user' as const, content: 'Weather in Oslo?' }];
  expect(loop.check(history).result).toBe('accepted');
  const step = await loop.answer(history, anthropicReply('msg_1', [['toolu_1', 'get_weather', { city: 'Oslo' }]]));
  expect(loop.check([...history, ...step.messages]).result).toBe('accepted');
  // The reply without its results: a tool call left open before the next user turn.
  const open = [...history, step.messages[0], { role: 'user' as const, content: 'and Bergen?' }].filter(
    (m) => m !== undefined,
  );
  const report = loop.check(open);
  expect(report.result).toBe('rejected');
  expect(report.result === 'rejected' ? report.failures.length : 0).toBeGreaterThan(0);
});

it('checks in its own format: an Anthropic history is not an OpenAI chat one', () => {
  const loop = chatLoop({ tools: Tools, handlers });
  const history = [{ role: 'user' as const, content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] }];
  // biome-ignore lint/plugin: a history of another format, on purpose
  expect(loop.check(history as never).result).not.toBe('accepted');
});
