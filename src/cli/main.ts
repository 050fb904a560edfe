#!/usr/bin/env node
/**
 * The `turngate` command line. Thin: argument parsing and I/O only.
 *
 *   turngate transcript-check --format <format> --input <file | -> [--json] [--expect ...] [--repair] [--fail-on-reject]
 *   turngate transcript-convert --from <format> --to <format> --input <file | -> [--json] ...
 *   turngate harness-join-check --input <file | -> [--json] [--fail-on-reject] [--max-input-bytes <n>]
 *   turngate harness-session write|read|bootstrap ...
 *   turngate harness-trajectory append|query|repair ...
 *   turngate harness-kpi ...
 *
 * @module
 */
import { createRequire } from 'node:module';
import { oneLine } from '../internal/display.ts';
import { parseFlags } from './args.ts';
import type { CommandOutput } from './harness-join-check.ts';
import { DEFAULT_MAX_INPUT_BYTES, describeLimit, parseByteLimit, readInput } from './read-input.ts';
import { firstFailure } from '../failures/internal.ts';

/** `turngate --help`: the commands, the ones a provider loop reaches for first on top. */
const USAGE = `Usage: turngate <command> [options]   (turngate <command> --help for its options)

Before a model call: check, repair or convert a provider transcript (the formats: see
transcript-check --help):
  turngate transcript-check --format <format> --input <file | -> [--repair] [--json]
                       checks a history against the provider's rules for tool calls and
                       results; exit 1 when rejected, --repair prints a repaired history
  turngate transcript-convert --from <format> --to <format> --input <file | -> [--json]
                       moves a history to another provider's format

After a turn: the join check of one turn's evidence (HARNESS-TYPESTATE):
  turngate harness-join-check --input <file | -> [--json] [--fail-on-reject] [--max-input-bytes <n>]
                       decides JoinClosed and prints the report (--json: premath's bytes)

The Tusk harness, for long-running work:
  turngate harness-session write|read|bootstrap   the session handoff artifact
  turngate harness-trajectory append|query|repair the append-only step trajectory
  turngate harness-kpi                             the multithread throughput KPI

  -h, --help           show this help
  -v, --version        print turngate's version

Exit codes: 0 done; 1 as the command's --help says (a transcript the provider would refuse, a
turn rejected under --fail-on-reject, a file that could not be read); 2 invalid input or usage
(one stderr line); 3 internal error (one stderr line).
`;

/** `turngate harness-join-check --help`. */
const JOIN_CHECK_USAGE = `Usage: turngate harness-join-check --input <file | -> [--json] [--fail-on-reject] [--max-input-bytes <n>]

Checks one tool-calling turn's evidence (HARNESS-TYPESTATE): normalizes it, decides JoinClosed,
and prints the report.

Options:
  --input <file | ->   the join-check input JSON ({ evidence, ...constraints }); - reads stdin
  --json               print premath's JSON report (byte-for-byte premath harness-join-check --json)
  --fail-on-reject     exit 1 when the report is rejected
  --max-input-bytes <n>
                       refuse input larger than n bytes (suffix K, M or G for KiB, MiB,
                       GiB); default ${describeLimit(DEFAULT_MAX_INPUT_BYTES)}
  -h, --help           show this help

Exit codes: 0 report printed (accepted or rejected), 1 rejected with --fail-on-reject,
2 invalid input or usage (one stderr line), 3 internal error (one stderr line).

The other commands: turngate --help.
`;

/** The installed package's version: `dist/cli/` (the bundle or the module) is two levels below its package.json. */
function packageVersion(): string {
  const manifest: unknown = createRequire(import.meta.url)('../../package.json');
  const version =
    manifest !== null && typeof manifest === 'object' ? (manifest as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : 'unknown';
}

function usageError(message: string): CommandOutput {
  return { stdout: '', stderr: `turngate: ${oneLine(message)} (see turngate --help)\n`, exitCode: 2 };
}

function internalError(error: unknown): CommandOutput {
  const message = error instanceof Error ? error.message : String(error);
  return { stdout: '', stderr: `turngate: internal error: ${oneLine(message)}\n`, exitCode: 3 };
}

async function run(argv: readonly string[]): Promise<CommandOutput> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    return { stdout: USAGE, stderr: '', exitCode: 0 };
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    return { stdout: `turngate ${packageVersion()}\n`, stderr: '', exitCode: 0 };
  }
  // Each command's module loads when it runs: `--help` and one command do not pay for the others.
  if (command === 'transcript-check') return (await import('./transcript-check.ts')).transcriptCheckCommand(rest);
  if (command === 'transcript-convert') return (await import('./transcript-convert.ts')).transcriptConvertCommand(rest);
  if (command === 'harness-session') return (await import('./harness-session.ts')).harnessSessionCommand(rest);
  if (command === 'harness-trajectory') return (await import('./harness-trajectory.ts')).harnessTrajectoryCommand(rest);
  if (command === 'harness-kpi') return (await import('./harness-kpi.ts')).harnessKpiCommand(rest);
  if (command !== 'harness-join-check') return usageError(`unknown command \`${command}\``);
  const parsed = parseFlags(rest, {
    input: { type: 'string' },
    json: { type: 'boolean' },
    'fail-on-reject': { type: 'boolean' },
    'max-input-bytes': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (!parsed.ok) return usageError(firstFailure(parsed));
  const values = parsed.value;
  if (values.help === true) return { stdout: JOIN_CHECK_USAGE, stderr: '', exitCode: 0 };
  const input = values.input;
  if (input === undefined || input === '') return usageError('--input <file | -> is required');
  let maxBytes = DEFAULT_MAX_INPUT_BYTES;
  if (values['max-input-bytes'] !== undefined) {
    const limit = parseByteLimit(values['max-input-bytes']);
    if (!limit.ok) return usageError(firstFailure(limit));
    maxBytes = limit.value;
  }
  const { harnessJoinCheck, inputTooLarge, unreadableInput } = await import('./harness-join-check.ts');
  const read = await readInput(input, maxBytes);
  if (!read.ok) {
    const problem = firstFailure(read);
    return problem.tooLarge ? inputTooLarge(input, maxBytes) : unreadableInput(input, problem.reason);
  }
  return harnessJoinCheck(read.value, {
    json: values.json === true,
    failOnReject: values['fail-on-reject'] === true,
    inputLabel: input,
  });
}

// Whatever escapes (a bug, not bad input) is one stderr line and exit 3, never a stack trace.
process.on('uncaughtException', (error) => {
  process.stderr.write(internalError(error).stderr);
  process.exit(3);
});
let output: CommandOutput;
try {
  output = await run(process.argv.slice(2));
} catch (error) {
  output = internalError(error);
}
// A reader that closes the pipe early (`| head`) wants no more output: stop quietly, keeping the
// exit code, instead of dying on an unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit();
    process.stderr.write(`turngate: cannot write output: ${error.message}\n`);
    process.exit(3);
  });
}
// Write and let the event loop drain: process.exit() could cut a large report off a pipe.
if (output.stderr !== '') process.stderr.write(output.stderr);
if (output.stdout !== '') process.stdout.write(output.stdout);
process.exitCode = output.exitCode;
