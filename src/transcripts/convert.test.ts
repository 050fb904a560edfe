import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loopArbitrary, mutate, mutationsOf, render } from '../../test/transcript-loops.ts';
import { TRANSCRIPT_FORMATS } from '../check/stop-reasons.ts';
import type { ChatMessage } from './chat/message.ts';
import { checkTranscriptJson, fromChatMessages, toChatMessages } from './index.ts';

const PROVIDERS = TRANSCRIPT_FORMATS.filter((format) => format !== 'chat');
const shape = { ids: true, bare: true } as const;

describe.each(PROVIDERS)('%s <-> ChatMessage', (format) => {
  it('round-trips every generated loop, both ways, with nothing lost', () => {
    fc.assert(
      fc.property(loopArbitrary(), (steps) => {
        const wire = render(format, steps, shape);
        const chat = render('chat', steps) as ChatMessage[];
        const toChat = toChatMessages(wire as never[], { format });
        expect(toChat.ok && toChat.value.losses).toEqual([]);
        expect(toChat.ok && toChat.value.messages).toEqual(chat);
        const back = fromChatMessages(chat, { format });
        expect(back.ok && back.value.losses).toEqual([]);
        expect(back.ok && back.value.messages).toEqual(wire);
      }),
      { numRuns: 60, seed: 9 },
    );
  });

  it('keeps the check verdict: a broken loop converts to a chat history broken the same way', () => {
    const cases = loopArbitrary().chain((steps) =>
      fc
        .constantFrom(...mutationsOf(steps).filter((m) => m.kind !== 'inject'))
        .map((mutation) => mutate(steps, mutation)),
    );
    fc.assert(
      fc.property(cases, (steps) => {
        const wire = render(format, steps, shape);
        const converted = toChatMessages(wire as never[], { format });
        if (!converted.ok) throw converted.failures[0];
        const chat = checkTranscriptJson(converted.value.messages, { format: 'chat' });
        expect(chat.result).not.toBe('invalid');
        const ids = (report: { readonly failures: readonly { readonly ids: readonly string[] }[] }) =>
          [...new Set(report.failures.flatMap((f) => f.ids))].sort();
        expect(ids(chat)).toEqual(ids(checkTranscriptJson(wire, { format })));
      }),
      { numRuns: 60, seed: 10 },
    );
  });
});

describe('conversion losses', () => {
  it('lists what cannot cross, with its position', () => {
    const anthropic = toChatMessages(
      [
        {
          role: 'user',
          content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Hi' } }],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'boom', is_error: true }] },
      ],
      { format: 'anthropic' },
    );
    expect(anthropic.ok && anthropic.value.losses).toEqual([
      { at: 'messages[0].content[0]', what: 'a document block (ChatMessage has no document block)' },
      { at: 'messages[2].content[0].is_error', what: 'the is_error flag (a tool message has none)' },
    ]);
    const gemini = fromChatMessages([{ role: 'system', content: 'Be brief.' }], { format: 'gemini' });
    expect(gemini.ok && [gemini.value.messages, gemini.value.losses]).toEqual([
      [],
      [{ at: 'messages[0]', what: 'a system message (Gemini takes it as systemInstruction)' }],
    ]);
    const responses = toChatMessages([{ type: 'reasoning', id: 'rs_1', summary: [] }], { format: 'openai-responses' });
    expect(responses.ok && responses.value.losses.map((l) => l.at)).toEqual(['input[0]']);
  });

  it('carries images, thinking and signatures where both sides hold them', () => {
    const chat: ChatMessage[] = [
      {
        role: 'user',
        content: [{ type: 'image', source: { type: 'inline', base64_data: 'iVBORw0KGgo=' }, media_type: 'image/png' }],
      },
      {
        role: 'assistant',
        content: [{ type: 'thinking', text: 'Look it up.', signature: 'sig-1' }],
        tool_calls: [{ id: 'c1', name: 'f', arguments: {} }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ];
    for (const format of ['anthropic', 'gemini'] as const) {
      const out = fromChatMessages(chat, { format });
      if (!out.ok) throw out.failures[0];
      expect(out.value.losses).toEqual([]);
      const back = toChatMessages(out.value.messages as never[], { format });
      expect(back.ok && back.value.messages).toEqual(chat);
    }
    const openai = fromChatMessages(chat.slice(0, 1), { format: 'openai-chat' });
    expect(openai.ok && openai.value.messages).toEqual([
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
    ]);
    const back = toChatMessages(openai.ok ? openai.value.messages : [], { format: 'openai-chat' });
    expect(back.ok && back.value.messages).toEqual(chat.slice(0, 1));
  });

  it('refuses input that is not a transcript of the source format', () => {
    // biome-ignore lint/plugin: a value its types forbid, to check the input error
    const bad = fromChatMessages([{ role: 'tool', content: 'x' }] as never, { format: 'anthropic' });
    expect(!bad.ok && bad.failures[0]?.field).toBe('messages[0].tool_call_id');
    // biome-ignore lint/plugin: a body its types forbid, to check the input error
    expect(toChatMessages({ contents: 3 } as never, { format: 'gemini' }).ok).toBe(false);
  });

  it('reads a chat history too: values that are no ChatMessage are refused, as the check refuses them', () => {
    const inputs: unknown[][] = [[null], [0], ['x'], [{ role: 'user', content: 'hi' }, null], [{ role: 'robot' }]];
    for (const input of inputs) {
      expect(checkTranscriptJson(input, { format: 'chat' }).result).toBe('invalid');
      // biome-ignore lint/plugin: values its types forbid, to check the input error
      const to = toChatMessages(input as never, { format: 'chat' });
      // biome-ignore lint/plugin: values its types forbid, to check the input error
      const from = fromChatMessages(input as never, { format: 'chat' });
      expect([to.ok, from.ok]).toEqual([false, false]);
    }
    const fine: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    expect(toChatMessages(fine, { format: 'chat' })).toEqual({ ok: true, value: { messages: fine, losses: [] } });
  });
});
