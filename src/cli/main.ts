#!/usr/bin/env node
/**
 * The `turngate` command line. Thin: argument parsing and I/O only.
 *
 *   turngate harness-join-check --input <file | -> [--json] [--fail-on-reject]
 *   turngate transcript-check --format <format> --input <file | -> [--json] [--expect ...] [--repair] [--fail-on-reject]
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { harnessJoinCheck, unreadableInput, type CommandOutput } from './harness-join-check.ts';
import { transcriptCheckCommand } from './transcript-check.ts';

const USAGE = `Usage: turngate harness-join-check --input <file | -> [--json] [--fail-on-reject]

Checks one tool-calling turn's evidence (HARNESS-TYPESTATE): normalizes it, decides JoinClosed,
and prints the report.

Options:
  --input <file | ->   the join-check input JSON ({ evidence, ...constraints }); - reads stdin
  --json               print premath's JSON report (byte-for-byte premath harness-join-check --json)
  --fail-on-reject     exit 1 when the report is rejected
  -h, --help           show this help

Exit codes: 0 report printed (accepted or rejected), 1 rejected with --fail-on-reject,
2 invalid input or usage (one stderr line), 3 internal error.

Also: turngate transcript-check --format <format> --input <file | -> (see transcript-check --help)
`;

function usageError(message: string): CommandOutput {
  return { stdout: '', stderr: `turngate: ${message} (see turngate --help)\n`, exitCode: 2 };
}

function run(argv: readonly string[]): CommandOutput | { stdout: string; stderr: string; exitCode: 0 } {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    return { stdout: USAGE, stderr: '', exitCode: 0 };
  }
  if (command === 'transcript-check') return transcriptCheckCommand(rest);
  if (command !== 'harness-join-check') return usageError(`unknown command \`${command}\``);
  let values: {
    input?: string | undefined;
    json?: boolean | undefined;
    'fail-on-reject'?: boolean | undefined;
    help?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      args: [...rest],
      options: {
        input: { type: 'string' },
        json: { type: 'boolean' },
        'fail-on-reject': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return usageError((error as Error).message.split('\n')[0] ?? 'invalid arguments');
  }
  if (values.help === true) return { stdout: USAGE, stderr: '', exitCode: 0 };
  const input = values.input;
  if (input === undefined || input === '') return usageError('--input <file | -> is required');
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(input === '-' ? 0 : input);
  } catch (error) {
    const err = error as Error;
    return unreadableInput(input, err.message);
  }
  return harnessJoinCheck(bytes, {
    json: values.json === true,
    failOnReject: values['fail-on-reject'] === true,
    inputLabel: input,
  });
}

let output: { stdout: string; stderr: string; exitCode: number };
try {
  output = run(process.argv.slice(2));
} catch (error) {
  output = {
    stdout: '',
    stderr: `turngate: internal error: ${String((error as Error)?.message ?? error).split('\n')[0]}\n`,
    exitCode: 3,
  };
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
