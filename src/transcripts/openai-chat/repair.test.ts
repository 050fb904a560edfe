import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTranscriptJson, ORPHANED_RESULT_MARK, repairTranscriptJson, TRANSCRIPT_RULES } from '../index.ts';

type Message = Record<string, unknown>;

const suite = join(import.meta.dirname, '../../../conformance/transcripts/openai-chat');
const input = (name: string): Message[] =>
  (JSON.parse(readFileSync(join(suite, `${name}.json`), 'utf8')) as { input: Message[] }).input;

function repaired(messages: unknown, expect: 'sendable' | 'received' = 'sendable') {
  const outcome = repairTranscriptJson(messages, { format: 'openai-chat', expect });
  if (!outcome.ok) throw outcome.failures[0];
  return outcome.value;
}

const rulesOf = (messages: unknown, expect: 'sendable' | 'received' = 'sendable') =>
  checkTranscriptJson(messages, { format: 'openai-chat', expect }).failures.map((f) => f.rule);

/** Asserts the repair kept every message before `first` as the same object (byte-stable for prompt caches). */
function stableBefore(before: readonly unknown[], after: readonly unknown[], first: number): void {
  for (let i = 0; i < first; i++) expect(after[i]).toBe(before[i]);
  expect(after[first]).not.toBe(before[first]);
}

describe('openai-chat shape repairs', () => {
  it('drop an empty tool_calls list, keeping the message otherwise and everything before it', () => {
    const messages = input('tool-calls-empty');
    const value = repaired(messages);
    expect(value.messages[2]).toEqual({ role: 'assistant', content: 'Hello! Where are you travelling?' });
    expect(value.messages[3]).toBe(messages[3]);
    stableBefore(messages, value.messages, 2);
    expect(value.repairs).toEqual([
      {
        action: 'removed',
        rule: 'openai-chat.tool_calls_empty',
        ids: [],
        at: 'messages[2].tool_calls',
        detail: 'removed the empty tool_calls list',
        removed: [],
      },
    ]);
    expect(value.transcript).toBeDefined();
  });

  it("set a missing tool call type to 'function'", () => {
    const messages = input('tool-call-type-missing');
    const value = repaired(messages);
    const calls = (value.messages[2] as Message)['tool_calls'] as Message[];
    expect(calls[0]).toEqual({
      id: 'call_8kNq2XbR4tZp7vLm1cYd9WsE',
      function: { name: 'get_weather', arguments: '{"city":"Oslo","unit":"celsius"}' },
      type: 'function',
    });
    stableBefore(messages, value.messages, 2);
    const before = ((messages[2] as Message)['tool_calls'] as Message[])[0];
    expect(value.repairs.map((r) => [r.action, r.rule, r.removed])).toEqual([
      ['rewrote_field', 'openai-chat.tool_call_type_invalid', before],
    ]);
  });

  it("write non-string arguments as their JSON text, and absent ones as '{}'", () => {
    const object = repaired(input('tool-call-arguments-object'));
    const fn = (((object.messages[2] as Message)['tool_calls'] as Message[])[0] as Message)['function'] as Message;
    expect(fn['arguments']).toBe('{"city":"Oslo","unit":"celsius"}');
    expect(object.repairs[0]?.removed).toMatchObject({ function: { arguments: { city: 'Oslo', unit: 'celsius' } } });
    const missing = repaired(input('tool-call-arguments-missing'));
    const call = ((missing.messages[1] as Message)['tool_calls'] as Message[])[0] as Message;
    expect(call['function']).toEqual({ name: 'list_files', arguments: '{}' });
  });

  it('drop a legacy function_call beside tool_calls, the record keeping it', () => {
    const messages = input('function-call-with-tool-calls');
    const value = repaired(messages);
    expect(value.messages[1]).not.toHaveProperty('function_call');
    expect((value.messages[1] as Message)['tool_calls']).toBe((messages[1] as Message)['tool_calls']);
    expect(value.repairs[0]).toMatchObject({
      action: 'removed',
      rule: 'openai-chat.function_call_with_tool_calls',
      removed: { name: 'get_weather', arguments: '{"location":"Boston"}' },
    });
  });

  it("give an empty assistant message content ''", () => {
    const messages = input('assistant-message-content-null');
    const value = repaired(messages);
    expect(value.messages[2]).toEqual({ role: 'assistant', content: '' });
    stableBefore(messages, value.messages, 2);
  });

  it("write a tool message's raw JSON content as its JSON text, the words unchanged", () => {
    const messages = input('tool-message-content-raw-json');
    const value = repaired(messages);
    const content = (value.messages[2] as Message)['content'] as string;
    expect(JSON.parse(content)).toEqual((messages[2] as Message)['content']);
    stableBefore(messages, value.messages, 2);
  });

  it('an empty tool_calls list on a message without content: both fixed in one pass', () => {
    const messages = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: null, tool_calls: [] },
    ];
    expect(rulesOf(messages).sort()).toEqual(['openai-chat.assistant_message_empty', 'openai-chat.tool_calls_empty']);
    const value = repaired(messages);
    expect(value.messages).toEqual([messages[0], { role: 'assistant', content: '' }]);
    expect(repaired(value.messages).changed).toBe(false);
  });

  it('leave the rules without a safe repair in remaining, changing nothing for them', () => {
    for (const name of [
      'function-name-empty',
      'function-name-with-dot',
      'tool-message-image-part',
      'too-many-tool-calls',
    ]) {
      const messages = input(name);
      const value = repaired(messages);
      expect(value.changed).toBe(false);
      expect(value.messages).toBe(messages);
      expect(value.remaining.length).toBe(1);
      const rule = value.remaining[0]?.rule as keyof typeof TRANSCRIPT_RULES;
      expect(TRANSCRIPT_RULES[rule].repairable).toBe(false);
    }
  });
});

describe('openai-chat call ids over 40 characters', () => {
  it('rename the call and its tool message together, to a fresh id of at most 40 characters', () => {
    const messages = input('tool-call-id-too-long');
    const value = repaired(messages);
    const long = 'ws_689e2d4880a0819d98acca37694989b00b15d90494fc6b87';
    const fresh = `${long.slice(0, 38)}_2`;
    expect((((value.messages[2] as Message)['tool_calls'] as Message[])[0] as Message)['id']).toBe(fresh);
    expect((value.messages[3] as Message)['tool_call_id']).toBe(fresh);
    expect(value.messages[4]).toBe(messages[4]);
    stableBefore(messages, value.messages, 2);
    expect(value.repairs).toEqual([
      {
        action: 'renamed_call',
        rule: 'openai-chat.tool_call_id_too_long',
        ids: [long, fresh],
        at: 'messages[2].tool_calls[0]',
        detail: `gave the tool call id ${long} (51 characters, more than 40) the id ${fresh}`,
      },
    ]);
    expect(rulesOf(value.messages)).toEqual([]);
  });

  it('a repeated id over the limit gets one fresh id that fits', () => {
    const long = `call_${'x'.repeat(40)}`;
    const call = { id: long, type: 'function', function: { name: 'f', arguments: '{}' } };
    const messages = [
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: long, content: 'one' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: long, content: 'two' },
    ];
    const value = repaired(messages);
    const ids = value.messages.flatMap((m) => {
      const message = m as Message;
      return message['role'] === 'tool'
        ? [message['tool_call_id'] as string]
        : ((message['tool_calls'] as Message[]).map((c) => c['id']) as string[]);
    });
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(40);
    expect(rulesOf(value.messages)).toEqual([]);
    expect(value.messages.map((m) => (m as Message)['content'])).toEqual([null, 'one', null, 'two']);
  });

  it('a call still open under received keeps its id: its result comes under it', () => {
    const messages = input('received-open-call-long-id');
    expect(rulesOf(messages, 'received')).toEqual([]);
    expect(rulesOf(messages)).toEqual(['openai-chat.tool_call_unanswered', 'openai-chat.tool_call_id_too_long']);
  });
});

describe('openai-chat repair keeps the words of an orphaned result', () => {
  const call = (id: string) => ({ id, type: 'function', function: { name: 'ask_user', arguments: '{}' } });

  it('as user text after the run of tool messages it stood in, not inside it', () => {
    const messages = [
      { role: 'user', content: 'Plan my trip.' },
      { role: 'assistant', content: null, tool_calls: [call('call_a'), call('call_b')] },
      { role: 'tool', tool_call_id: 'call_a', content: 'Oslo' },
      { role: 'tool', tool_call_id: 'call_gone', content: 'I prefer trains.' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Next week' },
      { role: 'assistant', content: 'Booked.' },
    ];
    const value = repaired(messages);
    expect(value.messages.map((m) => (m as Message)['role'])).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
    ]);
    expect(value.messages[4]).toEqual({
      role: 'user',
      content: `${ORPHANED_RESULT_MARK} A tool result whose call is no longer in this history said: I prefer trains.`,
    });
    expect(value.messages[3]).toBe(messages[4]);
    stableBefore(messages, value.messages, 3);
    expect(value.repairs.map((r) => [r.action, r.rule, r.at])).toEqual([
      ['removed', 'openai-chat.tool_message_orphan', 'messages[3]'],
      ['inserted_message', 'openai-chat.tool_message_orphan', 'messages[3]'],
    ]);
    expect(value.repairs[0]?.removed).toBe(messages[3]);
    expect(rulesOf(value.messages)).toEqual([]);
  });

  it('of text parts too, and of a tool message without tool_call_id', () => {
    const messages = [
      { role: 'user', content: 'Hi' },
      {
        role: 'tool',
        content: [
          { type: 'text', text: 'Yes,' },
          { type: 'text', text: 'please.' },
        ],
      },
      { role: 'assistant', content: 'Hello.' },
    ];
    const value = repaired(messages);
    expect(value.messages).toEqual([
      messages[0],
      {
        role: 'user',
        content: `${ORPHANED_RESULT_MARK} A tool result whose call is no longer in this history said: Yes,\nplease.`,
      },
      messages[2],
    ]);
  });

  it('before the assistant message whose calls are still open, under received', () => {
    const messages = [
      { role: 'user', content: 'Plan my trip.' },
      { role: 'assistant', content: null, tool_calls: [call('call_a'), call('call_b')] },
      { role: 'tool', tool_call_id: 'call_a', content: 'Oslo' },
      { role: 'tool', tool_call_id: 'call_gone', content: 'I prefer trains.' },
    ];
    const value = repaired(messages, 'received');
    expect(value.messages.map((m) => (m as Message)['role'])).toEqual(['user', 'user', 'assistant', 'tool']);
    const report = checkTranscriptJson([...value.messages], { format: 'openai-chat', expect: 'received' });
    expect(report.result).toBe('accepted');
    expect(report.openToolCalls.map((c) => c.id)).toEqual(['call_b']);
  });

  it('nothing to keep from an orphan without text', () => {
    const messages = [
      { role: 'user', content: 'Hi' },
      { role: 'tool', tool_call_id: 'call_gone', content: '  ' },
    ];
    expect(repaired(messages).messages).toEqual([messages[0]]);
  });
});

describe('openai-chat reader', () => {
  it('reads a malformed but recognizable tool call as rule failures, not as an input error', () => {
    const messages = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'tool_call', function: { name: 'get weather', arguments: { city: 'Oslo' } } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 42 },
    ];
    expect(rulesOf(messages)).toEqual([
      'openai-chat.tool_call_type_invalid',
      'openai-chat.function_name_invalid',
      'openai-chat.tool_call_arguments_not_string',
      'openai-chat.tool_message_content_not_text',
    ]);
  });

  it('still refuses what is no tool call of the format', () => {
    const report = checkTranscriptJson(
      [{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', name: 'f', arguments: {} }] }],
      { format: 'openai-chat' },
    );
    expect(report.result).toBe('invalid');
    if (report.result === 'invalid') expect(report.error.field).toBe('messages[0].tool_calls[0].type');
  });

  it('exempts an assistant message with a refusal or audio from the content rule', () => {
    expect(rulesOf([{ role: 'assistant', content: null, refusal: 'I cannot help with that.' }])).toEqual([]);
    expect(rulesOf([{ role: 'assistant', content: null, audio: { id: 'audio_1' } }])).toEqual([]);
    expect(rulesOf([{ role: 'assistant' }])).toEqual(['openai-chat.assistant_message_empty']);
  });
});
