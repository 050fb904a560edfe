/**
 * `mcpTools`: the tools of connected MCP servers as one registry for the gate, with one handler
 * per tool. Each tool's input is validated against its `inputSchema` (Ajv), each is a read or a
 * mutation by its server's policy, and each is named `<server>__<tool>`.
 *
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ValidateFunction } from 'ajv';
import { sortUtf8 } from '../canonical/index.ts';
import { own, ownField } from '../internal/own-field.ts';
import { defineTools, type ToolDefinition } from '../typestate/index.ts';
import { type CallError, type CallPlan, callTool } from './call.ts';
import { nameTools, SERVER_NAME } from './names.ts';
import { compileSchema, inputSchemaOf, MCP_OUTPUT } from './schema.ts';
import type { McpServerOptions, McpToolEntry, McpTools, McpToolsOptions } from './types.ts';

/** The most pages of `tools/list` read from one server (a server that never ends its list is cut there). */
const MAX_PAGES = 100;
const DEFAULT_MAX_RESULT_BYTES = 1_000_000;
const NEVER = new AbortController().signal;

type Handler = McpTools['handlers'][string];

/** Every tool a server lists, page by page. */
async function listAll(server: string, client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    let listed: Awaited<ReturnType<Client['listTools']>>;
    try {
      listed = await client.listTools(cursor === undefined ? {} : { cursor });
    } catch (error) {
      throw new TypeError(`mcpTools: server ${JSON.stringify(server)}: tools/list failed: ${String(error)}`);
    }
    tools.push(...listed.tools);
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

/** A list option of a server: its own field, each name one the server lists. */
function listOption(server: McpServerOptions, key: 'reads' | 'mutations' | 'include', listed: ReadonlySet<string>) {
  const value = own(server, key);
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    throw new TypeError(`mcpTools: server ${JSON.stringify(server.name)}: ${key}: expected a list of tool names`);
  }
  const unknown = value.filter((name) => !listed.has(name));
  if (unknown.length > 0) {
    throw new TypeError(
      `mcpTools: server ${JSON.stringify(server.name)}: ${key}: ${unknown.map((n) => JSON.stringify(n)).join(', ')} is not a tool the server lists`,
    );
  }
  return new Set<string>(value);
}

/** Whether a tool is a mutation, and why, by its server's policy. */
function classify(
  tool: Tool,
  trusted: boolean,
  reads: ReadonlySet<string> | undefined,
  mutations: ReadonlySet<string> | undefined,
): Pick<McpToolEntry, 'mutation' | 'why'> {
  if (mutations?.has(tool.name) === true) return { mutation: true, why: 'listed_mutation' };
  if (reads?.has(tool.name) === true) return { mutation: false, why: 'listed_read' };
  if (trusted && own(tool.annotations ?? {}, 'readOnlyHint') === true)
    return { mutation: false, why: 'trusted_annotation' };
  return { mutation: true, why: 'default_mutation' };
}

/** Whether each call of a tool needs approval, by its server's `approval` option. */
function approvalOf(server: McpServerOptions, tool: string, mutation: boolean): 'required' | 'none' {
  const approval = own(server, 'approval') ?? 'none';
  if (approval === 'none') return 'none';
  if (approval === 'all') return 'required';
  if (approval === 'mutations') return mutation ? 'required' : 'none';
  if (Array.isArray(approval)) return approval.includes(tool) ? 'required' : 'none';
  throw new TypeError(
    `mcpTools: server ${JSON.stringify(server.name)}: approval: expected 'none', 'mutations', 'all' or a list of tool names`,
  );
}

/** The handler of one tool: approval when its policy asks, then the call. */
function handlerOf(plan: CallPlan, server: McpServerOptions, approval: 'required' | 'none'): Handler {
  const approve = own(server, 'approve');
  return async (input, _second, step) => {
    // The tool loop gives the step's signal; the builder's settle gives none.
    const given = ownField(step, 'signal');
    const signal = given instanceof AbortSignal ? given : NEVER;
    if (approval === 'required') {
      let yes: unknown = false;
      try {
        if (typeof approve === 'function') {
          const request = { server: plan.server, tool: plan.tool, name: plan.name, mutation: plan.mutation };
          yes = await approve({ ...request, arguments: input }, { signal });
        }
      } catch {
        yes = false; // an approval that could not be asked is a no
      }
      if (yes !== true) {
        const denied: CallError = {
          errorCode: 'approval_denied',
          retryable: false,
          message: `${plan.server}/${plan.tool} needs a person's approval and it was not given; it was not sent`,
        };
        throw denied;
      }
    }
    return callTool(plan, input, signal);
  };
}

function checkServers(servers: readonly McpServerOptions[]): void {
  if (!Array.isArray(servers) || servers.length === 0) {
    throw new TypeError('mcpTools: expected a non-empty list of servers ({ name, client })');
  }
  const names = new Set<string>();
  for (const [i, server] of servers.entries()) {
    const name = own(server, 'name');
    if (typeof name !== 'string' || !SERVER_NAME.test(name)) {
      throw new TypeError(
        `mcpTools: servers[${i}].name: expected a letter, then letters, digits or "-" (24 at most; no "_", which separates it from the tool's name), got ${JSON.stringify(name)}`,
      );
    }
    if (names.has(name)) throw new TypeError(`mcpTools: servers[${i}].name: ${JSON.stringify(name)} is given twice`);
    names.add(name);
    const client = own(server, 'client');
    if (client === null || typeof client !== 'object' || typeof (client as Partial<Client>).request !== 'function') {
      throw new TypeError(`mcpTools: servers[${i}].client: expected a connected Client of @modelcontextprotocol/sdk`);
    }
    const approval = own(server, 'approval');
    if (approval !== undefined && approval !== 'none' && typeof own(server, 'approve') !== 'function') {
      throw new TypeError(
        `mcpTools: servers[${i}] (${name}): approval ${JSON.stringify(approval)} needs an approve function: without one every such call would be refused`,
      );
    }
  }
}

/** What the servers' tools become, gathered server by server. */
interface Gathered {
  readonly definitions: Record<string, ToolDefinition>;
  readonly handlers: Record<string, Handler>;
  readonly entries: McpToolEntry[];
  readonly refused: { server: string; tool: string; reason: string }[];
}

/** The schemas of one tool compiled, or why it is left out. */
function schemasOf(tool: Tool): { input: ValidateFunction; output: ValidateFunction | undefined } | string {
  if (tool.execution?.taskSupport === 'required') return 'it runs only as a task (taskSupport: required)';
  const input = compileSchema(tool.inputSchema);
  if (typeof input === 'string') return `its inputSchema is not a JSON Schema Ajv accepts: ${input}`;
  const output = tool.outputSchema === undefined ? undefined : compileSchema(tool.outputSchema);
  if (typeof output === 'string') return `its outputSchema is not a JSON Schema Ajv accepts: ${output}`;
  return { input, output };
}

/** One server's tools into `into`: each named, classified, its schemas compiled, its handler made. */
function gatherServer(
  server: McpServerOptions,
  tools: readonly Tool[],
  limits: Pick<CallPlan, 'maxResultBytes' | 'timeoutMs'>,
  into: Gathered,
): void {
  const names = new Set(tools.map((tool) => tool.name));
  const reads = listOption(server, 'reads', names);
  const mutations = listOption(server, 'mutations', names);
  const include = listOption(server, 'include', names);
  const kept = tools.filter((tool) => include === undefined || include.has(tool.name));
  const named = nameTools(
    server.name,
    kept.map((tool) => tool.name),
  );
  for (const { tool, reason } of named.refused) into.refused.push({ server: server.name, tool, reason });
  for (const tool of kept) {
    const name = named.names.get(tool.name);
    if (name === undefined || Object.hasOwn(into.definitions, name)) continue;
    const schemas = schemasOf(tool);
    if (typeof schemas === 'string') {
      into.refused.push({ server: server.name, tool: tool.name, reason: schemas });
      continue;
    }
    const { mutation, why } = classify(tool, own(server, 'trusted') === true, reads, mutations);
    const approval = approvalOf(server, tool.name, mutation);
    const plan: CallPlan = {
      ...limits,
      client: server.client,
      server: server.name,
      tool: tool.name,
      name,
      mutation,
      output: schemas.output,
      onInputRequired: own(server, 'onInputRequired'),
    };
    const definition: ToolDefinition & { readonly approval: 'required' | 'none'; readonly mcp: object } = {
      input: inputSchemaOf(tool.inputSchema, schemas.input),
      output: MCP_OUTPUT,
      mutation,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      approval,
      mcp: { server: server.name, tool: tool.name, why },
    };
    into.definitions[name] = definition;
    into.handlers[name] = handlerOf(plan, server, approval);
    into.entries.push({ name, server: server.name, tool: tool.name, mutation, why, approval });
  }
}

/**
 * The tools of connected MCP servers as one tool registry for the gate, with a handler per
 * tool: spread `{ tools, handlers }` into any adapter's `toolLoop` options (or give them to the
 * builder as `defineTools`' registries are given). Reads run at once; mutations run only once
 * the turn is closed, once per intent through the loop's effect ledger (the MCP result is what
 * the ledger records and replays).
 *
 * Per tool: its `inputSchema` is compiled by Ajv (draft 2020-12, or draft-07 when its `$schema`
 * says so; formats are not checked, nothing is fetched), and every call's arguments are validated
 * against it before anything is sent (a call that fails is answered `invalid_input`); it is a
 * read when its server lists it in `reads`, or when the server is `trusted` and the tool says
 * `readOnlyHint: true`, and a mutation otherwise (and always when listed in `mutations`); it is
 * declared as `<server>__<tool>` (see docs/guide/mcp.md).
 *
 * Each handler sends `tools/call` (the request `client.callTool` sends; the output schema is
 * checked here, so a result that does not match it after a mutation ran is not mistaken for a
 * refusal) and answers with the result's `structuredContent`, else its text, else its content
 * blocks. Errors: `mcp_tool_error` (the tool answered `isError`), `mcp_call_refused` (the server
 * answered a JSON-RPC error before running it), `effect_outcome_unknown` (a mutation sent and no
 * result came back: the connection closed, a timeout, an internal error; never sent again),
 * `mcp_call_failed` (a read with no result; retryable), `mcp_result_too_large`,
 * `mcp_output_invalid`, `mcp_input_required`, `approval_denied`.
 *
 * @param servers - The connected servers and their policies.
 * @param options - Limits for every call.
 * @returns The registry, the handlers, each tool's entry, and the tools left out with why (a
 *   schema Ajv refuses, a name that cannot be placed, a tool that runs only as a task).
 * @throws TypeError naming the field: a server name out of the grammar or given twice, a client
 *   that is not one, a `reads`/`mutations`/`include` name the server does not list, `approval`
 *   without `approve`, a `maxResultBytes` or `timeoutMs` that is not a positive whole number, a
 *   server whose `tools/list` fails, or no tool left at all.
 * @example
 * ```ts
 * import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { toolLoop } from 'turngate/adapters/anthropic';
 * import { mcpTools } from 'turngate/mcp';
 * declare const client: Client;
 * const mcp = await mcpTools([{ name: 'files', client, reads: ['read_text_file', 'list_directory'] }]);
 * const loop = toolLoop({ ...mcp });
 * loop.tools.map((tool) => tool.name);
 * ```
 */
export async function mcpTools(servers: readonly McpServerOptions[], options: McpToolsOptions = {}): Promise<McpTools> {
  checkServers(servers);
  for (const key of ['maxResultBytes', 'timeoutMs'] as const) {
    const value = own(options, key);
    if (value !== undefined && !(typeof value === 'number' && Number.isSafeInteger(value) && value > 0)) {
      throw new TypeError(`mcpTools: options.${key}: expected a positive whole number, got ${String(value)}`);
    }
  }
  const limits = {
    maxResultBytes: own(options, 'maxResultBytes') ?? DEFAULT_MAX_RESULT_BYTES,
    timeoutMs: own(options, 'timeoutMs'),
  };
  const listed = await Promise.all(servers.map((server) => listAll(server.name, server.client)));
  const gathered: Gathered = { definitions: {}, handlers: {}, entries: [], refused: [] };
  for (const [i, server] of servers.entries()) gatherServer(server, listed[i] ?? [], limits, gathered);
  const { definitions, handlers, entries, refused } = gathered;
  if (entries.length === 0) {
    throw new TypeError(
      `mcpTools: no tool left to declare${refused.length === 0 ? '' : ` (${refused.map((r) => `${r.server}/${r.tool}: ${r.reason}`).join('; ')})`}`,
    );
  }
  const order = sortUtf8(entries.map((entry) => entry.name));
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  return {
    tools: defineTools(definitions),
    handlers,
    entries: order.map((name) => byName.get(name) as McpToolEntry),
    refused,
  };
}
