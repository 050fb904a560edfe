#!/usr/bin/env node
// Typechecks every ```ts block inside a TSDoc @example in src/, and every ```ts block of
// README.md and docs/**/*.md (the guides), each as its own module that imports from 'turngate' (or a subpath, resolved to src/
// through the package's `@turngate/source` condition), so the examples the docs show are
// examples that compile. A Markdown block that shows a compile error marks the line with
// `// @ts-expect-error` and gives the message in a comment.
//
// scripts/typecheck.mjs compiles the same files in its one program (npm run check, npm test);
// run alone, this script compiles them on their own.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { examplesOf, markdownExamples } from './doc-claims.mjs';

const root = new URL('..', import.meta.url).pathname;

/** The folder the examples are written to. */
export const DOC_EXAMPLE_DIR = join(root, '.doc-examples');

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}

/**
 * Writes each example as a module of its own into `out` (emptied first): `<source>_<line>.ts`.
 *
 * @param {string} out
 * @returns {{ count: number, markdownCount: number }} TSDoc blocks and Markdown blocks (README.md, docs/) written
 */
export function writeDocExamples(out) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  let count = 0;
  for (const file of files(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const { line, code } of examplesOf(text)) {
      const name = `${relative(join(root, 'src'), file).replace(/[/.]/g, '_')}_${line}.ts`;
      writeFileSync(join(out, name), `// from ${relative(root, file)}:${line}\nexport {};\n${code}\n`);
      count++;
    }
  }
  let markdownCount = 0;
  for (const { file, line, code } of markdownExamples(root)) {
    const name = `${file.replace(/[/.]/g, '_')}_${line}.ts`;
    writeFileSync(join(out, name), `// from ${file}:${line}\nexport {};\n${code}`);
    markdownCount++;
  }
  return { count, markdownCount };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = DOC_EXAMPLE_DIR;
  const { count, markdownCount } = writeDocExamples(out);
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      extends: '../tsconfig.base.json',
      compilerOptions: { noEmit: true, noUnusedLocals: false },
      include: ['*.ts'],
    }),
  );
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(out, 'tsconfig.json')],
    { encoding: 'utf8' },
  );
  process.stdout.write(result.stdout);
  if (result.status !== 0) {
    console.error(
      `doc examples: ${count} TSDoc and ${markdownCount} Markdown (README.md, docs/) blocks checked, some do not compile (see above; files in .doc-examples/)`,
    );
    process.exit(1);
  }
  rmSync(out, { recursive: true, force: true });
  console.log(
    `doc examples: ${count} TSDoc @example blocks and ${markdownCount} Markdown (README.md, docs/) blocks compile`,
  );
}
