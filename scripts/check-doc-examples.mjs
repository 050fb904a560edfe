#!/usr/bin/env node
// Typechecks every ```ts block inside a TSDoc @example in src/ (each as its own module that
// imports from 'turngate'), so the examples the docs show are examples that compile.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, '.doc-examples');
rmSync(out, { recursive: true, force: true });
mkdirSync(out);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}

let count = 0;
for (const file of files(join(root, 'src'))) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g)) {
    const body = match[1]
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n');
    const line = text.slice(0, match.index).split('\n').length;
    const name = `${relative(join(root, 'src'), file).replace(/[/.]/g, '_')}_${line}.ts`;
    writeFileSync(join(out, name), `// from ${relative(root, file)}:${line}\nexport {};\n${body}\n`);
    count++;
  }
}
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
  {
    encoding: 'utf8',
  },
);
process.stdout.write(result.stdout);
if (result.status !== 0) {
  console.error(`doc examples: ${count} checked, some do not compile (see above; files in .doc-examples/)`);
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
console.log(`doc examples: ${count} TSDoc @example blocks compile`);
