/**
 * Runner for transcript-check cases: `<suite>/<format>/<case>.json`, each with the input, the
 * expected result (`accepted`, `rejected` with the complete list of failures, or `invalid` with
 * the path of the input error) and its source. A case passes when the result matches and the
 * failures are the same set (class, rule, sorted ids, and `at` where the case gives it).
 *
 * @module
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type * as v from 'valibot';
import { TRANSCRIPT_FORMATS } from '../../src/check/stop-reasons.ts';
import { checkTranscriptJson, type TranscriptFailure } from '../../src/transcripts/index.ts';
import { type ExpectedFailureSchema, FixtureError, readJsonFixture, TranscriptCaseSchema } from './fixtures.ts';
import type { VectorVerdict } from './premath-suite.ts';

type Case = v.InferOutput<typeof TranscriptCaseSchema>;
type Expected = v.InferOutput<typeof ExpectedFailureSchema>;

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
    ...(testCase.dialect === undefined ? {} : { dialect: testCase.dialect }),
  });
  if (report.result !== testCase.result) {
    const got =
      report.result === 'invalid'
        ? `invalid at ${report.error.field} (${report.error.expected})`
        : report.failures.map(show).join('; ');
    return `expected ${testCase.result}, got ${report.result}${got === '' ? '' : `: ${got}`}`;
  }
  if (report.result === 'invalid') {
    return testCase.invalidAt === undefined || testCase.invalidAt === report.error.field
      ? undefined
      : `input error at ${report.error.field}, expected at ${testCase.invalidAt}`;
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

/** Runs every case under `dir`, one verdict per case, in folder and file order; a malformed case throws a FixtureError. */
export function runTranscriptSuite(dir: string): VectorVerdict[] {
  const verdicts: VectorVerdict[] = [];
  for (const format of TRANSCRIPT_FORMATS) {
    const folder = join(dir, format);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const id = `${format}/${name.replace(/\.json$/, '')}`;
      const file = join(folder, name);
      const testCase = readJsonFixture(TranscriptCaseSchema, file);
      if (testCase.format !== format)
        throw new FixtureError(file, 'format', `expected "${format}" (the folder it is in), got "${testCase.format}"`);
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
