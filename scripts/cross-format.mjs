#!/usr/bin/env node
/**
 * The cross-format corpus: every case of conformance/transcripts that its own format can read
 * (accepted or rejected), checked under each OTHER format. A wrong-format check should come back
 * `invalid`; this counts the ones that come back `accepted` or `rejected` instead.
 *
 * A case that carries no tool structure at all (only text messages) can be the same history in
 * several formats; such cases are counted apart (`plain`) and are not wrong-format findings.
 *
 * Usage: node scripts/cross-format.mjs [--dist <dir>] [--json] [--list]
 *   --dist: the built package to measure (default ./dist; e.g. /work/main/dist for the baseline).
 *   --json: print the counts as JSON.  --list: print every non-invalid wrong-format check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The wire formats: one conformance folder each (the transcript tests hold the folders to
 * `TRANSCRIPT_FORMATS`, whose home is src/check/stop-reasons.ts, which a plain-Node script cannot import).
 */
export const FORMATS = readdirSync(join(ROOT, 'conformance', 'transcripts'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Whether a JSON value holds any tool call or tool result structure of any format. */
const TOOL_KEYS = new Set([
  'tool_calls',
  'tool_call_id',
  'tool_use_id',
  'call_id',
  'toolCallId',
  'functionCall',
  'functionResponse',
  'toolUse',
  'toolResult',
]);
const TOOL_TYPES = /^(tool_use|tool_result|server_tool_use|.*_tool_result|tool-.*|.*_call|.*_call_output)$/;
export function hasToolStructure(value) {
  if (Array.isArray(value)) return value.some(hasToolStructure);
  if (value === null || typeof value !== 'object') return false;
  for (const [key, item] of Object.entries(value)) {
    if (TOOL_KEYS.has(key)) return true;
    if (key === 'role' && (item === 'tool' || item === 'function')) return true;
    if (key === 'type' && typeof item === 'string' && TOOL_TYPES.test(item)) return true;
    if (hasToolStructure(item)) return true;
  }
  return false;
}

/** The cases of `dir` its own format reads: `{ id, format, expect, input }`. */
export function readableCases(dir = join(ROOT, 'conformance', 'transcripts')) {
  const cases = [];
  for (const format of FORMATS) {
    for (const name of readdirSync(join(dir, format))
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const testCase = JSON.parse(readFileSync(join(dir, format, name), 'utf8'));
      if (testCase.result === 'invalid') continue;
      cases.push({
        id: `${format}/${name.replace(/\.json$/, '')}`,
        format,
        expect: testCase.expect ?? 'sendable',
        input: testCase.input,
        source: testCase.result,
      });
    }
  }
  return cases;
}

/**
 * Checks every readable case under every other format with `checkTranscriptJson`.
 *
 * @returns One row per wrong-format check: case id, source format, the format checked as, the
 *   case's own result, the wrong-format result, and whether the case carries tool structure.
 */
export function crossFormat(checkTranscriptJson, cases = readableCases()) {
  const rows = [];
  for (const testCase of cases) {
    const plain = !hasToolStructure(testCase.input);
    for (const as of FORMATS) {
      if (as === testCase.format) continue;
      const report = checkTranscriptJson(testCase.input, { format: as, expect: testCase.expect });
      rows.push({
        id: testCase.id,
        from: testCase.format,
        as,
        own: testCase.source,
        result: report.result,
        plain,
        message: report.result === 'invalid' ? report.error.message : undefined,
      });
    }
  }
  return rows;
}

/** Counts of rows by result, for all rows and for the rows whose case carries tool structure. */
export function summarize(rows) {
  const count = (list) => ({
    checks: list.length,
    accepted: list.filter((r) => r.result === 'accepted').length,
    rejected: list.filter((r) => r.result === 'rejected').length,
    invalid: list.filter((r) => r.result === 'invalid').length,
  });
  const tool = rows.filter((r) => !r.plain);
  return {
    all: count(rows),
    withToolStructure: count(tool),
    plain: count(rows.filter((r) => r.plain)),
    ownRejected: count(tool.filter((r) => r.own === 'rejected')),
    byPair: Object.fromEntries(
      FORMATS.flatMap((from) =>
        FORMATS.filter((as) => as !== from).map((as) => [
          `${from} as ${as}`,
          count(tool.filter((r) => r.from === from && r.as === as)),
        ]),
      ),
    ),
  };
}

async function main(argv) {
  const distAt = argv.indexOf('--dist');
  const dist = resolve(distAt >= 0 ? argv[distAt + 1] : join(ROOT, 'dist'));
  const lib = await import(pathToFileURL(join(dist, 'esm', 'transcripts', 'index.js')).href);
  const rows = crossFormat(lib.checkTranscriptJson);
  const summary = summarize(rows);
  if (argv.includes('--json')) {
    console.log(JSON.stringify(summary, null, 2));
    return;
  }
  const line = (name, c) =>
    `${name.padEnd(34)} ${String(c.checks).padStart(5)} checks  ${String(c.accepted).padStart(4)} accepted  ${String(c.rejected).padStart(4)} rejected  ${String(c.invalid).padStart(4)} invalid`;
  console.log(`cross-format corpus, measured on ${dist}`);
  console.log(line('all wrong-format checks', summary.all));
  console.log(line('  cases with tool structure', summary.withToolStructure));
  console.log(line('    of cases their format rejects', summary.ownRejected));
  console.log(line('  text-only cases (same in formats)', summary.plain));
  for (const [pair, c] of Object.entries(summary.byPair)) {
    if (c.accepted + c.rejected > 0) console.log(line(`  ${pair}`, c));
  }
  if (argv.includes('--list')) {
    for (const r of rows)
      if (r.result !== 'invalid')
        console.log(`${r.result.padEnd(8)} ${r.id} as ${r.as}${r.plain ? ' (text only)' : ''}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
