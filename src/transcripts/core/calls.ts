/**
 * Pairing bookkeeping shared by the format checkers: the tool calls of a transcript by pairing
 * key, and the keys already answered. Ids are unique per request, so a repeated call id is not
 * a second call: the uniqueness rule reports it, and results pair with the first call of the
 * id. Internal.
 *
 * @module
 */
import type { RuleId } from './rule-info.ts';
import type { FailureSink, OpenToolCall } from './report.ts';

/** A tool call as the checkers see it. */
export interface CallSite {
  /** The pairing key (the call id; Gemini calls without an id: `name`). */
  readonly key: string;
  /** The tool name. */
  readonly name: string;
  /** The message (item, content) index. */
  readonly message: number;
  /** The position of the call inside its message (block, tool call or part index; 0 for items). */
  readonly slot: number;
  /** Input order over all calls and results. */
  readonly seq: number;
  /** A call the provider runs and answers itself (Anthropic server tools, AI SDK provider-executed calls). */
  readonly server: boolean;
  /** Set once a result answers it in the right place (and for a repeated id, which only its uniqueness rule reports). */
  answered: boolean;
  /** Set once a result standing after it claims it (a later one is a second result). */
  claimed: boolean;
}

/** The calls of a transcript by pairing key. */
export class CallTable {
  private readonly byKey = new Map<string, CallSite>();
  private readonly repeats = new Map<string, CallSite[]>();

  /**
   * Adds a call. A repeated key is not added: it counts as answered, so only the uniqueness
   * rule reports it.
   *
   * @returns `true` for the first call with its key, `false` for a repeated key.
   */
  add(call: CallSite): boolean {
    if (this.byKey.get(call.key) !== undefined) {
      call.answered = true;
      const list = this.repeats.get(call.key);
      if (list === undefined) this.repeats.set(call.key, [call]);
      else list.push(call);
      return false;
    }
    this.byKey.set(call.key, call);
    return true;
  }

  /**
   * The table of `calls` (in input order), as `add` builds it call by call: the first call of each
   * key, the repeats counted answered and handed to `onRepeat` (if given) in input order. One hash write per
   * call (the first call of a key is written last); a second pass only when a key repeats.
   */
  static of(calls: readonly CallSite[], onRepeat?: (call: CallSite) => void): CallTable {
    const table = new CallTable();
    const byKey = table.byKey;
    for (let k = calls.length - 1; k >= 0; k--) {
      const call = calls[k] as CallSite;
      byKey.set(call.key, call);
    }
    if (byKey.size === calls.length) return table;
    for (const call of calls) {
      if (byKey.get(call.key) === call) continue;
      call.answered = true;
      const list = table.repeats.get(call.key);
      if (list === undefined) table.repeats.set(call.key, [call]);
      else list.push(call);
      onRepeat?.(call);
    }
    return table;
  }

  /** Whether some key is used by more than one call. */
  get hasRepeats(): boolean {
    return this.repeats.size > 0;
  }

  /** The call with this key, if any. */
  get(key: string): CallSite | undefined {
    return this.byKey.get(key);
  }

  /** The call with this key in message `message` (the first call of the key, or a repeat). */
  inMessage(key: string, message: number): CallSite | undefined {
    const first = this.byKey.get(key);
    if (first === undefined || first.message === message) return first;
    return this.repeats.get(key)?.find((call) => call.message === message);
  }

  /**
   * Claims a call for a result standing after it.
   *
   * @returns `false` when an earlier result already claimed it (this one is a second result).
   */
  claim(call: CallSite): boolean {
    if (call.claimed) return false;
    call.claimed = true;
    return true;
  }
}

/** How {@link reportUnanswered} names and sorts calls. */
export interface UnansweredOptions {
  /** Whether a call may stay open (`expect: 'received'`); an open call is listed, not failed. */
  readonly open: (call: CallSite) => boolean;
  /** Where a call stands, for the open list. */
  readonly callAt: (call: CallSite) => string;
  /** Where a message stands, for the failure (one per message). */
  readonly messageAt: (message: number) => string;
}

/**
 * The client calls nobody answered: one failure of `rule` per message, with every id of that
 * message, or, for calls that may stay open, the open list. Server calls and answered calls are
 * skipped.
 */
export function reportUnanswered(
  calls: readonly CallSite[],
  sink: FailureSink,
  rule: RuleId,
  options: UnansweredOptions,
): OpenToolCall[] {
  const openToolCalls: OpenToolCall[] = [];
  let pending: string[] = [];
  let pendingMessage = Number.NaN;
  const flush = () => {
    if (pending.length > 0) sink.fail(rule, pending, options.messageAt(pendingMessage), pendingMessage);
    pending = [];
  };
  for (const call of calls) {
    if (call.answered || call.server) continue;
    if (options.open(call)) {
      openToolCalls.push({ id: call.key, name: call.name, at: options.callAt(call), messageIndex: call.message });
      continue;
    }
    if (call.message !== pendingMessage) {
      flush();
      pendingMessage = call.message;
    }
    pending.push(call.key);
  }
  flush();
  return openToolCalls;
}
