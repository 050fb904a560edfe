import { describe, expect, it } from 'vitest';
import { classes, specFor, tools } from '../../test/turn-fixtures.ts';
import { adaptText, requestTools } from '../index.ts';

describe('requestTools and adaptText', () => {
  it('requestTools fails closed on unknown tools, disallowed callers and bad input', () => {
    const spec = specFor('code');
    expect(classes(requestTools(spec, tools, [{ toolCallId: 'a', toolName: 'fs.delete', input: {} }]))).toEqual([
      'tool.unknown_or_disallowed',
    ]);
    expect(classes(requestTools(spec, tools, [{ toolCallId: 'a', toolName: 'code.exec_only', input: {} }]))).toEqual([
      'tool.unknown_or_disallowed',
    ]);
    expect(
      requestTools(spec, tools, [
        { toolCallId: 'a', toolName: 'code.exec_only', input: {}, callerId: 'code_execution/1' },
      ]).ok,
    ).toBe(true);
    const bad = requestTools(spec, tools, [{ toolCallId: 'a', toolName: 'fs.read', input: { path: 3 } }]);
    expect(classes(bad)).toEqual(['tool.schema_invalid']);
    if (!bad.ok) expect(bad.failures[0]?.detail).toMatch(/path: Invalid type: Expected string/);
    expect(
      classes(
        requestTools(spec, tools, [
          { toolCallId: 'a', toolName: 'fs.read', input: { path: 'x' } },
          { toolCallId: 'a', toolName: 'fs.read', input: { path: 'y' } },
        ]),
      ),
    ).toEqual(['tool.schema_invalid']);
  });

  it('enforces the action modes: json one call, text only through an adapter', () => {
    const two = [
      { toolCallId: 'a', toolName: 'fs.read', input: { path: 'x' } },
      { toolCallId: 'b', toolName: 'fs.read', input: { path: 'y' } },
    ];
    expect(requestTools(specFor('code'), tools, two).ok).toBe(true);
    expect(classes(requestTools(specFor('json'), tools, two))).toEqual(['tool.parallel_policy_violation']);
    expect(classes(requestTools(specFor('text'), tools, two.slice(0, 1)))).toEqual(['tool.schema_invalid']);
    const profile = {
      profileId: 'tag.v1',
      parse: (text: string) =>
        [...text.matchAll(/<read id="(\w+)">([^<]*)<\/read>/g)].map((m) => ({
          toolCallId: m[1] as string,
          toolName: 'fs.read',
          input: { path: m[2] },
        })),
    };
    const adapted = adaptText(specFor('text'), tools, profile, 'see <read id="t1">a.md</read>');
    expect(adapted.ok && adapted.value.requests.map((r) => r.toolCallId)).toEqual(['t1']);
  });
});
