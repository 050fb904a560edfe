import { describe, expect, it } from 'vitest';
import { checkTranscriptJson, ORPHANED_RESULT_MARK, repairTranscriptJson } from '../index.ts';

type Message = { role: string; content: unknown };

const question: Message = { role: 'user', content: 'What is the weather in Oslo?' };
const answer: Message = { role: 'assistant', content: [{ type: 'text', text: 'Earlier: sunny.' }] };
const call = (id: string, input: unknown = { location: 'Oslo' }) => ({
  type: 'tool_use',
  id,
  name: 'get_weather',
  input,
});
const result = (id: string, content: unknown = '4°C') => ({ type: 'tool_result', tool_use_id: id, content });

/** The content blocks of message `i`. */
const blocksOf = (messages: readonly unknown[], i: number) =>
  (messages[i] as { content: unknown }).content as Record<string, unknown>[];

/** Repairs, and checks what every repair must hold: accepted (or only unrepairable rules left), idempotent. */
function repaired(messages: unknown[], body?: Record<string, unknown>) {
  const input = body === undefined ? messages : { ...body, messages };
  const out = repairTranscriptJson(input, { format: 'anthropic' });
  if (!out.ok) throw out.failures[0];
  const value = out.value;
  const again = checkTranscriptJson(body === undefined ? [...value.messages] : { ...body, messages: value.messages }, {
    format: 'anthropic',
  });
  expect(again.failures.map((f) => f.rule)).toEqual(value.remaining.map((f) => f.rule));
  const twice = repairTranscriptJson(body === undefined ? value.messages : { ...body, messages: value.messages }, {
    format: 'anthropic',
  });
  expect(twice.ok && twice.value.repairs).toEqual([]);
  return value;
}

/** Everything before the first changed message is the same objects (prompt caches still hit). */
function expectStablePrefix(before: readonly unknown[], after: readonly unknown[], firstChanged: number) {
  for (let i = 0; i < firstChanged; i++) expect(after[i]).toBe(before[i]);
  expect(after[firstChanged]).not.toBe(before[firstChanged]);
}

describe('anthropic repair', () => {
  it('parses a tool_use input held as JSON text, and keeps the prefix', () => {
    const messages = [
      question,
      answer,
      { role: 'user', content: 'And now?' },
      { role: 'assistant', content: [call('toolu_1', '{"location":"Oslo"}')] },
      { role: 'user', content: [result('toolu_1')] },
    ];
    const value = repaired(messages);
    expect(blocksOf(value.messages, 3)[0]?.input).toEqual({ location: 'Oslo' });
    expect(value.repairs.map((r) => [r.action, r.rule, r.removed])).toEqual([
      ['rewrote_field', 'anthropic.tool_use_input_encoded', call('toolu_1', '{"location":"Oslo"}')],
    ]);
    expectStablePrefix(messages, value.messages, 3);
  });

  it('leaves an input that encodes no object for the report', () => {
    const value = repaired([
      question,
      { role: 'assistant', content: [call('toolu_1', 'ls -la')] },
      { role: 'user', content: [result('toolu_1')] },
    ]);
    expect(value.remaining.map((f) => f.rule)).toEqual(['anthropic.tool_use_input_not_object']);
  });

  it('rewrites an id outside the grammar on the call and on its result alike', () => {
    const messages = [
      question,
      answer,
      { role: 'assistant', content: [call('functions.Bash:0')] },
      { role: 'user', content: [result('functions.Bash:0')] },
    ];
    const value = repaired(messages);
    const newId = 'functions_Bash_0';
    expect(blocksOf(value.messages, 2)[0]?.id).toBe(newId);
    expect(blocksOf(value.messages, 3)[0]?.tool_use_id).toBe(newId);
    expect(value.repairs.map((r) => [r.rule, r.ids])).toEqual([
      ['anthropic.tool_use_id_invalid', ['functions.Bash:0', newId]],
    ]);
    expectStablePrefix(messages, value.messages, 2);
  });

  it('never rewrites an id onto one already in use', () => {
    const value = repaired([
      question,
      { role: 'assistant', content: [call('a_b'), call('a.b')] },
      { role: 'user', content: [result('a_b'), result('a.b')] },
    ]);
    expect(blocksOf(value.messages, 1).map((b) => b.id)).toEqual(['a_b', 'a_b_2']);
  });

  it('removes empty text blocks and empty messages, keeping the prefix', () => {
    const messages = [
      question,
      answer,
      { role: 'user', content: 'Again?' },
      { role: 'assistant', content: [] },
      { role: 'user', content: 'Hello?' },
      { role: 'assistant', content: [{ type: 'text', text: '' }, call('toolu_1')] },
      { role: 'user', content: [result('toolu_1')] },
    ];
    const value = repaired(messages);
    expect(value.messages).toHaveLength(6);
    expect(value.messages[3]).toBe(messages[4]);
    expect(blocksOf(value.messages, 4)).toEqual([call('toolu_1')]);
    expect(value.repairs.map((r) => r.rule).sort()).toEqual([
      'anthropic.message_content_empty',
      'anthropic.text_block_empty',
    ]);
    expectStablePrefix(messages, value.messages, 3);
  });

  it('removes the thinking block a message ends on, and cache_control from a thinking block', () => {
    const thinking = { type: 'thinking', thinking: 'The user wants Oslo.', signature: 'EqQBCkgIARAB' };
    const messages = [
      question,
      { role: 'assistant', content: [{ type: 'text', text: 'Let me think.' }, thinking] },
      { role: 'user', content: 'Go on.' },
      {
        role: 'assistant',
        content: [
          { ...thinking, cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Sunny.' },
        ],
      },
      { role: 'user', content: 'Thanks.' },
    ];
    const value = repaired(messages);
    expect(blocksOf(value.messages, 1)).toEqual([{ type: 'text', text: 'Let me think.' }]);
    expect(blocksOf(value.messages, 3)[0]).toEqual(thinking);
    const records = value.repairs.map((r) => [r.rule, r.removed]);
    expect(records).toContainEqual(['anthropic.thinking_block_last', thinking]);
    expect(records).toContainEqual([
      'anthropic.thinking_cache_control',
      { ...thinking, cache_control: { type: 'ephemeral' } },
    ]);
    expectStablePrefix(messages, value.messages, 1);
  });

  it('keeps the words of an orphaned result as user text in the message it stood in', () => {
    const messages = [
      question,
      answer,
      { role: 'user', content: [result('toolu_gone', [{ type: 'text', text: 'Yes, email Ana.' }])] },
    ];
    const value = repaired(messages);
    const content = blocksOf(value.messages, 2);
    expect(content).toHaveLength(1);
    expect(content[0]?.['type']).toBe('text');
    const text = String(content[0]?.['text']);
    expect(text.startsWith(ORPHANED_RESULT_MARK)).toBe(true);
    expect(text.endsWith('Yes, email Ana.')).toBe(true);
    expect(value.repairs[0]?.removed).toEqual(messages[2] && (messages[2].content as unknown[])[0]);
    expectStablePrefix(messages, value.messages, 2);
  });

  it('accepts a server call deferred past a client call, and drops it once text ends its turn', () => {
    const server = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'Oslo' } };
    const serverResult = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [] };
    const deferred = [
      question,
      { role: 'assistant', content: [server, call('toolu_1')] },
      { role: 'user', content: [result('toolu_1')] },
    ];
    expect(checkTranscriptJson(deferred, { format: 'anthropic' }).result).toBe('accepted');
    const answered = [...deferred, { role: 'assistant', content: [serverResult, { type: 'text', text: 'Snow.' }] }];
    expect(checkTranscriptJson(answered, { format: 'anthropic' }).result).toBe('accepted');
    const withText = [
      question,
      { role: 'assistant', content: [server, call('toolu_1')] },
      { role: 'user', content: [result('toolu_1'), { type: 'text', text: 'Keep it short.' }] },
    ];
    const value = repaired(withText);
    expect(blocksOf(value.messages, 1)).toEqual([call('toolu_1')]);
    expect(value.repairs.map((r) => r.rule)).toEqual(['anthropic.server_tool_use_unanswered']);
  });

  it('reports an injected message at the message, and moves the result to its call', () => {
    const messages = [
      question,
      { role: 'assistant', content: [call('toolu_1')] },
      { role: 'user', content: '<system-reminder>Europe/Oslo</system-reminder>' },
      { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
      { role: 'user', content: [result('toolu_1')] },
    ];
    const report = checkTranscriptJson(messages, { format: 'anthropic' });
    expect(report.failures.map((f) => [f.rule, f.at])).toEqual([
      ['anthropic.tool_use_unanswered', 'messages[1]'],
      ['anthropic.tool_result_not_immediately_after', 'messages[2]'],
    ]);
    const value = repaired(messages);
    expect(blocksOf(value.messages, 2)).toEqual([result('toolu_1')]);
    expect(value.messages[3]).toBe(messages[2]);
  });

  it('leaves the thinking rule for the report: manual thinking, first message of the loop', () => {
    const body = { model: 'claude-sonnet-4-5', thinking: { type: 'enabled', budget_tokens: 2048 } };
    const value = repaired(
      [question, { role: 'assistant', content: [call('toolu_1')] }, { role: 'user', content: [result('toolu_1')] }],
      body,
    );
    expect(value.remaining.map((f) => [f.rule, f.at])).toEqual([
      ['anthropic.thinking_block_missing', 'messages[1].content[0]'],
    ]);
  });
});
