/**
 * Type tests of the evidence pipeline's public API. Each negative case uses
 * `@ts-expect-error`, so tsd (TypeScript 5.9/6.0) and TypeScript 7 check the same file.
 */
import { expectAssignable, expectType } from 'tsd';
import { describeFailureClass, type FailureClass } from 'turngate';
import { joinCheck, type JoinCheckReport } from 'turngate/join-check';
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
// `value` is not there until `ok` is checked.
// @ts-expect-error -- "Property 'value' does not exist on type 'JoinCheckResult'"
outcome.value;

// Failure classes are a closed union of the spec's names.
expectAssignable<FailureClass>('tool.result_missing');
// An invented class name is not a FailureClass.
// @ts-expect-error -- "Type '"tool.result_lost"' is not assignable to type"
export const invented: FailureClass = 'tool.result_lost';
describeFailureClass('mutation.policy_digest_mismatch');
// describeFailureClass takes only known classes.
// @ts-expect-error -- "Argument of type '"tool.result_lost"' is not assignable to parameter"
describeFailureClass('tool.result_lost');

// Result status and dispositions are literal unions.
declare const result: NormalizedToolResult;
expectType<'ok' | 'error'>(result.status);
expectAssignable<ToolUseDisposition>('discarded_with_reason');
// Not a disposition of premath or TOOL-CALLING-HARNESS-TYPESTATE.
// @ts-expect-error -- "Type '"used"' is not assignable to type"
export const unknownDisposition: ToolUseDisposition = 'used';

// Normalized lists are read-only: a report cannot be edited after the check.
declare const report: JoinCheckReport;
expectAssignable<readonly FailureClass[]>([...report.failureClasses, 'tool.result_missing']);
// A report's lists are read-only.
// @ts-expect-error -- "Property 'push' does not exist on type 'readonly"
report.failureClasses.push('tool.result_missing');
