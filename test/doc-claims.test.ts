/**
 * The `//=>` claim checker (scripts/doc-claims.mjs): which claims are literal values, which are
 * descriptive, how an example is rewritten, and that a claim that does not hold is reported.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  type Claim,
  markdownDocs,
  markdownExamplesOf,
  parseClaim,
  rewriteExample,
  runClaims,
} from '../scripts/doc-claims.mjs';

/** The value of a claim that must parse as a literal. */
function literal(text: string): unknown {
  const claim = parseClaim(text);
  if (claim.kind !== 'literal') throw new Error(`not a literal claim: ${text}`);
  return claim.value;
}

describe('parseClaim', () => {
  it('reads a string, a number, booleans, null and undefined as literal values', () => {
    expect(parseClaim(" 'tool.result_missing'")).toEqual({
      kind: 'literal',
      source: "'tool.result_missing'",
      value: 'tool.result_missing',
    });
    expect(parseClaim(' "That request couldn\'t be processed."')).toMatchObject({
      kind: 'literal',
      value: "That request couldn't be processed.",
    });
    expect(literal(' -0.5')).toBe(-0.5);
    expect(literal(' 10n')).toBe(10n);
    expect(parseClaim(' true')).toMatchObject({ kind: 'literal', value: true });
    expect(parseClaim(' null')).toMatchObject({ kind: 'literal', value: null });
    expect(parseClaim(' undefined')).toEqual({ kind: 'literal', source: 'undefined', value: undefined });
  });

  it('reads arrays and objects of literals, escapes included', () => {
    expect(literal(" { category: 'provider_invalid_request', detail: 'too large', 'a-b': [1, null] }")).toEqual({
      category: 'provider_invalid_request',
      detail: 'too large',
      'a-b': [1, null],
    });
    expect(literal(" ['\\uFF21', '\\u{1F600}', '{\\n}']")).toEqual(['\uFF21', '\u{1F600}', '{\n}']);
  });

  it('strips a trailing parenthesized remark from the value', () => {
    expect(parseClaim(' false (no tool_call_id)')).toEqual({
      kind: 'literal',
      source: 'false',
      value: false,
      remark: 'no tool_call_id',
    });
    expect(parseClaim(" '\\ufefftc-1' (U+FEFF is not White_Space)")).toMatchObject({
      value: '\ufefftc-1',
      remark: 'U+FEFF is not White_Space',
    });
    // a value that ends with a parenthesis is not a remark
    expect(literal(" 'f(x)'")).toBe('f(x)');
  });

  it('calls prose, ellipses, names and constructors descriptive', () => {
    expect(parseClaim(' [{ class, detail, ... }, ...]').kind).toBe('descriptive');
    expect(parseClaim(" Set { 'k' }").kind).toBe('descriptive');
    expect(parseClaim(' the report, rejected').kind).toBe('descriptive');
    expect(parseClaim(' { rule: RULE }')).toMatchObject({ kind: 'descriptive', reason: 'not a literal: RULE' });
    expect(parseClaim(" new Set(['k'])").kind).toBe('descriptive');
    expect(parseClaim(` \`$\{x}\``).kind).toBe('descriptive'); // a template with a substitution
  });
});

describe('rewriteExample', () => {
  it('wraps the expression a claim follows, on its line or the line above, in an if branch or a const', () => {
    const code = [
      "import { f } from 'turngate';",
      'f(1); //=> 2',
      'f(',
      '  3,',
      ');',
      '//=> 4',
      'if (ok) f(5).x; //=> 6',
      "const bucket = f('a'); //=> 'b'",
      'await f(7); //=> 8',
    ].join('\n');
    const { code: rewritten, claims } = rewriteExample(code);
    expect(claims.map((c) => [c.line, c.expression, c.status])).toEqual([
      [2, 'f(1)', 'checked'],
      [6, 'f(\n  3,\n)', 'checked'],
      [7, 'f(5).x', 'checked'],
      [8, "f('a')", 'checked'],
      [9, 'await f(7)', 'checked'],
    ]);
    expect(rewritten.split('\n')).toEqual([
      "import { f } from 'turngate';",
      'globalThis.__turngateDocClaim(0, () => (f(1)), false); //=> 2',
      'globalThis.__turngateDocClaim(1, () => (f(',
      '  3,',
      ')), false);',
      '//=> 4',
      'if (ok) globalThis.__turngateDocClaim(2, () => (f(5).x), false); //=> 6',
      "const bucket = globalThis.__turngateDocClaim(3, () => (f('a')), false); //=> 'b'",
      '(await globalThis.__turngateDocClaim(4, async () => (await f(7)), true)); //=> 8',
    ]);
  });

  it('leaves a claim on a type, a descriptive claim and a `//=>` inside a string alone', () => {
    const code = [
      "type M = Pick<{ a: 1 }, 'a'>; //=> { a: 1 }",
      'report.failures; //=> [{ class, ... }]',
      "const s = 'a //=> b';",
    ].join('\n');
    const { code: rewritten, claims } = rewriteExample(code);
    expect(rewritten).toBe(code);
    expect(claims.map((c) => [c.expression, c.status, c.reason])).toEqual([
      ["type M = Pick<{ a: 1 }, 'a'>;", 'descriptive', 'a claim on a type'],
      ['report.failures', 'descriptive', 'not a JS expression'],
    ]);
  });
});

describe('runClaims', () => {
  // the rewritten example as a function body: these examples import nothing
  const run = (code: string) => {
    const { code: rewritten, claims } = rewriteExample(code);
    const js = ts.transpileModule(rewritten, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const checked = claims.filter((c: Claim) => c.status === 'checked');
    const AsyncFunction = (async () => {}).constructor as new (body: string) => () => Promise<unknown>;
    return runClaims(checked, () => new AsyncFunction(js)(), 1_000);
  };

  it('finds the claims that hold and the one that does not, with the actual value', async () => {
    const results = await run(
      [
        "const row = { status: 'error', ids: ['a'] };",
        "row; //=> { status: 'error', ids: ['a'] }",
        "row.ids.join(','); //=> 'a,b'",
        'await Promise.resolve(1); //=> 1',
        'row.ids.length === 1; //=> false (one id)',
      ].join('\n'),
    );
    expect(results.map((r) => [r.claim.expression, r.holds, r.actual])).toEqual([
      ['row', true, "{ status: 'error', ids: [ 'a' ] }"],
      ["row.ids.join(',')", false, "'a'"],
      ['await Promise.resolve(1)', true, '1'],
      ['row.ids.length === 1', false, 'true'],
    ]);
  });

  it('compares strictly: a missing key is not an undefined one, 1 is not "1"', async () => {
    const results = await run(['({ a: 1 }); //=> { a: 1, b: undefined }', "1; //=> '1'"].join('\n'));
    expect(results.map((r) => r.holds)).toEqual([false, false]);
  });

  it('reports a claim whose expression throws, and the claims an example never reaches', async () => {
    const results = await run(
      ['const ok = false;', 'if (ok) 1; //=> 1', 'JSON.parse("{"); //=> {}', '2; //=> 2'].join('\n'),
    );
    expect(results.map((r) => r.holds)).toEqual([false, false, false]);
    expect(results[0]?.actual).toMatch(/^never reached: the example threw SyntaxError/);
    expect(results[1]?.actual).toMatch(/^threw SyntaxError/);
    expect(results[2]?.actual).toMatch(/^never reached: the example threw SyntaxError/);
  });
});

describe('markdownExamplesOf / markdownDocs', () => {
  it('takes every ```ts block with its lines, and no block fenced as text, sh or without a language', () => {
    const text = [
      '# Guide',
      '```ts',
      'f(1); //=> 2',
      '```',
      '```',
      'a -> b',
      '```',
      '```sh',
      'npm test',
      '```',
      '```ts',
      'g();',
      '```',
    ].join('\n');
    expect([...markdownExamplesOf(text)]).toEqual([
      { line: 2, bodyLine: 3, code: 'f(1); //=> 2\n' },
      { line: 11, bodyLine: 12, code: 'g();\n' },
    ]);
  });

  it('reads README.md first, then every .md file under docs/, guides included', () => {
    const root = new URL('..', import.meta.url).pathname;
    const docs = markdownDocs(root);
    expect(docs[0]).toBe('README.md');
    expect(docs).toContain('docs/ARCHITECTURE.md');
    expect(docs.filter((file) => file.startsWith('docs/guide/')).length).toBeGreaterThan(0);
    expect(docs.slice(1).every((file) => file.startsWith('docs/') && file.endsWith('.md'))).toBe(true);
  });
});
