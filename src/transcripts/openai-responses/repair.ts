/**
 * Repair of Responses `input` items, driven by the check's analysis (what the reader collected,
 * the call each output paired with, and the located failures); it never reads the items again on
 * its own:
 * - outputs standing after their call stay where they are (Responses pairs anywhere after the
 *   call); outputs before their call move to the end of the model response holding the call;
 * - an output of another type than its call is given its call's type when the two hold the same
 *   fields (function and custom tool outputs); otherwise it goes like an orphan and its call gets a
 *   synthesized output;
 * - orphan outputs (no call in the input, or no `call_id`) are removed, and the text they carried
 *   stays as a user message in their place (`orphanedResultText`); repeated outputs, outputs
 *   without `output`, items repeating an item id, approval responses without their request, and
 *   reasoning items without their follower or, under `store: false`, without their encrypted
 *   content are removed;
 * - an over-long `call_id` is replaced, on the call and its outputs alike, by a shorter one derived
 *   from it (deterministic, unused elsewhere in the input);
 * - `arguments` that are not a string are serialized, a `tool_search_call`'s string arguments
 *   parsed, an output that is no content given its JSON text, an invalid item id left out (a
 *   reasoning item, which needs its id, is removed);
 * - a call without an output gets a synthesized one at the end of its response. A `computer_call`
 *   cannot be answered without a screenshot: an unanswered one is removed instead.
 *
 * Items before the first change are the input's own objects; a changed item is a copy.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../core/input.ts';
import { FailureIndex, orphanedResultText, renamedCall, type TranscriptRepair } from '../core/repair.ts';
import type { CheckOutcome } from '../core/context.ts';
import { analysisOf, type FormatRepair, type RepairContext } from '../core/repairer.ts';
import { type analyzeResponses, ITEM, type OutputSite, type ResponsesCall } from './check.ts';
import { RESPONSES_OUTPUT_ITEM_TYPES } from '../core/kinds.ts';
import { outputText, shortCallId, synthesize, without } from './repair-items.ts';
import { MAX_CALL_ID_LENGTH, type OpenAIResponsesRule } from './rules.ts';

const at = (i: number) => `input[${i}]`;

/** Rules whose failing item repair removes, with what the record says. */
const REMOVE_DETAIL: Partial<Record<OpenAIResponsesRule, string>> = {
  'openai-responses.duplicate_item_id': 'removed the item: an earlier item has its id',
  'openai-responses.duplicate_call_id':
    'removed the call item: an earlier call item has its call_id, and the outputs answer that one',
  'openai-responses.reasoning_without_following_item':
    'removed the reasoning item: the item it came with does not follow it',
  'openai-responses.reasoning_not_persisted':
    'removed the reasoning item: under store: false it names a stored item and carries no encrypted_content',
  'openai-responses.duplicate_function_call_output': 'removed the output item: its call already has an output',
  'openai-responses.mcp_approval_response_orphan':
    'removed the approval response: no mcp_approval_request in the input has its approval_request_id',
};

/** Rules of an output item that keep it from answering its call. */
const PAIRING_FAILURES: readonly OpenAIResponsesRule[] = [
  'openai-responses.function_call_output_orphan',
  'openai-responses.function_call_output_before_call',
  'openai-responses.output_type_mismatch',
  'openai-responses.duplicate_function_call_output',
  'openai-responses.output_missing_field',
];

const FUNCTION = 0;
const CUSTOM = 1;

type Analysis = ReturnType<typeof analyzeResponses>;

/**
 * The edits of one repair, by item index: items removed, orphan outputs replaced by a user
 * message holding their text, items rewritten, and the record of each.
 */
class ItemEdits {
  readonly repairs: TranscriptRepair[] = [];
  readonly removed = new Set<number>();
  /** Orphan outputs replaced by a user message holding their text. */
  readonly orphaned = new Set<number>();
  readonly replaced = new Map<number, JsonObject>();

  constructor(private readonly items: readonly unknown[]) {}

  /** The item as edited so far. */
  current(i: number): JsonObject {
    return this.replaced.get(i) ?? (this.items[i] as JsonObject);
  }

  /** Whether the item is removed (or replaced by an orphan's text). */
  gone(i: number): boolean {
    return this.removed.has(i) || this.orphaned.has(i);
  }

  remove(i: number, rule: OpenAIResponsesRule, ids: readonly string[], detail: string): void {
    if (this.gone(i)) return;
    this.removed.add(i);
    this.replaced.delete(i);
    this.repairs.push({ action: 'removed', rule, ids, at: at(i), detail, removed: this.items[i] });
  }

  /** An output whose call is not in the input: removed, its text kept as a user message in its place. */
  removeOrphan(i: number, rule: OpenAIResponsesRule, ids: readonly string[], detail: string): void {
    if (this.gone(i)) return;
    const kept = orphanedResultText(outputText(this.items[i] as JsonObject));
    if (kept === undefined) {
      this.remove(i, rule, ids, detail);
      return;
    }
    this.orphaned.add(i);
    this.replaced.set(i, { role: 'user', content: kept });
    this.repairs.push({
      action: 'removed',
      rule,
      ids,
      at: at(i),
      detail: `${detail}; its text stays as a user message in its place`,
      removed: this.items[i],
    });
  }

  rewrite(i: number, next: JsonObject, rule: OpenAIResponsesRule, ids: readonly string[], detail: string): void {
    if (this.gone(i)) return;
    this.repairs.push({ action: 'rewrote_field', rule, ids, at: at(i), detail, removed: this.current(i) });
    this.replaced.set(i, next);
  }
}

/** Checks and, when rejected, repairs Responses `input` items. */
export function repairResponses(
  items: readonly unknown[],
  context: RepairContext,
  checked: CheckOutcome<OpenAIResponsesRule>,
): FormatRepair {
  const { outcome, read, pairedCall } = analysisOf<Analysis>(checked);
  if (outcome.failures.length === 0) return { outcome };
  const failures = new FailureIndex(outcome.located);
  const edits = new ItemEdits(items);
  // Removals first, so no field is rewritten on an item that goes.
  removeItems(read, failures, edits);
  renameLongCallIds(read, edits, rewriteFields(failures, edits));
  const after = new Map<number, JsonObject[]>();
  const place = placer(read, items.length, after);
  const answered = placeOutputs(read, pairedCall, failures, edits, place);
  const open = new Set(outcome.openToolCalls.map((call) => call.id));
  synthesizeOutputs(read, edits, answered.answered, answered.named, open, place, context.readOnlyTools);
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    if (!edits.removed.has(i)) out.push(edits.replaced.get(i) ?? items[i]);
    const extra = after.get(i);
    if (extra !== undefined) out.push(...extra);
  }
  return { outcome, repaired: { messages: out, repairs: edits.repairs } };
}

/** The items repair removes for their own failures (orphan outputs keep their text). */
function removeItems(read: Analysis['read'], failures: FailureIndex<OpenAIResponsesRule>, edits: ItemEdits): void {
  for (const { rule, ids, message: i } of failures.all) {
    const detail = REMOVE_DETAIL[rule];
    if (detail !== undefined) edits.remove(i, rule, ids, detail);
    else if (rule === 'openai-responses.function_call_output_orphan')
      edits.removeOrphan(i, rule, ids, 'removed the output item: no call in the input has its call_id');
    else if (rule === 'openai-responses.output_missing_field') {
      if (ids.length === 0) edits.removeOrphan(i, rule, ids, 'removed the output item: it has no call_id');
      else edits.remove(i, rule, ids, 'removed the output item: it has no output');
    } else if (rule === 'openai-responses.item_id_invalid' && read.kinds[i] === ITEM.reasoning)
      edits.remove(i, rule, ids, 'removed the reasoning item: its id is not a reasoning item id');
  }
}

/** The fields repair rewrites in place; returns the over-long call ids to rename. */
function rewriteFields(failures: FailureIndex<OpenAIResponsesRule>, edits: ItemEdits): string[] {
  const renames: string[] = [];
  for (const { rule, ids, message: i } of failures.all) {
    const item = edits.current(i);
    switch (rule) {
      case 'openai-responses.item_id_invalid':
        edits.rewrite(i, without(item, 'id'), rule, ids, 'left out the item id: it is not an id of its type');
        break;
      case 'openai-responses.function_call_without_reasoning':
        if (item['id'] === undefined) break;
        edits.rewrite(
          i,
          without(item, 'id'),
          rule,
          ids,
          'left out the call item id: its reasoning item is not in the input (call_id still pairs it)',
        );
        break;
      case 'openai-responses.function_call_arguments_not_string':
        edits.rewrite(
          i,
          { ...item, arguments: JSON.stringify(item['arguments']) },
          rule,
          ids,
          'wrote the arguments as their JSON string',
        );
        break;
      case 'openai-responses.tool_search_arguments_not_object': {
        let parsed: unknown;
        try {
          parsed = JSON.parse(item['arguments'] as string);
        } catch {
          parsed = undefined;
        }
        if (isJsonObject(parsed))
          edits.rewrite(
            i,
            { ...item, arguments: parsed },
            rule,
            ids,
            'parsed the arguments string into its JSON object',
          );
        break;
      }
      case 'openai-responses.output_not_content':
        edits.rewrite(
          i,
          { ...item, output: JSON.stringify(item['output']) },
          rule,
          ids,
          'wrote the output as its JSON text',
        );
        break;
      case 'openai-responses.call_id_too_long':
        if (ids[0] !== undefined && !renames.includes(ids[0])) renames.push(ids[0]);
        break;
      default:
        break;
    }
  }
  return renames;
}

/**
 * Over-long call ids: one shorter id per key, on its calls and outputs alike. A key whose call
 * is not in the input (held by the server) cannot be renamed on one side only: it stays.
 */
function renameLongCallIds(read: Analysis['read'], edits: ItemEdits, renames: readonly string[]): void {
  if (renames.length === 0) return;
  const used = new Set<string>();
  for (const call of read.calls) used.add(call.key);
  for (const output of read.outputs) if (output.key !== undefined) used.add(output.key);
  for (const key of renames) {
    const first = read.calls.find((call) => call.key === key);
    if (first === undefined) continue;
    const next = shortCallId(key, used);
    for (const call of read.calls)
      if (call.key === key && !edits.gone(call.message))
        edits.replaced.set(call.message, { ...edits.current(call.message), call_id: next });
    for (const output of read.outputs) {
      if (output.key !== key || edits.gone(output.item)) continue;
      const item = edits.current(output.item);
      const field = item['call_id'] === key ? 'call_id' : 'id';
      edits.replaced.set(output.item, { ...item, [field]: next });
    }
    edits.repairs.push(
      renamedCall(
        'openai-responses.call_id_too_long',
        at(first.message),
        key,
        next,
        `renamed call ${key} to ${next} (at most ${MAX_CALL_ID_LENGTH} characters), with its outputs`,
      ),
    );
  }
}

/** Puts an item after the end of the model response (run of model and reasoning items) holding a call. */
function placer(
  read: Analysis['read'],
  n: number,
  after: Map<number, JsonObject[]>,
): (call: ResponsesCall, item: JsonObject) => void {
  const runEnd = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    runEnd[i] =
      read.kinds[i] !== ITEM.input && i + 1 < n && read.kinds[i + 1] !== ITEM.input ? (runEnd[i + 1] as number) : i;
  }
  return (call, item) => {
    const end = runEnd[call.message] as number;
    const list = after.get(end);
    if (list === undefined) after.set(end, [item]);
    else list.push(item);
  };
}

/**
 * Outputs before their call or of another type than their call's: moved after the call, given
 * its call's type, or removed. Returns the calls an output answers, and the calls some output names.
 */
function placeOutputs(
  read: Analysis['read'],
  pairedCall: Analysis['pairedCall'],
  failures: FailureIndex<OpenAIResponsesRule>,
  edits: ItemEdits,
  place: (call: ResponsesCall, item: JsonObject) => void,
): { answered: Set<ResponsesCall>; named: Set<ResponsesCall> } {
  const answered = new Set<ResponsesCall>();
  const named = new Set<ResponsesCall>();
  for (let o = 0; o < read.outputs.length; o++) {
    const call = pairedCall[o];
    if (call === undefined) continue;
    named.add(call);
    const output = read.outputs[o] as OutputSite;
    if (!edits.gone(output.item) && failures.find(output.item, -1, PAIRING_FAILURES) === undefined) answered.add(call);
  }
  for (let o = 0; o < read.outputs.length; o++) {
    const output = read.outputs[o] as OutputSite;
    const call = pairedCall[o];
    if (call === undefined || output.key === undefined || edits.gone(output.item)) continue;
    const rule = failures.find(output.item, -1, [
      'openai-responses.function_call_output_before_call',
      'openai-responses.output_type_mismatch',
    ])?.rule;
    if (rule === undefined) continue;
    const ids = [output.key];
    if (edits.gone(call.message)) {
      edits.removeOrphan(output.item, rule, ids, 'removed the output item: its call was removed');
    } else if (answered.has(call)) {
      edits.remove(output.item, rule, ids, 'removed the output item: its call already has an output');
    } else if (rule === 'openai-responses.function_call_output_before_call') {
      answered.add(call);
      edits.removed.add(output.item);
      place(call, edits.current(output.item));
      edits.repairs.push({
        action: 'moved_result',
        rule,
        ids,
        at: at(output.item),
        detail: `moved the output item after ${at(call.message)}, to the end of that response`,
      });
    } else if (
      (call.kind === FUNCTION || call.kind === CUSTOM) &&
      (output.kind === FUNCTION || output.kind === CUSTOM)
    ) {
      answered.add(call);
      const type = RESPONSES_OUTPUT_ITEM_TYPES[call.kind] as string;
      edits.rewrite(
        output.item,
        { ...without(edits.current(output.item), 'id'), type },
        rule,
        ids,
        `made the output a ${type}, the type of its call`,
      );
    } else {
      edits.removeOrphan(output.item, rule, ids, "removed the output item: it is not of its call's output type");
    }
  }
  return { answered, named };
}

/** Writes an error output for each call left without one (a computer call, which cannot have one, is removed). */
function synthesizeOutputs(
  read: Analysis['read'],
  edits: ItemEdits,
  answered: Set<ResponsesCall>,
  named: ReadonlySet<ResponsesCall>,
  open: ReadonlySet<string>,
  place: (call: ResponsesCall, item: JsonObject) => void,
  readOnlyTools: RepairContext['readOnlyTools'],
): void {
  for (const call of read.calls) {
    if (edits.gone(call.message) || answered.has(call) || open.has(call.key)) continue;
    // A repeated call id counts as answered without an output of its own: only uniqueness concerns it.
    if (call.answered && !named.has(call)) continue;
    const output = synthesize(edits.current(call.message), readOnlyTools);
    answered.add(call);
    if (output === undefined) {
      edits.remove(
        call.message,
        'openai-responses.function_call_unanswered',
        [call.key],
        'removed the computer call: it has no output and none can be written without a screenshot',
      );
      continue;
    }
    place(call, output);
    edits.repairs.push({
      action: 'synthesized_result',
      rule: 'openai-responses.function_call_unanswered',
      ids: [call.key],
      at: at(call.message),
      detail: `wrote an error output for call ${call.key}: it had none`,
    });
  }
}
