#!/usr/bin/env node
// Runs the `//=>` value claims of the TSDoc @example blocks in src/ (and the ts blocks of
// README.md and docs/**/*.md)
// against the built package (dist/, `npm run -s build` first): each example with a literal claim
// is rewritten (scripts/doc-claims.mjs), transpiled to JavaScript into .tools/doc-claims/, and
// imported by its package name (turngate, turngate/chat, ...; the repository's own package.json
// resolves them), and each claimed value is compared with node:util's isDeepStrictEqual. A
// descriptive claim (prose, ellipses, a type) is listed, not checked; an example that declares
// its inputs (`declare const`) has no value to run and is skipped. Exit 1 when a literal claim
// does not hold (or is never reached).
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { examplesOf, markdownExamples, rewriteExample, runClaims } from './doc-claims.mjs';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, '.tools', 'doc-claims');
const verbose = process.argv.includes('--verbose');
const TIMEOUT_MS = 10_000;

if (!existsSync(join(root, 'dist', 'index.js'))) {
  console.error('doc claims: dist/ is missing; run `npm run -s build` first');
  process.exit(2);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}

function* allExamples() {
  for (const file of files(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const example of examplesOf(text)) yield { file: relative(root, file), ...example };
  }
  yield* markdownExamples(root);
}

const counts = { checked: 0, hold: 0, descriptive: 0, skipped: 0 };
const descriptive = [];
const skipped = [];
const failures = [];
const runs = [];
for (const example of allExamples()) {
  if (!example.code.includes('//=>')) continue;
  const { code, claims } = rewriteExample(example.code);
  const at = (claim) => `${example.file}:${example.bodyLine + claim.line - 1}`;
  if (/\bdeclare /.test(example.code)) {
    counts.skipped += claims.length;
    for (const claim of claims) skipped.push(`${at(claim)} ${claim.expression} //=> ${claim.claim.source}`);
    continue;
  }
  for (const claim of claims.filter((c) => c.status === 'descriptive')) {
    counts.descriptive++;
    descriptive.push(
      `${at(claim)} ${claim.expression || '(no statement)'} //=> ${claim.claim.source} [${claim.reason}]`,
    );
  }
  const checked = claims.filter((c) => c.status === 'checked');
  if (checked.length === 0) continue;
  counts.checked += checked.length;
  const name = `${example.file.replace(/[/.]/g, '_')}_${example.line}.mjs`;
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    fileName: name.replace(/\.mjs$/, '.ts'),
  }).outputText;
  writeFileSync(join(out, name), `// from ${example.file}:${example.line}\n${js}`);
  runs.push({ path: join(out, name), at, checked });
}

// Examples that write files (a session store's default .premath/) write them in a scratch directory.
const scratch = join(out, 'cwd');
mkdirSync(scratch);
process.chdir(scratch);
for (const run of runs) {
  const load = () => import(pathToFileURL(run.path).href);
  for (const result of await runClaims(run.checked, load, TIMEOUT_MS)) {
    if (result.holds) counts.hold++;
    else
      failures.push({
        at: run.at(result.claim),
        expression: result.claim.expression,
        claim: result.claim.claim.source,
        actual: result.actual,
      });
  }
}

for (const failure of failures) {
  console.error(`${failure.at}: ${failure.expression}`);
  console.error(`  claimed: ${failure.claim}`);
  console.error(`  actual:  ${failure.actual}`);
}
for (const line of descriptive) console.log(`descriptive: ${line}`);
if (verbose) for (const line of skipped) console.log(`skipped (the example declares its inputs): ${line}`);
console.log(
  `doc claims: ${counts.checked} checked, ${counts.hold} hold, ${counts.descriptive} descriptive, ${counts.skipped} skipped`,
);
if (failures.length > 0) {
  console.error(
    `doc claims: ${failures.length} literal claim(s) do not hold (rewritten examples in .tools/doc-claims/)`,
  );
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
process.exit(0);
