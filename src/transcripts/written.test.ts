/**
 * What a conversion writes has the shapes `WrittenMessages` declares (the types the SDKs take):
 * every conformance transcript converted into every other format, and generated loops with
 * their single mutations, read against a schema of each written type.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { loopArbitrary, mutate, mutationsOf, render } from '../../test/transcript-loops.ts';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../check/stop-reasons.ts';
import { convertTranscriptJson } from './index.ts';

const str = v.string();
const text = v.looseObject({ type: v.literal('text'), text: str });
const json: v.GenericSchema<unknown> = v.lazy(() =>
  v.union([v.null(), v.boolean(), v.number(), v.string(), v.array(json), v.record(v.string(), json)]),
);

/** A schema of each written type (`written.ts`): required fields and kinds; other fields are allowed, as TypeScript allows them. */
const WRITTEN: Readonly<Record<Exclude<TranscriptFormat, 'chat' | 'mistral' | 'gemini'>, v.GenericSchema<unknown>>> = {
  anthropic: v.looseObject({
    role: v.picklist(['user', 'assistant']),
    content: v.union([
      str,
      v.array(
        v.union([
          text,
          v.looseObject({ type: v.literal('image'), source: v.looseObject({ type: v.literal('url'), url: str }) }),
          v.looseObject({
            type: v.literal('image'),
            source: v.looseObject({
              type: v.literal('base64'),
              media_type: v.picklist(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
              data: str,
            }),
          }),
          v.looseObject({ type: v.literal('thinking'), thinking: str, signature: str }),
          v.looseObject({ type: v.literal('redacted_thinking'), data: str }),
          v.looseObject({ type: v.literal('tool_use'), id: str, name: str, input: v.unknown() }),
          v.looseObject({
            type: v.literal('tool_result'),
            tool_use_id: str,
            content: str,
            is_error: v.optional(v.literal(true)),
          }),
        ]),
      ),
    ]),
  }),
  'openai-chat': v.union([
    v.looseObject({ role: v.literal('system'), content: str }),
    v.looseObject({
      role: v.literal('user'),
      content: v.union([
        str,
        v.array(
          v.union([
            text,
            v.looseObject({
              type: v.literal('image_url'),
              image_url: v.looseObject({ url: str, detail: v.optional(v.picklist(['auto', 'low', 'high'])) }),
            }),
          ]),
        ),
      ]),
    }),
    v.looseObject({
      role: v.literal('assistant'),
      content: v.nullable(v.union([str, v.array(text)])),
      tool_calls: v.optional(
        v.array(
          v.looseObject({
            id: str,
            type: v.literal('function'),
            function: v.looseObject({ name: str, arguments: str }),
          }),
        ),
      ),
    }),
    v.looseObject({ role: v.literal('tool'), tool_call_id: str, content: str }),
  ]),
  'openai-responses': v.union([
    v.looseObject({
      type: v.optional(v.literal('message')),
      role: v.picklist(['system', 'user', 'assistant']),
      content: str,
    }),
    v.looseObject({
      role: v.literal('user'),
      content: v.array(
        v.union([
          v.looseObject({ type: v.literal('input_text'), text: str }),
          v.looseObject({
            type: v.literal('input_image'),
            detail: v.picklist(['auto', 'low', 'high']),
            image_url: str,
          }),
        ]),
      ),
    }),
    v.looseObject({ type: v.literal('function_call'), call_id: str, name: str, arguments: str }),
    v.looseObject({ type: v.literal('function_call_output'), call_id: str, output: str }),
  ]),
  aisdk: v.union([
    v.looseObject({ role: v.literal('system'), content: str }),
    v.looseObject({
      role: v.literal('user'),
      content: v.union([
        str,
        v.array(v.union([text, v.looseObject({ type: v.literal('image'), image: str, mediaType: v.optional(str) })])),
      ]),
    }),
    v.looseObject({
      role: v.literal('assistant'),
      content: v.array(
        v.union([
          text,
          v.looseObject({ type: v.literal('reasoning'), text: str }),
          v.looseObject({ type: v.literal('tool-call'), toolCallId: str, toolName: str, input: v.unknown() }),
        ]),
      ),
    }),
    v.looseObject({
      role: v.literal('tool'),
      content: v.array(
        v.looseObject({
          type: v.literal('tool-result'),
          toolCallId: str,
          toolName: str,
          output: v.looseObject({ type: v.picklist(['text', 'error-text']), value: str }),
        }),
      ),
    }),
  ]),
  'bedrock-converse': v.looseObject({
    role: v.picklist(['user', 'assistant']),
    content: v.array(
      v.union([
        v.looseObject({ text: str }),
        v.looseObject({
          image: v.looseObject({
            format: v.picklist(['png', 'jpeg', 'gif', 'webp']),
            source: v.looseObject({ bytes: str }),
          }),
        }),
        v.looseObject({
          reasoningContent: v.union([
            v.looseObject({ reasoningText: v.looseObject({ text: str, signature: v.optional(str) }) }),
            v.looseObject({ redactedContent: str }),
          ]),
        }),
        v.looseObject({ toolUse: v.looseObject({ toolUseId: str, name: str, input: json }) }),
        v.looseObject({
          toolResult: v.looseObject({
            toolUseId: str,
            content: v.array(v.looseObject({ text: str })),
            status: v.optional(v.literal('error')),
          }),
        }),
      ]),
    ),
  }),
  langchain: v.looseObject({
    lc: v.literal(1),
    type: v.literal('constructor'),
    id: v.array(str),
    kwargs: v.record(v.string(), v.unknown()),
  }),
};

const CASES = join(import.meta.dirname, '../../conformance/transcripts');
const cases = TRANSCRIPT_FORMATS.flatMap((format) =>
  readdirSync(join(CASES, format))
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ file: `${format}/${f}`, format, data: JSON.parse(readFileSync(join(CASES, format, f), 'utf8')) }))
    .filter((c) => c.data.result !== 'invalid'),
);
const targets = Object.keys(WRITTEN) as (keyof typeof WRITTEN)[];

/** The messages of `messages` that are not of the written type of `to`, with the schema's first issue. */
function offShape(to: keyof typeof WRITTEN, messages: readonly unknown[]): unknown[] {
  return messages.flatMap((message, i) => {
    const read = v.safeParse(WRITTEN[to], message);
    return read.success ? [] : [{ at: i, message, issue: read.issues[0]?.message }];
  });
}

describe('what a conversion writes has the written types', () => {
  it.each(targets)('into %s: every conformance transcript of every other format', (to) => {
    let checked = 0;
    for (const c of cases.filter((x) => x.format !== to)) {
      const converted = convertTranscriptJson(c.data.input, {
        from: c.format,
        to,
        expect: c.data.expect ?? 'sendable',
      });
      if (!converted.ok) continue;
      expect({ file: c.file, off: offShape(to, converted.value.messages) }).toEqual({ file: c.file, off: [] });
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('into every format: generated loops and their mutations (repair writes the same shapes)', () => {
    const mutated = loopArbitrary().chain((steps) =>
      fc.constantFrom(steps, ...mutationsOf(steps).map((mutation) => mutate(steps, mutation))),
    );
    fc.assert(
      fc.property(mutated, fc.constantFrom(...TRANSCRIPT_FORMATS), fc.constantFrom(...targets), (steps, from, to) => {
        fc.pre(from !== to);
        const converted = convertTranscriptJson(render(from, steps), { from, to });
        if (!converted.ok) throw converted.failures[0];
        expect(offShape(to, converted.value.messages)).toEqual([]);
      }),
      { numRuns: 300, seed: 36 },
    );
  });
});
