/**
 * The Bedrock Converse rules over `messages`, run over what the reader (`read.ts`) collected in
 * its one pass. Roles alternate strictly, starting with `user`; the `toolResult` blocks answering
 * an assistant message's `toolUse` blocks all stand in the one user message right after it
 * ("Call a tool with the Converse API", step 3; the API's count errors).
 *
 * @module
 */
import { type CallSite, reportUnanswered } from '../core/calls.ts';
import type { CheckContext, CheckOutcome } from '../core/context.ts';
import type { Extension } from '../core/driver.ts';
import { isJsonObject } from '../core/input.ts';
import { isWordId } from '../core/names.ts';
import { FailureSink } from '../core/report.ts';
import { type BedrockRead, type BlockSite, MESSAGE, type ResultSite, readBedrock } from './read.ts';
import { BEDROCK_CONVERSE_RULES, type BedrockConverseRule } from './rules.ts';

export { type BedrockRead, readBedrock } from './read.ts';

const at = (i: number) => `messages[${i}]`;
const blockAt = (i: number, j: number) => `messages[${i}].content[${j}]`;

/** The check, what the reader collected, and the rule each result broke (for repair). */
export interface BedrockAnalysis {
  readonly outcome: CheckOutcome<BedrockConverseRule>;
  readonly read: BedrockRead;
  /** The rule each `read.results` entry broke, by its index (none for a result in place). */
  readonly resultRules: ReadonlyMap<number, BedrockConverseRule>;
  /** Every block whose tool use id is outside the grammar (calls, then orphaned results). */
  readonly badIds: readonly BlockSite[];
}

/** Checks Converse `messages` (already known to be an array) against every Bedrock Converse rule. */
export function checkBedrock(messages: readonly unknown[], context: CheckContext): CheckOutcome<BedrockConverseRule> {
  const analysis = analyzeBedrock(messages, context);
  return { ...analysis.outcome, analysis };
}

/** The check with what the reader collected (for repair). */
export function analyzeBedrock(messages: readonly unknown[], context: CheckContext): BedrockAnalysis {
  const read = readBedrock(messages);
  const { flags } = read;
  const sink = new FailureSink(BEDROCK_CONVERSE_RULES);
  const n = messages.length;
  const last = n - 1;
  const assistant = (i: number) => ((flags[i] as number) & MESSAGE.assistant) !== 0;
  /** One failure of `rule` at a block, at `field` inside it; the block's id when `withId`. */
  const blockFailure = (rule: BedrockConverseRule, site: BlockSite, field: string, withId = true) =>
    sink.fail(
      rule,
      withId ? [site.key as string] : [],
      `${blockAt(site.message, site.slot)}.${field}`,
      site.message,
      site.slot,
    );

  if (n > 0 && assistant(0)) sink.fail('bedrock-converse.first_message_not_user', [], at(0), 0);
  // One failure per run of consecutive messages of one role, at the run's first message (where repair joins it).
  for (let i = 1; i < n; i++) {
    if (assistant(i) !== assistant(i - 1)) continue;
    const start = i - 1;
    while (i + 1 < n && assistant(i + 1) === assistant(i)) i++;
    sink.fail('bedrock-converse.roles_not_alternating', [], at(start), start);
  }

  const resultRules = new Map<number, BedrockConverseRule>();
  const badIds: BlockSite[] = [...read.badIds];
  pairResults(read, resultRules, badIds, sink);
  for (const site of badIds) {
    const field = (flags[site.message] as number) & MESSAGE.assistant ? 'toolUse' : 'toolResult';
    blockFailure('bedrock-converse.tool_use_id_invalid', site, `${field}.toolUseId`);
  }
  for (const site of read.badNames) blockFailure('bedrock-converse.tool_use_name_invalid', site, 'toolUse.name');
  const openToolCalls = reportUnanswered(read.calls, sink, 'bedrock-converse.tool_use_unanswered', {
    open: (call) => context.expect === 'received' && call.message === last,
    callAt: (call) => `${blockAt(call.message, call.slot)}.toolUse`,
    messageAt: at,
  });

  for (const i of read.emptyMessages) sink.fail('bedrock-converse.message_content_empty', [], `${at(i)}.content`, i);
  for (const site of read.blankTexts) blockFailure('bedrock-converse.text_block_blank', site, 'text', false);
  for (const site of read.badStatus)
    blockFailure('bedrock-converse.tool_result_status_invalid', site, 'toolResult.status');
  for (const site of read.badJson)
    blockFailure('bedrock-converse.tool_result_json_not_object', site, `toolResult.content[${site.part}].json`);
  checkRequest(read, context, sink);
  return { outcome: { failures: sink.sorted(), openToolCalls, located: sink.located }, read, resultRules, badIds };
}

/**
 * Classifies each result once. A result is in place in the user message right after the
 * assistant message holding its call (the first result there claims the call, a second is a
 * duplicate); a result whose call stands elsewhere is misplaced (or, when its call is answered in
 * place, a duplicate); a result without a call is an orphan. Results in place are classified first,
 * so a misplaced copy never takes a call from the result that answers it where the API needs it.
 */
function pairResults(
  read: BedrockRead,
  resultRules: Map<number, BedrockConverseRule>,
  badIds: BlockSite[],
  sink: FailureSink,
): void {
  const { results, table, flags } = read;
  const owner = (message: number) =>
    message > 0 && ((flags[message - 1] as number) & MESSAGE.assistant) !== 0 ? message - 1 : -1;
  const deferred: number[] = [];
  for (let index = 0; index < results.length; index++) {
    const result = results[index] as ResultSite;
    const local = table.inMessage(result.key, owner(result.message));
    if (local === undefined || local.server) {
      deferred.push(index);
      continue;
    }
    if (table.claim(local)) local.answered = true;
    else resultRules.set(index, 'bedrock-converse.duplicate_tool_result');
  }
  for (const index of deferred) {
    const result = results[index] as ResultSite;
    const call: CallSite | undefined = table.get(result.key);
    if (call === undefined || call.server) {
      resultRules.set(index, 'bedrock-converse.tool_result_orphan');
      if (!isWordId(result.key, 64)) badIds.push({ message: result.message, slot: result.slot, key: result.key });
    } else if (!table.claim(call)) resultRules.set(index, 'bedrock-converse.duplicate_tool_result');
    else resultRules.set(index, 'bedrock-converse.tool_result_not_after_call');
  }
  for (let index = 0; index < results.length; index++) {
    const rule = resultRules.get(index);
    if (rule === undefined) continue;
    const result = results[index] as ResultSite;
    sink.fail(rule, [result.key], `${blockAt(result.message, result.slot)}.toolResult`, result.message, result.slot);
  }
}

/**
 * The rules that read the request body around the messages (only request bodies show them):
 * `toolConfig` must be sent while the messages hold tool blocks; with Claude's extended thinking
 * on (`additionalModelRequestFields.thinking.type` `enabled`), the assistant message opening the
 * current tool use loop starts with its `reasoningContent` block once its calls were answered.
 */
function checkRequest(read: BedrockRead, context: CheckContext, sink: FailureSink): void {
  const body = context.body;
  if (body === undefined) return;
  const tool = read.firstTool;
  if (tool !== undefined && (body['toolConfig'] === undefined || body['toolConfig'] === null)) {
    const field = (read.flags[tool.message] as number) & MESSAGE.assistant ? 'toolUse' : 'toolResult';
    sink.fail(
      'bedrock-converse.tool_config_missing',
      [tool.key as string],
      `${blockAt(tool.message, tool.slot)}.${field}`,
      tool.message,
      tool.slot,
    );
  }
  const extra = body['additionalModelRequestFields'];
  const thinking = isJsonObject(extra) ? extra['thinking'] : undefined;
  if (!isJsonObject(thinking) || thinking['type'] !== 'enabled') return;
  const { flags } = read;
  const first = read.lastUserTurn + 1;
  if (first >= flags.length - 1) return;
  const f = flags[first] as number;
  if ((f & MESSAGE.call) === 0 || (f & MESSAGE.reasoningFirst) !== 0) return;
  const ids = read.calls.filter((c) => c.message === first && !c.server).map((c) => c.key);
  sink.fail('bedrock-converse.reasoning_block_missing', ids, blockAt(first, 0), first, 0);
}

/** The messages standing for a history's last message, by its role (text only: no rule fails them). */
const LEAD_USER: readonly unknown[] = Object.freeze([
  Object.freeze({ role: 'user', content: Object.freeze([Object.freeze({ text: '.' })]) }),
]);
const LEAD_ASSISTANT: readonly unknown[] = Object.freeze([
  ...LEAD_USER,
  Object.freeze({ role: 'assistant', content: Object.freeze([Object.freeze({ text: '.' })]) }),
]);

/**
 * What a checked Bedrock Converse history carries for its extension by a tail read alone
 * (`FormatDriver.extendable`), or `undefined` when a tail's own check does not decide the whole
 * history: a check of a request body (`tool_config_missing` reads the first tool block of the
 * whole conversation, `reasoning_block_missing` the current tool use loop, which may start in
 * the history). The calls are every `toolUse` id (a tail may not repeat one). The role rules
 * (`first_message_not_user`, `roles_not_alternating`) read a message's predecessor: the tail's
 * check reads a text message of the history's last role first (after a user message when that
 * role is the assistant's, so the lead itself starts with the user); none for an empty history,
 * whose tail's first message is the conversation's first. Results pair with the calls of the
 * assistant message right before them, else by id: an accepted history leaves no call
 * unanswered, so a tail result whose call stands in the history is an orphan in the tail's check
 * (checked whole), and one whose call stands in the tail pairs the same in both checks.
 */
export function bedrockExtendable(analysis: unknown, context: CheckContext): Extension | undefined {
  if (context.body !== undefined) return undefined;
  const { read } = analysis as BedrockAnalysis;
  const { flags, calls } = read;
  if (flags.length === 0) return { calls };
  return { calls, lead: ((flags[flags.length - 1] as number) & MESSAGE.assistant) !== 0 ? LEAD_ASSISTANT : LEAD_USER };
}
