import { describe, expect, it } from 'vitest';
import { check, failure, patch, turn } from '../../../test/extended-turns.ts';
import { digest } from '../../canonical/index.ts';

const tools = [
  { toolName: 'tool.a', schemaDigest: 'sha256:sa' },
  { toolName: 'tool.b', schemaDigest: 'sha256:sb', deferLoading: true },
];

function withSchemas(ev: Record<string, unknown>) {
  return {
    ...ev,
    toolRequests: (ev['toolRequests'] as { toolName: string }[]).map((r) => ({
      ...r,
      schemaDigest: tools.find((t) => t.toolName === r.toolName)?.schemaDigest ?? 'sha256:none',
    })),
  };
}

describe('checkToolPolicy', () => {
  it('names the call and the tool outside the allow-list, and checks nothing without a toolPolicy', () => {
    const ev = withSchemas(turn(['a', 'z'], { toolPolicy: { tools } }));
    const r = check(ev);
    expect(r.failureClasses).toEqual(['tool.unknown_or_disallowed']);
    expect(failure(r, 'tool.unknown_or_disallowed')).toEqual({
      class: 'tool.unknown_or_disallowed',
      detail: 'Tool `tool.z` is not in the toolPolicy allow-list.',
      ids: ['z'],
    });
    expect(check(turn(['a', 'z'])).result).toBe('accepted');
  });

  it('requires the schema digest each request was validated against to be its tool’s', () => {
    const ev = withSchemas(turn(['a'], { toolPolicy: { tools } }));
    expect(check(ev).result).toBe('accepted');
    const stale = { ...ev, toolRequests: patch(ev['toolRequests'], 'a', { schemaDigest: 'sha256:old' }) };
    expect(failure(check(stale), 'tool.schema_invalid')?.detail).toContain('`tool.a`: `sha256:sa`');
    const none = { ...ev, toolRequests: patch(ev['toolRequests'], 'a', { schemaDigest: undefined }) };
    expect(failure(check(none), 'tool.schema_invalid')?.ids).toEqual(['a']);
  });

  it('holds a specific tool choice to the model’s own calls, not to calls made by code', () => {
    const spec = { toolChoice: { mode: 'specific', toolName: 'tool.a' } };
    const r = check(turn(['a', 'b'], spec));
    expect(failure(r, 'tool.unknown_or_disallowed')?.ids).toEqual(['b']);
    const ev = turn(['a', 'b'], spec);
    const programmatic = {
      ...ev,
      toolRequests: patch(ev['toolRequests'], 'b', { callerId: 'tool.a', parentToolCallId: 'a' }),
    };
    expect(check(programmatic).result).toBe('accepted');
  });
});

describe('checkDiscovery', () => {
  const catalog = digest(tools.map((t) => ({ toolName: t.toolName, schemaDigest: t.schemaDigest })));
  const results = ['tool.b'];
  const search = {
    searchId: 's1',
    query: ' read rows ',
    catalogDigest: catalog,
    resultToolNames: results,
    resultSetDigest: digest(results),
  };

  it('accepts a deferred tool found by a search bound to the catalog, by id or by searchRef digest', () => {
    const ev = withSchemas(turn(['a', 'b'], { toolPolicy: { tools }, toolCatalogDigest: catalog }));
    const byId = { ...ev, toolRequests: patch(ev['toolRequests'], 'b', { searchId: 's1' }), toolSearches: [search] };
    const r = check(byId);
    expect(r.result).toBe('accepted');
    const refDigest = digest({ query: 'read rows', resultSetDigest: digest(results) });
    expect(r.extended?.normalized.toolSearches?.[0]?.searchRefDigest).toBe(refDigest);
    const byRef = { ...byId, toolRequests: patch(ev['toolRequests'], 'b', { searchRefDigest: refDigest }) };
    expect(check(byRef).result).toBe('accepted');
  });

  it('fails closed on a deferred tool called without discovery, naming the call', () => {
    const r = check(withSchemas(turn(['a', 'b'], { toolPolicy: { tools } })));
    expect(failure(r, 'tool.discovery_unresolved')).toEqual({
      class: 'tool.discovery_unresolved',
      detail: 'A deferred tool was called without the search that discovered it.',
      ids: ['b'],
    });
  });

  it('names the search bound to another catalog and the catalog digest that is not its policy’s', () => {
    const ev = withSchemas(turn(['a', 'b'], { toolPolicy: { tools }, toolCatalogDigest: 'sha256:stale' }));
    const r = check({
      ...ev,
      toolRequests: patch(ev['toolRequests'], 'b', { searchId: 's1' }),
      toolSearches: [{ ...search, catalogDigest: 'sha256:stale' }],
    });
    const f = failure(r, 'tool.discovery_mismatch');
    expect(f?.ids).toEqual(['s1']);
    expect(f?.detail).toContain("The CallSpec's `toolCatalogDigest` `sha256:stale` is not the digest of its policy");
  });

  it('refuses searches when there is no catalog to resolve them against', () => {
    const r = check({ ...turn(['a']), toolSearches: [search] });
    expect(failure(r, 'tool.discovery_unresolved')?.ids).toEqual(['s1']);
  });
});

describe('checkExamples', () => {
  it('fails a toolExampleDigest given without the policy it is the digest of', () => {
    const r = check(turn(['a'], { toolExampleDigest: 'sha256:e' }));
    expect(failure(r, 'tool.example_digest_mismatch')?.detail).toBe(
      'The CallSpec gives `toolExampleDigest` but not the policy it is the digest of.',
    );
  });
});

describe('checkCallers', () => {
  const callers = [
    { toolName: 'tool.x', schemaDigest: 'sha256:sx' },
    { toolName: 'tool.a', schemaDigest: 'sha256:sa', allowedCallers: ['tool.x'] },
  ];
  const programmatic = () => {
    const ev = turn(['x', 'a'], { toolPolicy: { tools: callers } });
    return {
      ...ev,
      toolRequests: [
        { toolCallId: 'x', toolName: 'tool.x', schemaDigest: 'sha256:sx' },
        { toolCallId: 'a', toolName: 'tool.a', schemaDigest: 'sha256:sa', callerId: 'tool.x', parentToolCallId: 'x' },
      ],
    };
  };

  it('reads an absent allowedCallers as the model only, and an absent callerId as the model', () => {
    expect(check(programmatic()).result).toBe('accepted');
    const ev = programmatic();
    const direct = {
      ...ev,
      toolRequests: patch(ev.toolRequests, 'a', { callerId: undefined, parentToolCallId: undefined }),
    };
    expect(failure(check(direct), 'tool.caller_not_allowed')).toEqual({
      class: 'tool.caller_not_allowed',
      detail: '`tool.a` may not be called by `direct`.',
      ids: ['a'],
    });
  });

  it('refuses caller edges that do not lead to a direct call of the caller tool', () => {
    const ev = programmatic();
    const cases: [Record<string, unknown>, string][] = [
      [{ parentToolCallId: undefined }, 'A call made by code has no parentToolCallId (its caller edge).'],
      [{ parentToolCallId: 'gone' }, 'A caller edge names a parent call the turn did not request.'],
      [{ parentToolCallId: 'a' }, 'A caller edge names the call itself as its parent.'],
      [
        { callerId: 'tool.a', parentToolCallId: 'x' },
        'A caller edge names a parent that is not a direct call of its caller tool.',
      ],
    ];
    for (const [fields, detail] of cases) {
      const r = check({ ...ev, toolRequests: patch(ev.toolRequests, 'a', fields) });
      expect(failure(r, 'tool.programmatic_caller_edge_invalid')).toEqual({
        class: 'tool.programmatic_caller_edge_invalid',
        detail,
        ids: ['a'],
      });
    }
  });
});
