/**
 * The report of a transcript check: its failures (each a provider rule broken at a position),
 * the calls left open, and the input error for input that is not a transcript of the format.
 *
 * @module
 */
import type { FailureClass } from '../../failures/index.ts';
import type { TranscriptFormat } from '../../check/index.ts';
import type { TranscriptRule } from '../rules.ts';
import type { TranscriptRuleInfo } from './rule-info.ts';

/**
 * The rule ids of format `F`, e.g. `RuleOf<'gemini'>` is `'gemini.function_call_unanswered' | ...`.
 *
 * @example
 * ```ts
 * import type { RuleOf } from 'turngate/types';
 * const rule: RuleOf<'openai-chat'> = 'openai-chat.tool_message_not_adjacent';
 * ```
 */
export type RuleOf<F extends TranscriptFormat> = Extract<TranscriptRule, `${F}.${string}`>;

/**
 * One broken provider rule at one position of the transcript.
 *
 * @example
 * ```ts
 * import { checkTranscript } from 'turngate/transcripts';
 * const report = checkTranscript(
 *   [{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} }] }],
 *   { format: 'anthropic' },
 * );
 * report.failures[0]?.rule; //=> 'anthropic.tool_use_unanswered'
 * report.failures[0]?.at; //=> 'messages[0]'
 * ```
 */
export interface TranscriptFailure<F extends TranscriptFormat = TranscriptFormat> {
  /** The failure class (`FAILURE_CLASSES`), e.g. `tool.result_missing`. */
  readonly class: FailureClass;
  /** The rule id, e.g. `anthropic.tool_result_not_first` (see `TRANSCRIPT_RULES`). */
  readonly rule: RuleOf<F>;
  /** The tool call ids involved, sorted (Gemini calls without an id by their function name). */
  readonly ids: readonly string[];
  /** Where, as a path into the input: `messages[3].content[0]`, `input[2]`, `contents[1].parts[0]`. */
  readonly at: string;
  /** The index of the message (item, content) the path points into; `-1` for calls carried in by `openToolCalls`. */
  readonly messageIndex: number;
  /** What is wrong, in one sentence. */
  readonly detail: string;
  /** What to change, in one sentence. */
  readonly fix: string;
}

/**
 * A client tool call the transcript leaves open (`expect: 'received'`): the model asked for it
 * in the last message and it awaits its result.
 *
 * @example
 * ```ts
 * import { checkTranscript } from 'turngate/transcripts';
 * const report = checkTranscript(
 *   [{ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] }],
 *   { format: 'openai-chat', expect: 'received' },
 * );
 * report.openToolCalls; //=> [{ id: 'call_1', name: 'get_weather', at: 'messages[0].tool_calls[0]', messageIndex: 0 }]
 * ```
 */
export interface OpenToolCall {
  /** The tool call id (Gemini calls without an id: the function name). */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** Where the call stands. */
  readonly at: string;
  /** The index of its message. */
  readonly messageIndex: number;
}

/**
 * Input that is not a transcript of the format: `field` names the field (`messages[2].role`),
 * `expected` what it should be; for a history holding another format's structure,
 * `looksLike` names the formats it looks like.
 *
 * @example
 * ```ts
 * import { checkTranscriptJson } from 'turngate/transcripts';
 * const report = checkTranscriptJson([{ content: 'hi' }], { format: 'openai-chat' });
 * if (report.result === 'invalid') report.error.field; //=> 'messages[0].role'
 * ```
 */
export class TranscriptInputError extends Error {
  /** The path of the offending field, e.g. `messages[2].role`. */
  readonly field: string;
  /** What was expected there. */
  readonly expected: string;
  /**
   * For a history holding another format's structure (a `tool_use` block checked as
   * `openai-chat`): the formats it looks like; empty otherwise.
   */
  readonly looksLike: readonly TranscriptFormat[];

  /**
   * Creates the error.
   *
   * @param field - The path of the offending field.
   * @param expected - What was expected there (the message is `<field>: expected <expected>`).
   * @param foreign - For another format's structure: the message, and the formats the history looks like.
   */
  constructor(
    field: string,
    expected: string,
    foreign?: { readonly message: string; readonly looksLike: readonly TranscriptFormat[] },
  ) {
    super(foreign?.message ?? `${field}: expected ${expected}`);
    this.name = 'TranscriptInputError';
    this.field = field;
    this.expected = expected;
    this.looksLike = foreign?.looksLike ?? [];
  }
}

/** Where a failure stands, for repair: the rule, its ids, the message and the slot inside it (-1: the message). */
export interface LocatedFailure {
  readonly rule: TranscriptRule;
  readonly ids: readonly string[];
  readonly message: number;
  readonly slot: number;
  readonly at: string;
}

/**
 * Records a failure a reader finds in its pass (before the format's `FailureSink` sees it): rule
 * `rule` over `ids` at path `at`, in message `message`, `slot` inside it (-1: the message).
 * Readers bind it to their format's rules (`locate<RuleOf<'mistral'>>`). Internal.
 */
export function locate<R extends TranscriptRule>(
  shape: LocatedFailure[],
  rule: R,
  ids: readonly string[],
  at: string,
  message: number,
  slot = -1,
): void {
  shape.push({ rule, ids, message, slot, at });
}

/** A format's rule table (its `<format>/rules.ts`): class, summary and fix by rule id. */
export type RuleTable = { readonly [R in TranscriptRule]?: TranscriptRuleInfo };

/** Collects failures by rule and position; class and fix come from the format's rule table. Internal. */
export class FailureSink {
  readonly failures: TranscriptFailure[] = [];
  readonly located: LocatedFailure[] = [];
  private readonly rules: RuleTable;

  /** @param rules - The format's rule table: every rule `fail` is given must be in it. */
  constructor(rules: RuleTable) {
    this.rules = rules;
  }

  /** Records one broken rule at one position (`slot`: the block, part or call inside the message; -1 for the message). */
  fail(rule: TranscriptRule, ids: readonly string[], at: string, messageIndex: number, slot = -1): void {
    const info = this.rules[rule];
    if (info === undefined) throw new Error(`rule ${rule} is not in the format's rule table`);
    const sorted = ids.length > 1 ? [...ids].sort() : ids;
    this.located.push({ rule, ids: sorted, message: messageIndex, slot, at });
    const named = sorted.length === 0 ? '' : ` (${sorted.join(', ')})`;
    this.failures.push({
      class: info.class,
      rule,
      ids: sorted,
      at,
      messageIndex,
      detail: `${at}: ${info.summary}${named}.`,
      fix: info.fix,
    });
  }

  /** The failures in input order (by message, then as found). */
  sorted(): TranscriptFailure[] {
    return this.failures
      .map((failure, order) => ({ failure, order }))
      .sort((a, b) => a.failure.messageIndex - b.failure.messageIndex || a.order - b.order)
      .map((entry) => entry.failure);
  }
}
