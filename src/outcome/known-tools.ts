/**
 * The `<known_tools>` prompt block: each contracted tool's purpose, deliverable, canonical methods
 * and required inputs, so a model (or a tool builder) reuses the interfaces that exist instead of
 * inventing near-duplicate method names.
 *
 * Source: ADR 0014, Decision §3 (known-tools prompt injection with canonical method hints);
 * Rollout Phase 3 (precondition guidance in the prompt).
 *
 * @module
 */
import { compareUtf8 } from '../canonical/index.ts';
import type { ToolContract } from './contract.ts';

/** A tool name written as it is; any other (spaces, quotes, YAML words such as `null` or `False`) is JSON-quoted. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const YAML_WORD = /^(?:null|true|false)$/i;

/** JSON text with `<` and `>` escaped, so no value can open or close a tag in the prompt. */
function json(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

/**
 * Renders a registry's contracts as a `<known_tools>` block for a prompt: one entry per tool,
 * sorted by name (UTF-8 byte order), with `purpose`, `deliverable` (its JSON description),
 * `methods` (canonical only: aliases are not advertised) and `requiredInputs`, each line present
 * only when the contract declares it. Values are JSON, so the block between the tags is also
 * valid YAML; `<` and `>` inside values are escaped as `\u003c` / `\u003e`, so no purpose or key
 * can close the block. The same registry always renders the same bytes, whatever the order its
 * definitions were written in.
 *
 * Source: ADR 0014, Decision §3; Open Question 1 (method names only, no argument shapes).
 *
 * @param registry - From `defineContracts` (or any object of contracts from it).
 * @returns The block, without a trailing newline.
 * @throws TypeError when two entries are contracts for the same tool name.
 * @example
 * ```ts
 * import { defineContracts, renderKnownTools } from 'turngate/outcome';
 * const tools = defineContracts({
 *   web_fetcher: { purpose: 'fetch and extract content from URLs', methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } },
 * });
 * renderKnownTools(tools);
 * //=> '<known_tools>\nweb_fetcher:\n  purpose: "fetch and extract content from URLs"\n  methods: ["fetch_url"]\n</known_tools>'
 * ```
 */
export function renderKnownTools(registry: { readonly [key: string]: ToolContract }): string {
  const contracts = Object.values(registry).sort((a, b) => compareUtf8(a.tool, b.tool));
  const lines = ['<known_tools>'];
  for (const [i, contract] of contracts.entries()) {
    if (i > 0 && contracts[i - 1]?.tool === contract.tool)
      throw new TypeError(`renderKnownTools: two contracts for the tool ${JSON.stringify(contract.tool)}`);
    const { tool, purpose, deliverable, methods, requiredInputs } = contract.description;
    lines.push(`${PLAIN_KEY.test(tool) && !YAML_WORD.test(tool) ? tool : json(tool)}:`);
    if (purpose !== undefined) lines.push(`  purpose: ${json(purpose)}`);
    if (deliverable !== undefined) lines.push(`  deliverable: ${json(deliverable)}`);
    if (methods.length > 0) lines.push(`  methods: ${json(methods)}`);
    if (requiredInputs.length > 0) lines.push(`  requiredInputs: ${json(requiredInputs)}`);
  }
  lines.push('</known_tools>');
  return lines.join('\n');
}
