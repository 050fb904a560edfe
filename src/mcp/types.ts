/**
 * The public types of `turngate/mcp`: the servers given, the hooks, and the registry made.
 *
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ToolDefinitions, ToolRegistry } from '../typestate/index.ts';

/**
 * What a tool answered when it needs input before it runs, as {@link McpServerOptions.onInputRequired}
 * gets it:
 * - `url_elicitation` (MCP 2025-11-25): the server answered the call with the JSON-RPC error
 *   `-32042` (`URLElicitationRequiredError`) and the URLs the user must visit (`elicitations`).
 *   Once the user has, the same call is sent again.
 * - `input_required` (the 2026-07-28 draft's Multi Round-Trip Requests): the server answered
 *   `resultType: "input_required"` with `inputRequests` (keyed by the server) and an opaque
 *   `requestState`. The same call is sent again with `inputResponses` (one per key) and the
 *   `requestState` as it came.
 *
 * @example
 * ```ts
 * import type { McpInputRequest } from 'turngate/mcp';
 * const ask = (request: McpInputRequest) => (request.kind === 'url_elicitation' ? request.elicitations : Object.keys(request.inputRequests));
 * ```
 */
export type McpInputRequest = {
  /** The server's name (its namespace). */
  readonly server: string;
  /** The tool's name on its server. */
  readonly tool: string;
  /** The gate's name of the tool (`<server>__<tool>`). */
  readonly name: string;
  /** The call's arguments, as validated. */
  readonly arguments: unknown;
} & (
  | {
      readonly kind: 'url_elicitation';
      /** The server's URL elicitations (`mode: "url"`, `url`, `elicitationId`, `message`), as it sent them. */
      readonly elicitations: readonly unknown[];
      /** The error's message. */
      readonly message: string;
    }
  | {
      readonly kind: 'input_required';
      /** The server's input requests (elicitation, sampling, roots), by its keys. */
      readonly inputRequests: { readonly [key: string]: unknown };
      /** The opaque state to echo on the retry (absent when the server gave none). */
      readonly requestState?: string;
    }
);

/**
 * What {@link McpInputHook} answers: `{}` (the user completed the URL elicitation) or
 * `{ inputResponses }` (one per input request key) to send the same call once more, or
 * `undefined` to leave it unrun (the call is answered `mcp_input_required`).
 *
 * @example
 * ```ts
 * import type { McpInputAnswer } from 'turngate/mcp';
 * const answer: McpInputAnswer = { inputResponses: { confirm: { action: 'accept', content: { ok: true } } } };
 * ```
 */
export interface McpInputAnswer {
  /** The responses, by the server's input request keys (MRTR); none for a URL elicitation. */
  readonly inputResponses?: { readonly [key: string]: unknown };
}

/**
 * Asked when a tool needs input before it runs; the call waits for it. The same call is sent
 * again once with its answer; a tool that asks again is answered `mcp_input_required`.
 *
 * @example
 * ```ts
 * import type { McpInputHook } from 'turngate/mcp';
 * const decline: McpInputHook = async () => undefined;
 * ```
 */
export type McpInputHook = (
  request: McpInputRequest,
  step: { readonly signal: AbortSignal },
) => McpInputAnswer | undefined | Promise<McpInputAnswer | undefined>;

/**
 * A call to a tool whose policy asks for a person's approval, as {@link McpServerOptions.approve}
 * gets it (before the call is sent; for a mutation, once the turn is closed and its intent claimed).
 *
 * @example
 * ```ts
 * import type { McpApprovalRequest } from 'turngate/mcp';
 * const line = (request: McpApprovalRequest) => `${request.server}/${request.tool} ${JSON.stringify(request.arguments)}`;
 * ```
 */
export interface McpApprovalRequest {
  readonly server: string;
  readonly tool: string;
  readonly name: string;
  readonly mutation: boolean;
  readonly arguments: unknown;
}

/**
 * One connected MCP server and how far the gate trusts it.
 *
 * @example
 * ```ts
 * import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import type { McpServerOptions } from 'turngate/mcp';
 * declare const client: Client;
 * const files: McpServerOptions = { name: 'files', client, reads: ['read_file', 'list_directory'] };
 * ```
 */
export interface McpServerOptions {
  /**
   * The server's namespace: each tool is declared `<name>__<tool>`. A letter, then letters,
   * digits and `-`, 24 at most; unique among the servers.
   */
  readonly name: string;
  /** A connected `Client` of `@modelcontextprotocol/sdk`. */
  readonly client: Client;
  /**
   * Trust the server's tool annotations: a tool with `readOnlyHint: true` is a read. Default
   * `false`: the specification says a client must treat annotations as untrusted unless they
   * come from a trusted server, so every tool is mutating unless listed in `reads`.
   */
  readonly trusted?: boolean;
  /** The server's tools that are reads (run at once, never through the effect ledger). */
  readonly reads?: readonly string[];
  /** The server's tools that are mutating whatever their annotations say (wins over `reads` and trust). */
  readonly mutations?: readonly string[];
  /** Only these tools of the server are declared (default: all it lists). */
  readonly include?: readonly string[];
  /**
   * Which tools need a person's approval before each call: `'mutations'`, `'all'`, a list of
   * the server's tool names, or `'none'` (the default). Each definition carries the answer as
   * its `approval` field; `approve` must then be given.
   */
  readonly approval?: 'none' | 'mutations' | 'all' | readonly string[];
  /**
   * Asked before each call of a tool whose `approval` is `'required'`: `true` sends it, anything
   * else answers the call `approval_denied` (not sent; for a mutation, recorded, so a replay of
   * the same intent is not asked again).
   */
  readonly approve?: (
    request: McpApprovalRequest,
    step: { readonly signal: AbortSignal },
  ) => boolean | Promise<boolean>;
  /** Asked when a tool needs input before it runs (see {@link McpInputRequest}); default: none, the call is answered `mcp_input_required`. */
  readonly onInputRequired?: McpInputHook;
}

/**
 * Options of {@link mcpTools} for every server.
 *
 * @example
 * ```ts
 * import type { McpToolsOptions } from 'turngate/mcp';
 * const options: McpToolsOptions = { maxResultBytes: 256_000, timeoutMs: 30_000 };
 * ```
 */
export interface McpToolsOptions {
  /** The largest result passed on, in bytes of its JSON (default 1 MB): a larger one is answered `mcp_result_too_large`. */
  readonly maxResultBytes?: number;
  /** The time a call may take, in milliseconds (default: the SDK's, 60 s). */
  readonly timeoutMs?: number;
}

/**
 * How the gate sees one MCP tool.
 *
 * @example
 * ```ts
 * import type { McpToolEntry } from 'turngate/mcp';
 * const entry: McpToolEntry = { name: 'files__read_file', server: 'files', tool: 'read_file', mutation: false, why: 'listed_read', approval: 'none' };
 * ```
 */
export interface McpToolEntry {
  /** The gate's name (what the model calls). */
  readonly name: string;
  readonly server: string;
  /** The tool's name on its server. */
  readonly tool: string;
  /** Whether it runs only through the mutation gate. */
  readonly mutation: boolean;
  /**
   * Why it is a read or a mutation: `listed_read` / `listed_mutation` (the server's options),
   * `trusted_annotation` (a trusted server's `readOnlyHint`), `default_mutation` (nothing says it is a read).
   */
  readonly why: 'listed_read' | 'listed_mutation' | 'trusted_annotation' | 'default_mutation';
  /** Whether each call needs a person's approval first. */
  readonly approval: 'required' | 'none';
}

/**
 * What {@link mcpTools} makes: the registry and its handlers (spread them into any adapter's
 * `toolLoop` options), what each tool is, and the tools left out.
 *
 * @example
 * ```ts
 * import type { McpTools } from 'turngate/mcp';
 * declare const mcp: McpTools;
 * mcp.entries.filter((entry) => entry.mutation).map((entry) => entry.name);
 * ```
 */
export interface McpTools {
  /** The registry (as `defineTools` makes it): one definition per tool, its `inputSchema` as the input schema. */
  readonly tools: ToolRegistry<ToolDefinitions>;
  /**
   * One handler per tool: each sends `tools/call` to its server. The tool loop gives each the
   * step's `{ signal }`; without one (the builder's `settle`) a call is not aborted.
   */
  readonly handlers: {
    readonly [name: string]: (
      input: unknown,
      second: unknown,
      step?: { readonly signal: AbortSignal },
    ) => Promise<unknown>;
  };
  /** Each declared tool, in the registry's name order. */
  readonly entries: readonly McpToolEntry[];
  /** The tools left out, each with why (a schema Ajv refuses, a name that cannot be placed, a task-only tool). */
  readonly refused: readonly { readonly server: string; readonly tool: string; readonly reason: string }[];
}
