import {
  AssistantMessage$outboundSchema,
  ChatCompletionRequest$outboundSchema,
} from '@mistralai/mistralai/models/components/index.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loopArbitrary, render } from '../../../test/transcript-loops.ts';
import { checkTranscriptJson, convertTranscriptJson } from '../index.ts';
import { fromMistralSdk, type MistralSdkInput, toMistralSdk } from '../internal.ts';

/** What the SDK itself sends for `messages` (its own serializer). */
const sent = (messages: readonly MistralSdkInput[]): unknown =>
  JSON.parse(
    JSON.stringify(ChatCompletionRequest$outboundSchema.parse({ model: 'mistral-large-latest', messages }).messages),
  );

const text = fc.string({ minLength: 1, maxLength: 12 });
const id = fc.stringMatching(/^[A-Za-z0-9]{9}$/);
const thinkingPart = fc.oneof(
  text.map((t) => ({ text: t })),
  text.map((t) => ({ type: 'text' as const, text: t })),
  fc.array(fc.nat(9), { minLength: 1, maxLength: 2 }).map((ids) => ({ type: 'reference' as const, referenceIds: ids })),
  text.map((t) => ({ type: 'tool_reference' as const, tool: 'web_search', title: t })),
);
const chunk = fc.oneof(
  text.map((t) => ({ type: 'text' as const, text: t })),
  text.map((t) => ({ type: 'image_url' as const, imageUrl: `https://example.com/${encodeURIComponent(t)}.png` })),
  text.map((t) => ({
    type: 'image_url' as const,
    imageUrl: { url: `https://example.com/${encodeURIComponent(t)}.png`, detail: 'low' },
  })),
  text.map((t) => ({ type: 'document_url' as const, documentUrl: 'https://example.com/a.pdf', documentName: t })),
  text.map((t) => ({ type: 'file' as const, fileId: t })),
  text.map((t) => ({ type: 'input_audio' as const, inputAudio: t })),
  fc
    .array(thinkingPart, { minLength: 1, maxLength: 2 })
    .map((parts) => ({ type: 'thinking' as const, thinking: parts })),
);
const content = fc.oneof(text, fc.array(chunk, { minLength: 1, maxLength: 3 }));
const call = fc.record(
  {
    id,
    type: fc.constant('function' as const),
    function: fc.record({
      name: fc.constantFrom('get_weather', 'read_file'),
      arguments: fc.oneof(
        fc.constant('{"city":"Oslo"}'),
        fc.dictionary(fc.constantFrom('camelCase', 'snake_case', 'toolCalls'), fc.integer()),
      ),
    }),
    index: fc.nat(3),
  },
  { requiredKeys: ['function'] },
);
const message: fc.Arbitrary<MistralSdkInput> = fc.oneof(
  text.map((t) => ({ role: 'system' as const, content: t })),
  content.map((c) => ({ role: 'user' as const, content: c })),
  fc.record(
    {
      role: fc.constant('assistant' as const),
      content: fc.option(content, { nil: null }),
      toolCalls: fc.array(call, { minLength: 1, maxLength: 2 }),
      prefix: fc.boolean(),
    },
    // The request's message union takes an assistant message with its role (`AssistantMessage & { role }`).
    { requiredKeys: ['role'] },
  ),
  fc.record(
    { role: fc.constant('tool' as const), content, toolCallId: id, name: fc.constantFrom('get_weather', 'read_file') },
    { requiredKeys: ['role', 'content'] },
  ),
);

describe('the Mistral SDK messages', () => {
  it("are written as the SDK's own serializer sends them", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), (messages) => {
        expect(fromMistralSdk(messages)).toEqual(sent(messages));
      }),
      { numRuns: 300, seed: 36 },
    );
  });

  it("come back as the SDK's objects: toMistralSdk after fromMistralSdk gives what the SDK sends the same", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), (messages) => {
        const wire = fromMistralSdk(messages);
        const back = toMistralSdk(wire);
        expect(sent(back as MistralSdkInput[])).toEqual(wire);
      }),
      { numRuns: 200, seed: 37 },
    );
  });

  it('are checked, repaired and converted on their wire form; a converted history goes to the SDK', () => {
    const history: MistralSdkInput[] = [
      { role: 'user', content: 'Weather in Oslo?' },
      { toolCalls: [{ id: 'D681PevKs', function: { name: 'get_weather', arguments: { city: 'Oslo' } } }] },
      { role: 'tool', toolCallId: 'D681PevKs', name: 'get_weather', content: 'Snow' },
    ];
    expect(checkTranscriptJson(fromMistralSdk(history), { format: 'mistral' }).result).toBe('accepted');
    // A standalone AssistantMessage may leave out its role: written as its own serializer writes it.
    expect(fromMistralSdk([history[1] as MistralSdkInput])).toEqual([
      JSON.parse(JSON.stringify(AssistantMessage$outboundSchema.parse(history[1]))),
    ]);
    // The camelCase objects themselves are refused, naming the wire field.
    const camel = checkTranscriptJson(history, { format: 'mistral' });
    expect(camel.result === 'invalid' && camel.error.field).toBe('messages[1].role');
    const steps = fc.sample(loopArbitrary(), { seed: 3, numRuns: 1 })[0] ?? [];
    const converted = convertTranscriptJson(render('openai-chat', steps), { from: 'openai-chat', to: 'mistral' });
    if (!converted.ok) throw converted.failures[0];
    const sdk = toMistralSdk(converted.value.messages);
    expect(fromMistralSdk(sdk)).toEqual(sent(sdk));
    expect(checkTranscriptJson(fromMistralSdk(sdk), { format: 'mistral' }).result).toBe('accepted');
  });
});
