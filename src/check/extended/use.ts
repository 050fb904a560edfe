/**
 * Extended checks of tool-use rows against the results they name: a use row must name a
 * terminal result, and the very result (by digest) the turn holds. Internal.
 *
 * Source: HARNESS-TYPESTATE §5 ("no ToolUse row references an unknown/non-terminal result");
 * TOOL-CALLING-HARNESS-TYPESTATE §4.3 (terminal results), §4.4, §4.5.
 *
 * @module
 */
import type { FailureCollector } from '../../failures/internal.ts';
import type { ExtendedContext } from './context.ts';

/**
 * `tool.use_unknown_result` (a use row naming a non-terminal result, or whose `resultDigest` is
 * not the digest of the result the turn holds for that call) and, for a requested call whose
 * only result is non-terminal (`terminal: false`), `tool.result_missing` and
 * `tool.join_incomplete`: a progress or partial row does not answer a call.
 */
export function checkUseReferences(ctx: ExtendedContext, out: FailureCollector): void {
  const nonTerminal = new Set([...ctx.xResults.values()].filter((r) => !r.terminal).map((r) => r.toolCallId));
  const unanswered = [...nonTerminal].filter((id) => ctx.requests.has(id));
  if (unanswered.length > 0) {
    out.add(
      'tool.result_missing',
      'Requested tool calls have only a non-terminal (progress or partial) result.',
      unanswered,
    );
    out.add('tool.join_incomplete', 'The request/result/use join is not closed.', unanswered);
  }
  for (const use of ctx.uses.values()) {
    const result = ctx.results.get(use.toolCallId);
    if (result === undefined) continue; // premath's tool.use_without_result
    const id = [use.toolCallId];
    if (nonTerminal.has(use.toolCallId)) {
      out.add('tool.use_unknown_result', 'Tool-use rows use a non-terminal result.', id);
    } else if (use.resultDigest !== undefined && use.resultDigest !== result.resultDigest) {
      out.add('tool.use_unknown_result', "Tool-use rows name a result digest that is not their result's.", id);
    }
  }
}
