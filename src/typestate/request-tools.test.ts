import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { classes, fromModel, mintsNothingMore, specFor, Tools, withPollution } from '../../test/turn-fixtures.ts';
import { digest } from '../canonical/index.ts';
import { adaptText, defineTools, requestTools, settle, type CallSpec } from '../index.ts';

class Fetchers extends defineTools({
  web_fetcher: {
    input: v.object({ url: v.string() }),
    output: v.object({ body: v.string() }),
    methods: ['fetch_url', 'head_url'],
    aliases: { fetch: 'fetch_url' },
  },
  echo: { input: v.object({}), output: v.object({}) },
}) {}

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

describe('requestTools: methods and aliases', () => {
  const url = { url: 'https://news.example/rss' };
  const requested = () => {
    const r = requestTools(
      specFor('code'),
      Fetchers,
      fromModel([
        { toolCallId: 'a', toolName: 'web_fetcher', method: 'fetch_url', input: url },
        { toolCallId: 'b', toolName: 'web_fetcher', method: 'fetch', input: url },
        { toolCallId: 'c', toolName: 'web_fetcher', method: 'fetch_page', input: url },
        { toolCallId: 'd', toolName: 'web_fetcher', input: url },
        { toolCallId: 'e', toolName: 'echo', method: 'anything', input: {} },
        { toolCallId: 'f', toolName: 'echo', input: {} },
        { toolCallId: 'g', toolName: 'web_fetcher', method: 'toString', input: url },
      ]),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.failures));
    return r.value;
  };

  it('records the canonical method and the alias a call used', () => {
    const { requests } = requested();
    expect(requests.map(({ toolCallId, method, calledAs }) => ({ toolCallId, method, calledAs }))).toEqual([
      { toolCallId: 'a', method: 'fetch_url', calledAs: undefined },
      { toolCallId: 'b', method: 'fetch_url', calledAs: 'fetch' },
      { toolCallId: 'e', method: 'anything', calledAs: undefined },
      { toolCallId: 'f', method: undefined, calledAs: undefined },
    ]);
    expect(Object.hasOwn(requests[0] ?? {}, 'calledAs')).toBe(false);
  });

  it('refuses a method that is neither canonical nor an alias, or none where the tool declares methods', () => {
    const { refused } = requested();
    expect(refused.map((r) => [r.toolCallId, r.method, r.errorCode, r.failure.class])).toEqual([
      ['c', 'fetch_page', 'unknown_method', 'tool.unknown_or_disallowed'],
      ['d', undefined, 'unknown_method', 'tool.unknown_or_disallowed'],
      ['g', 'toString', 'unknown_method', 'tool.unknown_or_disallowed'],
    ]);
    expect(refused.map((r) => r.failure.detail)).toEqual([
      'web_fetcher has no method "fetch_page"; its methods are fetch_url, head_url',
      'web_fetcher has no method; its methods are fetch_url, head_url',
      'web_fetcher has no method "toString"; its methods are fetch_url, head_url',
    ]);
  });

  it('answers a refused method with a typed, non-retryable error result; the handler gets the canonical method', async () => {
    const seen: unknown[] = [];
    const results = await settle(requested(), {
      web_fetcher: (input, call) => {
        seen.push([call.toolCallId, call.method, call.calledAs]);
        return { body: `${call.method} ${input.url}` };
      },
      echo: () => ({}),
    });
    if (!results.ok) throw new Error(JSON.stringify(results.failures));
    expect(seen).toEqual([
      ['a', 'fetch_url', undefined],
      ['b', 'fetch_url', 'fetch'],
    ]);
    const c = results.value.results.find((r) => r.toolCallId === 'c');
    expect(c?.status === 'error' && c.error).toEqual({
      errorCode: 'unknown_method',
      retryable: false,
      errorMessage: 'web_fetcher has no method "fetch_page"; its methods are fetch_url, head_url',
    });
  });

  it('fails the batch for a method that is blank or not a string', () => {
    for (const method of [' ', 3]) {
      const r = requestTools(specFor('code'), Fetchers, [
        // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
        { toolCallId: 'a', toolName: 'echo', method: method as never, input: {} },
      ]);
      expect(classes(r)).toEqual(['tool.schema_invalid']);
      if (!r.ok) expect(r.failures[0]?.detail).toBe('calls[0].method: expected a non-blank string when given');
    }
  });

  it('reads the method as own data: a polluted method resolves nothing', () => {
    const calls = fromModel([{ toolCallId: 'd', toolName: 'web_fetcher', input: url }]);
    const clean = requestTools(specFor('code'), Fetchers, calls);
    expect(clean.ok && clean.value.refused.map((r) => r.errorCode)).toEqual(['unknown_method']);
    const polluted = withPollution({ method: 'fetch' }, () => requestTools(specFor('code'), Fetchers, calls));
    mintsNothingMore(polluted, clean, (r) => [r.requests, r.refused]);
  });
});
