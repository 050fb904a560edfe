import { describe, expect, it } from 'vitest';
import { seedDigest } from '../core/ids.ts';
import { FORMAT_DRIVERS } from '../formats.ts';
import { checkTranscriptJson, repairTranscriptJson, TRANSCRIPT_RULES } from '../index.ts';

const call = (id: string, args = '{}') => ({
  id,
  type: 'function',
  function: { name: 'get_weather', arguments: args },
});
const round = (assistant: Record<string, unknown>) => [
  { role: 'user', content: 'Weather in Oslo?' },
  { role: 'assistant', content: null, tool_calls: [call('call_1')], ...assistant },
  { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
];
const rules = (value: unknown, dialect?: 'deepseek' | 'kimi' | 'groq' | 'xai', model?: string) =>
  checkTranscriptJson(value, {
    format: 'openai-chat',
    ...(dialect === undefined ? {} : { dialect }),
    ...(model === undefined ? {} : { model }),
  }).failures.map((f) => f.rule);

describe('openai-chat dialects', () => {
  it('run a dialect rule only for its dialect, and list the dialects in the rule metadata', () => {
    expect(rules(round({}), undefined, 'deepseek-reasoner')).toEqual([]);
    expect(rules(round({}), 'kimi', 'deepseek-reasoner')).toEqual([]);
    expect(rules(round({}), 'deepseek', 'deepseek-reasoner')).toEqual([
      'openai-chat.deepseek_reasoning_content_missing',
    ]);
    expect(TRANSCRIPT_RULES['openai-chat.deepseek_reasoning_content_missing'].dialects).toEqual(['deepseek']);
  });

  it('DeepSeek: thinking mode from the body or the model; not deepseek-chat, not with thinking disabled, not with no model', () => {
    expect(rules(round({}), 'deepseek')).toEqual([]);
    expect(rules(round({}), 'deepseek', 'deepseek-chat')).toEqual([]);
    expect(rules({ model: 'deepseek-v4-pro', messages: round({}) }, 'deepseek')).toEqual([
      'openai-chat.deepseek_reasoning_content_missing',
    ]);
    expect(
      rules({ model: 'deepseek-v4-pro', thinking: { type: 'disabled' }, messages: round({}) }, 'deepseek'),
    ).toEqual([]);
    expect(rules({ model: 'deepseek-chat', thinking: { type: 'enabled' }, messages: round({}) }, 'deepseek')).toEqual([
      'openai-chat.deepseek_reasoning_content_missing',
    ]);
    expect(rules(round({ reasoning_content: 'Look it up.' }), 'deepseek', 'deepseek-reasoner')).toEqual([]);
  });

  it('Kimi: thinking models need reasoning_content on tool-call messages; ids take the functions.<name>:<index> grammar', () => {
    expect(rules(round({}), 'kimi', 'kimi-k2-thinking-turbo')).toEqual(['openai-chat.kimi_reasoning_content_missing']);
    expect(rules(round({}), 'kimi', 'kimi-k2.5')).toEqual(['openai-chat.kimi_reasoning_content_missing']);
    expect(rules(round({}), 'kimi', 'moonshot-v1-8k')).toEqual([]);
    const driver = FORMAT_DRIVERS['openai-chat'];
    const kimi = driver.toolCallIdsFor('kimi');
    const id = kimi.mint({ digest: seedDigest('toolu_01', 0), name: 'get_weather', index: 3 });
    expect(id).toBe('functions.get_weather:3');
    expect(kimi.accepts(id)).toBe(true);
    expect(kimi.accepts('call_1')).toBe(false);
    const long = kimi.mint({ digest: seedDigest('x', 0), name: 'a'.repeat(64), index: 12 });
    expect(kimi.accepts(long)).toBe(true);
    expect(driver.toolCallIdsFor('groq')).toBe(driver.toolCallIds);
    expect(driver.toolCallIdsFor(undefined)).toBe(driver.toolCallIds);
  });

  it('Groq and xAI: repair removes what Groq refuses and gives xAI its content, keeping the rest the same objects', () => {
    const groq = [
      { role: 'user', name: 'ana', content: 'Hi' },
      { role: 'assistant', content: 'Hello', reasoning_content: 'x' },
      { role: 'user', content: 'Bye' },
    ];
    const fixed = repairTranscriptJson(groq, { format: 'openai-chat', dialect: 'groq' });
    if (!fixed.ok) throw new Error('not repaired');
    expect(fixed.value.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      groq[2],
    ]);
    expect(fixed.value.messages[2]).toBe(groq[2]);
    expect(fixed.value.repairs.map((r) => r.removed)).toEqual(['ana', 'x']);
    const xai = round({});
    const content = repairTranscriptJson(xai, { format: 'openai-chat', dialect: 'xai' });
    expect(content.ok && content.value.messages[1]).toEqual({ ...xai[1], content: '' });
    expect(content.ok && content.value.messages[0]).toBe(xai[0]);
    const args = repairTranscriptJson(round({ content: '', tool_calls: [call('call_1', '')] }), {
      format: 'openai-chat',
      dialect: 'xai',
    });
    expect(args.ok && args.value.remaining.map((f) => f.rule)).toEqual([
      'openai-chat.xai_tool_call_arguments_not_json',
    ]);
  });

  it('Groq: any property outside its message schema is refused and repaired away; reasoning only on its reasoning models', () => {
    const history = [
      { role: 'user', content: 'Hi', 'x-trace': 'a1' },
      { role: 'assistant', content: 'Hello', reasoning: 'Greet back.', status: 'completed' },
      { role: 'user', content: 'Bye' },
    ];
    const paths = (model?: string) =>
      checkTranscriptJson(history, {
        format: 'openai-chat',
        dialect: 'groq',
        ...(model === undefined ? {} : { model }),
      }).failures.map((f) => `${f.rule} ${f.at}`);
    expect(paths()).toEqual([
      'openai-chat.groq_message_property_unsupported messages[0]["x-trace"]',
      'openai-chat.groq_message_property_unsupported messages[1].reasoning',
      'openai-chat.groq_message_property_unsupported messages[1].status',
    ]);
    expect(paths('openai/gpt-oss-120b')).toEqual([
      'openai-chat.groq_message_property_unsupported messages[0]["x-trace"]',
      'openai-chat.groq_message_property_unsupported messages[1].status',
    ]);
    expect(rules(history)).toEqual([]);
    const fixed = repairTranscriptJson(history, { format: 'openai-chat', dialect: 'groq' });
    if (!fixed.ok) throw new Error('not repaired');
    expect(fixed.value.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      history[2],
    ]);
    expect(fixed.value.remaining).toEqual([]);
  });

  it("Kimi: an empty assistant answer ('' or []) is refused with or without thinking; a tool-call message with '' is not", () => {
    const empty = (content: unknown) => [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content },
      { role: 'user', content: 'Hello?' },
    ];
    expect(rules(empty(''), 'kimi')).toEqual(['openai-chat.kimi_assistant_message_empty']);
    expect(rules(empty([]), 'kimi', 'kimi-k2.5')).toEqual(['openai-chat.kimi_assistant_message_empty']);
    expect(rules(empty(''), 'deepseek')).toEqual([]);
    expect(rules(empty('Hello'), 'kimi')).toEqual([]);
    expect(rules(round({ content: '', reasoning_content: 'r' }), 'kimi', 'kimi-k2.5')).toEqual([]);
  });
});
