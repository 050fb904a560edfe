import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Tools } from '../../test/turn-fixtures.ts';
import { defineTools, validateWith } from '../index.ts';
import { registryDefinitions } from './tools.ts';

describe('defineTools', () => {
  it('holds a frozen copy: changing the object passed in changes nothing a state holds', () => {
    const definitions = {
      read_file: { input: v.object({ path: v.string() }), output: v.string(), methods: ['GET'] },
      update_issue: {
        input: v.object({ id: v.string() }),
        output: v.object({ ok: v.boolean() }),
        mutation: true,
        allowedCallers: ['orchestrator'],
      },
    };
    const tools = defineTools(definitions);
    (definitions.update_issue as { mutation: boolean }).mutation = false;
    definitions.update_issue.allowedCallers.push('anyone');
    (definitions as Record<string, unknown>)['delete_all'] = { input: v.any(), output: v.any() };
    expect(tools.names).toEqual(['read_file', 'update_issue']);
    expect(tools.definitions.update_issue.mutation).toBe(true);
    expect(tools.definitions.update_issue.allowedCallers).toEqual(['orchestrator']);
    expect(tools.definitions.read_file.methods).toEqual(['GET']);
    expect(Object.isFrozen(tools)).toBe(true);
    expect(Object.isFrozen(tools.definitions)).toBe(true);
    expect(Object.isFrozen(tools.definitions.update_issue)).toBe(true);
    expect(Object.isFrozen(tools.definitions.update_issue.allowedCallers)).toBe(true);
    expect(Object.isFrozen(definitions.update_issue)).toBe(false);
    expect(new tools()).toBe(tools.definitions);
  });

  it('lets a class extend a registry (for a short name in types) and trusts only the registry it extends', () => {
    expect(Tools.names).toEqual(['exec_only', 'read_file', 'search_web', 'update_issue']);
    expect(registryDefinitions(Tools)).toBe(Object.getPrototypeOf(Tools).definitions);
    // @ts-expect-error -- a subclass that redefines the definitions does not type-check; at run time it changes nothing
    class Tampered extends Tools {
      static override readonly definitions = {
        ...Tools.definitions,
        update_issue: { ...Tools.definitions.update_issue, mutation: false },
      };
    }
    expect(registryDefinitions(Tampered).update_issue?.mutation).toBe(true);
    expect(() => registryDefinitions({ definitions: {}, names: [] })).toThrow(/made by defineTools/);
  });

  it('refuses a definition without schemas, with a bad field, or defined by a getter', () => {
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => defineTools({ t: { input: {}, output: v.any() } } as never)).toThrow(/Standard Schema v1 `input`/);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => defineTools({ t: { input: v.any(), output: v.any(), mutation: 'yes' } } as never)).toThrow(
      /true or false/,
    );
    expect(() => defineTools({ t: { input: v.any(), output: v.any(), allowedCallers: [' '] } })).toThrow(/non-blank/);
    const getter = {
      output: v.any(),
      get input() {
        return v.any();
      },
    };
    expect(() => defineTools({ t: getter })).toThrow(/input of tool "t" is a getter/);
  });
});

describe('validateWith', () => {
  it('never throws: a schema that throws is an issue', () => {
    const throwing = v.pipe(
      v.string(),
      v.transform(() => {
        throw new Error('transform failed');
      }),
    );
    const checked = validateWith(throwing, 'x');
    expect(checked.ok ? undefined : checked.failures[0]?.message).toMatch(/the schema threw Error: transform failed/);
  });

  it('writes issue paths as the project writes places: indices in brackets, keys after dots', () => {
    const schema = v.object({ items: v.array(v.object({ link: v.string() })) });
    const checked = validateWith(schema, { items: [{ link: 'a' }, { link: 3 }] });
    expect(checked.ok ? [] : checked.failures.map((issue) => issue.path)).toEqual(['items[1].link']);
    const root = validateWith(v.array(v.string()), [1]);
    expect(root.ok ? [] : root.failures.map((issue) => issue.path)).toEqual(['[0]']);
    expect(validateWith(v.string(), 1)).toMatchObject({ ok: false, failures: [{ path: '' }] });
  });
});
