import { describe, expect, it } from 'vitest';
import { toChatMessages } from '../index.ts';

describe('openai-chat to ChatMessage', () => {
  it('takes arguments written as an object (a shape the check reports) as the arguments, and a call without type as a function call', () => {
    const converted = toChatMessages(
      // biome-ignore lint/plugin: a parsed JSON history may hold shapes the OpenAIChatMessage type refuses; the converter reads them
      [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', function: { name: 'get_weather', arguments: { city: 'Oslo' } } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
      ] as never,
      { format: 'openai-chat' },
    );
    expect(converted.ok && converted.value.messages).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
    ]);
    expect(converted.ok && converted.value.losses).toEqual([]);
  });
});
