/**
 * The langchain format against LangChain.js itself: histories built with `@langchain/core`'s
 * own message classes and serialized its three ways are read; what repair and conversion write
 * is read back by LangChain (`coerceMessageLikeToMessage`, `mapStoredMessagesToChatMessages`).
 */
import {
  AIMessage,
  type BaseMessage,
  type BaseMessageLike,
  coerceMessageLikeToMessage,
  HumanMessage,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
  type StoredMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { callSpec as CALL_SPEC } from '../../../test/arbitraries.ts';
import type { ChatMessage } from '../chat/index.ts';
import {
  checkTranscript,
  checkTranscriptJson,
  convertTranscript,
  fromChatMessages,
  repairTranscript,
  repairTranscriptJson,
  SYNTHESIZED_RESULT_MARK,
  toChatMessages,
  toEvidence,
} from '../index.ts';

const CALL = {
  id: 'call_Wb3Nx8Qm2Lr6Tz1Vk5Pd9Hc4',
  name: 'get_weather',
  args: { city: 'Oslo' },
  type: 'tool_call' as const,
};

/** A round: system, question, the AIMessage with its call, the ToolMessage, the answer. */
function history(): BaseMessage[] {
  return [
    new SystemMessage('You answer questions about places.'),
    new HumanMessage('Weather in Oslo?'),
    new AIMessage({ content: '', tool_calls: [CALL] }),
    new ToolMessage({ content: 'Snow, -3 °C', tool_call_id: CALL.id }),
    new AIMessage('It is snowing.'),
  ];
}

/** The three serialized forms of `messages`. */
function forms(messages: BaseMessage[]): Record<'toJSON' | 'stored' | 'like', unknown[]> {
  return {
    toJSON: JSON.parse(JSON.stringify(messages)),
    stored: JSON.parse(JSON.stringify(mapChatMessagesToStoredMessages(messages))),
    like: messages.map((m) => {
      const stored = m.toDict();
      return JSON.parse(JSON.stringify({ type: stored.type, ...stored.data }));
    }),
  };
}

/** A message the check read as a `StoredMessage`, as LangChain's type. */
const storedList = (message: unknown): StoredMessage[] => [message as StoredMessage];

const rules = (messages: unknown) => checkTranscriptJson(messages, { format: 'langchain' });

describe('langchain: histories LangChain.js writes', () => {
  it.each(['toJSON', 'stored', 'like'] as const)('reads the %s form of a valid round as accepted', (form) => {
    const report = rules(forms(history())[form]);
    expect(report.result === 'invalid' ? report.error.message : report.failures).toEqual([]);
  });

  it.each(['toJSON', 'stored', 'like'] as const)(
    'rejects the %s form without its ToolMessage, at the AIMessage',
    (form) => {
      const messages = history();
      messages.splice(3, 1);
      const report = rules(forms(messages)[form]);
      expect(report.failures.map((f) => [f.rule, f.ids, f.at])).toEqual([
        ['langchain.tool_call_unanswered', [CALL.id], 'messages[2]'],
      ]);
    },
  );

  it('reads an AIMessage whose only call is invalid: its raw call (which ChatOpenAI sends) needs a ToolMessage', () => {
    const ai = new AIMessage({
      content: '',
      additional_kwargs: {
        tool_calls: [{ id: CALL.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }],
      },
    });
    expect(ai.tool_calls).toEqual([]);
    expect(ai.invalid_tool_calls?.map((c) => c.id)).toEqual([CALL.id]);
    const report = rules(forms([new HumanMessage('Weather?'), ai, new HumanMessage('Again?')]).toJSON);
    expect(report.failures.map((f) => [f.rule, f.ids, f.at])).toEqual([
      ['langchain.tool_call_unanswered', [CALL.id], 'messages[1]'],
    ]);
  });

  it('names the form in the path of a shape failure', () => {
    const messages = forms([new HumanMessage('Weather?'), new AIMessage({ content: '', tool_calls: [CALL] })]);
    const stored = messages.stored as { data: { tool_calls: { args: unknown }[] } }[];
    (stored[1] as { data: { tool_calls: { args: unknown }[] } }).data.tool_calls[0] = {
      ...CALL,
      args: '{"city":"Oslo"}',
    };
    const report = checkTranscriptJson(stored, { format: 'langchain', expect: 'received' });
    expect(report.failures.map((f) => [f.rule, f.at])).toEqual([
      ['langchain.tool_call_args_not_object', 'messages[1].data.tool_calls[0].args'],
    ]);
  });

  it('refuses another format, and is refused by the others, naming the format it looks like', () => {
    const asChat = checkTranscriptJson(forms(history()).stored, { format: 'openai-chat' });
    expect(asChat.result === 'invalid' && [asChat.error.field, asChat.error.looksLike]).toEqual([
      'messages[0].type',
      ['langchain'],
    ]);
    const chat = checkTranscriptJson(
      [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
      ],
      { format: 'langchain' },
    );
    expect(chat.result === 'invalid' && chat.error.field).toBe('messages[1].role');
  });
});

describe('langchain: repair', () => {
  it.each(['toJSON', 'stored', 'like'] as const)(
    'synthesizes the missing ToolMessage in the %s form, with status error, and LangChain reads it back',
    (form) => {
      const messages = history();
      messages.splice(3, 1);
      const input = forms(messages)[form];
      const repaired = repairTranscriptJson(input, { format: 'langchain' });
      if (!repaired.ok) throw repaired.failures[0];
      const out = repaired.value.messages;
      expect(rules([...out]).failures).toEqual([]);
      // Byte-stable: everything before the first change is the user's own objects.
      for (let i = 0; i < 3; i++) expect(out[i]).toBe(input[i]);
      expect(out[4]).toBe(input[3]);
      const back =
        form === 'stored'
          ? mapStoredMessagesToChatMessages(storedList(out[3]))[0]
          : coerceMessageLikeToMessage(out[3] as BaseMessageLike);
      expect(ToolMessage.isInstance(back)).toBe(true);
      const tool = back as ToolMessage;
      expect([tool.tool_call_id, tool.status, String(tool.content).startsWith(SYNTHESIZED_RESULT_MARK)]).toEqual([
        CALL.id,
        'error',
        true,
      ]);
    },
  );

  it('removes an orphaned ToolMessage and keeps its text as a HumanMessage in the history form', () => {
    const input = forms([
      new HumanMessage('Weather in Oslo?'),
      new ToolMessage({ content: 'It is 14:05.', tool_call_id: 'call_gone' }),
      new AIMessage('It is snowing.'),
    ]).stored;
    const repaired = repairTranscriptJson(input, { format: 'langchain' });
    if (!repaired.ok) throw repaired.failures[0];
    expect(repaired.value.messages[0]).toBe(input[0]);
    const kept = mapStoredMessagesToChatMessages(storedList(repaired.value.messages[1]))[0];
    expect(HumanMessage.isInstance(kept) && String(kept.content)).toContain('It is 14:05.');
    expect(repaired.value.repairs.map((r) => r.action)).toEqual(['removed', 'inserted_message']);
    expect(rules([...repaired.value.messages]).failures).toEqual([]);
  });

  it('leaves a repeated tool call id in remaining: renaming tool_calls alone would leave the tool_use block', () => {
    const tu = { ...CALL, id: 'toolu_01JTRtNc8watqNdFWV33ZqUs' };
    const input = forms([
      new HumanMessage('Weather?'),
      new AIMessage({ content: '', tool_calls: [tu] }),
      new ToolMessage({ content: 'Snow', tool_call_id: tu.id }),
      new AIMessage({ content: '', tool_calls: [tu] }),
      new ToolMessage({ content: 'Snow', tool_call_id: tu.id }),
    ]).toJSON;
    const repaired = repairTranscriptJson(input, { format: 'langchain' });
    if (!repaired.ok) throw repaired.failures[0];
    expect(repaired.value.remaining.map((f) => f.rule)).toEqual(['langchain.duplicate_tool_call_id']);
  });
});

describe('langchain <-> ChatMessage', () => {
  it('writes the toJSON() form LangChain itself writes, and reads it back', () => {
    const chat: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: '', tool_calls: [{ id: CALL.id, name: CALL.name, arguments: CALL.args }] },
      { role: 'tool', tool_call_id: CALL.id, content: 'Snow' },
      { role: 'assistant', content: 'It is snowing.' },
    ];
    const out = fromChatMessages(chat, { format: 'langchain' });
    if (!out.ok) throw out.failures[0];
    const expected = JSON.parse(
      JSON.stringify([
        new SystemMessage('Be brief.'),
        new HumanMessage('Weather in Oslo?'),
        new AIMessage({ content: '', tool_calls: [CALL], invalid_tool_calls: [] }),
        new ToolMessage({ content: 'Snow', tool_call_id: CALL.id }),
        new AIMessage({ content: 'It is snowing.', tool_calls: [], invalid_tool_calls: [] }),
      ]),
    );
    expect(out.value.messages).toEqual(expected);
    const back = toChatMessages(out.value.messages, { format: 'langchain' });
    expect(back.ok && [back.value.messages, back.value.losses]).toEqual([chat, []]);
    const revived = out.value.messages.map((m) => coerceMessageLikeToMessage(m as BaseMessageLike));
    expect((revived[2] as AIMessage).tool_calls).toEqual([CALL]);
  });

  it('records what ChatMessage cannot carry', () => {
    const input = forms([
      new HumanMessage('Weather?'),
      new AIMessage({
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: CALL.id, name: CALL.name, input: CALL.args },
          { type: 'citation', text: 'x' },
        ],
        tool_calls: [CALL],
      }),
      new ToolMessage({ content: 'Failed', tool_call_id: CALL.id, status: 'error' }),
    ]).stored;
    const out = toChatMessages(input as never[], { format: 'langchain' });
    expect(out.ok && out.value.losses.map((l) => l.at)).toEqual([
      'messages[1].data.content[2]',
      'messages[2].data.status',
    ]);
    expect(out.ok && out.value.messages[1]).toEqual({
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [{ id: CALL.id, name: CALL.name, arguments: CALL.args }],
    });
  });
});

describe('langchain evidence', () => {
  it("reads each call's args and its ToolMessage, an error ToolMessage as an error", () => {
    const input = forms([
      new HumanMessage('Weather?'),
      new AIMessage({ content: '', tool_calls: [CALL] }),
      new ToolMessage({ content: 'timeout', tool_call_id: CALL.id, status: 'error' }),
    ]).toJSON;
    const evidence = toEvidence(input as never[], { format: 'langchain', callSpec: CALL_SPEC, stopReason: 'end_turn' });
    if (!evidence.ok) throw evidence.failures[0];
    expect(evidence.value.requests.map((r) => [r.toolCallId, r.toolName])).toEqual([[CALL.id, CALL.name]]);
    expect(evidence.value.results.map((r) => r.toolCallId)).toEqual([CALL.id]);
    expect(evidence.value.input.evidence.protocolState?.stopReason).toBe('tool_use');
  });
});

describe('langchain message instances', () => {
  it('are read through their serialized form: check, repair, conversion and evidence give the toJSON() answers', () => {
    const instances = history();
    const serialized = forms(instances).toJSON;
    const checked = checkTranscript(instances, { format: 'langchain' });
    expect(checked).toEqual(checkTranscriptJson(serialized, { format: 'langchain' }));
    expect(checked.result).toBe('accepted');
    // The transcript a guarded call sends holds the serialized form, which LangChain reads back.
    if (checked.result !== 'accepted') throw new Error('rejected');
    const sent = [...checked.transcript.messages];
    expect(sent).toEqual(serialized);
    expect(sent.map((m) => coerceMessageLikeToMessage(m as BaseMessageLike).type)).toEqual(
      instances.map((m) => m.type),
    );
    const dangling = [...instances.slice(0, 3), new HumanMessage('Again?')];
    const repaired = repairTranscript(dangling, { format: 'langchain' });
    expect(repaired).toEqual(repairTranscriptJson(forms(dangling).toJSON, { format: 'langchain' }));
    expect(repaired.ok && repaired.value.remaining).toEqual([]);
    expect(toChatMessages(instances, { format: 'langchain' })).toEqual(
      toChatMessages(serialized as never[], { format: 'langchain' }),
    );
    const converted = convertTranscript(instances, { from: 'langchain', to: 'anthropic' });
    expect(converted.ok && converted.value.system).toBe('You answer questions about places.');
    const evidence = toEvidence(instances, { format: 'langchain', callSpec: CALL_SPEC, stopReason: 'end_turn' });
    expect(evidence.ok).toBe(true);
  });

  it('refuses an instance whose toJSON() gives no JSON, naming the message', () => {
    const broken = new HumanMessage('Hi');
    Object.defineProperty(broken, 'toJSON', { value: () => ({ n: 1n }) });
    const report = checkTranscriptJson([new HumanMessage('Hi'), broken], { format: 'langchain' });
    expect(report.result === 'invalid' && report.error.field).toBe('messages[1]');
  });
});
