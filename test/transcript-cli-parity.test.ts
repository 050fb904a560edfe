/**
 * The command line gives the library's answer: every conformance transcript through
 * `transcriptCheck` (the CLI's function) and `checkTranscriptJson` on `JSON.parse` of the same
 * text, and every conversion pair (every transcript of a source format into every target) through
 * `transcriptConvert` and `convertTranscriptJson`, give the same verdict, failures and output
 * bytes. A few real processes show the function is what the command runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../src/check/index.ts';
import { transcriptCheck } from '../src/cli/transcript-check.ts';
import { transcriptConvert } from '../src/cli/transcript-convert.ts';
import { checkTranscriptJson, convertTranscriptJson, repairTranscriptJson } from '../src/transcripts/index.ts';
import type { OpenAIChatDialect } from '../src/formats.ts';
import { requireBuiltCli, run } from './cli-run.ts';

const CASES = join(import.meta.dirname, '../conformance/transcripts');

interface Case {
  readonly file: string;
  readonly format: TranscriptFormat;
  /** The input as JSON text, as a user's file holds it. */
  readonly text: string;
  readonly expect: 'sendable' | 'received';
  readonly dialect: OpenAIChatDialect | undefined;
}

function conformanceCases(): Case[] {
  const out: Case[] = [];
  for (const format of TRANSCRIPT_FORMATS) {
    for (const file of readdirSync(join(CASES, format))
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const data = JSON.parse(readFileSync(join(CASES, format, file), 'utf8'));
      out.push({
        file: `${format}/${file}`,
        format,
        text: JSON.stringify(data.input, null, 1),
        expect: data.expect ?? 'sendable',
        dialect: data.dialect,
      });
    }
  }
  return out;
}

const cases = conformanceCases();
/** What a script calling the library prints for a value. */
const printed = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const label = 'history.json';

/** The library's answer for `transcript-check --json [--repair]`, built from the library's own values. */
function libraryCheck(c: Case, repair: boolean) {
  const value = JSON.parse(c.text);
  const settings = { format: c.format, expect: c.expect, ...(c.dialect === undefined ? {} : { dialect: c.dialect }) };
  const report = checkTranscriptJson(value, settings);
  if (report.result === 'invalid') return { exitCode: 2, stdout: '', invalid: report.error.message };
  const repaired = repair ? repairTranscriptJson(value, settings) : undefined;
  const body = {
    ...(c.dialect === undefined ? {} : { dialect: c.dialect }),
    result: report.result,
    failures: report.failures,
    openToolCalls: report.openToolCalls,
    ...(repaired?.ok === true
      ? {
          repaired: repaired.value.messages,
          repairs: repaired.value.repairs,
          ...(repaired.value.remaining.length > 0 ? { remaining: repaired.value.remaining } : {}),
        }
      : {}),
  };
  return { exitCode: report.result === 'rejected' ? 1 : 0, stdout: printed(body), invalid: undefined };
}

/** `stderr` of an input error: the library's message on one line, naming the input. */
function invalidLine(prefix: string, message: string): RegExp {
  const escaped = message.slice(0, 60).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${prefix} ${escaped}.* \\(input ${label}\\)\\n$`);
}

describe('transcript-check gives the library answer on every conformance transcript', () => {
  it('has transcripts of every format, the invalid ones and LangChain toJSON() among them', () => {
    expect(new Set(cases.map((c) => c.format))).toEqual(new Set(TRANSCRIPT_FORMATS));
    expect(cases.some((c) => c.text.includes('"lc": 1'))).toBe(true);
    expect(cases.length).toBeGreaterThan(350);
  });

  it.each(TRANSCRIPT_FORMATS)('%s: same verdict, failures, repairs and output bytes', (format) => {
    let compared = 0;
    for (const c of cases.filter((x) => x.format === format)) {
      for (const repair of [false, true]) {
        const cli = transcriptCheck(Buffer.from(c.text), {
          format: c.format,
          expect: c.expect,
          json: true,
          repair,
          failOnReject: true,
          ...(c.dialect === undefined ? {} : { dialect: c.dialect }),
          inputLabel: label,
        });
        const library = libraryCheck(c, repair);
        expect({ file: c.file, code: cli.exitCode, stdout: cli.stdout }).toEqual({
          file: c.file,
          code: library.exitCode,
          stdout: library.stdout,
        });
        if (library.invalid !== undefined)
          expect(cli.stderr).toMatch(invalidLine('transcript_check_invalid:', library.invalid));
        else expect(cli.stderr).toBe('');
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});

const targets = TRANSCRIPT_FORMATS;

describe('transcript-convert gives the library answer on every conversion pair', () => {
  it.each(TRANSCRIPT_FORMATS)('from %s into every target: same result and output bytes', (from) => {
    let pairs = 0;
    for (const c of cases.filter((x) => x.format === from)) {
      for (const to of targets) {
        const options = { from, to, expect: c.expect } as const;
        const cli = transcriptConvert(Buffer.from(c.text), { ...options, json: true, inputLabel: label });
        const library = convertTranscriptJson(JSON.parse(c.text), options);
        if (!library.ok) {
          expect({ file: c.file, to, code: cli.exitCode, stdout: cli.stdout }).toEqual({
            file: c.file,
            to,
            code: 2,
            stdout: '',
          });
          expect(cli.stderr).toMatch(invalidLine('transcript_convert_invalid:', library.failures[0]?.message ?? ''));
          continue;
        }
        const { messages, system, changes, toolCallIds, remaining } = library.value;
        expect({ file: c.file, to, code: cli.exitCode, stdout: cli.stdout, stderr: cli.stderr }).toEqual({
          file: c.file,
          to,
          code: remaining.length > 0 ? 1 : 0,
          stdout: printed({
            messages,
            ...(system === undefined ? {} : { system }),
            changes,
            toolCallIds,
            ...(remaining.length > 0 ? { remaining } : {}),
          }),
          stderr: '',
        });
        pairs++;
      }
    }
    expect(pairs).toBeGreaterThan(0);
  });

  it('keeps numbers as numbers in JSON-text arguments', () => {
    const text = JSON.stringify([
      { role: 'user', content: 'Refund 200.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'refund', input: { amount: 200 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] },
    ]);
    for (const to of ['openai-chat', 'openai-responses', 'mistral'] as const) {
      const cli = transcriptConvert(text, { from: 'anthropic', to, expect: 'sendable', json: true, inputLabel: label });
      expect(cli.exitCode).toBe(0);
      expect(cli.stdout).toContain(JSON.stringify('{"amount":200}'));
      expect(cli.stdout).not.toContain('raw');
    }
  });
});

describe('the command runs the function', () => {
  beforeAll(requireBuiltCli);

  it('a real process prints what transcriptCheck and transcriptConvert return, for a handful of inputs', () => {
    const picked = ['langchain/mixed-forms.json', 'anthropic/', 'gemini/', 'openai-responses/'].map(
      (prefix) => cases.find((c) => c.file.startsWith(prefix)) as Case,
    );
    for (const c of picked) {
      const check = run(
        ['transcript-check', '--format', c.format, '--expect', c.expect, '--json', '--input', '-'],
        c.text,
      );
      const fn = transcriptCheck(c.text, {
        format: c.format,
        expect: c.expect,
        json: true,
        repair: false,
        failOnReject: true,
        inputLabel: '-',
      });
      expect({ file: c.file, ...check }).toEqual({
        file: c.file,
        code: fn.exitCode,
        stdout: fn.stdout,
        stderr: fn.stderr,
      });
      const to: TranscriptFormat = c.format === 'anthropic' ? 'openai-chat' : 'anthropic';
      const converted = run(
        ['transcript-convert', '--from', c.format, '--to', to, '--expect', c.expect, '--json', '--input', '-'],
        c.text,
      );
      const convertFn = transcriptConvert(c.text, {
        from: c.format,
        to,
        expect: c.expect,
        json: true,
        inputLabel: '-',
      });
      expect({ file: c.file, ...converted }).toEqual({
        file: c.file,
        code: convertFn.exitCode,
        stdout: convertFn.stdout,
        stderr: convertFn.stderr,
      });
    }
  }, 60_000);
});
