/**
 * What repair records and writes, shared by the format repairers: the repair record, the mark
 * on synthesized results, fresh ids for repeated call ids, and the failures of a check indexed
 * by position. Internal, except the record type and the mark (exported from the layer).
 *
 * @module
 */
import type { RuleId } from './rule-info.ts';
import type { JsonObject } from './input.ts';
import type { LocatedFailure } from './report.ts';

/**
 * What one repair did:
 * - `synthesized_result`: an error result written for a call nobody answered, saying its
 *   outcome is unknown (marked, see `SYNTHESIZED_RESULT_MARK`);
 * - `moved_result`: a result moved to where the provider needs it;
 * - `removed`: a result, block, item or message removed (the value is in `removed`);
 * - `renamed_call`: a repeated call id given a fresh id (with the results that answer it);
 * - `inserted_message`: a message (turn) inserted to hold results or to open a turn, or to keep
 *   the text of a removed result;
 * - `merged_messages`: two messages of the same role joined into one;
 * - `rewrote_field`: a field of a call or result set in place (a missing function name taken
 *   from the call it answers, a result value wrapped into the object the provider requires, a
 *   placeholder signature the provider documents, a tool input given as JSON text parsed, an old
 *   field renamed); the block (part) as it was is in `removed`.
 */
export type TranscriptRepairAction =
  | 'synthesized_result'
  | 'moved_result'
  | 'removed'
  | 'renamed_call'
  | 'inserted_message'
  | 'merged_messages'
  | 'rewrote_field';

/**
 * One change `repairTranscript` made: the rule it fixes, the ids, where in the input, what it
 * did, and for a removal the removed value, so nothing the user or the model wrote is lost
 * without a record.
 *
 * @example
 * ```ts
 * import { repairTranscript } from 'turngate/transcripts';
 * const repaired = repairTranscript([{ role: 'tool', tool_call_id: 'call_9', content: 'Snow' }], { format: 'openai-chat' });
 * if (repaired.ok) repaired.value.repairs[0]; //=> { action: 'removed', rule: 'openai-chat.tool_message_orphan', ids: ['call_9'], at: 'messages[0]', detail: 'removed the tool message: it answers no tool call', removed: { role: 'tool', tool_call_id: 'call_9', content: 'Snow' } }
 * ```
 */
export interface TranscriptRepair {
  /** What was done. */
  readonly action: TranscriptRepairAction;
  /** The rule whose failure it fixes. */
  readonly rule: RuleId;
  /** The tool call ids involved (for `renamed_call`: the old id, then the new one). */
  readonly ids: readonly string[];
  /** Where, as a path into the input. */
  readonly at: string;
  /** What was done, in one sentence. */
  readonly detail: string;
  /** For `removed`: the removed value; for `rewrote_field`: the block (part) before the change; unchanged. */
  readonly removed?: unknown;
}

/**
 * The record of a tool call id repair renamed: `ids` is the old id, then the new one. Every
 * format's repairer builds its `renamed_call` record here.
 *
 * @param rule - The rule whose failure the new id fixes.
 * @param at - Where the call stands, as a path into the input.
 * @param from - The id as it was.
 * @param to - The new id.
 * @param detail - What was done, in one sentence; by default the fresh id of a repeated call id.
 */
export function renamedCall(
  rule: RuleId,
  at: string,
  from: string,
  to: string,
  detail = `gave the repeated tool call id ${from} the fresh id ${to}`,
): TranscriptRepair {
  return { action: 'renamed_call', rule, ids: [from, to], at, detail };
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

/**
 * The text of a synthesized result for a call of tool `name`: the one home of these texts.
 * Nobody recorded the call's result, so whether it ran (and what it did) is unknown: the text
 * says so and never that the call failed, since a model told "failed" runs a call that may have
 * sent an email again. For a tool named in `readOnlyTools` (one that changes nothing), running
 * it again is harmless: the text says to treat the call as not run, so it can be retried.
 */
export function synthesizedText(name: string, readOnlyTools: ReadonlySet<string>): string {
  return readOnlyTools.has(name)
    ? `${SYNTHESIZED_RESULT_MARK} No result was recorded for this call; ${name} is read-only, so treat the call as not run: it can be retried.`
    : `${SYNTHESIZED_RESULT_MARK} No result was recorded for this call; its outcome is unknown: check before retrying.`;
}

/**
 * Whether a text is a synthesized result's text.
 *
 * @example
 * ```ts
 * import { isSynthesizedResultText } from 'turngate/transcripts';
 * isSynthesizedResultText('[turngate:synthesized] No result was recorded for this call; its outcome is unknown: check before retrying.'); //=> true
 * isSynthesizedResultText('Snow'); //=> false
 * ```
 */
export function isSynthesizedResultText(text: unknown): boolean {
  return typeof text === 'string' && text.startsWith(SYNTHESIZED_RESULT_MARK);
}

/**
 * The text every kept orphaned result starts with: repair removes a tool result whose call is not
 * in the history, but keeps the words it carried (an ask-user tool's answer is the user's own
 * words) as ordinary user text, marked so.
 *
 * @example
 * ```ts
 * import { ORPHANED_RESULT_MARK } from 'turngate/transcripts';
 * ORPHANED_RESULT_MARK; //=> '[turngate:orphaned-result]'
 * ```
 */
export const ORPHANED_RESULT_MARK = '[turngate:orphaned-result]';

/**
 * The user text that keeps the words of an orphaned result repair removes: the one home of this
 * text. `undefined` when the result carried no text (nothing to keep). `text` is the result's
 * text as its format holds it (a string, or the text of its text blocks joined by newlines).
 */
export function orphanedResultText(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  return `${ORPHANED_RESULT_MARK} A tool result whose call is no longer in this history said: ${text}`;
}

/**
 * Fresh ids for repeated call ids: `<id>_2`, `<id>_3`, ... never one already in use. With
 * `maxLength` (a provider's limit on ids), `<id>` is cut so the fresh id fits.
 */
export class FreshIds {
  private readonly used: Set<string>;
  private readonly maxLength: number;

  constructor(used: Iterable<string>, maxLength = Number.POSITIVE_INFINITY) {
    this.used = new Set(used);
    this.maxLength = maxLength;
  }

  /** A fresh id derived from `id`. */
  next(id: string): string {
    for (let n = 2; ; n++) {
      const suffix = `_${n}`;
      const candidate = `${id.slice(0, Math.max(0, this.maxLength - suffix.length))}${suffix}`;
      if (!this.used.has(candidate)) {
        this.used.add(candidate);
        return candidate;
      }
    }
  }
}

/** The failures of a check by position (`message:slot`), and by rule (`R`: the format's rule ids). */
export class FailureIndex<R extends RuleId = RuleId> {
  private readonly byPosition = new Map<string, LocatedFailure<R>[]>();
  readonly all: readonly LocatedFailure<R>[];

  constructor(located: readonly LocatedFailure<R>[]) {
    this.all = located;
    for (const failure of located) {
      const key = `${failure.message}:${failure.slot}`;
      const list = this.byPosition.get(key);
      if (list === undefined) this.byPosition.set(key, [failure]);
      else list.push(failure);
    }
  }

  /** The failures at a position (a block, part or call; `slot` -1 for a whole message or item). */
  at(message: number, slot = -1): readonly LocatedFailure<R>[] {
    return this.byPosition.get(`${message}:${slot}`) ?? [];
  }

  /** The first failure at a position with one of `rules`, if any. */
  find(message: number, slot: number, rules: readonly R[]): LocatedFailure<R> | undefined {
    return this.at(message, slot).find((failure) => rules.includes(failure.rule));
  }

  /** The failures of one rule. */
  of(rule: R): LocatedFailure<R>[] {
    return this.all.filter((failure) => failure.rule === rule);
  }
}

/** The edits a repairer makes to messages whose content is a list of blocks (parts). */
export interface BlockEdits {
  /** Blocks to remove, by `message:slot`. */
  readonly drop: ReadonlySet<string>;
  /** Blocks to replace, by `message:slot`. */
  readonly replace: ReadonlyMap<string, JsonObject>;
  /** Blocks to put first in a message, by message index. */
  readonly prepend?: ReadonlyMap<number, readonly JsonObject[]>;
  /** Blocks to add last to a message, by message index. */
  readonly append?: ReadonlyMap<number, readonly JsonObject[]>;
  /** Messages to insert right after a message, by its index. */
  readonly insertAfter?: ReadonlyMap<number, JsonObject>;
}

/** The key of a block in `BlockEdits`. */
export const slotKey = (message: number, slot: number): string => `${message}:${slot}`;

/**
 * Applies block edits to messages: an unchanged message stays the same object, a changed one is
 * a copy with its `field` (`content`, `parts`) rewritten, one left without blocks is removed.
 */
export function applyBlockEdits(messages: readonly unknown[], field: string, edits: BlockEdits): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as JsonObject;
    const blocks = message[field];
    if (!Array.isArray(blocks)) out.push(message);
    else {
      const next: JsonObject[] = [...(edits.prepend?.get(i) ?? [])];
      let changed = next.length > 0;
      for (let j = 0; j < blocks.length; j++) {
        const key = slotKey(i, j);
        if (edits.drop.has(key)) changed = true;
        else {
          const replaced = edits.replace.get(key);
          if (replaced !== undefined) changed = true;
          next.push(replaced ?? (blocks[j] as JsonObject));
        }
      }
      const appended = edits.append?.get(i);
      if (appended !== undefined) {
        next.push(...appended);
        changed = true;
      }
      if (!changed) out.push(message);
      else if (next.length > 0) out.push({ ...message, [field]: next });
    }
    const inserted = edits.insertAfter?.get(i);
    if (inserted !== undefined) out.push(inserted);
  }
  return out;
}

/** The blocks (parts) a repairer removes or replaces, and its records. */
export class BlockRepairs {
  readonly drop = new Set<string>();
  readonly replace = new Map<string, JsonObject>();
  readonly insertAfter = new Map<number, JsonObject>();
  readonly repairs: TranscriptRepair[] = [];

  /**
   * @param messages - The input messages.
   * @param root - The root of paths (`messages`, `contents`).
   * @param field - The field holding the blocks (`content`, `parts`).
   */
  constructor(
    private readonly messages: readonly unknown[],
    private readonly root: string,
    private readonly field: string,
  ) {}

  /** Block `j` of message `i`. */
  block(i: number, j: number): JsonObject {
    return ((this.messages[i] as JsonObject)[this.field] as readonly JsonObject[])[j] as JsonObject;
  }

  /** The path of block `j` of message `i`. */
  at(i: number, j: number): string {
    return `${this.root}[${i}].${this.field}[${j}]`;
  }

  /** Inserts `message` right after message `i`, to hold results (`ids`) that have no message to go in. */
  insert(i: number, message: JsonObject, rule: RuleId, ids: readonly string[], what: string): void {
    this.insertAfter.set(i, message);
    this.repairs.push({
      action: 'inserted_message',
      rule,
      ids,
      at: `${this.root}[${i}]`,
      detail: `inserted ${what} right after ${this.root}[${i}]`,
    });
  }

  /** Removes block `j` of message `i`, recording it with the removed block. */
  remove(i: number, j: number, rule: RuleId, ids: readonly string[], detail: string): void {
    this.drop.add(slotKey(i, j));
    this.repairs.push({ action: 'removed', rule, ids, at: this.at(i, j), detail, removed: this.block(i, j) });
  }
}
