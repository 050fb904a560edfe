/**
 * The typed error for input that is not a well-formed turn: the one kind of fault the join
 * check reports instead of a failure class (premath exits 2 on it).
 *
 * @module
 */
import { excerpt } from '../internal/display.ts';

/** How much of the field path and of the explanation the message quotes (the properties keep them whole). */
const MESSAGE_PART_LIMIT = 500;

/**
 * Evidence that cannot be read as a turn: a missing or blank required field, a value of the
 * wrong type, an unknown enum value, a repeated field, conflicting duplicate rows, or JSON
 * text that does not parse. Evidence that reads but does not close is not this error: it is a
 * rejected report with failure classes.
 *
 * Source: premath `harness-join-check` (exit 2, `harness_join_check_invalid:`).
 *
 * @example
 * ```ts
 * import { joinCheck } from 'turngate/join-check';
 * const outcome = joinCheck({ evidence: {} });
 * if (!outcome.ok) outcome.failures[0]?.field; //=> 'evidence.callSpec'
 * ```
 */
export class EvidenceInputError extends Error {
  /** The path of the offending field, e.g. `evidence.toolRequests[1].toolName`; `''` for the whole input. */
  readonly field: string;
  /** What was expected there, in words (e.g. `a non-blank string`). */
  readonly expected: string;
  /**
   * Creates an evidence input error. The message quotes at most 500 characters of the field
   * path and of the explanation (an input value quoted in either is cut with a count of what
   * was left out); {@link EvidenceInputError.field} and {@link EvidenceInputError.expected} keep
   * them whole.
   *
   * @param field - The path of the offending field.
   * @param expected - What was expected, and what was found when it helps.
   */
  constructor(field: string, expected: string) {
    const what = excerpt(expected, MESSAGE_PART_LIMIT);
    super(field === '' ? what : `${excerpt(field, MESSAGE_PART_LIMIT)}: ${what}`);
    this.name = 'EvidenceInputError';
    this.field = field;
    this.expected = expected;
  }
}
