import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../chat/index.ts';
import {
  checkTranscriptJson,
  fromChatMessages,
  repairTranscriptJson,
  toChatMessages,
  toEvidence,
  TRANSCRIPT_RULES,
} from '../index.ts';
import { callSpec as CALL_SPEC } from '../../../test/arbitraries.ts';
import { EMPTY_MESSAGE_TEXT, OPENING_USER_TEXT } from './convert.ts';
import { BEDROCK_CONVERSE_DRIVER } from './driver.ts';
import { BedrockMessagesSchema } from './wire.ts';

const format = 'bedrock-converse' as const;
const ask = { role: 'user' as const, content: [{ text: 'Weather in Oslo and Bergen?' }] };
const calls = {
  role: 'assistant' as const,
  content: [
    { text: 'Checking both.' },
    { toolUse: { toolUseId: 'tooluse_oslo', name: 'get_weather', input: { city: 'Oslo' } } },
    { toolUse: { toolUseId: 'tooluse_bergen', name: 'get_weather', input: { city: 'Bergen' } } },
  ],
};
const result = (id: string, text: string) => ({ toolResult: { toolUseId: id, content: [{ text }] } }) as const;
const answer = { role: 'assistant', content: [{ text: 'Snow in Oslo, rain in Bergen.' }] };

function repaired(messages: unknown[], options: { readonly expect?: 'sendable' | 'received' } = {}) {
  const out = repairTranscriptJson(messages, { format, ...options });
  if (!out.ok) throw out.failures[0];
  return out.value;
}

describe('bedrock-converse repair', () => {
  it('puts a split parallel batch back into one user message, keeping the messages before it', () => {
    const input = [
      ask,
      calls,
      { role: 'user', content: [result('tooluse_oslo', 'Snow')] },
      { role: 'user', content: [result('tooluse_bergen', 'Rain')] },
      answer,
    ];
    const out = repaired(input);
    expect(checkTranscriptJson(out.messages, { format }).result).toBe('accepted');
    expect(out.messages[0]).toBe(ask);
    expect(out.messages[1]).toBe(calls);
    expect(out.messages[2]).toEqual({
      role: 'user',
      content: [result('tooluse_oslo', 'Snow'), result('tooluse_bergen', 'Rain')],
    });
    expect(out.messages[3]).toBe(answer);
    expect(out.repairs.map((r) => r.action)).toEqual(['moved_result']);
  });

  it("synthesizes an error result for a call nobody answered, in the user message after it, before the user's text", () => {
    const input = [ask, calls, { role: 'user', content: [result('tooluse_oslo', 'Snow'), { text: 'Hurry up.' }] }];
    const out = repaired(input);
    const user = out.messages[2] as {
      content: { toolResult?: { toolUseId: string; status?: string; content: { text: string }[] } }[];
    };
    expect(out.messages.slice(0, 2)).toEqual(input.slice(0, 2));
    expect(out.messages[0]).toBe(ask);
    expect(user.content[2]?.toolResult?.toolUseId).toBe('tooluse_bergen');
    expect(user.content[2]?.toolResult?.status).toBe('error');
    expect(user.content[2]?.toolResult?.content[0]?.text.startsWith('[turngate:synthesized]')).toBe(true);
    expect(checkTranscriptJson(out.messages, { format }).result).toBe('accepted');
  });

  it('keeps the calls of the last message open under received, and answers them under sendable', () => {
    expect(repaired([ask, calls], { expect: 'received' }).changed).toBe(false);
    const out = repaired([ask, calls]);
    expect(out.messages).toHaveLength(3);
    expect(out.repairs.map((r) => r.action)).toEqual(['synthesized_result', 'synthesized_result', 'inserted_message']);
  });

  it("keeps an orphaned result's words in its place as user text", () => {
    const input = [
      ask,
      calls,
      {
        role: 'user',
        content: [
          result('tooluse_oslo', 'Snow'),
          result('tooluse_bergen', 'Rain'),
          result('tooluse_gone', 'Yes, go ahead.'),
        ],
      },
      answer,
    ];
    const out = repaired(input);
    const content = (out.messages[2] as { content: { text?: string }[] }).content;
    expect(content[2]?.text).toBe(
      '[turngate:orphaned-result] A tool result whose call is no longer in this history said: Yes, go ahead.',
    );
    expect(out.repairs[0]?.removed).toEqual(result('tooluse_gone', 'Yes, go ahead.'));
  });

  it('joins a run of one role into its first message and opens a history that starts with the assistant', () => {
    const input = [
      answer,
      { role: 'user', content: [{ text: 'Thanks.' }] },
      { role: 'user', content: [{ text: 'And tomorrow?' }] },
    ];
    const out = repaired(input);
    expect(out.messages).toEqual([
      { role: 'user', content: [{ text: OPENING_USER_TEXT }] },
      answer,
      { role: 'user', content: [{ text: 'Thanks.' }, { text: 'And tomorrow?' }] },
    ]);
    expect(out.repairs.map((r) => [r.action, r.rule])).toEqual([
      ['merged_messages', 'bedrock-converse.roles_not_alternating'],
      ['inserted_message', 'bedrock-converse.first_message_not_user'],
    ]);
  });

  it('marks an empty message between two of one role instead of removing it, and removes one at the end', () => {
    const empty = { role: 'assistant', content: [] };
    const between = repaired([ask, empty, { role: 'user', content: [{ text: 'Hello?' }] }, answer]);
    expect(between.messages[1]).toEqual({ role: 'assistant', content: [{ text: EMPTY_MESSAGE_TEXT }] });
    expect(between.messages[0]).toBe(ask);
    const last = repaired([ask, { role: 'assistant', content: [{ text: ' ' }] }]);
    expect(last.messages).toEqual([ask]);
  });

  it('rewrites ids outside the grammar on the call and its result, and json results that are no object', () => {
    const input = [
      ask,
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'call.1', name: 'get_weather', input: {} } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'call.1', content: [{ json: [4, 'snow'] }] } }] },
    ];
    const out = repaired(input);
    expect(checkTranscriptJson(out.messages, { format }).result).toBe('accepted');
    expect(JSON.stringify(out.messages)).not.toContain('call.1');
    expect(
      (out.messages[2] as { content: { toolResult: { content: unknown[] } }[] }).content[0]?.toolResult.content,
    ).toEqual([{ text: '[4,"snow"]' }]);
    expect(repaired(out.messages as unknown[]).changed).toBe(false);
  });

  it('leaves what it cannot fix in remaining', () => {
    const out = repaired([
      ask,
      calls,
      {
        role: 'user',
        content: [
          result('tooluse_oslo', 'Snow'),
          { toolResult: { toolUseId: 'tooluse_bergen', content: [], status: 'failed' } },
        ],
      },
    ]);
    expect(out.remaining.map((f) => f.rule)).toEqual(['bedrock-converse.tool_result_status_invalid']);
    expect(TRANSCRIPT_RULES['bedrock-converse.tool_result_status_invalid'].repairable).toBe(false);
  });
});

describe('bedrock-converse <-> ChatMessage', () => {
  it('puts consecutive tool messages and the user text after them into one user message', () => {
    const chat: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } },
          { id: 'call_2', name: 'get_weather', arguments: { city: 'Bergen' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Rain' },
      { role: 'user', content: 'And tomorrow?' },
    ];
    const converted = fromChatMessages(chat, { format });
    if (!converted.ok) throw converted.failures[0];
    expect(converted.value.messages).toEqual([
      { role: 'user', content: [{ text: 'Weather?' }] },
      {
        role: 'assistant',
        content: [
          { toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Oslo' } } },
          { toolUse: { toolUseId: 'call_2', name: 'get_weather', input: { city: 'Bergen' } } },
        ],
      },
      { role: 'user', content: [result('call_1', 'Snow'), result('call_2', 'Rain'), { text: 'And tomorrow?' }] },
    ]);
    expect(converted.value.losses.map((l) => l.at)).toEqual(['messages[0]']);
    expect(checkTranscriptJson(converted.value.messages, { format }).result).toBe('accepted');
  });

  it('opens a chat history that starts with the assistant with the opening user message', () => {
    const converted = fromChatMessages(
      [
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'Hi.' },
      ],
      { format },
    );
    expect(converted.ok && converted.value.messages[0]).toEqual({
      role: 'user',
      content: [{ text: OPENING_USER_TEXT }],
    });
    expect(converted.ok && checkTranscriptJson(converted.value.messages, { format }).result).toBe('accepted');
  });

  it('keeps reasoning in place before the calls, both ways', () => {
    const wire = [
      ask,
      {
        role: 'assistant',
        content: [
          { reasoningContent: { reasoningText: { text: 'Call the tool.', signature: 'sig-1' } } },
          { reasoningContent: { redactedContent: 'b3BhcXVl' } },
          { toolUse: { toolUseId: 'tooluse_oslo', name: 'get_weather', input: { city: 'Oslo' } } },
        ],
      },
      { role: 'user', content: [result('tooluse_oslo', 'Snow')] },
    ];
    const chat = toChatMessages(wire as never[], { format });
    if (!chat.ok) throw chat.failures[0];
    expect(chat.value.losses).toEqual([]);
    const back = fromChatMessages(chat.value.messages, { format });
    expect(back.ok && back.value.messages).toEqual(wire);
  });

  it('records what ChatMessage cannot hold, with its path', () => {
    const converted = toChatMessages(
      [
        {
          role: 'user',
          content: [{ text: 'Read this.' }, { document: { format: 'pdf', name: 'a', source: { bytes: 'JVBERi0=' } } }],
        },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }] },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 't1', content: [{ json: { ok: false } }], status: 'error' } }],
        },
      ],
      { format },
    );
    expect(converted.ok && converted.value.losses).toEqual([
      { at: 'messages[0].content[1]', what: 'a document block (ChatMessage has no document block)' },
      { at: 'messages[2].content[0].toolResult.status', what: 'the result status (a tool message has none)' },
      { at: 'messages[2].content[0].toolResult.content[0]', what: 'a json result block, kept as its text' },
    ]);
    expect(converted.ok && converted.value.messages[2]).toEqual({
      role: 'tool',
      tool_call_id: 't1',
      content: '{"ok":false}',
    });
  });
});

describe('bedrock-converse reader', () => {
  it("refuses another format's messages, and the other formats refuse Converse messages", () => {
    const bedrock = [ask, calls];
    const asAnthropic = checkTranscriptJson(bedrock, { format: 'anthropic' });
    expect(asAnthropic.result === 'invalid' && asAnthropic.error.looksLike).toEqual(['bedrock-converse']);
    expect(asAnthropic.result === 'invalid' && asAnthropic.error.field).toBe('messages[1].content[1].toolUse');
    const anthropic = [{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] }];
    const asBedrock = checkTranscriptJson(anthropic, { format });
    expect(asBedrock.result === 'invalid' && asBedrock.error.looksLike).toEqual(['anthropic']);
  });

  it('agrees with its schema on what is a Converse message', () => {
    const samples: unknown[][] = [
      [ask, calls],
      [{ role: 'system', content: [{ text: 'x' }] }],
      [{ role: 'user', content: 'x' }],
      [{ role: 'user', content: [{ toolUse: { toolUseId: 'a', name: 'f', input: {} } }] }],
      [
        {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: 'a', name: 'f' }, toolResult: { toolUseId: 'a', content: [] } }],
        },
      ],
      [{ role: 'user', content: [{ toolResult: { toolUseId: 'a', content: 'x' } }] }],
      [{ role: 'user', content: [{ text: 3 }] }],
      [{ role: 'user', content: [{ text: '' }] }],
    ];
    for (const sample of samples)
      expect([sample, checkTranscriptJson(sample, { format }).result !== 'invalid']).toEqual([
        sample,
        v.is(BedrockMessagesSchema, sample),
      ]);
  });

  it('gives the evidence of a turn: calls, results and error status', () => {
    const evidence = toEvidence(
      [
        ask,
        calls,
        {
          role: 'user' as const,
          content: [
            result('tooluse_oslo', 'Snow'),
            { toolResult: { toolUseId: 'tooluse_bergen', content: [{ text: 'timeout' }], status: 'error' } },
          ],
        },
      ],
      { format, callSpec: CALL_SPEC, stopReason: 'tool_use' },
    );
    if (!evidence.ok) throw evidence.failures[0];
    expect(evidence.value.requests.map((r) => r.toolCallId)).toEqual(['tooluse_oslo', 'tooluse_bergen']);
    expect(evidence.value.results.map((r) => r.toolCallId)).toEqual(['tooluse_oslo', 'tooluse_bergen']);
    expect(evidence.value.input.evidence.protocolState?.stopReason).toBe('tool_use');
  });

  it('declares the id grammar its check uses, and mints ids in it', () => {
    const { toolCallIds } = BEDROCK_CONVERSE_DRIVER;
    expect(['tooluse_a1', 'a'.repeat(64)].every(toolCallIds.accepts)).toBe(true);
    expect(['', 'a'.repeat(65), 'call.1', 'call:1'].some(toolCallIds.accepts)).toBe(false);
    const minted = toolCallIds.mint({ digest: 'ab'.repeat(32), name: 'f', index: 0 });
    expect(toolCallIds.accepts(minted)).toBe(true);
  });
});

describe('bedrock-converse tool names in the history', () => {
  const history = (name: string, id = 'tooluse_1') => [
    ask,
    { role: 'assistant', content: [{ toolUse: { toolUseId: id, name, input: {} } }] },
    { role: 'user', content: [result(id, 'Snow')] },
  ];
  it('refuses a name outside [a-zA-Z0-9_-]{1,64}, and repair rewrites it in the grammar with the id fixed too', () => {
    const rules = (value: unknown) => checkTranscriptJson(value, { format }).failures.map((f) => f.rule);
    expect(rules(history('weather.get'))).toEqual(['bedrock-converse.tool_use_name_invalid']);
    expect(rules(history('w'.repeat(65)))).toEqual(['bedrock-converse.tool_use_name_invalid']);
    expect(rules(history('weather_get-2'))).toEqual([]);
    const fixed = repairTranscriptJson(history('$weather.get', 'tool:1'), { format });
    if (!fixed.ok) throw new Error('not repaired');
    const use = (fixed.value.messages[1] as { content: { toolUse: { name: string; toolUseId: string } }[] }).content[0];
    expect(use?.toolUse.name).toBe('_weather_get');
    expect(use?.toolUse.toolUseId).toBe('tool_1');
    expect(fixed.value.remaining).toEqual([]);
  });
});
