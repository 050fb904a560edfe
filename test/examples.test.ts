import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../examples/agent-loop.ts';

describe('examples/agent-loop.ts', () => {
  it('answers every call, closes turns under the default profile, and mutates only through the gate', async () => {
    const log = await runAgentLoop();
    expect(log.slice(0, 3)).toEqual([
      'read // src/billing/invoice.ts',
      'found 2 hits',
      'ci_status failed: upstream_unavailable (retryable: true)',
    ]);
    expect(log[3]).toBe('turn 1 closed: accepted, continues: true, context rows: 3 render, 1 queue, 1 view');
    expect(log[4]).toBe('turn 2 pending: toolu_04 (intent tool_call)');
    expect(log[5]).toBe('refused: mutation.policy_digest_mismatch');
    expect(log[6]).toBe('toolu result for the model: updated: ok=true');
    expect(log[7]).toMatch(/^mutation ran: BILL-1207 -> closed \(witness sha256:/);
    expect(log[8]).toBe('settled again: performed, effects: 1');
    expect(log[9]).toBe('turn 3 authorizes nothing: mutation.use_evidence_missing');
    expect(log).toHaveLength(10);
  });
});

import { runChatExample } from '../examples/chat.ts';

describe('examples/chat.ts', () => {
  it('runs a tool loop, suspends for approval, resumes after a restart through the listener, keeps a cause', async () => {
    expect(await runChatExample()).toEqual([
      'suspended on refund:A-1001 with 4 pending messages',
      "errored (user_correctable/chat_message_shape_invalid): That request couldn't be processed: this conversation is waiting for the result of a tool call. Please adjust your message and try again.",
      'waiting: support-1 on refund:A-1001, open call_refund',
      'listener: completed: tool > assistant',
      'order status: refunded',
      'nothing waits for that signal',
      'errored (retryable_transient/provider_rate_limited): I had trouble responding. Try again in a moment.',
      'cause for the logs: Error: 429 rate_limit_error: org-7f3a',
    ]);
  });
});

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFeatureLedger, readFeatureLedger, readSession, readTrajectory } from '../src/tusk/index.ts';
// @ts-expect-error -- a plain .mjs script, untyped
import { bundleHarnessLoopExample, runBundledExample } from '../scripts/example-harness-loop.mjs';

describe('examples/harness-loop.ts', () => {
  it('runs three steps over the task list, survives a SIGKILL mid-run, and resumes from the session file', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'turngate-harness-loop-'));
    const bundle: string = await bundleHarnessLoopExample(join(scratch, 'harness-loop.mjs'));
    const workdir = join(scratch, 'workspace');
    const premath = join(workdir, '.premath');
    const lines = (stdout: string) => stdout.split('\n').filter((line) => line !== '');

    const crashed = runBundledExample(bundle, workdir, '--crash-in-step', '2');
    expect(crashed.signal).toBe('SIGKILL');
    expect(lines(crashed.stdout)).toEqual([
      'boot: start (no session yet); next task: from the task list',
      'step: changelog completed (worker-1.changelog.1, completed)',
    ]);
    // What the crash left: the session active on the task in flight, its file not written.
    const left = await readSession(join(premath, 'harness_session.json'));
    expect([left.state, left.issueId]).toEqual(['active', 'readme']);
    expect(existsSync(join(workdir, 'README.md'))).toBe(false);
    expect((await readTrajectory(join(premath, 'harness_trajectory.jsonl'))).rows).toHaveLength(1);

    const resumed = runBundledExample(bundle, workdir);
    expect([resumed.status, resumed.stderr]).toEqual([0, '']);
    expect(lines(resumed.stdout)).toEqual([
      'boot: attach (readme was in flight when the last run stopped); next task: readme',
      'step: readme completed (worker-1.readme.1, completed)',
      'step: version completed (worker-1.version.1, completed)',
      'stop: no_more_work; session stopped; next step: claim the next ready item',
    ]);
    const again = runBundledExample(bundle, workdir);
    expect(lines(again.stdout)).toEqual([
      'boot: resume (last run: worker worker-1: 2 completed, 0 escalated; no more work); every task is done',
      'stop: no_more_work; session stopped; next step: claim the next ready item',
    ]);

    expect(readFileSync(join(workdir, 'VERSION'), 'utf8')).toBe('0.2.0\n');
    expect(readFileSync(join(workdir, 'README.md'), 'utf8')).toBe('# demo\n\nSee CHANGELOG.md.\n');
    const ledger = await readFeatureLedger(join(premath, 'harness_feature_ledger.json'));
    if (ledger === undefined) throw new Error('no task list');
    expect(checkFeatureLedger(ledger, { requireClosure: true }).result).toBe('accepted');
    expect(ledger.features.map((f) => f.verificationRefs?.[0]?.split('#')[0])).toEqual([
      'file://CHANGELOG.md',
      'file://README.md',
      'file://VERSION',
    ]);
    const { rows } = await readTrajectory(join(premath, 'harness_trajectory.jsonl'));
    expect(rows.map((r) => [r.stepId, r.action, r.resultClass])).toEqual([
      ['worker-1.changelog.1', 'workspace.write', 'completed'],
      ['worker-1.readme.1', 'workspace.write', 'completed'],
      ['worker-1.version.1', 'workspace.write', 'completed'],
    ]);
    for (const row of rows) {
      expect(row.instructionRefs).toEqual([`instructions/${row.issueId}.json`]);
      expect(row.witnessRefs?.some((ref) => ref.startsWith(`lease://handoff/${row.issueId}/released/`))).toBe(true);
      expect(row.witnessRefs?.some((ref) => ref.startsWith('turn://demo%2F'))).toBe(true);
    }
    const final = await readSession(join(premath, 'harness_session.json'));
    expect([final.state, final.sessionId, final.startedAt]).toEqual(['stopped', left.sessionId, left.startedAt]);
  });
});

describe('scripts/example-tool-loop.mjs (npm run example:tool-loop)', () => {
  it('answers the recorded Gemini replies: the read at once, the mutation once the turn closed and once only, a history the check accepts', () => {
    const run = spawnSync(process.execPath, ['scripts/example-tool-loop.mjs'], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
    });
    expect([run.status, run.stderr]).toEqual([0, '']);
    const lines = run.stdout.split('\n').filter((line) => line !== '');
    expect(lines[0]).toMatch(
      /^A gated tool loop on recorded Gemini replies \(conformance\/transcripts\/gemini\/gemini3-every-step-with-thought-signature\.json; https:\/\/ai\.google\.dev\//,
    );
    expect(lines.slice(1, 4)).toEqual([
      'reply 1 (gemini-3.1-pro-preview, finishReason STOP): check_flight',
      '  read check_flight {"flight":"AA100"}: ran at once -> {"status":"delayed","departure_time":"12 PM"}',
      '  turn closed: accepted',
    ]);
    expect(lines[4]).toBe('  sent back: the reply and 1 functionResponse (check_flight ok); done: false');
    expect(lines.slice(5, 7)).toEqual([
      'reply 2 (gemini-3.1-pro-preview, finishReason STOP): book_taxi',
      '  turn closed: accepted',
    ]);
    expect(lines[7]).toMatch(
      /^ {2}gate: book_taxi \{"time":"10 AM"\} held until the turn closed, then performed once \(its witness: join set sha256:[0-9a-f]{12}…\)$/,
    );
    expect(lines.slice(8)).toEqual([
      '  sent back: the reply and 1 functionResponse (book_taxi ok); done: false',
      'replayed reply 2: book_taxi replayed; taxis booked: 1',
      'next request: 5 contents; checkTranscript (gemini, gemini-3.1-pro-preview): accepted',
    ]);
    // The README's "Start here" shows this run's steps as they are printed.
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(
      `npm ci && npm run example:tool-loop\n\`\`\`\n\n\`\`\`text\n${lines.slice(1).join('\n')}\n\`\`\`\n`,
    );
  });
});
