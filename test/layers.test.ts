/**
 * The layer map of docs/ARCHITECTURE.md holds in src/: every import (type-only and re-exports
 * included) of a file that is not a test goes to its own layer, a layer on a lower floor through
 * that layer's `index.ts` or `internal.ts`, or `internal/`. The floors are read from the document,
 * so the map has one home. Inside `transcripts/`, its folder rules hold too (the document's
 * "Inside transcripts/"): `core/` imports no format folder, a format folder imports only `core/`,
 * the ChatMessage hub's face (`chat/index.ts`) and itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { transcriptsFolderViolation } from '../scripts/transcripts-folders.mjs';

const root = new URL('..', import.meta.url).pathname;
const src = join(root, 'src');

/** Layer -> floor, from the table of docs/ARCHITECTURE.md (`| 3 | \`normalize/\` | ... |`). */
function floors(): Map<string, number> {
  const text = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
  const map = new Map<string, number>();
  for (const match of text.matchAll(/^\| (\d+) \| `([a-z]+)\/` \|/gm)) map.set(match[2] as string, Number(match[1]));
  return map;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}

/** Every relative module a file imports or re-exports (static, dynamic, type-only). */
function importsOf(text: string): string[] {
  const specifiers: string[] = [];
  for (const match of text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g))
    specifiers.push(match[1] as string);
  return specifiers;
}

/** What is wrong with one import, or undefined when the map allows it. */
function violation(map: Map<string, number>, file: string, specifier: string): string | undefined {
  const from = relative(src, file).split('/');
  const to = relative(src, resolve(dirname(file), specifier)).split('/');
  const fromLayer = from.length > 1 ? from[0] : undefined; // undefined: a root file (src/index.ts)
  const toLayer = to.length > 1 ? to[0] : undefined;
  if (toLayer === undefined) return 'imports a root file of src/';
  if (toLayer === fromLayer) return undefined;
  const toFloor = map.get(toLayer);
  if (toFloor === undefined) return `imports ${toLayer}/, which docs/ARCHITECTURE.md does not place`;
  if (fromLayer === undefined) return toLayer === 'cli' ? 'the root entry imports cli/' : undefined;
  const fromFloor = map.get(fromLayer);
  if (fromFloor === undefined) return `is in ${fromLayer}/, which docs/ARCHITECTURE.md does not place`;
  if (toFloor >= fromFloor)
    return `${fromLayer}/ (floor ${fromFloor}) imports ${toLayer}/ (floor ${toFloor}): ${toFloor === fromFloor ? 'beside' : 'above'} it`;
  const entry = to.slice(1).join('/');
  if (toLayer !== 'internal' && entry !== 'index.ts' && entry !== 'internal.ts')
    return `imports ${to.join('/')}, not ${toLayer}/index.ts or ${toLayer}/internal.ts`;
  return undefined;
}

const transcripts = join(src, 'transcripts');
/**
 * What is wrong with one import of a file of `src/transcripts/` under the layer's folder rules
 * (scripts/transcripts-folders.mjs), or undefined when they allow it. Imports leaving the layer
 * are the layer map's business.
 */
function folderViolation(file: string, specifier: string): string | undefined {
  const target = resolve(dirname(file), specifier);
  if (!target.startsWith(`${transcripts}/`)) return undefined;
  return transcriptsFolderViolation(relative(transcripts, file), relative(transcripts, target))?.message;
}

describe('the layers of src/ (docs/ARCHITECTURE.md)', () => {
  const map = floors();

  it('places every folder of src/ on a floor', () => {
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders.filter((folder) => !map.has(folder))).toEqual([]);
    expect([...map.keys()].sort()).toEqual(folders);
  });

  it('finds no import the map does not allow', () => {
    const found: string[] = [];
    let imports = 0;
    for (const file of sourceFiles(src)) {
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        imports++;
        const wrong = violation(map, file, specifier);
        if (wrong !== undefined) found.push(`${relative(root, file)}: '${specifier}' ${wrong}`);
      }
    }
    expect(imports).toBeGreaterThan(500);
    expect(found).toEqual([]);
  });

  it('refuses an upward, a sideways and a deep import, and allows a downward one', () => {
    const at = (path: string) => join(src, path);
    expect(violation(map, at('check/check.ts'), '../typestate/index.ts')).toMatch(/floor 4.*floor 5.*above/);
    expect(violation(map, at('chat/store.ts'), '../adapters/index.ts')).toMatch(/beside/);
    expect(violation(map, at('chat/turn.ts'), '../transcripts/chat/check.ts')).toMatch(/not transcripts\/index.ts/);
    expect(violation(map, at('src-root-file.ts'), './cli/main.ts')).toBe('the root entry imports cli/');
    expect(violation(map, at('chat/turn.ts'), '../transcripts/index.ts')).toBeUndefined();
    expect(violation(map, at('chat/turn.ts'), '../internal/own-field.ts')).toBeUndefined();
    expect(violation(map, at('chat/turn.ts'), './store.ts')).toBeUndefined();
    // The durable loop sits above the adapters: it drives their loop, never the other way.
    expect(violation(map, at('durable/loop.ts'), '../adapters/internal.ts')).toBeUndefined();
    expect(violation(map, at('adapters/core/loop.ts'), '../../durable/index.ts')).toMatch(/floor 8.*floor 9.*above/);
  });

  it('reads type-only imports, re-exports and dynamic imports', () => {
    expect(
      importsOf(
        "import type { A } from '../a/index.ts';\nexport { B } from './b.ts';\nconst c = await import('../c/index.ts');",
      ),
    ).toEqual(['../a/index.ts', './b.ts', '../c/index.ts']);
  });
});

describe('the folders of src/transcripts/ (docs/ARCHITECTURE.md, "Inside transcripts/")', () => {
  /** A path under src/transcripts/. */
  const at = (path: string) => join(transcripts, path);

  it('finds no import the folder rules do not allow', () => {
    const found: string[] = [];
    let imports = 0;
    for (const file of sourceFiles(transcripts)) {
      if (relative(transcripts, file).split('/').length === 1) continue;
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        imports++;
        const wrong = folderViolation(file, specifier);
        if (wrong !== undefined) found.push(`${relative(root, file)}: '${specifier}' ${wrong}`);
      }
    }
    expect(imports).toBeGreaterThan(300);
    expect(found).toEqual([]);
  });

  it('refuses core/ importing a format folder or the registry', () => {
    expect(folderViolation(at('core/markers.ts'), '../anthropic/kinds.ts')).toBe(
      'core/ imports the format folder anthropic/',
    );
    expect(folderViolation(at('core/report.ts'), '../rules.ts')).toMatch(
      /core\/ imports rules\.ts, a file of the layer's root/,
    );
    expect(folderViolation(at('core/markers.ts'), './kinds.ts')).toBeUndefined();
    expect(folderViolation(at('core/report.ts'), '../../failures/index.ts')).toBeUndefined();
  });

  it("refuses a format folder importing a sibling, the hub past its face or the layer's root, and allows core/, the face and itself", () => {
    expect(folderViolation(at('mistral/repair.ts'), '../openai-chat/repair.ts')).toBe(
      'mistral/ imports the format folder openai-chat/',
    );
    expect(folderViolation(at('chat/rules.ts'), '../openai-chat/rules.ts')).toBe(
      'chat/ imports the format folder openai-chat/',
    );
    expect(folderViolation(at('aisdk/convert.ts'), '../chat/check.ts')).toBe(
      "aisdk/ imports chat/check.ts, not the hub's face chat/index.ts",
    );
    expect(folderViolation(at('aisdk/check.ts'), '../rules.ts')).toMatch(
      /aisdk\/ imports rules\.ts, a file of the layer's root/,
    );
    expect(folderViolation(at('aisdk/convert.ts'), '../chat/index.ts')).toBeUndefined();
    expect(folderViolation(at('aisdk/check.ts'), '../core/report.ts')).toBeUndefined();
    expect(folderViolation(at('aisdk/check.ts'), './rules.ts')).toBeUndefined();
    expect(folderViolation(at('chat/convert.ts'), './message.ts')).toBeUndefined();
    expect(folderViolation(at('aisdk/check.ts'), '../../check/index.ts')).toBeUndefined();
    expect(folderViolation(at('formats.ts'), './aisdk/driver.ts')).toBeUndefined();
  });
});
