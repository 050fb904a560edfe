/**
 * The `harness-join-check` command, as a pure function from input bytes to output text.
 *
 * @module
 */
import { idList } from './args.ts';
import { joinCheckText, renderJoinCheckJson } from '../check/index.ts';
import type { JoinCheckReport } from '../check/index.ts';
import { oneLine, QUOTE_LIMIT } from '../internal/display.ts';
import { describeLimit } from './read-input.ts';

/** What a command writes and how it exits. */
export interface CommandOutput {
  /** Text for standard output. */
  readonly stdout: string;
  /** Text for standard error (one line, or empty). */
  readonly stderr: string;
  /** The exit code: 0 report printed, 1 rejected under `--fail-on-reject`, 2 invalid input or usage, 3 internal error. */
  readonly exitCode: 0 | 1 | 2 | 3;
}

/** Options of {@link harnessJoinCheck}. */
export interface HarnessJoinCheckOptions {
  /** Print premath's JSON report instead of the summary. */
  readonly json: boolean;
  /** Exit 1 when the report is rejected. */
  readonly failOnReject: boolean;
  /** How the input is named in the summary and in errors (a path, or `-`); shown escaped. */
  readonly inputLabel: string;
}

/** The prefix of every input-error line, as premath writes it. */
export const INVALID_PREFIX = 'harness_join_check_invalid:';

/**
 * The human-readable summary: result, then each failure class with the ids that caused it.
 * Values from the input (the label, ids, quoted values in explanations) are shown with control
 * characters escaped, an id cut after 200 characters and other text after 1,000, so
 * every entry stays on its line and nothing reaches the terminal as an escape sequence.
 *
 * @param report - A join-check report.
 * @param inputLabel - How to name the input.
 * @returns Lines ending in `\n`.
 */
export function renderJoinCheckSummary(report: JoinCheckReport, inputLabel: string): string {
  const lines = [
    'turngate harness-join-check',
    `  Input: ${oneLine(inputLabel)}`,
    `  Result: ${report.result}`,
    `  Join-set digest: ${report.witness.digests.joinSetDigest}`,
  ];
  if (report.extended !== undefined) {
    lines.push(`  Profile: ${report.profile}`, `  Turn digest: ${report.extended.witness.turnDigest}`);
    if (report.extended.mutationReady !== undefined) lines.push(`  MutationReady: ${report.extended.mutationReady}`);
  }
  lines.push(`  Failure Classes: ${report.failures.length}`);
  for (const failure of report.failures) {
    const ids = failure.ids === undefined ? '' : ` [${idList(failure.ids.map((id) => oneLine(id, QUOTE_LIMIT)))}]`;
    lines.push(`  - ${failure.class}${ids}: ${oneLine(failure.detail)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Runs `harness-join-check` on input bytes: the JSON report (byte-for-byte premath's) or a
 * summary; input premath refuses gives exit 2 and one stderr line starting
 * `harness_join_check_invalid:` that names the field and what was expected.
 *
 * @param input - The input file's bytes (or text).
 * @param options - Output options.
 * @returns What to print and the exit code.
 */
export function harnessJoinCheck(input: Uint8Array | string, options: HarnessJoinCheckOptions): CommandOutput {
  const outcome = joinCheckText(input);
  if (!outcome.ok) {
    // premath's message for a top-level array is serde's (a struct may be written as an array of its
    // fields in order); say what the input is, so `[]` does not read like a missing field.
    const shape = topLevelArray(input) ? ' (the input is a JSON array: expected an object { "evidence": ... })' : '';
    return {
      stdout: '',
      stderr: `${INVALID_PREFIX} ${oneLine(outcome.failures.map((error) => error.message).join('; '))}${shape} (input ${oneLine(options.inputLabel)})\n`,
      exitCode: 2,
    };
  }
  const report = outcome.value;
  const stdout = options.json ? renderJoinCheckJson(report) : renderJoinCheckSummary(report, options.inputLabel);
  return { stdout, stderr: '', exitCode: options.failOnReject && report.result === 'rejected' ? 1 : 0 };
}

/** Whether the input's first non-whitespace byte opens an array. */
function topLevelArray(input: Uint8Array | string): boolean {
  for (let i = 0; i < input.length; i++) {
    const c = typeof input === 'string' ? input.charCodeAt(i) : (input[i] ?? 0);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x5b;
  }
  return false;
}

/**
 * The input-error result for an input that could not be read.
 *
 * @param inputLabel - The path given.
 * @param reason - Why it could not be read.
 * @returns Exit 2 with one stderr line.
 */
export function unreadableInput(inputLabel: string, reason: string): CommandOutput {
  return {
    stdout: '',
    stderr: `${INVALID_PREFIX} failed to read input ${oneLine(inputLabel)}: ${oneLine(reason)}\n`,
    exitCode: 2,
  };
}

/**
 * The input-error result for an input larger than the limit.
 *
 * @param inputLabel - The path given.
 * @param maxBytes - The limit in bytes.
 * @returns Exit 2 with one stderr line naming the limit and the option that raises it.
 */
export function inputTooLarge(inputLabel: string, maxBytes: number): CommandOutput {
  return {
    stdout: '',
    stderr: `${INVALID_PREFIX} input ${oneLine(inputLabel)} is larger than the input limit of ${describeLimit(maxBytes)}; raise the limit with --max-input-bytes\n`,
    exitCode: 2,
  };
}
