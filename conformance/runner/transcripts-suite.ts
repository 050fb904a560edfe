/**
 * Runner for transcript-check cases: `<suite>/<format>/<case>.json`, each with the input, the
 * expected result (`accepted`, `rejected` with the complete list of failures, or `invalid` with
 * the path of the input error) and its source. A case passes when the result matches and the
 * failures are the same set (class, rule, sorted ids, and `at` where the case gives it).
 *
 * @module
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { TRANSCRIPT_FORMATS } from '../../src/check/stop-reasons.ts';
import { checkTranscriptJson, type TranscriptFailure } from '../../src/transcripts/index.ts';
import type { VectorVerdict } from './premath-suite.ts';

const ExpectedFailure = v.strictObject({
  class: v.string(),
  rule: v.string(),
  ids: v.array(v.string()),
  at: v.optional(v.string()),
});

const CaseSchema = v.looseObject({
  format: v.picklist(TRANSCRIPT_FORMATS),
  description: v.pipe(v.string(), v.minLength(1)),
  source: v.pipe(v.string(), v.minLength(1)),
  sourceKind: v.picklist(['doc', 'observed']),
  expect: v.optional(v.picklist(['sendable', 'received'])),
  input: v.unknown(),
  result: v.picklist(['accepted', 'rejected', 'invalid']),
  failures: v.optional(v.array(ExpectedFailure)),
  invalidAt: v.optional(v.string()),
  openToolCalls: v.optional(v.array(v.string())),
});

type Case = v.InferOutput<typeof CaseSchema>;
type Expected = v.InferOutput<typeof ExpectedFailure>;

/** Whether `dir` holds transcript cases (a folder per format with `*.json` files). */
export function isTranscriptSuite(dir: string): boolean {
  return TRANSCRIPT_FORMATS.some((format) => {
    const folder = join(dir, format);
    return existsSync(folder) && statSync(folder).isDirectory() && readdirSync(folder).some((f) => f.endsWith('.json'));
  });
}

function sameFailure(expected: Expected, actual: TranscriptFailure): boolean {
  return (
    expected.class === actual.class &&
    expected.rule === actual.rule &&
    JSON.stringify([...expected.ids].sort()) === JSON.stringify(actual.ids) &&
    (expected.at === undefined || expected.at === actual.at)
  );
}

function show(failure: { rule: string; ids: readonly string[]; at?: string | undefined }): string {
  return `${failure.rule} [${failure.ids.join(', ')}]${failure.at === undefined ? '' : ` at ${failure.at}`}`;
}

/** Compares one case with the check's report; `undefined` when it passes, else what differs. */
function judge(testCase: Case): string | undefined {
  const report = checkTranscriptJson(testCase.input, {
    format: testCase.format,
    expect: testCase.expect ?? 'sendable',
  });
  if (report.result !== testCase.result) {
    const got =
      report.result === 'invalid'
        ? `invalid at ${report.error.path} (${report.error.expected})`
        : report.failures.map(show).join('; ');
    return `expected ${testCase.result}, got ${report.result}${got === '' ? '' : `: ${got}`}`;
  }
  if (report.result === 'invalid') {
    return testCase.invalidAt === undefined || testCase.invalidAt === report.error.path
      ? undefined
      : `input error at ${report.error.path}, expected at ${testCase.invalidAt}`;
  }
  const expected = testCase.failures ?? [];
  const unmatched = [...report.failures];
  const missing: Expected[] = [];
  for (const failure of expected) {
    const index = unmatched.findIndex((actual) => sameFailure(failure, actual));
    if (index < 0) missing.push(failure);
    else unmatched.splice(index, 1);
  }
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`missing ${missing.map(show).join('; ')}`);
  if (unmatched.length > 0) problems.push(`unexpected ${unmatched.map(show).join('; ')}`);
  if (testCase.openToolCalls !== undefined) {
    const open = report.openToolCalls.map((call) => call.id).sort();
    if (JSON.stringify(open) !== JSON.stringify([...testCase.openToolCalls].sort()))
      problems.push(`open calls [${open.join(', ')}], expected [${testCase.openToolCalls.join(', ')}]`);
  }
  return problems.length === 0 ? undefined : problems.join('; ');
}

/** Runs every case under `dir`, one verdict per case, in folder and file order. */
export function runTranscriptSuite(dir: string): VectorVerdict[] {
  const verdicts: VectorVerdict[] = [];
  for (const format of TRANSCRIPT_FORMATS) {
    const folder = join(dir, format);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const id = `${format}/${file.replace(/\.json$/, '')}`;
      let parsed: v.SafeParseResult<typeof CaseSchema>;
      try {
        parsed = v.safeParse(CaseSchema, JSON.parse(readFileSync(join(folder, file), 'utf8')));
      } catch (error) {
        verdicts.push({ id, passed: false, note: `unreadable case: ${(error as Error).message}` });
        continue;
      }
      if (!parsed.success) {
        const issue = parsed.issues[0];
        const path = (issue.path ?? []).map((item) => String(item.key)).join('.');
        verdicts.push({ id, passed: false, note: `malformed case: ${path} ${issue.message}` });
        continue;
      }
      const testCase = parsed.output;
      if (testCase.format !== format) {
        verdicts.push({ id, passed: false, note: `case format ${testCase.format} stands in the ${format} folder` });
        continue;
      }
      const problem = judge(testCase);
      verdicts.push({
        id,
        passed: problem === undefined,
        note: problem ?? `${testCase.result} (${testCase.expect ?? 'sendable'})`,
      });
    }
  }
  return verdicts;
}
