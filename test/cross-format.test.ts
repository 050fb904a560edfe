/**
 * The cross-format corpus (scripts/cross-format.mjs): every conformance case its own format can
 * read, checked under each other format. A history holding another format's tool structure is
 * `invalid` under that format, never accepted; only `openai-chat`, `chat` and `mistral`, which
 * share `tool_calls` and `tool_call_id` by design, can read each other's histories without tool
 * calls in their own shape; `openai-chat` and `mistral` share the whole wire shape (Mistral's is
 * OpenAI's without `developer`, `function` and `function_call`), so a history valid under both
 * is accepted under both.
 */
import { describe, expect, it } from 'vitest';
import { crossFormat, FORMATS, readableCases, summarize } from '../scripts/cross-format.mjs';
import { checkTranscriptJson, TRANSCRIPT_FORMATS } from '../src/transcripts/index.ts';

const rows = crossFormat(checkTranscriptJson);
const SHARED = ['openai-chat', 'chat', 'mistral'];
/** The formats with one wire shape: a history of one may be accepted as the other. */
const SAME_WIRE = ['openai-chat', 'mistral'];

describe('the cross-format corpus', () => {
  it('reads one conformance folder per format of TRANSCRIPT_FORMATS, and no other', () => {
    expect(FORMATS).toEqual([...TRANSCRIPT_FORMATS].sort());
  });

  it('covers every readable case under every other format', () => {
    expect(rows.length).toBe(readableCases().length * (FORMATS.length - 1));
    expect(summarize(rows).withToolStructure.checks).toBeGreaterThan(600);
  });

  it('accepts no wrong-format check of a history with tool structure', () => {
    const accepted = rows
      .filter((r) => !r.plain && r.result === 'accepted')
      .filter((r) => !(SAME_WIRE.includes(r.from) && SAME_WIRE.includes(r.as)))
      .map((r) => `${r.id} as ${r.as}`);
    expect(accepted).toEqual([]);
  });

  it('reads a history under another format only among openai-chat, chat and mistral', () => {
    const read = rows.filter((r) => !r.plain && r.result !== 'invalid');
    for (const r of read) expect([r.from, r.as].every((f) => SHARED.includes(f))).toBe(true);
  });

  it('names the path, the structure found and the format it looks like', () => {
    const row = rows.find((r) => r.id === 'anthropic/batch-answered-in-one-turn' && r.as === 'openai-chat');
    expect(row?.message).toBe(
      'messages[1].content[0].type: "tool_use" is an Anthropic block; this history looks like format "anthropic", not "openai-chat"',
    );
    const aisdk = rows.find((r) => r.id === 'aisdk/single-tool-result' && r.as === 'openai-chat');
    expect(aisdk?.message).toMatch(
      /^messages\[\d+\]\.content\[0\]\.type: "tool-call" is an AI SDK part; this history looks like format "aisdk", not "openai-chat"$/,
    );
  });
});
