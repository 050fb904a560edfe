#!/usr/bin/env node
// The house's size limits: source files (not tests) over 450 lines and functions over 80 lines
// under src/, largest first. Prints the lists; exits 0 (a report, not a gate: some long
// functions are one linear pass on purpose, and docs/ARCHITECTURE.md says which).
//
//   node scripts/sizes.mjs [fileLimit=450] [functionLimit=80]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const fileLimit = Number(process.argv[2] ?? 450);
const functionLimit = Number(process.argv[3] ?? 80);

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}

const bigFiles = [];
const bigFunctions = [];
for (const file of sources(join(root, 'src'))) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const name = relative(root, file);
  if (lines > fileLimit) bigFiles.push([lines, name]);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const length = lineOf(node.end) - lineOf(node.getStart(source)) + 1;
      if (length > functionLimit) {
        const parent = node.parent;
        const called =
          node.name?.getText(source) ??
          (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)
            ? parent.name.getText(source)
            : '<anonymous>');
        bigFunctions.push([length, `${name}:${lineOf(node.getStart(source)) + 1} ${called}`]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
bigFiles.sort((a, b) => b[0] - a[0]);
bigFunctions.sort((a, b) => b[0] - a[0]);
console.log(`source files over ${fileLimit} lines: ${bigFiles.length}`);
for (const [n, name] of bigFiles) console.log(`  ${n}\t${name}`);
console.log(`functions over ${functionLimit} lines: ${bigFunctions.length}`);
for (const [n, name] of bigFunctions) console.log(`  ${n}\t${name}`);
