#!/usr/bin/env node
// Every TypeScript 6 check of the repository in one program, so the library's types are checked
// once rather than once per check: tsconfig.json's files (src/, test/, examples/, type-tests/,
// conformance/, scripts/; `turngate` resolves to src/ through the `@turngate/source` condition),
// the doc examples (scripts/check-doc-examples.mjs: every TSDoc @example and every ts block of
// README.md and docs/**/*.md compiles) and the negative type tests' messages (scripts/type-messages.mjs --check: each misuse
// is an error whose first diagnostic names the class or rule its directive promises within
// MESSAGE_LIMIT characters, or says why not).
//
//   node scripts/typecheck.mjs                        check (npm run check, npm run typecheck)
//   node scripts/typecheck.mjs --declarations dist    and write src/'s declarations into dist/
//                                                     (scripts/test.sh: the build's tsc pass, shared)
//
// The doc examples and the misuse copies are checked as their own scripts check them: without
// noUnusedLocals (and for the copies noUnusedParameters), so "declared but never read" is not
// reported in them. Exit 1 when anything fails.
import { readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import ts from 'typescript';
import { DOC_EXAMPLE_DIR, writeDocExamples } from './check-doc-examples.mjs';
import { MESSAGE_LIMIT, MISUSE_DIR, reportMessages, writeMisuseCopies } from './type-messages.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const { values } = parseArgs({ options: { declarations: { type: 'string' } } });

const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), undefined, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  },
});
const { count, markdownCount } = writeDocExamples(DOC_EXAMPLE_DIR);
const misuses = writeMisuseCopies(MISUSE_DIR);
const filesOf = (dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name));

const options = { ...parsed.options };
if (values.declarations !== undefined) {
  // Emitted paths are relative to the repository; writeFile below keeps src/'s, under the folder given.
  Object.assign(options, {
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    rootDir: root,
    outDir: join(root, '.tools', 'declarations'),
  });
}
const program = ts.createProgram({
  rootNames: [...parsed.fileNames, ...filesOf(DOC_EXAMPLE_DIR), ...filesOf(MISUSE_DIR)],
  options,
  configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
});

const diagnostics = [
  ...program.getConfigFileParsingDiagnostics(),
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...program.getSyntacticDiagnostics(),
  ...program.getSemanticDiagnostics(),
];

let written = 0;
if (values.declarations !== undefined) {
  const srcOut = join(options.outDir, 'src') + sep;
  const target = join(root, values.declarations);
  const writeFile = (fileName, text) => {
    if (!fileName.startsWith(srcOut)) throw new Error(`typecheck: unexpected declaration ${fileName}`);
    const path = join(target, fileName.slice(srcOut.length));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written++;
  };
  const src = join(root, 'src') + sep;
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(src) || file.isDeclarationFile || file.fileName.endsWith('.test.ts')) continue;
    diagnostics.push(...program.emit(file, writeFile, undefined, true).diagnostics);
  }
}

/** "declared but never read" and its kin: noUnusedLocals/noUnusedParameters, off in examples and copies. */
const UNUSED = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205]);
const inside = (dir, file) => file?.fileName.startsWith(dir + sep) === true;
const failures = [];
const messages = new Map();
for (const d of diagnostics) {
  if (inside(MISUSE_DIR, d.file)) {
    if (UNUSED.has(d.code) || d.start === undefined) continue;
    const line = d.file.getLineAndCharacterOfPosition(d.start).line + 1;
    const key = `${d.file.fileName.split(sep).pop()}:${line}`;
    const lines = ts
      .flattenDiagnosticMessageText(d.messageText, '\n')
      .split('\n')
      .map((l) => l.trim());
    messages.set(key, [...(messages.get(key) ?? []), { code: `TS${d.code}`, lines }]);
  } else if (!(inside(DOC_EXAMPLE_DIR, d.file) && UNUSED.has(d.code))) {
    failures.push(d);
  }
}

const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
if (failures.length > 0) process.stdout.write(ts.formatDiagnostics(failures, host));
const report = [];
const misusesFailed = reportMessages(misuses, messages, {
  check: true,
  limit: MESSAGE_LIMIT,
  compiler: `TypeScript ${ts.version}`,
  print: (line) => report.push(line),
});
if (misusesFailed > 0) console.log(report.join('\n'));

const files = program.getSourceFiles().filter((f) => !f.fileName.includes(`${sep}node_modules${sep}`)).length;
console.log(
  `typecheck: TypeScript ${ts.version}, one program of ${files} files: ${failures.length} errors;` +
    ` doc examples: ${count} TSDoc and ${markdownCount} Markdown (README.md, docs/) blocks;` +
    ` negative type tests: ${misuses.length - misusesFailed} of ${misuses.length} name their class or rule within ${MESSAGE_LIMIT} characters` +
    (values.declarations === undefined
      ? ''
      : `; ${written} declarations written to ${relative(root, join(root, values.declarations))}/`),
);
if (failures.length > 0 || misusesFailed > 0) {
  console.error('typecheck: failed (doc examples in .doc-examples/, misuse copies in .bench/type-messages/)');
  process.exit(1);
}
rmSync(DOC_EXAMPLE_DIR, { recursive: true, force: true });
rmSync(MISUSE_DIR, { recursive: true, force: true });
