import { describe, expect, it } from 'vitest';
import { classes, fromModel, mintsNothingMore, specFor, Tools, withPollution } from '../../test/turn-fixtures.ts';
import { adaptText, digest, requestTools, type CallSpec } from '../index.ts';

describe('requestTools', () => {
  it('admits valid calls and keeps each call that cannot run as a refused call with its class', () => {
    const cyclic: Record<string, unknown> = { path: 'a' };
    cyclic['self'] = cyclic;
    const hostile = {
      get path(): string {
        throw new Error('boom');
      },
    };
    const requested = requestTools(
      specFor('code'),
      Tools,
      fromModel([
        { toolCallId: 'a', toolName: 'read_file', input: { path: 'README.md' } },
        { toolCallId: 'b', toolName: 'delete_file', input: {} },
        { toolCallId: 'c', toolName: 'exec_only', input: {} },
        { toolCallId: 'd', toolName: 'exec_only', input: {}, callerId: 'code_execution/1' },
        { toolCallId: 'e', toolName: 'read_file', input: { path: 3 } },
        { toolCallId: 'f', toolName: 'read_file', input: cyclic },
        { toolCallId: 'g', toolName: 'read_file', input: hostile },
      ]),
    );
    if (!requested.ok) throw new Error(JSON.stringify(requested.failures));
    const { requests, refused, callIds } = requested.value;
    expect(callIds).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(requests.map((r) => r.toolCallId)).toEqual(['a', 'd']);
    expect(requests[0]?.inputDigest).toBe(digest({ path: 'README.md' }));
    expect(refused.map((r) => [r.toolCallId, r.errorCode, r.failure.class])).toEqual([
      ['b', 'unknown_tool', 'tool.unknown_or_disallowed'],
      ['c', 'caller_not_allowed', 'tool.caller_not_allowed'],
      ['e', 'invalid_input', 'tool.schema_invalid'],
      ['f', 'invalid_input', 'tool.schema_invalid'],
      ['g', 'invalid_input', 'tool.schema_invalid'],
    ]);
    expect(refused[2]?.failure.detail).toMatch(/path: Invalid type: Expected string/);
    expect(refused[3]?.failure.detail).toMatch(/cycle/);
    expect(refused[4]?.failure.detail).toMatch(/threw Error: boom/);
    expect(refused[0]?.failure.ids).toEqual(['b']);
  });

  it('fails the batch only for calls that cannot be answered', () => {
    const spec = specFor('code');
    const repeated = requestTools(spec, Tools, [
      { toolCallId: 'a', toolName: 'read_file', input: { path: 'x' } },
      { toolCallId: 'a', toolName: 'read_file', input: { path: 'y' } },
    ]);
    expect(classes(repeated)).toEqual(['tool.schema_invalid']);
    if (!repeated.ok) expect(repeated.failures[0]?.ids).toEqual(['a']);
    expect(classes(requestTools(spec, Tools, [{ toolCallId: ' ', toolName: 'read_file', input: {} }]))).toEqual([
      'tool.schema_invalid',
    ]);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(classes(requestTools(spec, Tools, 'calls' as never))).toEqual(['tool.schema_invalid']);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => requestTools(spec, { definitions: {}, names: [] } as never, [])).toThrow(/made by defineTools/);
  });

  it('enforces the action modes: json one call, text only through an adapter', () => {
    const two = fromModel([
      { toolCallId: 'a', toolName: 'read_file', input: { path: 'x' } },
      { toolCallId: 'b', toolName: 'read_file', input: { path: 'y' } },
    ]);
    expect(requestTools(specFor('code'), Tools, two).ok).toBe(true);
    const json = requestTools(specFor('json'), Tools, two);
    expect(json.ok && json.value.refused.map((r) => [r.toolCallId, r.failure.class])).toEqual([
      ['b', 'tool.parallel_policy_violation'],
    ]);
    const someSpec: CallSpec = specFor('text');
    expect(classes(requestTools(someSpec, Tools, two.slice(0, 1)))).toEqual(['tool.schema_invalid']);
    const profile = {
      profileId: 'tag.v1',
      parse: (text: string) =>
        [...text.matchAll(/<read id="(\w+)">([^<]*)<\/read>/g)].map((m) => ({
          toolCallId: m[1] as string,
          toolName: 'read_file',
          input: { path: m[2] },
        })),
    };
    const adapted = adaptText(specFor('text'), Tools, profile, 'see <read id="t1">a.md</read>');
    expect(adapted.ok && adapted.value.requests.map((r) => r.toolCallId)).toEqual(['t1']);
    const broken = adaptText(specFor('text'), Tools, { profileId: 'bad.v1', parse: () => JSON.parse('{') }, 'x');
    expect(classes(broken)).toEqual(['tool.schema_invalid']);
  });

  it('reads calls as own data: a polluted callerId or input admits nothing more', () => {
    const calls = [{ toolCallId: 'c', toolName: 'exec_only', input: {} }];
    const spec = specFor('code');
    const clean = requestTools(spec, Tools, calls);
    expect(clean.ok && clean.value.refused.map((r) => r.errorCode)).toEqual(['caller_not_allowed']);
    const polluted = withPollution({ callerId: 'code_execution/1', input: {} }, () => requestTools(spec, Tools, calls));
    mintsNothingMore(polluted, clean, (r) => [r.requests, r.refused]);
  });
});
