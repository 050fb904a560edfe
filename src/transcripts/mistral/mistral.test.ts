import { describe, expect, it } from 'vitest';
import { checkTranscriptJson, repairTranscriptJson } from '../index.ts';
import { FORMAT_DRIVERS } from '../formats.ts';
import { seedDigest } from '../core/ids.ts';
import { MISTRAL_TOOL_CALL_ID } from './check.ts';

const call = (id: string, name = 'get_weather') => ({
  id,
  type: 'function',
  function: { name, arguments: '{"city":"Oslo"}' },
});
const rules = (value: unknown, expect: 'sendable' | 'received' = 'sendable') =>
  checkTranscriptJson(value, { format: 'mistral', expect }).failures.map((f) => `${f.rule} ${f.at}`);

describe('mistral check', () => {
  it('accepts a tool round answered and closed by the model, then a user turn', () => {
    expect(
      rules([
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: null, tool_calls: [call('D681PevKs')] },
        { role: 'tool', tool_call_id: 'D681PevKs', name: 'get_weather', content: 'Snow' },
        { role: 'assistant', content: 'It snows.' },
        { role: 'user', content: 'Thanks' },
      ]),
    ).toEqual([]);
  });

  it('refuses a user message right after a tool message, a misplaced system message and a closing assistant message', () => {
    expect(
      rules([
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', tool_calls: [call('D681PevKs')] },
        { role: 'tool', tool_call_id: 'D681PevKs', content: 'Snow' },
        { role: 'user', content: 'And tomorrow?' },
        { role: 'assistant', content: 'Sun.' },
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Ok' },
        { role: 'assistant', content: 'Bye.' },
      ]),
    ).toEqual([
      'mistral.user_after_tool messages[3]',
      'mistral.system_message_misplaced messages[5]',
      'mistral.last_message_assistant messages[7]',
    ]);
  });

  it('takes a closing assistant message as a prefix, and the model’s own under received', () => {
    const history = [
      { role: 'user', content: 'Write a haiku' },
      { role: 'assistant', content: 'Snow on' },
    ];
    expect(rules(history, 'received')).toEqual([]);
    expect(rules([history[0], { ...history[1], prefix: true }])).toEqual([]);
    expect(rules([{ ...history[1], prefix: true }, history[0]])).toEqual([
      'mistral.prefix_not_last messages[0].prefix',
    ]);
  });

  it('refuses ids outside the 9-character grammar on calls', () => {
    expect(
      rules([
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', tool_calls: [call('call_1')] },
        { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
      ]),
    ).toEqual(['mistral.tool_call_id_invalid messages[1].tool_calls[0].id']);
  });

  it('refuses the SDK camelCase fields as input errors naming the wire field', () => {
    const report = checkTranscriptJson([{ role: 'assistant', toolCalls: [call('D681PevKs')] }], { format: 'mistral' });
    expect(report.result === 'invalid' && report.error.field).toBe('messages[0].toolCalls');
  });

  it('refuses an OpenAI-only role', () => {
    const report = checkTranscriptJson([{ role: 'developer', content: 'Hi' }], { format: 'mistral' });
    expect(report.result).toBe('invalid');
  });
});

describe('mistral repair', () => {
  it('renames ids into the grammar, answers open calls and bridges a user message after tool messages', () => {
    const history = [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [call('call_1'), call('D681PevKs')] },
      { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
      { role: 'user', content: 'And tomorrow?' },
    ];
    const repaired = repairTranscriptJson(history, { format: 'mistral' });
    if (!repaired.ok) throw new Error('not repaired');
    const { messages, remaining, repairs } = repaired.value;
    expect(remaining).toEqual([]);
    expect(checkTranscriptJson(messages, { format: 'mistral' }).result).toBe('accepted');
    expect(repairs.map((r) => r.action)).toEqual(['renamed_call', 'synthesized_result', 'inserted_message']);
    // Byte-stable before the first change.
    expect(messages[0]).toBe(history[0]);
    const assistant = messages[1];
    const renamed = assistant?.role === 'assistant' ? assistant.tool_calls?.[0]?.id : undefined;
    expect(renamed).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect((messages[2] as { tool_call_id: string }).tool_call_id).toBe(renamed);
    expect(messages.map((m) => (m as { role: string }).role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'user',
    ]);
    expect(messages[5]).toBe(history[3]);
    // Idempotent.
    const again = repairTranscriptJson(messages, { format: 'mistral' });
    expect(again.ok && again.value.changed).toBe(false);
  });

  it('removes a misplaced prefix and keeps everything else', () => {
    const history = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello', prefix: true },
      { role: 'user', content: 'Bye' },
    ];
    const repaired = repairTranscriptJson(history, { format: 'mistral' });
    expect(repaired.ok && repaired.value.messages).toEqual([
      history[0],
      { role: 'assistant', content: 'Hello' },
      history[2],
    ]);
    expect(repaired.ok && repaired.value.repairs[0]?.removed).toBe(true);
  });
});

describe('mistral conversion and ids', () => {
  it('mints 9-character ids the grammar accepts', () => {
    const ids = FORMAT_DRIVERS.mistral.toolCallIds;
    const id = ids.mint({ digest: seedDigest('toolu_01', 0), name: 'get_weather', index: 0 });
    expect(ids.accepts(id)).toBe(true);
    expect(ids.accepts('call_1')).toBe(false);
    for (const sample of ['D681PevKs', 'call_0001', 'D681PevK', 'D681PevKs1', 'D681Pev-s', 'D681PévKs'])
      expect(ids.accepts(sample)).toBe(MISTRAL_TOOL_CALL_ID.test(sample));
  });

  it('fromChat bridges a user message after tool messages and makes a closing assistant message a prefix', () => {
    const chat = [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', tool_calls: [{ id: 'D681PevKs', name: 'get_weather', arguments: {} }] },
      { role: 'tool', tool_call_id: 'D681PevKs', content: 'Snow' },
      { role: 'user', content: 'Tomorrow?' },
      { role: 'assistant', content: 'Sun.' },
    ];
    const { messages, losses } = FORMAT_DRIVERS.mistral.fromChat(chat);
    expect(rules(messages)).toEqual([]);
    expect(losses).toEqual([]);
    expect(messages[messages.length - 1]).toEqual({ role: 'assistant', content: 'Sun.', prefix: true });
    const back = FORMAT_DRIVERS.mistral.toChat(messages).messages;
    expect(back.filter((m) => m.role === 'tool')).toEqual([chat[2]]);
  });
});
