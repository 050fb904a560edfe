/**
 * Runner for suites in premath's harness-typestate format: `manifest.json` listing vector ids,
 * each `<id>/case.json` (`input`: the join-check input) and `<id>/expect.json`.
 *
 * `expect.json` fields: `result` (`accepted | rejected`, or `invalid` for input the check must
 * refuse: an extension of ours), `expectedFailureClasses`, `expectedJoinClosed`; ours may add
 * `expectedInvalidField` (the field an `invalid` vector names), `expectedNormalized` (a
 * subset the normalized evidence must contain, for normalization rules) and `expectedExtended`
 * (a subset the report's extended section must contain, for extended-profile vectors).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../src/canonical/index.ts';
import { joinCheck, renderJoinCheckJson } from '../../src/check/check.ts';
import { ManifestSchema, messageOf, PremathCaseSchema, PremathExpectSchema, readPremathJson } from './fixtures.ts';
import { subsetMismatch } from './subset.ts';

/** The verdict on one vector. */
export interface VectorVerdict {
  readonly id: string;
  readonly passed: boolean;
  /** What matched, or what did not. */
  readonly note: string;
}

/** A value as plain JSON (JsonNumber leaves as numbers), for comparing with a fixture's. */
function plain(value: Parameters<typeof canonicalJson>[0]): unknown {
  return JSON.parse(canonicalJson(value));
}

/** Checks one vector; a malformed case.json or expect.json throws a FixtureError. */
function checkVector(suiteDir: string, id: string, referenceDir: string | undefined): VectorVerdict {
  const fail = (note: string): VectorVerdict => ({ id, passed: false, note });
  const testCase = readPremathJson(PremathCaseSchema, join(suiteDir, id, 'case.json'));
  const expect = readPremathJson(PremathExpectSchema, join(suiteDir, id, 'expect.json'));
  const outcome = joinCheck(testCase.input);
  const expectedResult = expect.result;
  if (!outcome.ok) {
    if (expectedResult !== 'invalid')
      return fail(`input refused (${outcome.failures[0]?.message}), expected ${String(expectedResult)}`);
    const field = expect.expectedInvalidField;
    if (field !== undefined && field !== outcome.failures[0]?.field) {
      return fail(`refused on field \`${outcome.failures[0]?.field}\`, expected \`${String(field)}\``);
    }
    return { id, passed: true, note: `invalid (${outcome.failures[0]?.field})` };
  }
  const { value: report } = outcome;
  if (expectedResult === 'invalid') return fail(`report ${report.result}, expected the input to be refused`);
  if (report.result !== expectedResult) return fail(`result ${report.result}, expected ${String(expectedResult)}`);
  const classes = plain(expect.expectedFailureClasses);
  if (JSON.stringify(report.failureClasses) !== JSON.stringify(classes)) {
    return fail(`failure classes ${JSON.stringify(report.failureClasses)}, expected ${JSON.stringify(classes)}`);
  }
  if (report.joinClosed !== expect.expectedJoinClosed) {
    return fail(`joinClosed ${report.joinClosed}, expected ${String(expect.expectedJoinClosed)}`);
  }
  const expectedNormalized = expect.expectedNormalized;
  if (expectedNormalized !== undefined) {
    const miss = subsetMismatch(plain(expectedNormalized), plain(report.normalized), 'normalized');
    if (miss !== undefined) return fail(`${miss} differs from expectedNormalized`);
  }
  const expectedExtended = expect.expectedExtended;
  if (expectedExtended !== undefined) {
    const miss = subsetMismatch(plain(expectedExtended), plain(report.extended ?? null), 'extended');
    if (miss !== undefined) return fail(`${miss} differs from expectedExtended`);
  }
  let note = `${report.result} ${JSON.stringify(report.failureClasses)}`;
  if (referenceDir !== undefined) {
    let reference: Buffer;
    try {
      reference = readFileSync(join(referenceDir, `${id}.json`));
    } catch (error) {
      return fail(`no reference output: ${messageOf(error)}`);
    }
    const rendered = Buffer.from(renderJoinCheckJson(report), 'utf8');
    if (!rendered.equals(reference)) {
      let at = 0;
      while (at < rendered.length && rendered[at] === reference[at]) at++;
      return fail(
        `--json output differs from the reference at byte ${at} (${rendered.length} vs ${reference.length} bytes)`,
      );
    }
    note += `, ${rendered.length} bytes identical to the reference`;
  }
  return { id, passed: true, note };
}

/**
 * Runs every vector a premath-format suite's `manifest.json` lists.
 *
 * @param suiteDir - The folder holding `manifest.json`.
 * @param referenceDir - A folder of `<vectorId>.json` reference outputs to compare bytes with.
 * @returns One verdict per vector, in manifest order.
 * @throws FixtureError when the manifest, a case.json or an expect.json is malformed.
 */
export function runPremathSuite(suiteDir: string, referenceDir?: string): VectorVerdict[] {
  const manifest = readPremathJson(ManifestSchema, join(suiteDir, 'manifest.json'));
  return manifest.vectors.map((id) => checkVector(suiteDir, id, referenceDir));
}
