#!/usr/bin/env node
// The public surface, counted: the names each entry point of package.json's `exports` exports
// (read with the TypeScript API from the entry's source, `@turngate/source`), the distinct names
// over all entries, and the chat user's reading path (root + /transcripts + /chat + one adapter,
// the OpenAI Chat Completions one; and with `turngate/adapters`, the loop's shared names, when that
// entry exists). A namespace export (`export * as anthropic`) counts as one name of its entry.
//
//   node scripts/export-counts.mjs                  print the counts
//   node scripts/export-counts.mjs --json FILE      and write { entry: [names] } to FILE
//   node scripts/export-counts.mjs --moves FILE     and print the migration table (markdown): every
//                                                   name of FILE (an earlier --json) whose entry
//                                                   changed, old import -> new import
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const { values } = parseArgs({ options: { json: { type: 'string' }, moves: { type: 'string' } } });
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** `turngate/chat` -> `src/chat/index.ts`. */
const entries = new Map();
for (const [subpath, target] of Object.entries(manifest.exports)) {
  if (typeof target === 'string') continue; // ./package.json
  entries.set(subpath === '.' ? 'turngate' : `turngate/${subpath.slice(2)}`, join(root, target['@turngate/source']));
}

const config = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile).config;
const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, root);
const program = ts.createProgram({ rootNames: [...entries.values()], options: { ...options, noEmit: true } });
const checker = program.getTypeChecker();

/** Entry -> its exported names, sorted. */
const surface = {};
/** Name -> where it is now, `[entry, how it is written]` (`anthropic.AnthropicMessage` in a namespace). */
const reached = new Map();
const reach = (name, entry, written) => reached.set(name, [...(reached.get(name) ?? []), [entry, written]]);
for (const [entry, file] of entries) {
  const source = program.getSourceFile(file);
  const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (symbol === undefined) throw new Error(`${entry}: ${file} is not a module`);
  const exported = checker.getExportsOfModule(symbol);
  surface[entry] = exported.map((s) => s.name).sort();
  for (const s of exported) {
    reach(s.name, entry, s.name);
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    if (target.flags & ts.SymbolFlags.ValueModule)
      // `export * as anthropic from ...`: a namespace
      for (const member of checker.getExportsOfModule(target)) reach(member.name, entry, `${s.name}.${member.name}`);
  }
}

const chatPath = ['turngate', 'turngate/transcripts', 'turngate/chat', 'turngate/adapters/openai-chat'];
/** The distinct names of some entries (a name exported from two of them counts once). */
const distinct = (list) => new Set(list.flatMap((entry) => surface[entry] ?? [])).size;

const width = Math.max(...Object.keys(surface).map((e) => e.length));
for (const [entry, names] of Object.entries(surface)) console.log(`${entry.padEnd(width)}  ${names.length}`);
const total = Object.values(surface).reduce((sum, names) => sum + names.length, 0);
console.log(`${'names over all entries'.padEnd(width)}  ${total}`);
console.log(`${'distinct names'.padEnd(width)}  ${distinct(Object.keys(surface))}`);
console.log(
  `${'chat reading path'.padEnd(width)}  ${distinct(chatPath.filter((e) => e in surface))} (${chatPath.join(' + ')}, distinct)`,
);
if ('turngate/adapters' in surface) {
  const withShared = [...chatPath, 'turngate/adapters'];
  console.log(`${'  with turngate/adapters'.padEnd(width)}  ${distinct(withShared)} (the loop's shared names)`);
}

if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(surface, null, 2)}\n`);

if (values.moves !== undefined) {
  /** @type {Record<string, string[]>} */
  const before = JSON.parse(readFileSync(values.moves, 'utf8'));
  const rows = [];
  for (const [entry, names] of Object.entries(before)) {
    for (const name of names) {
      const there = reached.get(name) ?? [];
      if (there.some(([e, written]) => e === entry && written === name)) continue;
      const to = there.map(([e, written]) => (written === name ? `\`${e}\`` : `\`${e}\` (\`${written}\`)`));
      rows.push([name, entry, to.length === 0 ? '(removed)' : to.join(', ')]);
    }
  }
  // One row per name and destination: the five adapters' shared names are one row each.
  const merged = new Map();
  for (const [name, from, to] of rows) {
    const key = `${name}\0${to}`;
    merged.set(key, [name, [...(merged.get(key)?.[1] ?? []), from], to]);
  }
  const table = [...merged.values()].map(([name, froms, to]) => [name, froms.map((f) => `\`${f}\``).join(', '), to]);
  table.sort((a, b) => a[1].localeCompare(b[1]) || a[2].localeCompare(b[2]) || a[0].localeCompare(b[0]));
  console.log('\n| name | old import | new import |\n| --- | --- | --- |');
  for (const [name, from, to] of table) console.log(`| \`${name}\` | ${from} | ${to} |`);
}
