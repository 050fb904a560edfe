/**
 * What the Tusk harness commands share: argument parsing with one usage line on error, the
 * JSON output (premath's `--json`: sorted keys, two-space indent, final newline), the human
 * output (every line cut to a bounded length and its control characters escaped, by the one
 * helper `oneLine` of src/internal/display.ts), and the map from errors to exit codes.
 *
 * @module
 */
import type { parseArgs, ParseArgsConfig } from 'node:util';
import { parseFlags } from './args.ts';
import { prettyJson, type JsonValue } from '../canonical/index.ts';
import { oneLine, quote } from '../internal/display.ts';
import { HarnessInputError, TrajectoryTornTailError } from '../tusk/index.ts';
import { parseRfc3339 } from '../tusk/internal.ts';
import type { Result } from '../failures/index.ts';
import { firstFailure } from '../failures/internal.ts';

/** What a harness command writes and how it exits: 0 done, 1 I/O failure or a failing decision, 2 invalid input or usage. */
export interface HarnessCommandOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: 0 | 1 | 2;
}

/** The command's result on success. */
export function printed(stdout: string, exitCode: 0 | 1 = 0, stderr = ''): HarnessCommandOutput {
  return { stdout, stderr, exitCode };
}

/** `--json` output: the value with sorted keys, two-space indent, and a final newline. */
export function jsonOutput(value: JsonValue | object): string {
  return `${prettyJson(value)}\n`;
}

/**
 * Human output: each line cut to a bounded length with a marker (`… (n more characters)`) and
 * its control characters escaped ({@link oneLine}), each ended by a newline.
 *
 * @param lines - The lines, values from the input or the files included as they are.
 */
export function humanLines(lines: readonly string[]): string {
  let out = '';
  for (const line of lines) out += `${oneLine(line)}\n`;
  return out;
}

/** A usage error: exit 2 and one stderr line (bounded, escaped) pointing at the command's help. */
export function usage(command: string, message: string): HarnessCommandOutput {
  return {
    stdout: '',
    stderr: `turngate ${command}: ${oneLine(message)} (see turngate ${command} --help)\n`,
    exitCode: 2,
  };
}

/**
 * Maps a failure to its exit: invalid input (`HarnessInputError`, a torn trajectory) exits 2
 * with one `<prefix>` line naming the field and file; a file that cannot be read or written, or
 * a trajectory lock another process keeps (`ELOCKED`), exits 1; anything else is rethrown (the
 * CLI's internal error, exit 3). The line is bounded and escaped ({@link oneLine}).
 */
export function failed(prefix: string, error: unknown): HarnessCommandOutput {
  if (error instanceof HarnessInputError || error instanceof TrajectoryTornTailError) {
    return { stdout: '', stderr: `${prefix} ${oneLine(error.message)}\n`, exitCode: 2 };
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    return { stdout: '', stderr: `${prefix} ${oneLine((error as Error).message)}\n`, exitCode: 1 };
  }
  throw error;
}

/**
 * Runs a command of verbs (`turngate <command> <verb> ...`): its help for no verb or a `-h` /
 * `--help` anywhere; the verb's function with the arguments after the verb; a usage error naming
 * the verbs for any other word.
 *
 * @param command - The command (`harness-session`).
 * @param help - The command's usage text.
 * @param verbs - Each verb's function, in the order the usage error names them.
 * @param argv - The arguments after the command.
 */
export async function runVerb(
  command: string,
  help: string,
  verbs: Readonly<Record<string, (args: readonly string[]) => Promise<HarnessCommandOutput>>>,
  argv: readonly string[],
): Promise<HarnessCommandOutput> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '-h' || verb === '--help' || rest.includes('--help') || rest.includes('-h')) {
    return printed(help);
  }
  const run = Object.hasOwn(verbs, verb) ? verbs[verb] : undefined;
  if (run !== undefined) return run(rest);
  const names = Object.keys(verbs);
  return usage(command, `unknown verb \`${verb}\` (expected ${names.slice(0, -1).join(', ')} or ${names.at(-1)})`);
}

/** Parses the command's flags strictly; a parse failure is a usage error (the one failure). */
export function flags<T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  args: readonly string[],
  options: T,
): Result<ReturnType<typeof parseArgs<{ options: T; strict: true }>>['values'], HarnessCommandOutput> {
  const parsed = parseFlags(args, options);
  return parsed.ok ? parsed : { ok: false, failures: [usage(command, firstFailure(parsed))] };
}

/** Reads a flag as a whole number or a decimal number, or a usage error. */
export function numberFlag(
  command: string,
  name: string,
  value: string | undefined,
  fallback: number,
  kind: 'integer' | 'number',
): number | HarnessCommandOutput {
  if (value === undefined) return fallback;
  const pattern = kind === 'integer' ? /^\d+$/ : /^\d+(?:\.\d+)?$/;
  if (!pattern.test(value))
    return usage(
      command,
      `--${name} expects ${kind === 'integer' ? 'a whole number' : 'a number'}, received ${quote(value)}`,
    );
  return Number(value);
}

/** The clock of `--now` (an RFC 3339 timestamp), or the system clock. */
export function clockFlag(command: string, now: string | undefined): (() => Date) | HarnessCommandOutput {
  if (now === undefined) return () => new Date();
  const instant = parseRfc3339(now);
  if (instant === undefined) {
    return usage(command, `--now expects an RFC 3339 timestamp such as 2026-02-22T01:00:00Z, received ${quote(now)}`);
  }
  const date = new Date(instant.seconds * 1000 + Math.floor(instant.nanos / 1e6));
  return () => date;
}
