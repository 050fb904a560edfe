/**
 * One MCP tool call as a gate handler runs it: `tools/call` on the server's client, an answer
 * that needs input resumed once through the caller's hook, and the result turned into the
 * tool's output, or into an error that says truthfully what happened (the tool answered an
 * error, the server refused the call, or the outcome is unknown). Internal.
 *
 * Source: MCP 2025-11-25, Server / Tools (tool results, error handling), Client / Elicitation
 * (URL mode, `URLElicitationRequiredError`); MCP 2026-07-28 draft, Multi Round-Trip Requests
 * (`resultType: "input_required"`, `inputRequests`, `requestState`).
 *
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ValidateFunction } from 'ajv';
import { describeThrown, excerpt } from '../internal/display.ts';
import { ownField } from '../internal/own-field.ts';
import { snapshotOwnData, snapshotProblem } from '../internal/own-data.ts';
import type { McpInputAnswer, McpInputHook, McpInputRequest } from './types.ts';

/** What a handler throws: the loop answers the call with it (and records it for a mutation). */
export interface CallError {
  readonly errorCode: string;
  readonly retryable: boolean;
  readonly message: string;
}

/** What one call needs beside its arguments. */
export interface CallPlan {
  readonly client: Client;
  /** The server's name (the namespace). */
  readonly server: string;
  /** The tool's name on its server. */
  readonly tool: string;
  /** The gate's name of the tool. */
  readonly name: string;
  readonly mutation: boolean;
  /** The tool's `outputSchema`, compiled, when it has one. */
  readonly output: ValidateFunction | undefined;
  readonly maxResultBytes: number;
  readonly timeoutMs: number | undefined;
  readonly onInputRequired: McpInputHook | undefined;
}

/** JSON-RPC errors a server answers a request with before running it: the tool did not run. */
const REFUSED_CODES = new Map([
  [-32700, 'parse error'],
  [-32600, 'invalid request'],
  [-32601, 'method not found'],
  [-32602, 'invalid params'],
]);
const URL_ELICITATION_REQUIRED = -32042;

function fail(errorCode: string, message: string, retryable = false): CallError {
  return { errorCode, retryable, message };
}

/** The text blocks of a result's `content`, joined by newlines; `undefined` when a block is not text. */
function textOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const block of content) {
    if (ownField(block, 'type') !== 'text') return undefined;
    const text = ownField(block, 'text');
    if (typeof text !== 'string') return undefined;
    texts.push(text);
  }
  return texts.join('\n');
}

/**
 * A completed result as the tool's output: its `structuredContent` when it has one (checked
 * against the `outputSchema`), else its text (text blocks joined by newlines), else its `content`
 * blocks as JSON. Copied as own JSON data (a `__proto__` key stays a key). Throws a
 * {@link CallError} for an `isError` result, a result over the size limit, or one that is not
 * what the tool declared.
 */
export function outputOf(plan: CallPlan, result: unknown, bytes: number): unknown {
  const who = `${plan.server}/${plan.tool}`;
  const ran = plan.mutation ? 'the tool ran and answered, but ' : '';
  if (bytes > plan.maxResultBytes) {
    throw fail(
      'mcp_result_too_large',
      `${ran}${who} answered ${bytes} bytes, over maxResultBytes (${plan.maxResultBytes}); the result was not passed on`,
    );
  }
  const content = ownField(result, 'content');
  if (ownField(result, 'isError') === true) {
    const text = textOf(content) ?? JSON.stringify(content ?? null);
    throw fail('mcp_tool_error', `${who} answered with an error: ${excerpt(text, 2000)}`);
  }
  const structured = ownField(result, 'structuredContent');
  if (plan.output !== undefined && structured === undefined) {
    throw fail('mcp_output_invalid', `${ran}${who} has an outputSchema and answered no structuredContent`);
  }
  if (structured !== undefined && plan.output !== undefined && !plan.output(structured)) {
    const first = plan.output.errors?.[0];
    throw fail(
      'mcp_output_invalid',
      `${ran}${who} answered structuredContent that does not match its outputSchema: ${first?.instancePath ?? ''} ${first?.message ?? ''}`.trim(),
    );
  }
  const text = structured === undefined ? textOf(content) : undefined;
  const value = structured ?? text ?? content ?? [];
  const copied = snapshotOwnData(value, { root: 'result' });
  if (!copied.ok)
    throw fail(
      'mcp_output_invalid',
      `${ran}${who} answered a result that is not JSON data: ${snapshotProblem(copied)}`,
    );
  return copied.value;
}

/** The size of a result as JSON text (what it costs to pass on and to record). */
function sizeOf(result: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(result) ?? '', 'utf8');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Whether a thrown value is a JSON-RPC error the server answered, and its code. */
function rpcCode(thrown: unknown): number | undefined {
  const code = ownField(thrown, 'code');
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

/** What the server asks for when it answers that the call needs input; `undefined` when it does not. */
function inputRequest(
  plan: CallPlan,
  args: unknown,
  answer: { result: unknown } | { thrown: unknown },
): McpInputRequest | undefined {
  const base = { server: plan.server, tool: plan.tool, name: plan.name, arguments: args };
  if ('thrown' in answer) {
    if (rpcCode(answer.thrown) !== URL_ELICITATION_REQUIRED) return undefined;
    const data = ownField(answer.thrown, 'data');
    const elicitations = ownField(data, 'elicitations');
    return {
      ...base,
      kind: 'url_elicitation',
      elicitations: Array.isArray(elicitations) ? elicitations : [],
      message: describeThrown(answer.thrown),
    };
  }
  if (ownField(answer.result, 'resultType') !== 'input_required') return undefined;
  const requests = ownField(answer.result, 'inputRequests');
  const state = ownField(answer.result, 'requestState');
  return {
    ...base,
    kind: 'input_required',
    inputRequests:
      requests !== null && typeof requests === 'object' ? (requests as Readonly<Record<string, unknown>>) : {},
    ...(typeof state === 'string' ? { requestState: state } : {}),
  };
}

/** One `tools/call` request: the server's result, or what was thrown. */
async function send(
  plan: CallPlan,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<{ result: unknown } | { thrown: unknown }> {
  // The SDK listens on the signal it is given and keeps listening after the call: give it a
  // signal of this call only, relayed from the step's, so a step of many calls leaks no listener.
  const call = new AbortController();
  const relay = () => call.abort(signal.reason);
  if (signal.aborted) call.abort(signal.reason);
  else signal.addEventListener('abort', relay, { once: true });
  try {
    // biome-ignore lint/plugin: the params of tools/call (name, arguments the inputSchema accepted, and on a retry the MRTR fields the SDK's types do not know yet)
    const result = await plan.client.request({ method: 'tools/call', params: params as never }, CallToolResultSchema, {
      signal: call.signal,
      ...(plan.timeoutMs === undefined ? {} : { timeout: plan.timeoutMs }),
    });
    return { result };
  } catch (thrown) {
    return { thrown };
  } finally {
    signal.removeEventListener('abort', relay);
  }
}

/** What a thrown `tools/call` means: refused before running, or (for a mutation) an unknown outcome. */
function thrownError(plan: CallPlan, thrown: unknown): CallError {
  const who = `${plan.server}/${plan.tool}`;
  const code = rpcCode(thrown);
  const refused = code === undefined ? undefined : REFUSED_CODES.get(code);
  if (refused !== undefined) {
    return fail(
      'mcp_call_refused',
      `${who}: the server refused the call (${refused}): ${describeThrown(thrown)}; it did not run`,
    );
  }
  if (plan.mutation) {
    return fail(
      'effect_outcome_unknown',
      `${who}: the call was sent and no result came back (${describeThrown(thrown)}): its outcome is unknown; check before retrying`,
    );
  }
  return fail('mcp_call_failed', `${who}: the call got no result: ${describeThrown(thrown)}`, true);
}

/**
 * Runs one MCP tool call: `tools/call` with the validated arguments; an answer that needs input
 * goes to the `onInputRequired` hook, and the same call is sent once more with its answer (the
 * `requestState` echoed); the result becomes the output ({@link outputOf}).
 *
 * @throws {@link CallError} for every call that gives no output.
 */
export async function callTool(plan: CallPlan, args: unknown, signal: AbortSignal): Promise<unknown> {
  const who = `${plan.server}/${plan.tool}`;
  const params: Record<string, unknown> = { name: plan.tool, arguments: args };
  let answer = await send(plan, params, signal);
  const request = inputRequest(plan, args, answer);
  if (request !== undefined) {
    let given: McpInputAnswer | undefined;
    try {
      given = plan.onInputRequired === undefined ? undefined : await plan.onInputRequired(request, { signal });
    } catch (error) {
      throw fail(
        'mcp_input_required',
        `${who} needs input; the onInputRequired hook threw ${describeThrown(error)}; it did not run`,
      );
    }
    if (given === undefined) {
      throw fail(
        'mcp_input_required',
        `${who} needs input before it runs (${request.kind}) and none was given; it did not run`,
      );
    }
    const responses = ownField(given, 'inputResponses');
    answer = await send(
      plan,
      {
        ...params,
        ...(request.kind === 'input_required' && request.requestState !== undefined
          ? { requestState: request.requestState }
          : {}),
        ...(responses === undefined ? {} : { inputResponses: responses }),
      },
      signal,
    );
    if (inputRequest(plan, args, answer) !== undefined) {
      throw fail('mcp_input_required', `${who} asked for input again after it was given once; it did not run`);
    }
  }
  if ('thrown' in answer) throw thrownError(plan, answer.thrown);
  return outputOf(plan, answer.result, sizeOf(answer.result));
}
