/**
 * A malformed conformance fixture is one clear line naming the file, the field and what was
 * expected (the runner exits 2), not a crash and not a failed vector.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChatSuite } from '../conformance/runner/chat-suite.ts';
import { FixtureError } from '../conformance/runner/fixtures.ts';
import { runPremathSuite } from '../conformance/runner/premath-suite.ts';
import { runTranscriptSuite } from '../conformance/runner/transcripts-suite.ts';

const root = new URL('..', import.meta.url).pathname;
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'turngate-fixtures-'));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** A copy of one of our suites, to break. */
function copySuite(name: string): string {
  const dir = join(scratch, `${name}-${readdirSync(scratch).length}`);
  cpSync(join(root, 'conformance', name), dir, { recursive: true });
  return dir;
}

/** Rewrites a JSON file of a suite copy. */
function editJson(file: string, edit: (value: Record<string, unknown>) => void): void {
  const value: Record<string, unknown> = JSON.parse(readFileSync(file, 'utf8'));
  edit(value);
  writeFileSync(file, JSON.stringify(value, null, 2));
}

/** The FixtureError a call throws (fails the test when it throws nothing else). */
async function fixtureError(run: () => unknown): Promise<FixtureError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof FixtureError) return error;
    throw error;
  }
  throw new Error('no FixtureError was thrown');
}

describe('premath-format suites', () => {
  it('names a field of the wrong type in expect.json', async () => {
    const dir = copySuite('harness-typestate');
    const file = join(dir, 'accept/code_parallel_three_tools/expect.json');
    editJson(file, (expected) => {
      expected['expectedJoinClosed'] = 'yes';
    });
    const error = await fixtureError(() => runPremathSuite(dir));
    expect(error.message).toBe(`malformed fixture ${file}: expectedJoinClosed: expected boolean, got "yes"`);
    expect([error.file, error.field]).toEqual([file, 'expectedJoinClosed']);
  });

  it('names a missing input in case.json, a bad result and a manifest entry that is not an id', async () => {
    const dir = copySuite('harness-typestate');
    const caseFile = join(dir, 'accept/code_parallel_three_tools/case.json');
    editJson(caseFile, (testCase) => {
      delete testCase['input'];
    });
    expect((await fixtureError(() => runPremathSuite(dir))).message).toBe(
      `malformed fixture ${caseFile}: input: missing (a required field)`,
    );

    const other = copySuite('harness-typestate');
    const expectFile = join(other, 'accept/code_parallel_three_tools/expect.json');
    editJson(expectFile, (expected) => {
      expected['result'] = 'acepted';
      expected['schema'] = 2;
    });
    expect((await fixtureError(() => runPremathSuite(other))).message).toBe(
      `malformed fixture ${expectFile}: schema: expected 1 (the format version), got 2`,
    );
    editJson(expectFile, (expected) => {
      expected['schema'] = 1;
    });
    expect((await fixtureError(() => runPremathSuite(other))).message).toBe(
      `malformed fixture ${expectFile}: result: expected ("accepted" | "rejected" | "invalid"), got "acepted"`,
    );

    const manifest = join(other, 'manifest.json');
    editJson(manifest, (value) => {
      value['vectors'] = ['accept/code_parallel_three_tools', 7];
    });
    expect((await fixtureError(() => runPremathSuite(other))).message).toBe(
      `malformed fixture ${manifest}: vectors[1]: expected string, got 7`,
    );
    writeFileSync(manifest, '{"schema": 1, "vectors": [');
    expect((await fixtureError(() => runPremathSuite(other))).message).toMatch(
      new RegExp(`^malformed fixture ${manifest}: \\(the document\\): not JSON \\(.+\\)$`),
    );
  });
});

describe('harness-chat fixtures', () => {
  it('names the case, turn and field, before any case runs', async () => {
    const dir = copySuite('harness-chat');
    const file = join(dir, '101-multi-turn-after-resume.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('session_id: "conv-101"', 'session_id: 101'));
    expect((await fixtureError(() => runChatSuite(dir))).message).toBe(
      `malformed fixture ${file}: cases[0].chat_turns[0].session_id: expected string, got 101`,
    );
  });

  it('names a node directive of the wrong shape and a file that is not YAML', async () => {
    const dir = copySuite('harness-chat');
    const file = join(dir, '102-error-after-earlier-update.yaml');
    writeFileSync(
      file,
      'cases:\n  - name: a\n    entry: n\n    nodes:\n      n:\n        raises: provider_unavailable\n',
    );
    expect((await fixtureError(() => runChatSuite(dir))).message).toBe(
      `malformed fixture ${file}: cases[0].nodes.n.raises: expected Object, got "provider_unavailable"`,
    );
    writeFileSync(file, 'cases:\n  - name: [a\n');
    expect((await fixtureError(() => runChatSuite(dir))).message).toMatch(
      new RegExp(`^malformed fixture ${file}: \\(the document\\): not YAML \\([^\\n]+\\)$`),
    );
  });

  it('still fails (not rejects) a case that uses a directive the runner does not support', async () => {
    const dir = copySuite('harness-chat');
    for (const name of readdirSync(dir)) if (name.endsWith('.yaml')) rmSync(join(dir, name));
    writeFileSync(
      join(dir, 'x.yaml'),
      'cases:\n  - name: a\n    harness: {mode: sessioned}\n    entry: n\n    nodes:\n      n:\n        teleport: true\n',
    );
    expect(await runChatSuite(dir)).toEqual([
      { id: 'x/a', passed: false, note: 'harness_primitive_missing: nodes.n.teleport' },
    ]);
  });
});

describe('transcript cases', () => {
  it('names an expected failure of the wrong shape and a case in the wrong folder', async () => {
    const dir = copySuite('transcripts');
    const [name] = readdirSync(join(dir, 'anthropic')).sort();
    const file = join(dir, 'anthropic', String(name));
    editJson(file, (testCase) => {
      testCase['failures'] = [{ class: 'tool.result_missing', rule: 'r', ids: 'toolu_01' }];
    });
    expect((await fixtureError(() => runTranscriptSuite(dir))).message).toBe(
      `malformed fixture ${file}: failures[0].ids: expected Array, got "toolu_01"`,
    );
    editJson(file, (testCase) => {
      testCase['failures'] = [{ class: 'tool.result_missing', rule: 'r', ids: [], note: 'x' }];
    });
    expect((await fixtureError(() => runTranscriptSuite(dir))).message).toBe(
      `malformed fixture ${file}: failures[0].note: not a field of this fixture`,
    );
    editJson(file, (testCase) => {
      testCase['failures'] = [];
      testCase['format'] = 'gemini';
    });
    expect((await fixtureError(() => runTranscriptSuite(dir))).message).toBe(
      `malformed fixture ${file}: format: expected "anthropic" (the folder it is in), got "gemini"`,
    );
  });
});

describe('the runner', () => {
  it('exits 2 with one line on stderr for a malformed fixture', () => {
    // inside the repository, so that the runner's imports (valibot, yaml) resolve from node_modules
    const runner = join(root, '.tools', `conformance-fixtures-test-${process.pid}.js`);
    const built = spawnSync(process.execPath, [join(root, 'scripts/bundle-conformance.mjs'), runner], {
      encoding: 'utf8',
    });
    expect(built.status).toBe(0);
    const dir = copySuite('harness-chat');
    const file = join(dir, '105-empty-tail.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/entry: \S+/, 'entry: [a, b]'));
    const run = spawnSync(process.execPath, [runner, dir], { encoding: 'utf8', cwd: root });
    rmSync(runner, { force: true });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`conformance: malformed fixture ${file}: cases[0].entry: expected string, got Array\n`);
  });
});
