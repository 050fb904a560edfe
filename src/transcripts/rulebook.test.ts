/**
 * The rulebook's promises, over every conformance case: what `TRANSCRIPT_RULES` says of a rule
 * (`repairable`) is what repair does; repair leaves the messages before the first one a failure
 * involves the same objects (prompt caches still hit); `RULES.md` lists every rule; each format's driver
 * holds the rules its checks emit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../check/index.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import { checkTranscriptJson, repairTranscriptJson, TRANSCRIPT_RULES, type TranscriptRule } from './index.ts';
import type { OpenAIChatDialect } from './core/dialects.ts';

interface Case {
  readonly file: string;
  readonly format: TranscriptFormat;
  readonly expect?: 'sendable' | 'received';
  readonly dialect?: OpenAIChatDialect;
  readonly input: unknown;
  readonly result: string;
  readonly failures?: readonly { readonly rule: TranscriptRule }[];
}

const suite = join(import.meta.dirname, '../../conformance/transcripts');
const cases: Case[] = TRANSCRIPT_FORMATS.flatMap((format) =>
  readdirSync(join(suite, format))
    .filter((file) => file.endsWith('.json'))
    .map((file) => ({ file: `${format}/${file}`, ...JSON.parse(readFileSync(join(suite, format, file), 'utf8')) })),
);
const rejected = cases.filter((c) => c.result === 'rejected');
/** The case's dialect, as an option (`openai-chat` cases of a provider dialect). */
const dialectOf = (c: Case): { dialect?: OpenAIChatDialect } => (c.dialect === undefined ? {} : { dialect: c.dialect });
const info = (rule: TranscriptRule) => TRANSCRIPT_RULES[rule] as { readonly repairable: boolean };

/** The messages of a case's input (a bare array, or the body's field). */
function messagesOf(c: Case): readonly unknown[] {
  if (Array.isArray(c.input)) return c.input;
  const value = (c.input as Record<string, unknown>)[FORMAT_DRIVERS[c.format].field];
  return Array.isArray(value) ? value : [];
}

describe('the rulebook', () => {
  it('has rejected conformance cases to hold it to', () => {
    expect(rejected.length).toBeGreaterThan(50);
  });

  it('repairable says what repair does: a repairable rule never remains, a rule without a repair does', () => {
    const remainedOnce = new Set<TranscriptRule>();
    for (const c of rejected) {
      const options = { format: c.format, expect: c.expect ?? 'sendable', ...dialectOf(c) } as const;
      const repaired = repairTranscriptJson(c.input, options);
      if (!repaired.ok) throw new Error(`${c.file}: repair refused the input`);
      for (const failure of repaired.value.remaining) {
        expect({ file: c.file, rule: failure.rule, repairable: info(failure.rule).repairable }).toEqual({
          file: c.file,
          rule: failure.rule,
          repairable: false,
        });
        remainedOnce.add(failure.rule);
      }
      const onlyRepairable = (c.failures ?? []).every((failure) => info(failure.rule).repairable);
      if (onlyRepairable) {
        expect({ file: c.file, result: checkTranscriptJson(repaired.value.messages, options).result }).toEqual({
          file: c.file,
          result: 'accepted',
        });
      }
    }
    const unrepairable = (Object.keys(TRANSCRIPT_RULES) as TranscriptRule[]).filter((rule) => !info(rule).repairable);
    expect(unrepairable.filter((rule) => !remainedOnce.has(rule))).toEqual([]);
  });

  it('repair keeps every message before the first one a failure involves the same object (the prefix that was fine)', () => {
    for (const c of rejected) {
      const options = { format: c.format, expect: c.expect ?? 'sendable', ...dialectOf(c) } as const;
      const repaired = repairTranscriptJson(c.input, options);
      if (!repaired.ok || repaired.value.repairs.length === 0) continue;
      const input = messagesOf(c);
      const report = checkTranscriptJson(c.input, options);
      // A failure involves the message it names and the first message naming one of its ids (its call).
      const mentions = (id: string) =>
        input.findIndex((message) => JSON.stringify(message).includes(JSON.stringify(id)));
      const involved = report.failures.flatMap((f) => [f.messageIndex, ...f.ids.map(mentions)]);
      const first = Math.min(...involved.filter((i) => i >= 0));
      for (let i = 0; i < first && i < input.length; i++) {
        expect({ file: c.file, i, same: repaired.value.messages[i] === input[i] }).toEqual({
          file: c.file,
          i,
          same: true,
        });
      }
    }
  });

  it('RULES.md lists every rule, and every rule it lists exists', () => {
    const text = readFileSync(join(suite, 'RULES.md'), 'utf8');
    const listed = new Set([...text.matchAll(/^\| `([a-z-]+\.[a-z0-9_]+)` \|/gm)].map((m) => m[1]));
    expect(Object.keys(TRANSCRIPT_RULES).filter((rule) => !listed.has(rule))).toEqual([]);
    expect([...listed].filter((rule) => rule !== undefined && !(rule in TRANSCRIPT_RULES))).toEqual([]);
  });

  it("each format's driver holds exactly the rules named after its format", () => {
    for (const format of TRANSCRIPT_FORMATS) {
      const own = Object.keys(TRANSCRIPT_RULES).filter((rule) => rule.startsWith(`${format}.`));
      expect(Object.keys(FORMAT_DRIVERS[format].rules).sort()).toEqual(own.sort());
    }
  });
});
