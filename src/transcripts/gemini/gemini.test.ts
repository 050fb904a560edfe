import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  checkTranscriptJson,
  ORPHANED_RESULT_MARK,
  repairTranscriptJson,
  SYNTHESIZED_RESULT_MARK,
  TRANSCRIPT_RULES,
} from '../index.ts';
import { answersOf, callIds, pairGemini, VERDICT } from './pairing.ts';
import { readGemini } from './read.ts';
import { SKIP_THOUGHT_SIGNATURE, validatesThoughtSignatures } from './thought-signatures.ts';

const ask = { role: 'user', parts: [{ text: 'Is it colder in Oslo or in Bergen?' }] };
const call = (id: string | undefined, name = 'get_weather', extra: object = {}) => ({
  functionCall: { ...(id === undefined ? {} : { id }), name, args: {} },
  ...extra,
});
const response = (id: string | undefined, name: string | null = 'get_weather', value: unknown = { output: 'ok' }) => ({
  functionResponse: { ...(id === undefined ? {} : { id }), ...(name === null ? {} : { name }), response: value },
});
const model = (...parts: object[]) => ({ role: 'model', parts });
const user = (...parts: object[]) => ({ role: 'user', parts });
const rules = (value: unknown, options: { model?: string } = {}) =>
  checkTranscriptJson(value, { format: 'gemini', ...options }).failures.map((f) => `${f.rule} ${f.at}`);
const repaired = (value: unknown, options: { model?: string; expect?: 'sendable' | 'received' } = {}) => {
  const outcome = repairTranscriptJson(value, { format: 'gemini', ...options });
  if (!outcome.ok) throw outcome.failures[0];
  return outcome.value;
};

describe('gemini pairing (the one home: check, repair, conversion, evidence)', () => {
  it('pairs by id, then by name and position, with a content’s ids first', () => {
    const read = readGemini([
      ask,
      model(call('a'), call(undefined), call(undefined)),
      // The id-less response comes first, but the call named by id is not its to take.
      user(response(undefined), response('a'), response(undefined)),
    ]);
    const pairing = pairGemini(read);
    expect(Array.from(pairing.answer)).toEqual([1, 0, 2]);
    expect(answersOf(read, pairing).map((r) => r?.slot)).toEqual([1, 0, 2]);
    expect(callIds(read)).toEqual(['a', 'get_weather#1', 'get_weather#2']);
  });

  it('tells split, mixed, repeated, orphaned and misplaced responses apart', () => {
    const read = readGemini([
      ask,
      model(call('a'), call('b')),
      user(response('a')),
      user(response('b'), response('a'), response('z')),
      model({ text: 'Done.' }),
      user(response(undefined, 'get_time')),
      user({ text: 'More?' }),
      model(call('c'), response('c')),
    ]);
    const { verdict, call: target } = pairGemini(read);
    expect(Array.from(verdict)).toEqual([
      VERDICT.answers,
      VERDICT.split,
      VERDICT.duplicate,
      VERDICT.orphan,
      VERDICT.orphan,
      VERDICT.mixed,
    ]);
    expect(Array.from(target)).toEqual([0, 1, 0, -1, -1, 2]);
    const misplaced = pairGemini(readGemini([ask, model(call('a')), user({ text: 'Hurry.' }), user(response('a'))]));
    expect([misplaced.verdict[0], misplaced.call[0], misplaced.answer[0]]).toEqual([VERDICT.misplaced, 0, -1]);
  });
});

describe('a parallel batch split over user contents', () => {
  const split = [ask, model(call('a'), call('b')), user(response('a')), user(response('b'))];

  it('is reported at the split-off response, not as an unanswered call', () => {
    expect(rules(split)).toEqual(['gemini.function_responses_split contents[3].parts[0]']);
    // A user text between the call turn and all its responses stays the position rule.
    expect(rules([ask, model(call('a')), user({ text: 'Hurry.' }), user(response('a'))])).toEqual([
      'gemini.function_call_unanswered contents[1]',
      'gemini.function_response_not_after_call contents[3].parts[0]',
    ]);
  });

  it('is repaired by moving the response into the first user content; the contents before stay the same objects', () => {
    const value = repaired(split);
    expect(value.messages).toEqual([ask, split[1], user(response('a'), response('b'))]);
    expect(value.messages[0]).toBe(split[0]);
    expect(value.messages[1]).toBe(split[1]);
    expect(value.repairs.map((r) => [r.action, r.rule])).toEqual([['moved_result', 'gemini.function_responses_split']]);
  });
});

describe('thought signatures (Gemini 3 and later)', () => {
  const turn = [ask, model(call('a')), user(response('a'))];

  it('are checked only for a model that validates them, named by the caller or the body', () => {
    const failure = ['gemini.function_call_missing_thought_signature contents[1].parts[0]'];
    expect(rules(turn)).toEqual([]);
    expect(rules(turn, { model: 'gemini-2.5-pro' })).toEqual([]);
    expect(rules(turn, { model: 'gemini-3-pro-preview' })).toEqual(failure);
    expect(rules({ model: 'models/gemini-3.1-flash-lite', contents: turn })).toEqual(failure);
    expect(rules({ model: 'gemini-2.5-flash', contents: turn }, { model: 'gemini-3-flash-preview' })).toEqual(failure);
    for (const name of ['gemini-4-pro', 'publishers/google/models/gemini-3-pro-preview', 'gemini-flash-latest'])
      expect(validatesThoughtSignatures(name)).toBe(true);
    for (const name of [undefined, 'gemini-2.5-flash', 'gemini-3-pro-image-preview', 'gemini-exp-1206', 'gpt-5'])
      expect(validatesThoughtSignatures(name)).toBe(false);
  });

  it('are required on the first call of each step of the current turn only', () => {
    const signed = model(call('a', 'get_weather', { thoughtSignature: 'c2ln' }), call('b'));
    expect(rules([ask, signed, user(response('a'), response('b'))], { model: 'gemini-3-pro-preview' })).toEqual([]);
    const earlier = [ask, model(call('a')), user(response('a')), model({ text: 'Snow.' }), ask];
    expect(rules(earlier, { model: 'gemini-3-pro-preview' })).toEqual([]);
    // A parallel batch split into steps: the second step has no signature.
    const interleaved = [ask, signed, user(response('a')), model(call('b')), user(response('b'))];
    expect(rules(interleaved, { model: 'gemini-3-pro-preview' })).toContain(
      'gemini.function_call_missing_thought_signature contents[3].parts[0]',
    );
  });

  it('are repaired with the documented placeholder, recorded with the part before', () => {
    const value = repaired({ model: 'gemini-3-pro-preview', contents: turn });
    expect((value.messages[1] as { parts: { thoughtSignature?: string }[] }).parts[0]?.thoughtSignature).toBe(
      SKIP_THOUGHT_SIGNATURE,
    );
    expect(value.messages[0]).toBe(turn[0]);
    expect(value.messages[2]).toBe(turn[2]);
    expect(value.repairs).toEqual([
      expect.objectContaining({
        action: 'rewrote_field',
        rule: 'gemini.function_call_missing_thought_signature',
        removed: call('a'),
      }),
    ]);
    expect(value.remaining).toEqual([]);
  });
});

describe('repair keeps the user’s words', () => {
  it('an orphaned response becomes user text in its place, or after a content that still holds responses', () => {
    const alone = repaired([ask, model({ text: 'Hi.' }), user(response('z', 'ask_user', { output: 'Blue, please.' }))]);
    expect(alone.messages[2]).toEqual(
      user({
        text: `${ORPHANED_RESULT_MARK} A tool result whose call is no longer in this history said: Blue, please.`,
      }),
    );
    expect(alone.repairs[0]).toEqual(
      expect.objectContaining({
        action: 'removed',
        rule: 'gemini.function_response_orphan',
        removed: response('z', 'ask_user', { output: 'Blue, please.' }),
      }),
    );
    const mixed = repaired([ask, model(call('a')), user(response('a'), response('z', 'ask_user', 'Blue.'))]);
    expect(mixed.messages.slice(2)).toEqual([
      user(response('a')),
      user({ text: `${ORPHANED_RESULT_MARK} A tool result whose call is no longer in this history said: Blue.` }),
    ]);
    expect(checkTranscriptJson([...mixed.messages], { format: 'gemini' }).result).toBe('accepted');
  });
});

describe('shape rules', () => {
  it('a response value that is not an object is wrapped as { output }; a missing one is synthesized', () => {
    const value = repaired([
      ask,
      model(call('a'), call('b')),
      user(response('a', 'get_weather', 'Snow'), { functionResponse: { id: 'b', name: 'get_weather' } }),
    ]);
    const parts = (value.messages[2] as { parts: unknown[] }).parts;
    expect(parts[0]).toEqual(response('a', 'get_weather', { output: 'Snow' }));
    expect(JSON.stringify(parts[1])).toContain(SYNTHESIZED_RESULT_MARK);
    expect(value.repairs.map((r) => r.action)).toEqual(['rewrote_field', 'synthesized_result']);
  });

  it('a response paired by id takes its call’s name when it lacks it or names another function', () => {
    const input = [
      ask,
      model(call('a'), call('b', 'get_time')),
      user(response('a', null), response('b', 'tool_result')),
    ];
    expect(rules(input)).toEqual([
      'gemini.function_response_missing_name contents[2].parts[0]',
      'gemini.function_response_name_mismatch contents[2].parts[1]',
    ]);
    expect(repaired(input).messages[2]).toEqual(user(response('a'), response('b', 'get_time')));
  });

  it('a response in a model content moves into a user content after its call', () => {
    const input = [ask, model(call('a'), response('a'))];
    expect(rules(input)).toEqual(['gemini.function_response_in_model_content contents[1].parts[1]']);
    expect(repaired(input).messages).toEqual([ask, model(call('a')), user(response('a'))]);
  });

  it('a content without parts is removed, and a call turn it leaves after a model content gets a user content', () => {
    const input = [
      ask,
      model({ text: 'Let me see.' }),
      { role: 'user', parts: [] },
      model(call('a')),
      user(response('a')),
    ];
    expect(rules(input)).toEqual(['gemini.content_without_parts contents[2]']);
    const value = repaired(input);
    expect(value.messages.map((m) => (m as { role: string }).role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(JSON.stringify(value.messages[2])).toContain(SYNTHESIZED_RESULT_MARK);
    expect(value.messages[3]).toBe(input[3]);
    expect(repaired([ask, { role: 'model' }]).messages).toEqual([ask]);
  });

  it('a call in a user content has no safe repair: it stays, reported', () => {
    const input = [user({ text: 'Weather?' }, call(undefined), response(undefined))];
    const value = repaired(input);
    expect([value.changed, value.remaining.map((f) => f.rule)]).toEqual([
      false,
      ['gemini.function_call_in_user_content'],
    ]);
  });

  it('input that is not Gemini contents stays an input error', () => {
    for (const [value, path] of [
      [[{ role: 'user', parts: 'Hi' }], 'contents[0].parts'],
      [[model({ functionCall: { name: '', args: {} } })], 'contents[0].parts[0].functionCall.name'],
      [[user({ functionResponse: { id: 7, name: 'f', response: {} } })], 'contents[0].parts[0].functionResponse.id'],
    ] as const) {
      const report = checkTranscriptJson(value, { format: 'gemini' });
      expect(report.result === 'invalid' && report.error.field).toBe(path);
    }
  });
});

describe('repair of every rejected gemini conformance case', () => {
  const dir = join(import.meta.dirname, '../../../conformance/transcripts/gemini');
  const cases = readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as { result: string; input: unknown });

  it('is accepted after (but for rules without a safe repair), idempotent, and byte-stable: contents before the first change are the same objects', () => {
    const rejected = cases.filter((c) => c.result === 'rejected');
    expect(rejected.length).toBeGreaterThan(20);
    for (const { input } of rejected) {
      const value = repaired(input);
      expect(value.changed || value.remaining.length > 0).toBe(true);
      for (const failure of value.remaining) expect(TRANSCRIPT_RULES[failure.rule].repairable).toBe(false);
      const before = (Array.isArray(input) ? input : (input as { contents: unknown[] }).contents) as unknown[];
      const first = value.messages.findIndex((content, i) => !isDeepStrictEqual(content, before[i]));
      for (let i = 0; i < (first < 0 ? value.messages.length : first); i++) expect(value.messages[i]).toBe(before[i]);
      const again = repairTranscriptJson(
        Array.isArray(input) ? value.messages : { ...(input as object), contents: value.messages },
        { format: 'gemini' },
      );
      expect(again.ok && again.value.changed).toBe(false);
    }
  });
});
