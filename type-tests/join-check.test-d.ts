/**
 * Type tests of the evidence pipeline's public API. Each negative case uses
 * `@ts-expect-error`, so tsd (TypeScript 5.9/6.0) and TypeScript 7 check the same file.
 */
import { expectAssignable, expectType } from 'tsd';
import { joinCheck, describeFailureClass, type FailureClass, type JoinCheckReport } from 'turngate';
import type { EvidenceInputError } from 'turngate/evidence';
import type { NormalizedToolResult, ToolUseDisposition } from 'turngate/normalize';

const outcome = joinCheck({ evidence: {} });

// The report exists only behind the `ok` discriminant.
if (outcome.ok) {
  expectType<JoinCheckReport>(outcome.value);
  expectType<'accepted' | 'rejected'>(outcome.value.result);
  expectType<readonly FailureClass[]>(outcome.value.failureClasses);
} else {
  expectType<readonly EvidenceInputError[]>(outcome.failures);
  expectType<string | undefined>(outcome.failures[0]?.field);
}
// @ts-expect-error -- `value` is not there until `ok` is checked
outcome.value;

// Failure classes are a closed union of the spec's names.
expectAssignable<FailureClass>('tool.result_missing');
// @ts-expect-error -- an invented class name is not a FailureClass
export const invented: FailureClass = 'tool.result_lost';
describeFailureClass('mutation.policy_digest_mismatch');
// @ts-expect-error -- describeFailureClass takes only known classes
describeFailureClass('tool.result_lost');

// Result status and dispositions are literal unions.
declare const result: NormalizedToolResult;
expectType<'ok' | 'error'>(result.status);
expectAssignable<ToolUseDisposition>('discarded_with_reason');
// @ts-expect-error -- not a disposition of premath or TOOL-CALLING-HARNESS-TYPESTATE
export const unknownDisposition: ToolUseDisposition = 'used';

// Normalized lists are read-only: a report cannot be edited after the check.
declare const report: JoinCheckReport;
// @ts-expect-error -- readonly array
report.failureClasses.push('tool.result_missing');
