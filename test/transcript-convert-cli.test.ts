import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertTranscriptJson } from '../src/transcripts/index.ts';
import { requireBuiltCli, run } from './cli-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'turngate-convert-'));
const file = (name: string, value: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};
const convert = (args: string[], input?: string) => run(['transcript-convert', ...args], input);

const history = [
  { role: 'user', content: 'Weather in Oslo?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call:1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
  },
  { role: 'tool', tool_call_id: 'call:1', content: 'Snow' },
];

beforeAll(requireBuiltCli);

describe('turngate transcript-convert', () => {
  it('prints what convertTranscript returns as JSON, exit 0 when the target accepts it', () => {
    const r = convert(['--from', 'openai-chat', '--to', 'anthropic', '--input', file('h.json', history), '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const library = convertTranscriptJson(history, { from: 'openai-chat', to: 'anthropic' });
    if (!library.ok) throw library.failures[0];
    const printed = JSON.parse(r.stdout);
    expect(printed).toEqual({
      messages: library.value.messages,
      changes: library.value.changes,
      toolCallIds: library.value.toolCallIds,
    });
  });

  it('summarizes the changes for people, and reads stdin', () => {
    const r = convert(['--from', 'openai-chat', '--to', 'anthropic', '--input', '-'], JSON.stringify(history));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Formats: openai-chat -> anthropic');
    expect(r.stdout).toMatch(/- tool_call_id_remapped: anthropic takes tool call ids of .*: call:1 became toolu_/);
    expect(r.stdout).toContain('"tool_use_id": "toolu_');
  });

  it('prints the system prompt apart for a target that takes it outside its messages', () => {
    const withSystem = [{ role: 'system', content: 'Answer in one sentence.' }, ...history];
    const json = convert(['--from', 'openai-chat', '--to', 'gemini', '--input', file('s.json', withSystem), '--json']);
    expect(json.code).toBe(0);
    const printed = JSON.parse(json.stdout);
    expect(printed.system).toEqual({ parts: [{ text: 'Answer in one sentence.' }] });
    expect(printed.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'model', 'user']);
    const text = convert(['--from', 'openai-chat', '--to', 'anthropic', '--input', file('s2.json', withSystem)]);
    expect(text.stdout).toContain(
      '  System prompt (the request\'s system, outside the messages):\n"Answer in one sentence."\n',
    );
    expect(text.stdout).not.toContain('"role": "system"');
  });

  it('brings ids home with --tool-call-ids', () => {
    const there = JSON.parse(
      convert(['--from', 'openai-chat', '--to', 'anthropic', '--input', file('t.json', history), '--json']).stdout,
    );
    const back = convert([
      '--from',
      'anthropic',
      '--to',
      'openai-chat',
      '--input',
      file('back.json', there.messages),
      '--tool-call-ids',
      file('ids.json', there.toolCallIds),
      '--json',
    ]);
    expect(back.code).toBe(0);
    expect(JSON.parse(back.stdout).messages[2].tool_call_id).toBe('call:1');
  });

  it('exits 1 when the target still rejects the result (a failure no repair fixes)', () => {
    const empty = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'x'.repeat(200), input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
    ];
    const r = convert(['--from', 'anthropic', '--to', 'openai-chat', '--input', file('long.json', empty)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Not repairable:');
  });

  it.each([
    [['--to', 'anthropic', '--input', '-'], '--from must be one of'],
    [['--from', 'anthropic', '--to', 'nope', '--input', '-'], '--to must be one of'],
    [['--from', 'anthropic', '--to', 'chat'], '--input <file | -> is required'],
    [
      ['--from', 'anthropic', '--to', 'chat', '--input', '-', '--reasoning', 'some'],
      '--reasoning must be drop or keep',
    ],
    [['--from', 'anthropic', '--to', 'chat', '--input', '-', '--max-input-bytes', 'lots'], '--max-input-bytes'],
  ])('refuses bad usage with exit 2 and one line: %j', (args, message) => {
    const r = convert(args, '[]');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toMatch(/\(see turngate transcript-convert --help\)\n$/);
    expect(r.stderr.split('\n')).toHaveLength(2);
  });

  it('refuses input that is not a transcript of the source: exit 2 naming the path', () => {
    const r = convert([
      '--from',
      'openai-chat',
      '--to',
      'anthropic',
      '--input',
      file('g.json', [{ role: 'model', parts: [] }]),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^transcript_convert_invalid: messages\[0\]\.role/);
    const big = convert(
      ['--from', 'chat', '--to', 'anthropic', '--input', '-', '--max-input-bytes', '4'],
      '[{"role":"user","content":"Hi"}]',
    );
    expect([big.code, big.stderr]).toEqual([
      2,
      'transcript_convert_invalid: input is larger than the input limit of 4 bytes; raise the limit with --max-input-bytes (input -)\n',
    ]);
  });
});

describe('turngate transcript-convert --dialect', () => {
  it("remaps ids into the dialect's grammar, and refuses a dialect beside another target", () => {
    const r = convert([
      '--from',
      'openai-chat',
      '--to',
      'openai-chat',
      '--dialect',
      'kimi',
      '--input',
      file('k.json', history),
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).messages[1].tool_calls[0].id).toBe('functions.get_weather:0');
    const wrong = convert(['--from', 'openai-chat', '--to', 'anthropic', '--dialect', 'kimi', '--input', '-'], '[]');
    expect([wrong.code, wrong.stderr]).toEqual([
      2,
      'turngate: --dialect takes one of deepseek, kimi, groq, xai, with --to openai-chat (see turngate transcript-convert --help)\n',
    ]);
  });
});
