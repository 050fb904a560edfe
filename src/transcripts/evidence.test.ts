import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { callSpec as CALL_SPEC_FIXTURE } from '../../test/arbitraries.ts';
import { loopArbitrary, mutate, render, type Step } from '../../test/transcript-loops.ts';
import { joinCheck } from '../check/check.ts';
import { TRANSCRIPT_FORMATS } from '../check/stop-reasons.ts';
import { admitMutation } from '../typestate/mutation.ts';
import { callSpec, closeJoin, recordResults, recordUse, requestTools } from '../typestate/index.ts';
import { defineTools } from '../typestate/tools.ts';
import { repairTranscriptJson, toEvidence } from './index.ts';

const CALL_SPEC = CALL_SPEC_FIXTURE;

const input = v.object({ q: v.string() });
const tools = defineTools({
  get_weather: { input, output: v.unknown() },
  read_file: { input, output: v.unknown() },
  search_docs: { input, output: v.unknown() },
  list_orders: { input, output: v.unknown() },
});

const lastCalls = (steps: readonly Step[]) => {
  const last = [...steps].reverse().find((s) => s.kind === 'assistant' && s.calls.length > 0);
  return last?.kind === 'assistant' ? last.calls.map((c) => c.id).sort() : [];
};

describe.each(TRANSCRIPT_FORMATS)('toEvidence (%s)', (format) => {
  it('the last turn of a valid loop closes the join, through the join check and the typestate chain', () => {
    fc.assert(
      fc.property(loopArbitrary(), (steps) => {
        const evidence = toEvidence(render(format, steps) as never[], { format, callSpec: CALL_SPEC });
        if (!evidence.ok) throw evidence.failures[0];
        expect(evidence.value.requests.map((r) => r.toolCallId).sort()).toEqual(lastCalls(steps));
        const outcome = joinCheck(evidence.value.input);
        expect(outcome.ok && outcome.value.failureClasses).toEqual([]);
        const spec = callSpec(CALL_SPEC);
        if (!spec.ok) throw new Error('callSpec');
        const requests = requestTools(spec.value, tools, evidence.value.requests);
        if (!requests.ok) throw new Error(JSON.stringify(requests.failures));
        const results = recordResults(requests.value, evidence.value.results);
        if (!results.ok) throw new Error(JSON.stringify(results.failures));
        const use = recordUse(results.value, evidence.value.uses);
        if (!use.ok) throw new Error(JSON.stringify(use.failures));
        const closed = closeJoin(use.value, {
          protocolState: { stopReason: 'tool_use', continuationAllowed: false },
          sessionRefs: ['session://1'],
          trajectoryRefs: ['trajectory://1/1'],
        });
        expect(closed.ok).toBe(true);
        // The turn only reads: it declares no mutation intent, so the gate has nothing to authorize.
        const admitted = closed.ok ? admitMutation(closed.value, { mutationPolicyDigest: 'pol.mut' }) : undefined;
        expect(admitted?.ok === false && admitted.failures.map((f) => f.class)).toEqual([
          'mutation.use_evidence_missing',
        ]);
      }),
      { numRuns: 40, seed: 5 },
    );
  });

  it('a dangling call is tool.result_missing, as the provider would refuse it; after repair, an error result', () => {
    fc.assert(
      fc.property(loopArbitrary(), (steps) => {
        const id = lastCalls(steps)[0] as string;
        const messages = render(format, mutate(steps, { kind: 'drop', id }));
        const evidence = toEvidence(messages as never[], { format, callSpec: CALL_SPEC });
        if (!evidence.ok) throw evidence.failures[0];
        const outcome = joinCheck(evidence.value.input);
        expect(outcome.ok && outcome.value.failures.find((f) => f.class === 'tool.result_missing')?.ids).toEqual([id]);
        const repaired = repairTranscriptJson(messages, { format });
        if (!repaired.ok) throw repaired.failures[0];
        const after = toEvidence(repaired.value.messages as never[], { format, callSpec: CALL_SPEC });
        if (!after.ok) throw after.failures[0];
        expect(after.value.results.find((r) => r.toolCallId === id)).toMatchObject({
          status: 'error',
          error: { errorCode: 'turngate.synthesized' },
        });
        const closed = joinCheck(after.value.input);
        expect(closed.ok && closed.value.result).toBe('accepted');
      }),
      { numRuns: 25, seed: 6 },
    );
  });
});

describe('toEvidence details', () => {
  it('maps the provider stop reason through the stop reason table and marks provider errors', () => {
    const evidence = toEvidence(
      [
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { q: 'a' } }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'read_file',
              output: { type: 'error-text', value: 'ENOENT' },
            },
          ],
        },
      ],
      { format: 'aisdk', callSpec: CALL_SPEC, stopReason: 'tool-calls' },
    );
    expect(evidence.ok && evidence.value.input.evidence.protocolState).toEqual({
      stopReason: 'tool_use',
      continuationAllowed: false,
    });
    expect(evidence.ok && evidence.value.results).toEqual([
      {
        toolCallId: 'c1',
        status: 'error',
        error: { errorCode: 'tool_error', retryable: false, errorMessage: 'ENOENT' },
      },
    ]);
  });

  it('Gemini calls without ids get positional ids name#k', () => {
    const evidence = toEvidence(
      [
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'get_weather', args: { q: 'a' } } },
            { functionCall: { name: 'get_weather', args: { q: 'b' } } },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { t: 1 } } }] },
      ],
      { format: 'gemini', callSpec: CALL_SPEC, stopReason: 'STOP' },
    );
    expect(evidence.ok && evidence.value.requests.map((r) => r.toolCallId)).toEqual(['get_weather#1', 'get_weather#2']);
    expect(evidence.ok && evidence.value.results.map((r) => r.toolCallId)).toEqual(['get_weather#1']);
    expect(evidence.ok && evidence.value.input.evidence.protocolState?.stopReason).toBe('tool_use');
  });

  it('refuses a turn index that is no model message with calls, and input that is no transcript', () => {
    const bad = toEvidence([{ role: 'user', content: 'hi' }], { format: 'openai-chat', callSpec: CALL_SPEC, turn: 0 });
    expect(!bad.ok && bad.failures[0]?.field).toBe('options.turn');
    // biome-ignore lint/plugin: a value its types forbid, to check the input error
    const invalid = toEvidence([{ role: 'robot' }] as never, { format: 'chat', callSpec: CALL_SPEC });
    expect(!invalid.ok && invalid.failures[0]?.field).toBe('messages[0].role');
    const none = toEvidence([{ role: 'user', content: 'hi' }], { format: 'chat', callSpec: CALL_SPEC });
    expect(none.ok && [none.value.messageIndex, none.value.input.evidence.protocolState?.stopReason]).toEqual([
      -1,
      'end_turn',
    ]);
  });

  it('feeds turngate harness-join-check on the command line', () => {
    const evidence = toEvidence(
      [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"q":"Oslo"}' } },
          ],
        },
      ],
      { format: 'openai-chat', callSpec: CALL_SPEC, stopReason: 'tool_calls' },
    );
    if (!evidence.ok) throw evidence.failures[0];
    const path = join(mkdtempSync(join(tmpdir(), 'turngate-evidence-')), 'turn.json');
    writeFileSync(path, JSON.stringify(evidence.value.input));
    const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'turngate.js');
    const r = spawnSync(process.execPath, [cli, 'harness-join-check', '--input', path], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Result: rejected/);
    expect(r.stdout).toMatch(/- tool\.result_missing \[call_1\]/);
  });
});
