/**
 * The one flag parser of every `turngate` command: Node's `parseArgs`, strict, no positionals,
 * and an option given twice refused (rather than the last one silently winning).
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { groupDigits } from '../internal/display.ts';
import type { Result } from '../failures/index.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed flags, or `failures` holding the first line of what is wrong with them. */
export type ParsedFlags<T extends Options> = Result<
  ReturnType<typeof parseArgs<{ options: T; strict: true }>>['values'],
  string
>;

/**
 * Parses a command's flags.
 *
 * @param args - The arguments after the command name.
 * @param options - `parseArgs` options; an option with `multiple: true` may repeat.
 * @returns The values, or `failures` holding a one-line message: an unknown option, a missing value, a positional
 *   argument, or an option given twice (`--input is given twice; give each option once`).
 */
export function parseFlags<T extends Options>(args: readonly string[], options: T): ParsedFlags<T> {
  try {
    const { values, tokens } = parseArgs({
      args: [...args],
      options,
      strict: true,
      allowPositionals: false,
      tokens: true,
    });
    const seen = new Set<string>();
    for (const token of tokens) {
      if (token.kind !== 'option' || options[token.name]?.multiple === true) continue;
      if (seen.has(token.name))
        return { ok: false, failures: [`--${token.name} is given twice; give each option once`] };
      seen.add(token.name);
    }
    return { ok: true, value: values };
  } catch (error) {
    // The argument parser's first line says what is wrong; the rest is advice.
    return {
      ok: false,
      failures: [(error instanceof Error ? error.message.split('\n')[0] : undefined) || 'invalid arguments'],
    };
  }
}

/** Ids shown in full in human output; a longer list shows its first ones and a count. */
export const SHOWN_IDS = 20;

/**
 * A list of ids for human output: all of them up to {@link SHOWN_IDS}, else the first ones and
 * how many more (`a, b, c, ... and 4,980 more`). The JSON output always has every id.
 *
 * @param ids - The ids, already made safe for one line.
 * @returns The list as one string.
 */
export function idList(ids: readonly string[]): string {
  if (ids.length <= SHOWN_IDS) return ids.join(', ');
  return `${ids.slice(0, SHOWN_IDS).join(', ')}, ... and ${groupDigits(ids.length - SHOWN_IDS)} more (--json lists all)`;
}
