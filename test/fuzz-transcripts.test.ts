/**
 * Property runs over the transcript check and repair in every format: a few thousand seeded
 * inputs (the conformance transcripts edited as real histories go wrong, and arbitrary JSON),
 * then a handful of `turngate transcript-check` processes on hostile files. What must hold: see
 * test/transcript-fuzz.mjs. `npm run fuzz:campaign` runs the long version.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTranscriptJson, repairTranscriptJson } from '../src/transcripts/index.ts';
// @ts-expect-error -- a plain JavaScript module shared with the campaign script (no declarations)
import { FORMATS, seedTranscripts, transcriptInput, violations } from './transcript-fuzz.mjs';

const SEED = 20261122;
const seeds = seedTranscripts(join(import.meta.dirname, '..', 'conformance', 'transcripts'));
const lib = { checkTranscriptJson, repairTranscriptJson };

describe('transcript check and repair over seeded hostile inputs', () => {
  it('has seeds in every format', () => {
    expect(new Set(seeds.map((s: { format: string }) => s.format))).toEqual(new Set(FORMATS));
  });

  it('never throws, reports well-formed failures, and repairs to what the check accepts', () => {
    let slowest = 0;
    fc.assert(
      fc.property(transcriptInput(fc, seeds), (input) => {
        const started = performance.now();
        const broken = violations(lib, input);
        slowest = Math.max(slowest, performance.now() - started);
        expect(broken).toEqual([]);
      }),
      { seed: SEED, numRuns: 3000 },
    );
    // A hang would show as one input taking seconds; the whole run takes about a second.
    expect(slowest).toBeLessThan(5000);
  });

  it('repairs what an earlier repair exposes, and renames a repeated server call with its result', () => {
    const gemini = [
      { role: 'user', parts: [{ text: 'Time and weather in Oslo?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: {} } }, { functionCall: { name: 'get_time', args: {} } }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_time', response: null } },
          { functionResponse: { name: 'get_weather', response: { output: {} } } },
        ],
      },
    ];
    const search = {
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
        { type: 'text', text: 'Found it.' },
      ],
    };
    const anthropic = [
      { role: 'user', content: 'Search.' },
      search,
      structuredClone(search),
      { role: 'user', content: 'Thanks.' },
    ];
    for (const [format, value] of [
      ['gemini', gemini],
      ['anthropic', anthropic],
    ] as const) {
      const repaired = repairTranscriptJson(value, { format });
      if (!repaired.ok) throw new Error(repaired.failures[0]?.message);
      expect(checkTranscriptJson(repaired.value.messages, { format }).result).toBe('accepted');
      const twice = repairTranscriptJson(repaired.value.messages, { format });
      expect(twice.ok && twice.value.changed).toBe(false);
    }
  });

  it('keeps turngate transcript-check within exit codes 0-3 on hostile files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-transcript-fuzz-'));
    const cli = join(import.meta.dirname, '..', 'dist', 'cli', 'turngate.js');
    const samples: { format: string; value: unknown }[] = fc.sample(transcriptInput(fc, seeds), {
      seed: SEED,
      numRuns: 6,
    });
    const files: [string, string][] = [
      ...samples.map((s): [string, string] => [s.format, JSON.stringify(s.value)]),
      ['anthropic', '{"messages": ['],
      ['gemini', '\u0000\u001b[31m'],
      [
        'openai-chat',
        JSON.stringify([{ role: 'tool', tool_call_id: 'x'.repeat(100_000), content: '\u001b]0;pwn\u0007' }]),
      ],
    ];
    for (const [k, [format, text]] of files.entries()) {
      const path = join(dir, `input-${k}.json`);
      writeFileSync(path, text);
      const run = spawnSync(
        process.execPath,
        [cli, 'transcript-check', '--format', format, '--input', path, '--repair'],
        {
          encoding: 'utf8',
        },
      );
      expect([0, 1, 2, 3]).toContain(run.status);
      expect(run.stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(1);
      expect((run.stdout + run.stderr).includes(String.fromCharCode(27))).toBe(false);
    }
  });
});
