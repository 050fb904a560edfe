/**
 * A polluted Object.prototype or Array.prototype (some other bug in the host application) must
 * not change what `checkTranscript` and `repairTranscript` decide: over every conformance case,
 * with one planted key at a time (every field name the cases hold, and array indexes), the
 * check's report and the repair's output, records and remaining failures are those of a clean
 * prototype. Repair reads own data only, as the check does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../src/check/index.ts';
import type { OpenAIChatDialect } from '../src/transcripts/core/dialects.ts';
import { checkTranscriptJson, repairTranscriptJson } from '../src/transcripts/index.ts';
import { jsonKeys, withPollution } from './turn-fixtures.ts';

interface Case {
  readonly id: string;
  readonly format: TranscriptFormat;
  readonly expect: 'sendable' | 'received';
  readonly dialect?: OpenAIChatDialect;
  readonly input: unknown;
}

const suite = join(import.meta.dirname, '..', 'conformance', 'transcripts');
const cases: Case[] = TRANSCRIPT_FORMATS.flatMap((format) =>
  readdirSync(join(suite, format))
    .filter((file) => file.endsWith('.json'))
    .map((file) => {
      const parsed = JSON.parse(readFileSync(join(suite, format, file), 'utf8'));
      return {
        id: `${format}/${file}`,
        format,
        expect: parsed.expect ?? 'sendable',
        ...(parsed.dialect === undefined ? {} : { dialect: parsed.dialect }),
        input: parsed.input,
      };
    }),
);

/** What the check and the repair decide, as text. */
function verdict(c: Case): string {
  const options = {
    format: c.format,
    expect: c.expect,
    ...(c.dialect === undefined ? {} : { dialect: c.dialect }),
  } as const;
  const report = checkTranscriptJson(c.input, options);
  const repaired = repairTranscriptJson(c.input, options);
  return JSON.stringify({
    result: report.result,
    failures: report.failures,
    error: report.result === 'invalid' ? report.error.message : undefined,
    repaired: repaired.ok
      ? { messages: repaired.value.messages, repairs: repaired.value.repairs, remaining: repaired.value.remaining }
      : repaired.failures[0]?.message,
  });
}

const planted: string[] = [];
afterEach(() => {
  for (const key of planted.splice(0)) Reflect.deleteProperty(Array.prototype, key);
});

describe('transcripts under a polluted prototype', () => {
  const clean = new Map(cases.map((c) => [c.id, verdict(c)]));
  const names = [...jsonKeys(cases.map((c) => c.input))];

  it('plants every field name the cases hold, and array indexes', () => {
    expect(names).toEqual(expect.arrayContaining(['role', 'content', 'tool_calls', 'parts', 'type', 'call_id']));
  });

  it.each(['planted', { type: 'tool_use', id: 'toolu_planted', name: 'rm', input: {} }])(
    'check and repair decide as on a clean Object.prototype, one planted key at a time (value %j)',
    (value) => {
      const differs: string[] = [];
      for (const key of names) {
        withPollution({ [key]: value }, () => {
          for (const c of cases) if (verdict(c) !== clean.get(c.id)) differs.push(`${key} ${c.id}`);
        });
      }
      expect(differs).toEqual([]);
    },
    // Every planted key over every case: the work grows with the cases of every format.
    180_000,
  );

  it('repair reads no array element through a hole: a planted Array.prototype element fills none', () => {
    const differs: string[] = [];
    for (const index of ['0', '1', '2', '3']) {
      Reflect.set(Array.prototype, index, { role: 'user', content: 'planted' });
      planted.push(index);
      for (const c of cases) if (verdict(c) !== clean.get(c.id)) differs.push(`${index} ${c.id}`);
      Reflect.deleteProperty(Array.prototype, index);
      planted.pop();
    }
    expect(differs).toEqual([]);
  });

  it('a sparse history with a planted Array.prototype element at its hole is not accepted', () => {
    // JSON.stringify writes the hole as null, which no provider takes: the check must not judge the planted message.
    const history: unknown[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ];
    history[3] = { role: 'user', content: 'and now?' };
    expect(checkTranscriptJson(history, { format: 'openai-chat' }).result).not.toBe('accepted');
    Reflect.set(Array.prototype, '2', { role: 'assistant', content: 'planted' });
    planted.push('2');
    const report = checkTranscriptJson(history, { format: 'openai-chat' });
    expect(report.result).toBe('invalid');
    expect(JSON.stringify(report)).not.toContain('planted');
  });
});
