/**
 * What every extended check reads: the decoded input, premath's normalized evidence, the
 * normalized extended evidence, and their rows indexed by id. Internal.
 *
 * @module
 */
import type { JoinCheckInput } from '../../evidence/index.ts';
import type {
  ExtendedNormalized,
  NormalizedEvidence,
  NormalizedExtendedToolRequest,
  NormalizedExtendedToolResult,
  NormalizedExtendedToolUse,
  NormalizedToolPolicyEntry,
  NormalizedToolRequest,
  NormalizedToolResult,
  NormalizedToolUse,
} from '../../normalize/index.ts';

/** The inputs of the extended checks. */
export interface ExtendedContext {
  /** The decoded premath input (constraint blocks, governance profile). */
  readonly input: JoinCheckInput;
  /** premath's normalized evidence. */
  readonly n: NormalizedEvidence;
  /** The normalized extended evidence. */
  readonly x: ExtendedNormalized;
  readonly requests: ReadonlyMap<string, NormalizedToolRequest>;
  readonly results: ReadonlyMap<string, NormalizedToolResult>;
  readonly uses: ReadonlyMap<string, NormalizedToolUse>;
  readonly xRequests: ReadonlyMap<string, NormalizedExtendedToolRequest>;
  readonly xResults: ReadonlyMap<string, NormalizedExtendedToolResult>;
  readonly xUses: ReadonlyMap<string, NormalizedExtendedToolUse>;
  /** The `toolPolicy` allow-list by tool name; `undefined` when the CallSpec has no `toolPolicy`. */
  readonly tools: ReadonlyMap<string, NormalizedToolPolicyEntry> | undefined;
}

function byCallId<T extends { readonly toolCallId: string }>(rows: readonly T[] | undefined): Map<string, T> {
  return new Map((rows ?? []).map((row) => [row.toolCallId, row]));
}

/** Indexes the rows the extended checks look up. */
export function extendedContext(input: JoinCheckInput, n: NormalizedEvidence, x: ExtendedNormalized): ExtendedContext {
  const policy = x.callSpec.toolPolicy;
  return {
    input,
    n,
    x,
    requests: byCallId(n.toolRequests),
    results: byCallId(n.toolResults),
    uses: byCallId(n.toolUse),
    xRequests: byCallId(x.toolRequests),
    xResults: byCallId(x.toolResults),
    xUses: byCallId(x.toolUse),
    tools: policy === undefined ? undefined : new Map((policy.tools ?? []).map((tool) => [tool.toolName, tool])),
  };
}
