/**
 * The `transcript-convert` command: a provider transcript converted into another format's, from a
 * file or standard input, with one record per change (`convertTranscript`).
 *
 *   turngate transcript-convert --from <format> --to <format> --input <file | -> [--json]
 *     [--expect sendable|received] [--model <id>] [--dialect <dialect>] [--reasoning drop|keep]
 *     [--read-only-tools <names>] [--tool-call-ids <file>] [--max-input-bytes <n>]
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { TRANSCRIPT_FORMATS } from '../check/index.ts';
import { firstFailure } from '../failures/internal.ts';
import { oneLine } from '../internal/display.ts';
import {
  type ConvertResult,
  convertTranscriptJson,
  type SystemPromptFormat,
  type ToolCallIdPair,
  type TranscriptChange,
} from '../transcripts/index.ts';
import { OPENAI_CHAT_DIALECTS, type OpenAIChatDialect, SYSTEM_FIELDS } from '../transcripts/internal.ts';
import type { TranscriptFormat } from '../check/index.ts';
import { parseFlags } from './args.ts';
import type { CommandOutput } from './harness-join-check.ts';
import {
  formatFlag,
  invalidInput,
  jsonText,
  modelFlag,
  readJson,
  readOnlyToolsFlag,
  readTranscriptInput,
  usageError,
} from './transcript-check.ts';

/** The prefix of every input-error line. */
export const TRANSCRIPT_CONVERT_INVALID_PREFIX = 'transcript_convert_invalid:';

/** Usage of the command. */
export const TRANSCRIPT_CONVERT_USAGE = `Usage: turngate transcript-convert --from <format> --to <format> --input <file | -> [--json]
         [--expect sendable|received] [--model <id>] [--dialect <dialect>] [--reasoning drop|keep]
         [--read-only-tools <names>] [--tool-call-ids <file>] [--max-input-bytes <n>]

Converts a provider transcript into another format's, so the target provider takes it: tool
call ids remapped into the target's grammar, signed reasoning dropped across formats, roles
and blocks placed by the target's rules. Prints the converted transcript and each change.

Options:
  --from <format>      the source format: ${TRANSCRIPT_FORMATS.join(' | ')}
  --to <format>        the target format (same list)
  --input <file | ->   a JSON array of messages (items, contents), or a request body holding
                       them; - reads stdin
  --expect <when>      sendable (default) or received (the last message's calls stay open)
  --model <id>         the target model, for rules that hold only for some models
  --dialect <dialect>  with --to openai-chat: ${OPENAI_CHAT_DIALECTS.join(' | ')}, the provider whose own
                       rules and tool call ids apply
  --reasoning <how>    drop (default across formats) or keep thinking blocks and signatures
  --read-only-tools <names>  comma-separated tools whose calls change nothing: synthesized
                       results for their calls say the call can be retried
  --tool-call-ids <file>  the toolCallIds (JSON array of {source, target}) of an earlier
                       conversion the other way: its ids come home as the originals
  --json               print {"messages"[, "system"], "changes", "toolCallIds"[, "remaining"]};
                       "system" is the system prompt of a target that takes it outside its
                       messages, in its field's shape: anthropic "system" (a string), gemini
                       "systemInstruction" ({"parts": [{"text"}]}), bedrock-converse "system"
                       ([{"text"}]); without --json it is printed after the transcript
  --max-input-bytes <n>  the input size limit, in bytes (K, M, G suffixes); default 64M
  -h, --help           show this help

Exit codes: 0 converted (the target's check accepts it), 1 converted but the target still
rejects it (a failure no repair fixes: see Not repairable), 2 input that is not a transcript of
the source format, or bad usage (one stderr line).
`;

const COMMAND = 'transcript-convert';

function summary(outcome: ConvertResult<TranscriptFormat, unknown>, from: TranscriptFormat, label: string): string {
  if (!outcome.ok) return '';
  const { format, changes, remaining, messages, system } = outcome.value;
  const lines = [
    'turngate transcript-convert',
    `  Input: ${oneLine(label)}`,
    `  Formats: ${from} -> ${format}`,
    `  Result: ${remaining.length === 0 ? 'accepted' : 'rejected'}`,
    `  Changes: ${changes.length}`,
  ];
  for (const change of changes) lines.push(`  - ${describe(change)}`);
  for (const failure of remaining) lines.push(`  Not repairable: ${oneLine(failure.at)} ${failure.rule}`);
  lines.push('  Converted transcript:');
  lines.push(jsonText(messages));
  if (system !== undefined) {
    lines.push(`  System prompt (the request's ${SYSTEM_FIELDS[format as SystemPromptFormat]}, outside the messages):`);
    lines.push(jsonText(system));
  }
  return `${lines.join('\n')}\n`;
}

function describe(change: TranscriptChange): string {
  if (change.kind === 'tool_call_id_remapped') return `${change.kind}: ${oneLine(change.detail)}`;
  return `${change.kind} (${change.stage}) ${oneLine(change.at)}: ${oneLine(change.detail)}`;
}

/** The pairs of `--tool-call-ids`: a JSON array of `{ source, target }` strings. */
async function readPairs(path: string): Promise<ToolCallIdPair[] | string> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    return `--tool-call-ids: cannot read ${path} (${(error as Error).message})`;
  }
  const pairs = Array.isArray(value) ? value : undefined;
  if (
    pairs === undefined ||
    !pairs.every(
      (pair) =>
        pair !== null && typeof pair === 'object' && typeof pair.source === 'string' && typeof pair.target === 'string',
    )
  )
    return `--tool-call-ids: expected a JSON array of {"source", "target"} strings in ${path}`;
  return pairs as ToolCallIdPair[];
}

/** Options of {@link transcriptConvert}. */
export interface TranscriptConvertOptions {
  readonly from: TranscriptFormat;
  readonly to: TranscriptFormat;
  readonly expect: 'sendable' | 'received';
  readonly json: boolean;
  readonly model?: string;
  /** With `to: 'openai-chat'`: the provider dialect (`--dialect`). */
  readonly dialect?: OpenAIChatDialect;
  readonly reasoning?: 'drop' | 'keep';
  readonly readOnlyTools?: readonly string[];
  readonly toolCallIds?: readonly ToolCallIdPair[];
  /** How the input is named in the summary and in errors (a path, or `-`). */
  readonly inputLabel: string;
}

/**
 * Runs `transcript-convert` on input bytes: the converted transcript as JSON or a summary; input
 * that is not a transcript of the source format gives exit 2 and one stderr line starting
 * `transcript_convert_invalid:` that names the path.
 *
 * @param input - The input file's bytes (or text).
 * @param options - Formats and output options.
 * @returns What to print and the exit code.
 */
export function transcriptConvert(input: Uint8Array | string, options: TranscriptConvertOptions): CommandOutput {
  const label = options.inputLabel;
  const read = readJson(input);
  if (!read.ok) return invalidInput(firstFailure(read), label, TRANSCRIPT_CONVERT_INVALID_PREFIX);
  const value = read.value;
  const outcome = convertTranscriptJson(value, {
    from: options.from,
    to: options.to,
    expect: options.expect,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
    ...(options.reasoning === undefined ? {} : { reasoning: options.reasoning }),
    ...(options.readOnlyTools === undefined ? {} : { readOnlyTools: options.readOnlyTools }),
    ...(options.toolCallIds === undefined ? {} : { toolCallIds: options.toolCallIds }),
  });
  if (!outcome.ok) return invalidInput(firstFailure(outcome).message, label, TRANSCRIPT_CONVERT_INVALID_PREFIX);
  const { messages, system, changes, toolCallIds, remaining } = outcome.value;
  const stdout = options.json
    ? `${jsonText({
        messages,
        ...(system === undefined ? {} : { system }),
        changes,
        toolCallIds,
        ...(remaining.length > 0 ? { remaining } : {}),
      })}\n`
    : summary(outcome, options.from, label);
  return { stdout, stderr: '', exitCode: remaining.length > 0 ? 1 : 0 };
}

/**
 * The command line: parses `argv` (after the command name), reads the input, converts it.
 *
 * @param argv - The arguments after `transcript-convert`.
 * @returns What to print and the exit code.
 */
export async function transcriptConvertCommand(argv: readonly string[]): Promise<CommandOutput> {
  const parsed = parseFlags(argv, {
    from: { type: 'string' },
    to: { type: 'string' },
    input: { type: 'string' },
    expect: { type: 'string' },
    json: { type: 'boolean' },
    model: { type: 'string' },
    dialect: { type: 'string' },
    reasoning: { type: 'string' },
    'read-only-tools': { type: 'string' },
    'tool-call-ids': { type: 'string' },
    'max-input-bytes': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (!parsed.ok) return usageError(firstFailure(parsed), COMMAND);
  const values: Record<string, string | boolean | undefined> = parsed.value;
  if (values['help'] === true) return { stdout: TRANSCRIPT_CONVERT_USAGE, stderr: '', exitCode: 0 };
  const from = formatFlag(values['from'], 'from');
  if (!from.ok) return usageError(firstFailure(from), COMMAND);
  const to = formatFlag(values['to'], 'to');
  if (!to.ok) return usageError(firstFailure(to), COMMAND);
  const expect = values['expect'] ?? 'sendable';
  if (expect !== 'sendable' && expect !== 'received')
    return usageError('--expect must be sendable or received', COMMAND);
  const reasoning = values['reasoning'];
  if (reasoning !== undefined && reasoning !== 'drop' && reasoning !== 'keep')
    return usageError('--reasoning must be drop or keep', COMMAND);
  const input = values['input'];
  if (typeof input !== 'string' || input === '') return usageError('--input <file | -> is required', COMMAND);
  const model = modelFlag(values['model']);
  if (!model.ok) return usageError(firstFailure(model), COMMAND);
  const dialect = values['dialect'];
  if (
    dialect !== undefined &&
    (to.value !== 'openai-chat' || !(OPENAI_CHAT_DIALECTS as readonly unknown[]).includes(dialect))
  )
    return usageError(`--dialect takes one of ${OPENAI_CHAT_DIALECTS.join(', ')}, with --to openai-chat`, COMMAND);
  const readOnlyTools = readOnlyToolsFlag(values['read-only-tools']);
  if (!readOnlyTools.ok) return usageError(firstFailure(readOnlyTools), COMMAND);
  const pairsPath = values['tool-call-ids'];
  const pairs = typeof pairsPath === 'string' ? await readPairs(pairsPath) : undefined;
  if (typeof pairs === 'string') return usageError(pairs, COMMAND);
  const read = await readTranscriptInput(input, values['max-input-bytes']);
  if (!read.ok) {
    const problem = firstFailure(read);
    return problem.usage
      ? usageError(problem.detail, COMMAND)
      : invalidInput(problem.detail, input, TRANSCRIPT_CONVERT_INVALID_PREFIX);
  }
  return transcriptConvert(read.value, {
    from: from.value,
    to: to.value,
    expect,
    json: values['json'] === true,
    ...(model.value === undefined ? {} : { model: model.value }),
    ...(dialect === undefined ? {} : { dialect: dialect as OpenAIChatDialect }),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(readOnlyTools.value === undefined ? {} : { readOnlyTools: readOnlyTools.value }),
    ...(pairs === undefined ? {} : { toolCallIds: pairs }),
    inputLabel: input,
  });
}
