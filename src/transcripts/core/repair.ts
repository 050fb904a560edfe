/**
 * What repair records and writes, shared by the format repairers: the repair record, the mark
 * on synthesized results, fresh ids for repeated call ids, and the failures of a check indexed
 * by position. Internal, except the record type and the mark (exported from the layer).
 *
 * @module
 */
import type { TranscriptRule } from '../rules.ts';
import type { LocatedFailure } from './report.ts';

/**
 * What one repair did:
 * - `synthesized_result`: an error result written for a call nobody answered (marked, see
 *   `SYNTHESIZED_RESULT_MARK`);
 * - `moved_result`: a result moved to where the provider needs it;
 * - `removed`: a result, block, item or message removed (the value is in `removed`);
 * - `renamed_call`: a repeated call id given a fresh id (with the results that answer it);
 * - `inserted_message`: a message (turn) inserted to hold results or to open a turn;
 * - `merged_messages`: two messages of the same role joined into one.
 */
export type TranscriptRepairAction =
  | 'synthesized_result'
  | 'moved_result'
  | 'removed'
  | 'renamed_call'
  | 'inserted_message'
  | 'merged_messages';

/**
 * One change `repairTranscript` made: the rule it fixes, the ids, where in the input, what it
 * did, and for a removal the removed value, so nothing the user or the model wrote is lost
 * without a record.
 *
 * @example
 * ```ts
 * import { repairTranscript } from 'turngate/transcripts';
 * const repaired = repairTranscript([{ role: 'tool', tool_call_id: 'call_9', content: 'Snow' }], { format: 'openai-chat' });
 * if (repaired.ok) repaired.repairs[0]; //=> { action: 'removed', rule: 'openai-chat.tool_message_orphan', ids: ['call_9'], at: 'messages[0]', detail: 'removed the tool message: it answers no tool call', removed: { role: 'tool', tool_call_id: 'call_9', content: 'Snow' } }
 * ```
 */
export interface TranscriptRepair {
  /** What was done. */
  readonly action: TranscriptRepairAction;
  /** The rule whose failure it fixes. */
  readonly rule: TranscriptRule;
  /** The tool call ids involved (for `renamed_call`: the old id, then the new one). */
  readonly ids: readonly string[];
  /** Where, as a path into the input. */
  readonly at: string;
  /** What was done, in one sentence. */
  readonly detail: string;
  /** For `removed`: the removed value, unchanged. */
  readonly removed?: unknown;
}

/**
 * The text every synthesized result starts with, so a synthesized result is recognizable in
 * every format and after any round trip (it stands in the result's text, which every format
 * and `ChatMessage` keep).
 *
 * @example
 * ```ts
 * import { SYNTHESIZED_RESULT_MARK } from 'turngate/transcripts';
 * SYNTHESIZED_RESULT_MARK; //=> '[turngate:synthesized]'
 * ```
 */
export const SYNTHESIZED_RESULT_MARK = '[turngate:synthesized]';

/** The error text of a synthesized result for call `id` of tool `name`. */
export function synthesizedText(id: string, name: string): string {
  return `${SYNTHESIZED_RESULT_MARK} No result was recorded for tool call ${id} (${name}); treat the call as failed.`;
}

/**
 * Whether a text is a synthesized result's text.
 *
 * @example
 * ```ts
 * import { isSynthesizedResultText } from 'turngate/transcripts';
 * isSynthesizedResultText('[turngate:synthesized] No result was recorded for tool call call_1 (get_weather); treat the call as failed.'); //=> true
 * isSynthesizedResultText('Snow'); //=> false
 * ```
 */
export function isSynthesizedResultText(text: unknown): boolean {
  return typeof text === 'string' && text.startsWith(SYNTHESIZED_RESULT_MARK);
}

/** Fresh ids for repeated call ids: `<id>_2`, `<id>_3`, ... never one already in use. */
export class FreshIds {
  private readonly used: Set<string>;

  constructor(used: Iterable<string>) {
    this.used = new Set(used);
  }

  /** A fresh id derived from `id`. */
  next(id: string): string {
    for (let n = 2; ; n++) {
      const candidate = `${id}_${n}`;
      if (!this.used.has(candidate)) {
        this.used.add(candidate);
        return candidate;
      }
    }
  }
}

/** The failures of a check by position (`message:slot`), and by rule. */
export class FailureIndex {
  private readonly byPosition = new Map<string, LocatedFailure[]>();
  readonly all: readonly LocatedFailure[];

  constructor(located: readonly LocatedFailure[]) {
    this.all = located;
    for (const failure of located) {
      const key = `${failure.message}:${failure.slot}`;
      const list = this.byPosition.get(key);
      if (list === undefined) this.byPosition.set(key, [failure]);
      else list.push(failure);
    }
  }

  /** The failures at a position (a block, part or call; `slot` -1 for a whole message or item). */
  at(message: number, slot = -1): readonly LocatedFailure[] {
    return this.byPosition.get(`${message}:${slot}`) ?? [];
  }

  /** The first failure at a position with one of `rules`, if any. */
  find(message: number, slot: number, rules: readonly TranscriptRule[]): LocatedFailure | undefined {
    return this.at(message, slot).find((failure) => rules.includes(failure.rule));
  }

  /** The failures of one rule. */
  of(rule: TranscriptRule): LocatedFailure[] {
    return this.all.filter((failure) => failure.rule === rule);
  }
}
