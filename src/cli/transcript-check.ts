/**
 * The `transcript-check` command: a provider transcript checked (and optionally repaired) from
 * a file or standard input.
 *
 *   turngate transcript-check --format <anthropic|openai-chat|openai-responses|aisdk|gemini|bedrock-converse|chat>
 *     --input <file | -> [--json] [--expect sendable|received] [--model <id>]
 *     [--dialect <deepseek|kimi|groq|xai>] [--repair [--read-only-tools <names>]] [--report-only]
 *
 * @module
 */
import { oneLine } from '../internal/display.ts';
import { idList, parseFlags } from './args.ts';
import { DEFAULT_MAX_INPUT_BYTES, describeLimit, parseByteLimit, readInput } from './read-input.ts';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../check/index.ts';
import { checkTranscriptJson, type TranscriptReport } from '../transcripts/index.ts';
import { OPENAI_CHAT_DIALECTS, type OpenAIChatDialect } from '../transcripts/internal.ts';
import { repairTranscriptJson, type RepairResult } from '../transcripts/index.ts';
import type { CommandOutput } from './harness-join-check.ts';
import { firstFailure } from '../failures/internal.ts';
import type { Result } from '../failures/index.ts';

/** The prefix of every input-error line. */
export const TRANSCRIPT_INVALID_PREFIX = 'transcript_check_invalid:';

/** Usage of the command. */
export const TRANSCRIPT_CHECK_USAGE = `Usage: turngate transcript-check --format <format> --input <file | -> [--json]
         [--expect sendable|received] [--model <id>] [--dialect <dialect>]
         [--repair [--read-only-tools <names>]]
         [--report-only] [--max-input-bytes <n>]

Checks a provider transcript against the provider's rules for tool calls and tool results:
every call answered, no orphan result, results where the provider needs them.

Options:
  --format <format>    ${TRANSCRIPT_FORMATS.join(' | ')}
  --input <file | ->   a JSON array of messages (items, contents), or a request body holding
                       them in messages, input or contents; - reads stdin
  --expect <when>      sendable (default: about to be sent) or received (the model's last
                       message may hold open calls)
  --model <id>         the model the transcript goes to, for rules that hold only for some
                       models (default: the request body's model)
  --dialect <dialect>  openai-chat only: the provider the history goes to, whose own rules
                       run too: ${OPENAI_CHAT_DIALECTS.join(' | ')}
  --repair             also print the repaired transcript and one record per change; a result
                       synthesized for a call without one says its outcome is unknown
  --read-only-tools <names>  comma-separated tools whose calls change nothing: their
                       synthesized results say the call can be retried
  --json               print {"result", "failures", "openToolCalls"[, "repaired", "repairs"]}
  --report-only        exit 0 for a rejected transcript too (the report is printed either way)
  --fail-on-reject     exit 1 when the transcript is rejected (the default; kept for scripts)
  --max-input-bytes <n>  the input size limit, in bytes (K, M, G suffixes); default 64M
  -h, --help           show this help

Exit codes: 0 accepted (or rejected under --report-only), 1 rejected (also when --repair
repaired it: the verdict is on the input), 2 input that is not a transcript of the format
(including a history of another format, named in the line), or bad usage (one stderr line).
`;

/** Text from the input on one line of human output: bounded, control characters escaped. */
const printable = (text: string): string => oneLine(text);

/**
 * JSON text of a library value, as `JSON.stringify(value, null, 2)`: what a script that calls the
 * library and prints its result writes, byte for byte.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A command's input read as plain JSON, as a library user reads it: UTF-8 text (a byte-order
 * mark is not stripped, so it is refused as JSON.parse refuses it) through `JSON.parse`, numbers
 * as numbers, a repeated key keeping its last value. The lossless parser stays the join check's:
 * the transcripts layer takes plain values, and the CLI must give the library's answer.
 *
 * @param input - The input's bytes (or text).
 * @returns The value, or `failures` holding the reason it is not JSON.
 */
export function readJson(input: Uint8Array | string): Result<unknown, string> {
  try {
    return { ok: true, value: JSON.parse(typeof input === 'string' ? input : UTF8.decode(input)) };
  } catch (error) {
    if (error instanceof TypeError) return { ok: false, failures: ['not JSON: input is not valid UTF-8'] };
    if (error instanceof SyntaxError) return { ok: false, failures: [`not JSON: ${error.message}`] };
    throw error;
  }
}

/** Exit 2 with one stderr line `<prefix> <detail> (input <label>)`. */
export function invalidInput(detail: string, label: string, prefix = TRANSCRIPT_INVALID_PREFIX): CommandOutput {
  return {
    stdout: '',
    stderr: `${prefix} ${printable(detail)} (input ${printable(label)})\n`,
    exitCode: 2,
  };
}

/** A `--format`-like flag's value: one of `TRANSCRIPT_FORMATS`. */
export function formatFlag(value: unknown, flag: string): Result<TranscriptFormat, string> {
  if (typeof value === 'string' && (TRANSCRIPT_FORMATS as readonly string[]).includes(value))
    return { ok: true, value: value as TranscriptFormat };
  return { ok: false, failures: [`--${flag} must be one of ${TRANSCRIPT_FORMATS.join(', ')}`] };
}

/** `--model`: absent, or a model id. */
export function modelFlag(value: unknown): Result<string | undefined, string> {
  if (value === undefined || (typeof value === 'string' && value.trim() !== '')) return { ok: true, value };
  return { ok: false, failures: ['--model takes a model id (e.g. claude-sonnet-4-5, gemini-3-pro-preview)'] };
}

/** `--read-only-tools`: comma-separated tool names; with `requires`, only beside that flag (`allowed`). */
export function readOnlyToolsFlag(
  value: unknown,
  allowed = true,
  requires?: string,
): Result<readonly string[] | undefined, string> {
  if (typeof value !== 'string') return { ok: true, value: undefined };
  const names = value.split(',').map((name) => name.trim());
  if (!allowed || names.some((name) => name === ''))
    return {
      ok: false,
      failures: [
        `--read-only-tools takes comma-separated tool names${requires === undefined ? '' : `, with ${requires}`}`,
      ],
    };
  return { ok: true, value: names };
}

/** Why a transcript input could not be read: bad usage (`--max-input-bytes`), or the input itself. */
export interface TranscriptInputProblem {
  readonly usage: boolean;
  readonly detail: string;
}

/** Reads `--input` under `--max-input-bytes` (default 64M). */
export async function readTranscriptInput(
  input: string,
  limitText: unknown,
): Promise<Result<Uint8Array, TranscriptInputProblem>> {
  let maxBytes = DEFAULT_MAX_INPUT_BYTES;
  if (typeof limitText === 'string') {
    const limit = parseByteLimit(limitText);
    if (!limit.ok) return { ok: false, failures: [{ usage: true, detail: firstFailure(limit) }] };
    maxBytes = limit.value;
  }
  const read = await readInput(input, maxBytes);
  if (read.ok) return read;
  const problem = firstFailure(read);
  return {
    ok: false,
    failures: [
      {
        usage: false,
        detail: problem.tooLarge
          ? `input is larger than the input limit of ${describeLimit(maxBytes)}; raise the limit with --max-input-bytes`
          : `failed to read input: ${problem.reason}`,
      },
    ],
  };
}

function summary(
  report: TranscriptReport<TranscriptFormat>,
  repaired: RepairResult<TranscriptFormat> | undefined,
  label: string,
  expect: string,
  dialect: OpenAIChatDialect | undefined,
): string {
  const lines = [
    'turngate transcript-check',
    `  Input: ${printable(label)}`,
    `  Format: ${report.format}${dialect === undefined ? '' : `, dialect ${dialect}`} (${expect})`,
    `  Result: ${report.result}`,
    `  Failures: ${report.failures.length}`,
  ];
  for (const failure of report.failures) {
    lines.push(`  - ${printable(failure.at)} ${failure.rule} [${printable(idList(failure.ids))}] (${failure.class})`);
    lines.push(`      fix: ${failure.fix}`);
  }
  if (report.openToolCalls.length > 0) {
    lines.push(`  Open tool calls: ${report.openToolCalls.length}`);
    for (const call of report.openToolCalls)
      lines.push(`  - ${printable(call.at)} ${printable(call.id)} (${printable(call.name)})`);
  }
  if (repaired?.ok === true) {
    lines.push(`  Repairs: ${repaired.value.repairs.length}`);
    for (const repair of repaired.value.repairs) {
      lines.push(
        `  - ${repair.action} ${printable(repair.at)} [${printable(idList(repair.ids))}]: ${printable(repair.detail)}`,
      );
    }
    for (const failure of repaired.value.remaining)
      lines.push(`  Not repairable: ${printable(failure.at)} ${failure.rule}`);
    lines.push(
      repaired.value.remaining.length > 0
        ? '  Repaired transcript (still rejected: see Not repairable):'
        : '  Repaired transcript:',
    );
    lines.push(jsonText(repaired.value.messages));
  }
  return `${lines.join('\n')}\n`;
}

/** Options of {@link transcriptCheck}. */
export interface TranscriptCheckOptions {
  readonly format: TranscriptFormat;
  readonly expect: 'sendable' | 'received';
  readonly json: boolean;
  readonly repair: boolean;
  /** With `repair`: tools whose calls change nothing (`readOnlyTools` of `repairTranscript`). */
  readonly readOnlyTools?: readonly string[];
  /** Exit 1 on a rejected transcript (`false`: `--report-only`). */
  readonly failOnReject: boolean;
  /** The model, for model-specific rules (`--model`). */
  readonly model?: string;
  /** `openai-chat` only: the provider dialect whose own rules run too (`--dialect`). */
  readonly dialect?: OpenAIChatDialect;
  /** How the input is named in the summary and in errors (a path, or `-`). */
  readonly inputLabel: string;
}

/**
 * Runs `transcript-check` on input bytes: the report as JSON or a summary; input that is not a
 * transcript of the format gives exit 2 and one stderr line starting `transcript_check_invalid:`
 * that names the path.
 *
 * @param input - The input file's bytes (or text).
 * @param options - Format, expectation and output options.
 * @returns What to print and the exit code.
 */
export function transcriptCheck(input: Uint8Array | string, options: TranscriptCheckOptions): CommandOutput {
  const read = readJson(input);
  if (!read.ok) return invalidInput(firstFailure(read), options.inputLabel);
  const value = read.value;
  const model = {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
  };
  const report = checkTranscriptJson(value, { format: options.format, expect: options.expect, ...model });
  if (report.result === 'invalid') return invalidInput(report.error.message, options.inputLabel);
  const repaired = options.repair
    ? repairTranscriptJson(value, {
        format: options.format,
        expect: options.expect,
        readOnlyTools: options.readOnlyTools ?? [],
        ...model,
      })
    : undefined;
  let stdout: string;
  if (options.json) {
    const out: Record<string, unknown> = {
      ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
      result: report.result,
      failures: report.failures,
      openToolCalls: report.openToolCalls,
    };
    if (repaired?.ok === true) {
      out['repaired'] = repaired.value.messages;
      out['repairs'] = repaired.value.repairs;
      if (repaired.value.remaining.length > 0) out['remaining'] = repaired.value.remaining;
    }
    stdout = `${jsonText(out)}\n`;
  } else {
    stdout = summary(report, repaired, options.inputLabel, options.expect, options.dialect);
  }
  return { stdout, stderr: '', exitCode: options.failOnReject && report.result === 'rejected' ? 1 : 0 };
}

/** Exit 2 with one stderr line naming the command's help. */
export function usageError(message: string, command = 'transcript-check'): CommandOutput {
  return {
    stdout: '',
    stderr: `turngate: ${printable(message)} (see turngate ${command} --help)\n`,
    exitCode: 2,
  };
}

/**
 * The command line: parses `argv` (after the command name), reads the input, runs the check.
 *
 * @param argv - The arguments after `transcript-check`.
 * @returns What to print and the exit code.
 */
export async function transcriptCheckCommand(argv: readonly string[]): Promise<CommandOutput> {
  const parsed = parseFlags(argv, {
    format: { type: 'string' },
    input: { type: 'string' },
    expect: { type: 'string' },
    json: { type: 'boolean' },
    repair: { type: 'boolean' },
    'read-only-tools': { type: 'string' },
    'fail-on-reject': { type: 'boolean' },
    'report-only': { type: 'boolean' },
    model: { type: 'string' },
    dialect: { type: 'string' },
    'max-input-bytes': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (!parsed.ok) return usageError(firstFailure(parsed));
  const values: Record<string, string | boolean | undefined> = parsed.value;
  if (values['help'] === true) return { stdout: TRANSCRIPT_CHECK_USAGE, stderr: '', exitCode: 0 };
  const format = formatFlag(values['format'], 'format');
  if (!format.ok) return usageError(firstFailure(format));
  const expect = values['expect'] ?? 'sendable';
  if (expect !== 'sendable' && expect !== 'received') return usageError('--expect must be sendable or received');
  const input = values['input'];
  if (typeof input !== 'string' || input === '') return usageError('--input <file | -> is required');
  if (values['report-only'] === true && values['fail-on-reject'] === true) {
    return usageError('--report-only and --fail-on-reject contradict each other: give one');
  }
  const model = modelFlag(values['model']);
  if (!model.ok) return usageError(firstFailure(model));
  const dialect = values['dialect'];
  if (
    dialect !== undefined &&
    (format.value !== 'openai-chat' || !(OPENAI_CHAT_DIALECTS as readonly unknown[]).includes(dialect))
  ) {
    return usageError(`--dialect takes one of ${OPENAI_CHAT_DIALECTS.join(', ')}, with --format openai-chat`);
  }
  const readOnlyTools = readOnlyToolsFlag(values['read-only-tools'], values['repair'] === true, '--repair');
  if (!readOnlyTools.ok) return usageError(firstFailure(readOnlyTools));
  const read = await readTranscriptInput(input, values['max-input-bytes']);
  if (!read.ok) {
    const problem = firstFailure(read);
    return problem.usage ? usageError(problem.detail) : invalidInput(problem.detail, input);
  }
  return transcriptCheck(read.value, {
    format: format.value,
    expect,
    json: values['json'] === true,
    repair: values['repair'] === true,
    ...(readOnlyTools.value === undefined ? {} : { readOnlyTools: readOnlyTools.value }),
    failOnReject: values['report-only'] !== true,
    ...(model.value === undefined ? {} : { model: model.value }),
    ...(dialect === undefined ? {} : { dialect: dialect as OpenAIChatDialect }),
    inputLabel: input,
  });
}
