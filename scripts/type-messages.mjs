#!/usr/bin/env node
// The messages of turngate's negative type tests, as a person meets them.
//
// Every `// @ts-expect-error` in type-tests/*.test-d.ts marks a misuse. This script copies the
// type tests with those directives switched off, compiles them against the built package
// (TypeScript 6, with the compiler options tsd uses), and for each misuse prints the length of
// the compiler's message and its first two lines, then the longest. A directive written
// `// @ts-expect-error -- "<text>"` promises that <text> is in the message.
//
//   node scripts/type-messages.mjs            print every message (npm run type-messages)
//   node scripts/type-messages.mjs --check    also fail unless each promised <text> is in its message
//   node scripts/type-messages.mjs --ts7      compile with TypeScript 7 instead
//
// Build first (`npm run build`): the tests import 'turngate'.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const check = process.argv.includes('--check');
const ts7 = process.argv.includes('--ts7');
const out = join(root, '.bench', 'type-messages');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const directive = /^(\s*)\/\/ @ts-expect-error(?: -- (.*))?$/;
const misuses = [];
const files = readdirSync(join(root, 'type-tests')).filter((name) => name.endsWith('.test-d.ts'));
for (const name of files) {
  const lines = readFileSync(join(root, 'type-tests', name), 'utf8').split('\n');
  const copy = lines.map((line, index) => {
    const found = directive.exec(line);
    if (found === null) return line;
    const promised = /^"(.*)"$/.exec(found[2]?.trim() ?? '');
    misuses.push({ file: name, line: index + 2, promised: promised?.[1] ?? '' });
    return `${found[1]}// (misuse) ${found[2] ?? ''}`;
  });
  writeFileSync(join(out, name.replace(/\.test-d\.ts$/, '.ts')), copy.join('\n'));
}
writeFileSync(
  join(out, 'tsconfig.json'),
  JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: { noEmit: true, noUnusedLocals: false, noUnusedParameters: false },
    include: ['*.ts'],
  }),
);

const tsc = ts7 ? 'node_modules/ts7/bin/tsc' : 'node_modules/typescript/bin/tsc';
const run = spawnSync(process.execPath, [join(root, tsc), '-p', join(out, 'tsconfig.json'), '--pretty', 'false'], {
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});

/** Diagnostics by `file:line`: the message of each (first line, then its indented continuation lines). */
const diagnostics = new Map();
let current;
for (const line of run.stdout.split('\n')) {
  const head = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
  if (head !== null) {
    const key = `${head[1].split('/').pop()}:${head[2]}`;
    current = { code: head[3], lines: [head[4]] };
    diagnostics.set(key, [...(diagnostics.get(key) ?? []), current]);
  } else if (current !== undefined && line.startsWith(' ')) {
    current.lines.push(line.trim());
  }
}

const squash = (text) => text.replace(/\s+/g, ' ').trim();
let longest = { length: 0 };
let failed = 0;
console.log(
  `negative type tests: ${misuses.length} (TypeScript ${ts7 ? '7' : '6'}); length = characters of the whole message`,
);
for (const misuse of misuses) {
  const key = `${misuse.file.replace(/\.test-d\.ts$/, '.ts')}:${misuse.line}`;
  const found = diagnostics.get(key) ?? [];
  const message = found.map((d) => `${d.code}: ${d.lines.join('\n')}`).join('\n');
  const where = `${misuse.file}:${misuse.line}`;
  if (found.length === 0) {
    failed++;
    console.log(`\n${where}  NO ERROR (the misuse compiles)`);
    continue;
  }
  const [first, second] = message.split('\n');
  console.log(`\n${where}  ${message.length} chars`);
  console.log(`  ${first}`);
  if (second !== undefined) console.log(`  ${second}`);
  if (message.length > longest.length) longest = { length: message.length, where };
  if (check && misuse.promised !== '' && !squash(message).includes(squash(misuse.promised))) {
    failed++;
    console.log(`  ^ promised: ${misuse.promised}`);
  }
}
console.log(`\nlongest: ${longest.length} chars at ${longest.where}`);
if (failed > 0) {
  console.error(
    `type messages: ${failed} of ${misuses.length} negative type tests ${check ? 'do not show their promised message' : 'compile'}`,
  );
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
