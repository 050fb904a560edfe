/**
 * Extended checks of tool policy: the allow-list and per-tool schema digests, the tool choice,
 * text-mode adapter provenance, discovery of deferred tools, usage-example digests, allowed
 * callers and programmatic caller edges. Internal.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §3 (advanced tool use), §4.1 (`toolChoice`,
 * `toolPolicy`, `toolCatalogDigest`, `deferPolicyDigest`, `toolExampleDigest`,
 * `allowedCallersDigest`), §4.2, §4.3 (caller edges), §5.3, §8 slices 4-6.
 *
 * @module
 */
import { digest } from '../../canonical/index.ts';
import type { FailureCollector } from '../../failures/internal.ts';
import { DIRECT_CALLER, type NormalizedToolSearch } from '../../normalize/index.ts';
import type { ExtendedContext } from './context.ts';

/** The caller of a request: its `callerId`, or `direct` when the model called the tool itself. */
export function callerOf(callerId: string | undefined): string {
  return callerId ?? DIRECT_CALLER;
}

/**
 * `tool.unknown_or_disallowed` (a tool outside the `toolPolicy` allow-list, or other than the
 * one a `specific` tool choice names) and `tool.schema_invalid` (a request without the
 * `schemaDigest` it was validated against, or with another than its tool's; a text-mode request
 * without the adapter profile that produced it).
 */
export function checkToolPolicy(ctx: ExtendedContext, out: FailureCollector): void {
  const choice = ctx.x.callSpec.toolChoice;
  const textMode = ctx.n.callSpec.actionMode === 'text';
  for (const request of ctx.requests.values()) {
    const id = [request.toolCallId];
    if (ctx.tools !== undefined) {
      const entry = ctx.tools.get(request.toolName);
      if (entry === undefined) {
        out.add('tool.unknown_or_disallowed', `Tool \`${request.toolName}\` is not in the toolPolicy allow-list.`, id);
      } else if (request.schemaDigest === undefined) {
        out.add('tool.schema_invalid', 'Requests carry no schemaDigest to show what schema validated them.', id);
      } else if (request.schemaDigest !== entry.schemaDigest) {
        out.add(
          'tool.schema_invalid',
          `A request's schemaDigest is not its tool's in toolPolicy (\`${request.toolName}\`: \`${entry.schemaDigest}\`).`,
          id,
        );
      }
    }
    if (choice?.mode === 'specific' && callerOf(request.callerId) === DIRECT_CALLER) {
      if (request.toolName !== choice.toolName) {
        out.add(
          'tool.unknown_or_disallowed',
          `The tool choice is \`specific\` to \`${choice.toolName}\` but the model called \`${request.toolName}\`.`,
          id,
        );
      }
    }
    if (textMode && ctx.xRequests.get(request.toolCallId)?.adapterProfileRef === undefined) {
      out.add(
        'tool.schema_invalid',
        'Text mode: requests must come from a deterministic adapter profile (adapterProfileRef), not from free text.',
        id,
      );
    }
  }
}

/**
 * `tool.discovery_mismatch` (a search bound to another catalog, a result-set digest that is not
 * the digest of the result names, a discovered tool its search did not return, a
 * `searchRefDigest` that is not its search's) and `tool.discovery_unresolved` (a deferred tool requested without the search that
 * found it, a request naming a search the turn does not have, a search result outside the
 * catalog, searches without a catalog).
 */
export function checkDiscovery(ctx: ExtendedContext, out: FailureCollector): void {
  const computed = ctx.x.digests;
  const searches = ctx.x.toolSearches ?? [];
  const byId = new Map(searches.map((s) => [s.searchId, s]));
  const byRef = new Map(searches.map((s) => [s.searchRefDigest, s]));
  for (const search of searches) {
    const id = [search.searchId];
    if (ctx.tools === undefined) {
      out.add('tool.discovery_unresolved', 'Tool searches ran but the CallSpec has no toolPolicy catalog.', id);
      continue;
    }
    if (search.catalogDigest !== computed.toolCatalogDigest) {
      out.add('tool.discovery_mismatch', "A tool search searched another catalog than the CallSpec's.", id);
    }
    if (search.resultSetDigest !== resultSetDigestOf(search)) {
      out.add('tool.discovery_mismatch', "A search's resultSetDigest is not the digest of its result names.", id);
    }
    if ((search.resultToolNames ?? []).some((name) => !ctx.tools?.has(name))) {
      out.add('tool.discovery_unresolved', 'A tool search returned tools that are not in the catalog.', id);
    }
  }
  for (const request of ctx.requests.values()) {
    const id = [request.toolCallId];
    const searchId = ctx.xRequests.get(request.toolCallId)?.searchId;
    let search: NormalizedToolSearch | undefined;
    if (searchId !== undefined) {
      search = byId.get(searchId);
      if (search === undefined)
        out.add('tool.discovery_unresolved', 'A request names a search the turn has no row for.', id);
    } else if (request.searchRefDigest !== undefined) {
      search = byRef.get(request.searchRefDigest);
      if (search === undefined)
        out.add('tool.discovery_unresolved', "A request's searchRefDigest names no search of the turn.", id);
    }
    if (search !== undefined) {
      if (request.searchRefDigest !== undefined && request.searchRefDigest !== search.searchRefDigest) {
        out.add('tool.discovery_mismatch', "A request's searchRefDigest is not the digest of the search it names.", id);
      }
      if (!(search.resultToolNames ?? []).includes(request.toolName)) {
        out.add('tool.discovery_mismatch', 'A discovered tool is not in the result set of its search.', id);
      }
    } else if (searchId === undefined && request.searchRefDigest === undefined) {
      if (ctx.tools?.get(request.toolName)?.deferLoading === true) {
        out.add('tool.discovery_unresolved', 'A deferred tool was called without the search that discovered it.', id);
      }
    }
  }
}

/** The result-set digest of a search: the digest of its result names, sorted and deduplicated. */
function resultSetDigestOf(search: NormalizedToolSearch): string {
  return digest(search.resultToolNames ?? []);
}

/** `tool.example_digest_mismatch`: a request was shown other usage examples than its tool's in `toolPolicy`. */
export function checkExamples(ctx: ExtendedContext, out: FailureCollector): void {
  for (const request of ctx.requests.values()) {
    const shown = ctx.xRequests.get(request.toolCallId)?.exampleDigest;
    const entry = ctx.tools?.get(request.toolName);
    if (shown === undefined || entry === undefined) continue;
    if (shown !== entry.exampleDigest) {
      out.add(
        'tool.example_digest_mismatch',
        `A request was shown usage examples other than its tool's in toolPolicy (\`${request.toolName}\`).`,
        [request.toolCallId],
      );
    }
  }
}

/**
 * `tool.caller_not_allowed` (a caller outside its tool's `allowedCallers`) and
 * `tool.programmatic_caller_edge_invalid` (a call made by code without a `parentToolCallId`, a
 * direct call naming one, a parent that is not a direct call of the caller tool in this turn).
 */
export function checkCallers(ctx: ExtendedContext, out: FailureCollector): void {
  const invalid = 'tool.programmatic_caller_edge_invalid';
  for (const request of ctx.requests.values()) {
    const id = [request.toolCallId];
    const caller = callerOf(request.callerId);
    const entry = ctx.tools?.get(request.toolName);
    if (entry !== undefined && !(entry.allowedCallers ?? []).includes(caller)) {
      out.add('tool.caller_not_allowed', `\`${request.toolName}\` may not be called by \`${caller}\`.`, id);
    }
    const parentId = ctx.xRequests.get(request.toolCallId)?.parentToolCallId;
    if (caller === DIRECT_CALLER) {
      if (parentId !== undefined) out.add(invalid, 'A direct call names a parentToolCallId.', id);
      continue;
    }
    if (parentId === undefined) {
      out.add(invalid, 'A call made by code has no parentToolCallId (its caller edge).', id);
      continue;
    }
    const parent = ctx.requests.get(parentId);
    if (parentId === request.toolCallId) {
      out.add(invalid, 'A caller edge names the call itself as its parent.', id);
    } else if (parent === undefined) {
      out.add(invalid, 'A caller edge names a parent call the turn did not request.', id);
    } else if (parent.toolName !== caller || callerOf(parent.callerId) !== DIRECT_CALLER) {
      out.add(invalid, 'A caller edge names a parent that is not a direct call of its caller tool.', id);
    }
  }
}
