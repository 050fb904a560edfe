import { describe, expect, it } from 'vitest';
import { runCheck } from '../../transcripts/internal.ts';
import type { TranscriptFailure } from '../../transcripts/index.ts';
import { runRepair } from '../../transcripts/internal.ts';
import { forRepair, fromRepair, promptFailure, promptForCheck } from './prompt.ts';

const call = (id: string, providerExecuted = false) => ({
  type: 'tool-call',
  toolCallId: id,
  toolName: 'search',
  input: {},
  ...(providerExecuted ? { providerExecuted } : {}),
});
const result = (id: string) => ({
  type: 'tool-result',
  toolCallId: id,
  toolName: 'search',
  output: { type: 'text', value: 'x' },
});
const response = (id: string) => ({ type: 'tool-approval-response', approvalId: id, approved: true });
const user = { role: 'user', content: [{ type: 'text', text: 'Go.' }] };

/** Checks and repairs a prompt as the middleware does. */
function repairPrompt(prompt: readonly unknown[]) {
  const checked = promptForCheck(prompt);
  const outcome = runRepair(forRepair(checked), 'aisdk');
  if (!outcome.ok) throw outcome.failures[0];
  return fromRepair(outcome.value.messages, checked, prompt);
}

describe('promptForCheck', () => {
  it('returns the prompt itself when no tool message holds an approval response', () => {
    const prompt = [user, { role: 'assistant', content: [call('c1')] }, { role: 'tool', content: [result('c1')] }];
    const checked = promptForCheck(prompt);
    expect(checked.messages).toBe(prompt);
    expect(checked.setAside.size).toBe(0);
  });

  it('sets provider-executed approval responses aside, so the aisdk reader accepts the prompt', () => {
    const prompt = [
      user,
      { role: 'assistant', content: [call('mcp_1', true), call('c1')] },
      { role: 'tool', content: [response('ap_1'), result('c1')] },
    ];
    expect(runCheck(prompt, 'aisdk', 'sendable').failures.map((f) => f.rule)).toEqual([
      'aisdk.approval_response_unknown',
    ]);
    const checked = promptForCheck(prompt);
    expect(checked.messages[2]).toEqual({ role: 'tool', content: [result('c1')] });
    expect(checked.messages[0]).toBe(user);
    expect(prompt[2]?.content).toHaveLength(2);
    expect(runCheck(checked.messages, 'aisdk', 'sendable').result).toBe('accepted');
  });

  it('leaves values that are not messages to the reader', () => {
    const prompt = [null, { role: 'tool', content: 'x' }];
    expect(promptForCheck(prompt).messages).toBe(prompt);
  });
});

describe('promptFailure', () => {
  it('maps a part index of the checked prompt to the prompt, past each response set aside', () => {
    const prompt = [
      user,
      { role: 'assistant', content: [call('mcp_1', true)] },
      { role: 'tool', content: [response('ap_1'), result('c9'), response('ap_2'), result('c8')] },
    ];
    const checked = promptForCheck(prompt);
    const failures = runCheck(checked.messages, 'aisdk', 'sendable').failures as TranscriptFailure<'aisdk'>[];
    expect(failures.map((f) => f.at)).toEqual(['messages[2].content[0]', 'messages[2].content[1]']);
    const mapped = failures.map((f) => promptFailure(f, checked));
    expect(mapped.map((f) => f.at)).toEqual(['messages[2].content[1]', 'messages[2].content[3]']);
    expect(mapped[1]?.detail).toBe(
      `messages[2].content[3]${failures[1]?.detail.slice('messages[2].content[1]'.length)}`,
    );
  });

  it('leaves failures in other messages as they are', () => {
    const prompt = [{ role: 'assistant', content: [call('c1')] }, { role: 'tool', content: [response('ap_1')] }, user];
    const checked = promptForCheck(prompt);
    const [failure] = runCheck(checked.messages, 'aisdk', 'sendable').failures as TranscriptFailure<'aisdk'>[];
    expect(failure && promptFailure(failure, checked)).toBe(failure);
  });
});

describe('forRepair and fromRepair', () => {
  it('put each response back before the part it stood before', () => {
    const prompt = [
      user,
      { role: 'assistant', content: [call('mcp_1', true), call('c1')] },
      { role: 'tool', content: [result('c9'), response('ap_1'), result('c1'), response('ap_2')] },
    ];
    const out = repairPrompt(prompt);
    expect(out).toEqual([
      user,
      prompt[1],
      { role: 'tool', content: [response('ap_1'), result('c1'), response('ap_2')] },
    ]);
    expect(Object.getOwnPropertySymbols(out[2] as object)).toEqual([]);
  });

  it('bring back a tool message the repair emptied, with the responses alone, where it stood', () => {
    const prompt = [
      user,
      { role: 'assistant', content: [call('mcp_1', true)] },
      { role: 'tool', content: [response('ap_1'), result('c9')] },
      user,
    ];
    const out = repairPrompt(prompt);
    expect(out).toEqual([user, prompt[1], { role: 'tool', content: [response('ap_1')] }, user]);
    expect(runCheck(promptForCheck(out).messages, 'aisdk', 'sendable').result).toBe('accepted');
  });

  it('keep inserted messages (a synthesized result) and unmarked copies', () => {
    const prompt = [
      user,
      { role: 'assistant', content: [call('c1')] },
      user,
      { role: 'assistant', content: [call('mcp_1', true)] },
      { role: 'tool', content: [response('ap_1')] },
    ];
    const out = repairPrompt(prompt) as { role: string; content: { type: string }[] }[];
    expect(out.map((m) => `${m.role}:${m.content.map((p) => p.type).join(',')}`)).toEqual([
      'user:text',
      'assistant:tool-call',
      'tool:tool-result',
      'user:text',
      'assistant:tool-call',
      'tool:tool-approval-response',
    ]);
    expect(out.every((m) => Object.getOwnPropertySymbols(m).length === 0)).toBe(true);
  });

  it('leave a prompt without responses set aside as repair made it', () => {
    const prompt = [user, { role: 'tool', content: [result('c9')] }];
    const checked = promptForCheck(prompt);
    expect(forRepair(checked)).toBe(prompt);
    expect(repairPrompt(prompt)).toEqual([user]);
  });
});
