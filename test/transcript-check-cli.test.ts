import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkTranscriptJson, repairTranscriptJson } from '../src/transcripts/index.ts';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'turngate.js');
const dir = mkdtempSync(join(tmpdir(), 'turngate-transcripts-'));

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [CLI, 'transcript-check', ...args], { input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const dangling = [
  { role: 'user', content: 'Weather in Oslo?' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } }] },
  { role: 'user', content: 'Hello?' },
];
const fine = [
  { role: 'user', content: 'Weather in Oslo?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
];

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/turngate.js is missing: run `npm run build` first');
});

describe('turngate transcript-check', () => {
  it('summarizes a rejected transcript with each failure position, ids and fix; exit 1, or 0 under --report-only', () => {
    const path = file('dangling.json', dangling);
    const r = run(['--format', 'anthropic', '--input', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Result: rejected');
    expect(r.stdout).toContain('- messages[1] anthropic.tool_use_unanswered [toolu_01] (tool.result_missing)');
    expect(r.stdout).toMatch(/fix: Put a tool_result block/);
    expect(run(['--format', 'anthropic', '--input', path, '--fail-on-reject']).code).toBe(1);
    const reportOnly = run(['--format', 'anthropic', '--input', path, '--report-only']);
    expect([reportOnly.code, reportOnly.stdout]).toEqual([0, r.stdout]);
    expect(run(['--format', 'openai-chat', '--input', file('fine-only.json', fine)]).code).toBe(0);
    const both = run(['--format', 'anthropic', '--input', path, '--report-only', '--fail-on-reject']);
    expect([both.code, both.stderr]).toEqual([
      2,
      'turngate: --report-only and --fail-on-reject contradict each other: give one (see turngate transcript-check --help)\n',
    ]);
  });

  it("--model names the model for model-specific rules, as options.model does; the body's model otherwise", () => {
    const path = file('model.json', { model: 'gpt-5', messages: fine });
    const r = run(['--format', 'openai-chat', '--input', path, '--model', 'gpt-5-mini', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe(
      checkTranscriptJson({ model: 'gpt-5', messages: fine }, { format: 'openai-chat', model: 'gpt-5-mini' }).result,
    );
    const empty = run(['--format', 'openai-chat', '--input', path, '--model', ' ']);
    expect([empty.code, empty.stderr]).toEqual([
      2,
      'turngate: --model takes a model id (e.g. claude-sonnet-4-5, gemini-3-pro-preview) (see turngate transcript-check --help)\n',
    ]);
  });

  it('--json prints result, failures and open calls as the library reports them', () => {
    const r = run([
      '--format',
      'openai-chat',
      '--input',
      file('fine.json', { model: 'gpt-5', messages: fine }),
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ result: 'accepted', failures: [], openToolCalls: [] });
    const open = run([
      '--format',
      'openai-chat',
      '--input',
      file('open.json', fine.slice(0, 2)),
      '--json',
      '--expect',
      'received',
    ]);
    const expected = checkTranscriptJson(fine.slice(0, 2), { format: 'openai-chat', expect: 'received' });
    expect(JSON.parse(open.stdout)).toEqual({
      result: 'accepted',
      failures: [],
      openToolCalls: expected.openToolCalls,
    });
  });

  it('--repair adds the repaired messages and the repair records', () => {
    const r = run(['--format', 'anthropic', '--json', '--repair', '--input', '-'], JSON.stringify(dangling));
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    const repaired = repairTranscriptJson(dangling, { format: 'anthropic' });
    if (!repaired.ok) throw repaired.failures[0];
    expect(out.result).toBe('rejected');
    expect(out.repaired).toEqual(repaired.value.messages);
    expect(out.repairs).toEqual(repaired.value.repairs);
    expect(checkTranscriptJson(out.repaired, { format: 'anthropic' }).result).toBe('accepted');
    const summary = run(['--format', 'anthropic', '--repair', '--input', '-'], JSON.stringify(dangling));
    expect(summary.stdout).toMatch(/Repairs: 2\n {2}- synthesized_result messages\[1\]\.content\[0\] \[toolu_01\]/);
    // The human summary prints the repaired transcript too, as JSON after its heading.
    const [, printed] = summary.stdout.split('  Repaired transcript:\n');
    expect(JSON.parse(printed ?? '')).toEqual(JSON.parse(JSON.stringify(repaired.value.messages)));
  });

  it('--read-only-tools names the tools whose synthesized results say the call can be retried', () => {
    const args = ['--format', 'anthropic', '--json', '--repair', '--input', '-'];
    const texts = (extra: string[]) =>
      JSON.parse(run([...args, ...extra], JSON.stringify(dangling)).stdout).repaired[2].content.map(
        (block: { content: string }) => block.content,
      );
    const readOnly = repairTranscriptJson(dangling, { format: 'anthropic', readOnlyTools: ['get_weather'] });
    if (!readOnly.ok) throw readOnly.failures[0];
    expect(texts(['--read-only-tools', 'get_weather, read_file'])).toEqual(
      JSON.parse(JSON.stringify(readOnly.value.messages))[2].content.map((block: { content: string }) => block.content),
    );
    expect(texts(['--read-only-tools', 'get_weather'])[0]).toMatch(/get_weather is read-only.*can be retried/);
    expect(texts([])[0]).toMatch(/its outcome is unknown: check before retrying\.$/);
    const usage = run(['--format', 'anthropic', '--read-only-tools', 'get_weather', '--input', '-'], '[]');
    expect([usage.code, usage.stderr]).toEqual([
      2,
      'turngate: --read-only-tools takes comma-separated tool names, with --repair (see turngate transcript-check --help)\n',
    ]);
  });

  it('reads numbers as JSON.parse does and prints what the library returns', () => {
    const text =
      '[{"role":"assistant","content":[{"type":"tool_use","id":"toolu_9","name":"f","input":{"n":200,"x":1.50}}]}]';
    const r = run(['--format', 'anthropic', '--json', '--repair', '--input', '-'], text);
    const library = repairTranscriptJson(JSON.parse(text), { format: 'anthropic' });
    if (!library.ok) throw library.failures[0];
    expect(JSON.parse(r.stdout).repaired).toEqual(library.value.messages);
    expect(r.stdout).toContain('"n": 200');
    expect(r.stdout).toContain('"x": 1.5\n');
  });

  it('input that is not a transcript of the format: exit 2, one stderr line naming the path', () => {
    const cases: [string[], string | undefined, RegExp][] = [
      [
        ['--format', 'gemini', '--input', file('role.json', [{ parts: [] }])],
        undefined,
        /contents\[0\]\.role: expected 'user' or 'model'/,
      ],
      [['--format', 'chat', '--input', file('bad.json', '[{')], undefined, /not JSON/],
      [['--format', 'chat', '--input', join(dir, 'missing.json')], undefined, /failed to read input/],
      [['--format', 'openai-responses', '--input', '-'], '{"model":"gpt-5"}', /input: expected an array/],
      [['--format', 'anthropic', '--input', 'a\nb.json'], undefined, /a\\nb\.json/],
      [
        ['--format', 'openai-chat', '--input', file('anthropic.json', { model: 'gpt-5', messages: dangling })],
        undefined,
        /messages\[1\]\.content\[0\]\.type: "tool_use" is an Anthropic block; this history looks like format "anthropic", not "openai-chat"/,
      ],
      [
        ['--format', 'anthropic', '--repair', '--input', '-'],
        JSON.stringify(fine),
        /messages\[1\]\.tool_calls: `tool_calls` is a Chat Completions message field; this history looks like format "openai-chat", "chat" or "mistral", not "anthropic"/,
      ],
    ];
    for (const [args, stdin, pattern] of cases) {
      const r = run(args, stdin);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^transcript_check_invalid: /);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('--dialect runs the dialect rules of openai-chat and names the dialect in the report', () => {
    const history = [
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Snow' },
    ];
    const path = file('dialect.json', history);
    expect(run(['--format', 'openai-chat', '--input', path]).code).toBe(0);
    const r = run(['--format', 'openai-chat', '--dialect', 'xai', '--json', '--repair', '--input', path]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.dialect).toBe('xai');
    expect(out.failures.map((f: { rule: string }) => f.rule)).toEqual(['openai-chat.xai_assistant_content_missing']);
    expect(out.repaired[1].content).toBe('');
    const summary = run(['--format', 'openai-chat', '--dialect', 'xai', '--input', path]).stdout;
    expect(summary).toMatch(/Format: openai-chat, dialect xai \(sendable\)/);
  });

  it('refuses bad usage with exit 2 and prints help with exit 0', () => {
    expect(run(['--input', '-']).code).toBe(2);
    expect(run(['--format', 'cohere', '--input', '-']).stderr).toMatch(
      /--format must be one of anthropic, openai-chat/,
    );
    expect(run(['--format', 'anthropic', '--dialect', 'deepseek', '--input', '-']).stderr).toMatch(
      /--dialect takes one of deepseek, kimi, groq, xai, with --format openai-chat/,
    );
    expect(run(['--format', 'openai-chat', '--dialect', 'mistral', '--input', '-']).code).toBe(2);
    expect(run(['--format', 'chat', '--input', '-', '--expect', 'soon']).code).toBe(2);
    expect(run(['--format', 'chat']).stderr).toMatch(/--input <file \| -> is required/);
    const help = run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: turngate transcript-check --format/);
  });

  it('escapes control characters from the input in the summary', () => {
    const r = run(
      ['--format', 'chat', '--input', '-'],
      JSON.stringify([{ role: 'tool', tool_call_id: 'call_\u001b[31m', content: 'x' }]),
    );
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('call_\\u001b[31m');
  });
});
