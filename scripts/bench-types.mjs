#!/usr/bin/env node
// npm run bench:types: the type-level cost of the builder and of typed tool results, measured
// with `tsc --extendedDiagnostics` (TypeScript 6) on generated fixtures.
//
// 1. Builder chains: 8, 32, 64, 128 literal-id tool calls (request + result + use each) through
//    `turn()` with a registry of 50 tools, then `close()`. Target: no TS2589, instantiations
//    growing at most linearly with the number of calls.
// 2. Typed results matched exhaustively with ts-pattern by tool name, for registries of 8 and 64
//    tools, against a baseline that imports the same modules and defines one tool. Reported as
//    the marginal cost per tool; the three forms (ts-pattern, a switch, matchToolResult) are
//    measured in the same run.
//
// Instantiation counts are exact and do not move with machine load: they come first. Check
// times are noisy: each fixture is checked --repeats times (default 5, interleaved with nothing
// else) and printed as median / mean.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { median } from './bench/stats.mjs';

const { values: options } = parseArgs({ options: { repeats: { type: 'string', default: '5' } } });
const REPEATS = Math.max(1, Number(options.repeats));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

const root = new URL('..', import.meta.url).pathname;
const out = join(root, '.bench', 'types');
rmSync(out, { recursive: true, force: true });

const header = `import * as v from 'valibot';\nimport { match } from 'ts-pattern';\nimport { defineTools, turn, type CallSpec, type ToolResult } from 'turngate';\n`;
const registry = (n) =>
  `const tools = defineTools({\n${Array.from({ length: n }, (_, i) => `  'tool_t${i}': { input: v.object({ a${i}: v.string() }), output: v.object({ r${i}: v.number() }) },`).join('\n')}\n});\n`;

function measure(name, source) {
  const dir = join(out, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'fixture.ts'), source);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../../tsconfig.base.json',
      compilerOptions: { noEmit: true, noUnusedLocals: false },
      files: ['fixture.ts'],
    }),
  );
  const runs = [];
  for (let k = 0; k < REPEATS; k++) {
    const r = spawnSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '--extendedDiagnostics', '-p', join(dir, 'tsconfig.json')],
      { encoding: 'utf8' },
    );
    const stat = (label) => Number((r.stdout.match(new RegExp(`^${label}:\\s+([\\d.]+)`, 'm')) ?? [])[1]);
    runs.push({
      instantiations: stat('Instantiations'),
      types: stat('Types'),
      checkMs: stat('Check time') * 1000,
      errors: r.stdout.split('\n').filter((line) => /error TS\d+/.test(line)),
    });
  }
  const first = runs[0];
  if (runs.some((run) => run.instantiations !== first.instantiations))
    console.log(`  note: ${name}: instantiation counts differ between repeats`);
  const checks = runs.map((run) => run.checkMs);
  return {
    instantiations: first.instantiations,
    types: first.types,
    checkMs: median(checks),
    checkMean: mean(checks),
    errors: first.errors,
    ts2589: first.errors.some((e) => e.includes('TS2589')),
  };
}

function chain(n) {
  let body = `${header}${registry(50)}declare const spec: CallSpec<'code'>;\nconst closed = turn(spec, tools)\n`;
  for (let i = 0; i < n; i++) body += `  .request('tc-${i}', 'tool_t${i % 50}', { a${i % 50}: 'x' })\n`;
  for (let i = 0; i < n; i++) body += `  .result('tc-${i}', { status: 'ok', output: { r${i % 50}: ${i} } })\n`;
  for (let i = 0; i < n; i++) body += `  .use('tc-${i}', 'observed')\n`;
  return `${body}  .close({ protocolState: { stopReason: 'end_turn' } });\nexport { closed };\n`;
}

/** One arm per tool name (the common form); each arm reads the typed output or the error. */
function exhaustive(n) {
  let body = `${header}${registry(n)}declare const result: ToolResult<typeof tools.definitions>;\nexport const text = match(result)\n`;
  for (let i = 0; i < n; i++)
    body += `  .with({ toolName: 'tool_t${i}' }, (r) => (r.status === 'ok' ? String(r.output.r${i}) : r.error.errorCode))\n`;
  return `${body}  .exhaustive();\n`;
}

/** The same exhaustive match as a switch on toolName with a never check. */
function exhaustiveSwitch(n) {
  let body = `${header}${registry(n)}declare const result: ToolResult<typeof tools.definitions>;\nexport function text(): string {\n  switch (result.toolName) {\n`;
  for (let i = 0; i < n; i++)
    body += `    case 'tool_t${i}': return result.status === 'ok' ? String(result.output.r${i}) : result.error.errorCode;\n`;
  return `${body}    default: { const unhandled: never = result; return unhandled; }\n  }\n}\nvoid match;\n`;
}

/** The same exhaustive match with turngate's matchToolResult (one handler per tool). */
function exhaustiveHandlers(n) {
  let body = `${header.replace('type ToolResult', 'matchToolResult, type ToolResult')}${registry(n)}declare const result: ToolResult<typeof tools.definitions>;\nexport const text = matchToolResult(result, {\n`;
  for (let i = 0; i < n; i++)
    body += `  'tool_t${i}': (r) => (r.status === 'ok' ? String(r.output.r${i}) : r.error.errorCode),\n`;
  return `${body}});\nvoid match;\n`;
}

const fmt = (x) => String(Math.round(x)).padStart(9);
console.log('builder chains (registry of 50 tools; each call = request + result + use):');
console.log(`calls  instantiations  inst/call  TS2589      types  check ms median / mean (${REPEATS} runs)`);
let previous;
for (const n of [8, 32, 64, 128]) {
  const m = measure(`chain-${n}`, chain(n));
  if (m.errors.length > 0 && !m.ts2589) console.log(`  errors: ${m.errors.slice(0, 3).join(' | ')}`);
  const slope =
    previous === undefined
      ? ''
      : ` (+${Math.round((m.instantiations - previous.m.instantiations) / (n - previous.n))}/call)`;
  console.log(
    `${String(n).padEnd(6)}${fmt(m.instantiations)}  ${fmt(m.instantiations / n)}  ${m.ts2589 ? 'YES' : 'no '}  ${fmt(m.types)}  ${fmt(m.checkMs)} / ${Math.round(m.checkMean)}${slope}`,
  );
  previous = { n, m };
}

const base = measure(
  'match-baseline',
  `${header}${registry(1)}declare const result: ToolResult<typeof tools.definitions>;\nexport { result };\n`,
);
for (const [title, make] of [
  ['ts-pattern .with({ toolName }) ... .exhaustive()', exhaustive],
  ['switch (result.toolName) with a never check', exhaustiveSwitch],
  ['turngate matchToolResult(result, { [tool]: handler })', exhaustiveHandlers],
]) {
  console.log(`\ntyped results matched exhaustively by tool name: ${title}`);
  const m8 = measure(`${make.name}-8`, make(8));
  const m64 = measure(`${make.name}-64`, make(64));
  for (const [label, m] of [
    ['baseline (1 tool, no match)', base],
    ['8 tools', m8],
    ['64 tools', m64],
  ]) {
    if (m.errors.length > 0) console.log(`  errors in ${label}: ${m.errors.slice(0, 2).join(' | ')}`);
    console.log(
      `  ${label.padEnd(28)} ${fmt(m.instantiations)} instantiations ${fmt(m.checkMs)} / ${Math.round(m.checkMean)} ms check (median / mean)`,
    );
  }
  const perTool = (m64.instantiations - m8.instantiations) / 56;
  const msPerTool = (m64.checkMs - m8.checkMs) / 56;
  console.log(
    `  marginal per tool (8 -> 64): ${Math.round(perTool)} instantiations, ${msPerTool.toFixed(2)} ms check (medians)`,
  );
}
