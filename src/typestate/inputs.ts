/**
 * What a caller hands the transitions before they check it: a requested tool call, and what the
 * turn did with a result (a tool-use row and its evidence).
 *
 * @module
 */
import type { ToolUseDisposition } from '../normalize/index.ts';

/**
 * A request as a caller hands it in: tool name and input not yet validated.
 *
 * @example
 * ```ts
 * import type { RequestedToolCall } from 'turngate/types';
 * const call: RequestedToolCall = { toolCallId: 'toolu_01', toolName: 'read_file', input: { path: 'README.md' } };
 * const viaAlias: RequestedToolCall = { toolCallId: 'toolu_02', toolName: 'web_fetcher', method: 'fetch', input: { url: 'https://news.example/rss' } };
 * ```
 */
export interface RequestedToolCall {
  /** The tool call id, as the model sent it. */
  readonly toolCallId: string;
  /** The tool name, as the model sent it. */
  readonly toolName: string;
  /** The arguments, as parsed JSON. */
  readonly input: unknown;
  /** The caller (e.g. a `code_execution` block id), for a programmatic call. */
  readonly callerId?: string;
  /**
   * The method called: one of the tool's canonical `methods` or an alias. Provider wire formats
   * have no method field: where it comes from (the tool name, an input field) is the adapter's
   * choice.
   */
  readonly method?: string;
}

/**
 * Provenance of a `consumed` result: what it was consumed into. A `consumed` row needs at least
 * one of the three refs (TOOL-CALLING-HARNESS-TYPESTATE §4.4). A `mutationInputRef` with a
 * `mutationInput` also declares a mutation intent: `admitMutation` binds it, and
 * `performMutation` runs it once with exactly that input.
 *
 * @example
 * ```ts
 * import type { UseEvidence } from 'turngate/types';
 * const evidence: UseEvidence = { mutationInputRef: 'mutation://issues/BILL-7', mutationInput: { id: 'BILL-7', status: 'closed' } };
 * ```
 */
export interface UseEvidence {
  /** The summary that used the result. */
  readonly summaryRef?: string;
  /** The handoff packet that carried it. */
  readonly handoffRef?: string;
  /** The mutation input built from it. */
  readonly mutationInputRef?: string;
  /** That mutation input itself (JSON data): with `mutationInputRef`, a mutation intent bound by its digest. */
  readonly mutationInput?: unknown;
}

/**
 * What the turn did with one result, as a caller reports it.
 *
 * @example
 * ```ts
 * import type { ToolUseInputRow } from 'turngate/types';
 * const rows: ToolUseInputRow[] = [
 *   { toolCallId: 'toolu_01', disposition: 'consumed', evidence: { summaryRef: 'summary://turn-1' } },
 *   { toolCallId: 'toolu_02', disposition: 'discarded_with_reason', reasonCode: 'stale' },
 * ];
 * ```
 */
export interface ToolUseInputRow {
  /** The tool call whose result this disposes of. */
  readonly toolCallId: string;
  /** What was done with it. */
  readonly disposition: ToolUseDisposition;
  /** Required for `discarded_with_reason`; read for `retry_scheduled`. */
  readonly reasonCode?: string;
  /** Required for `consumed`: what the result was consumed into. */
  readonly evidence?: UseEvidence;
}

/**
 * A row a `useAll` decision may be written as (the check {@link UseDecisionCheck} decides
 * whether its disposition has what it needs).
 *
 * @example
 * ```ts
 * import type { UseDecisionRow } from 'turngate/types';
 * const row: UseDecisionRow = { disposition: 'discarded_with_reason', reasonCode: 'stale' };
 * ```
 */
export interface UseDecisionRow {
  /** What was done with the result. */
  readonly disposition: ToolUseDisposition;
  /** Required for `discarded_with_reason`. */
  readonly reasonCode?: string;
  /** Required for `consumed`. */
  readonly evidence?: UseEvidence;
}
