#!/usr/bin/env node
// The messages of turngate's negative type tests, as a person meets them.
//
// Every `// @ts-expect-error` in type-tests/*.test-d.ts marks a misuse. This script copies the
// type tests with those directives switched off, compiles them against src/ (the package's
// `@turngate/source` condition; TypeScript 6, with the compiler options tsd uses), and for each
// misuse prints the length of its first diagnostic and where that names the class or rule, then
// the lengths per test file. Every directive is written `// @ts-expect-error -- "<text>"`: it
// promises that <text>, the failure class or the rule broken, ends within the first diagnostic's
// first 200 characters (MESSAGE_LIMIT). A misuse TypeScript reports with a long type first, which
// the types cannot reorder, says so: `-- "<text>" (past the limit: <reason>)`, and is listed.
//
//   node scripts/type-messages.mjs            print every message (npm run type-messages)
//   node scripts/type-messages.mjs --check    also fail unless each promised <text> is in its message
//   node scripts/type-messages.mjs --ts7      compile with TypeScript 7 instead
//   node scripts/type-messages.mjs --check --limit 200 [part...]
//                                             also fail when a misuse promises nothing or its
//                                             promised text ends past the first diagnostic's
//                                             200th character; only test files whose name holds a part
//
// scripts/typecheck.mjs compiles the same copies in its one program (npm run check, npm test)
// and reports them with `reportMessages`, limit included: the test run fails on a misuse that
// compiles, promises nothing, or names its class past the limit without saying why.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;

/** The folder the copies are written to. */
export const MISUSE_DIR = join(root, '.bench', 'type-messages');

/**
 * Writes the copies of type-tests/*.test-d.ts with every `@ts-expect-error` switched off into
 * `out` (`<name>.ts`), and returns the misuses: the copy's file name, the line of the misuse in
 * it (1-based), and the text its directive promises ('' when none).
 *
 * @param {string} out
 * @returns {{ file: string, line: number, promised: string, pastLimit: string }[]}
 */
export function writeMisuseCopies(out) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const directive = /^(\s*)\/\/ @ts-expect-error(?: -- (.*))?$/;
  const misuses = [];
  const files = readdirSync(join(root, 'type-tests')).filter((name) => name.endsWith('.test-d.ts'));
  for (const name of files) {
    const copyName = name.replace(/\.test-d\.ts$/, '.ts');
    const lines = readFileSync(join(root, 'type-tests', name), 'utf8').split('\n');
    const copy = lines.map((line, index) => {
      const found = directive.exec(line);
      if (found === null) return line;
      const promised = /^"(.*?)"(?:\s+\(past the limit: (.+)\))?$/.exec(found[2]?.trim() ?? '');
      misuses.push({ file: copyName, line: index + 2, promised: promised?.[1] ?? '', pastLimit: promised?.[2] ?? '' });
      return `${found[1]}// (misuse) ${found[2] ?? ''}`;
    });
    writeFileSync(join(out, copyName), copy.join('\n'));
  }
  return misuses;
}

/** The most characters a misuse's first diagnostic may take before it names its class or rule. */
export const MESSAGE_LIMIT = 200;

/**
 * Prints each misuse's first diagnostic (its length, and the characters up to where it names the
 * promised class or rule) and, with `check`, whether it holds its promise. With `limit`, a misuse
 * also fails when its directive promises nothing, or when the promised text ends more than
 * `limit` characters into the first diagnostic (whitespace squashed), unless the directive says
 * why it cannot: `// @ts-expect-error -- "<text>" (past the limit: <reason>)`; those are listed. Ends with the length
 * distribution per test file. Returns how many misuses failed (no error at all, or with `check`
 * a promise not kept).
 *
 * @param {{ file: string, line: number, promised: string, pastLimit: string }[]} misuses
 * @param {Map<string, { code: string, lines: string[] }[]>} diagnostics by `<copy file name>:<line>`
 * @param {{ check: boolean, compiler: string, limit?: number, print?: (line: string) => void }} options
 */
export function reportMessages(misuses, diagnostics, { check, compiler, limit, print = console.log }) {
  const squash = (text) => text.replace(/\s+/g, ' ').trim();
  const lengths = new Map();
  const pastLimit = [];
  let longest = { length: 0 };
  let failed = 0;
  print(
    `negative type tests: ${misuses.length} (${compiler}); length = characters of the first diagnostic` +
      (limit === undefined ? '' : `; limit: the promised class or rule within its first ${limit}`),
  );
  for (const misuse of misuses) {
    const found = diagnostics.get(`${misuse.file}:${misuse.line}`) ?? [];
    const where = `${misuse.file.replace(/\.ts$/, '.test-d.ts')}:${misuse.line}`;
    if (found.length === 0) {
      failed++;
      print(`\n${where}  NO ERROR (the misuse compiles)`);
      continue;
    }
    const first = squash(`${found[0].code}: ${found[0].lines.join(' ')}`);
    const whole = found.map((d) => `${d.code}: ${d.lines.join('\n')}`).join('\n');
    const surface = misuse.file.replace(/\.ts$/, '');
    lengths.set(surface, [...(lengths.get(surface) ?? []), first.length]);
    const at = misuse.promised === '' ? -1 : first.indexOf(squash(misuse.promised));
    const reach = at < 0 ? undefined : at + squash(misuse.promised).length;
    print(`\n${where}  ${first.length} chars${reach === undefined ? '' : `, names its class at ${reach}`}`);
    print(`  ${first.length > 240 ? `${first.slice(0, 240)}...` : first}`);
    if (first.length > longest.length) longest = { length: first.length, where };
    if (!check) continue;
    if (misuse.promised !== '' && !squash(whole).includes(squash(misuse.promised))) {
      failed++;
      print(`  ^ promised: ${misuse.promised}`);
    } else if (limit !== undefined && misuse.promised === '') {
      failed++;
      print('  ^ promises nothing: write `// @ts-expect-error -- "<class or rule>"`');
    } else if (limit !== undefined && (reach === undefined || reach > limit)) {
      if (misuse.pastLimit !== '') {
        pastLimit.push(`${where} (${reach ?? 'later'}): ${misuse.pastLimit}`);
      } else {
        failed++;
        print(`  ^ "${misuse.promised}" is not within the first diagnostic's first ${limit} characters`);
      }
    }
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 === 1 ? s[(s.length - 1) / 2] : Math.round((s[s.length / 2 - 1] + s[s.length / 2]) / 2);
  };
  print('\nfirst diagnostic length by test file: count, median, max');
  const all = [];
  for (const [surface, xs] of [...lengths].sort()) {
    all.push(...xs);
    print(
      `  ${surface.padEnd(28)} ${String(xs.length).padStart(4)} ${String(median(xs)).padStart(6)} ${String(Math.max(...xs)).padStart(6)}`,
    );
  }
  if (all.length > 0) {
    print(
      `  ${'all'.padEnd(28)} ${String(all.length).padStart(4)} ${String(median(all)).padStart(6)} ${String(Math.max(...all)).padStart(6)}`,
    );
  }
  print(`longest: ${longest.length} chars at ${longest.where}`);
  if (pastLimit.length > 0) {
    print(`\nnaming the class past the limit, each with its directive's reason (${pastLimit.length}):`);
    for (const line of pastLimit) print(`  ${line}`);
  }
  return failed;
}

/** tsc's `--pretty false` output, as diagnostics by `<file name>:<line>`. */
function parseTscOutput(stdout) {
  const diagnostics = new Map();
  let current;
  for (const line of stdout.split('\n')) {
    const head = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (head !== null) {
      const key = `${head[1].split('/').pop()}:${head[2]}`;
      current = { code: head[3], lines: [head[4]] };
      diagnostics.set(key, [...(diagnostics.get(key) ?? []), current]);
    } else if (current !== undefined && line.startsWith(' ')) {
      current.lines.push(line.trim());
    }
  }
  return diagnostics;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { check: { type: 'boolean' }, ts7: { type: 'boolean' }, limit: { type: 'string' } },
  });
  const check = values.check === true;
  const ts7 = values.ts7 === true;
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const misuses = writeMisuseCopies(MISUSE_DIR).filter(
    (misuse) => positionals.length === 0 || positionals.some((part) => misuse.file.includes(part)),
  );
  writeFileSync(
    join(MISUSE_DIR, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../tsconfig.base.json',
      compilerOptions: { noEmit: true, noUnusedLocals: false, noUnusedParameters: false },
      include: ['*.ts'],
    }),
  );
  const tsc = ts7 ? 'node_modules/ts7/bin/tsc' : 'node_modules/typescript/bin/tsc';
  const run = spawnSync(
    process.execPath,
    [join(root, tsc), '-p', join(MISUSE_DIR, 'tsconfig.json'), '--pretty', 'false'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const compiler = `TypeScript ${ts7 ? '7' : '6'}`;
  const failed = reportMessages(misuses, parseTscOutput(run.stdout), { check, compiler, limit });
  if (failed > 0) {
    console.error(
      `type messages: ${failed} of ${misuses.length} negative type tests ${check ? 'do not show their promised message' : 'compile'}`,
    );
    process.exit(1);
  }
  rmSync(MISUSE_DIR, { recursive: true, force: true });
}
