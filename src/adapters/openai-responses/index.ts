/**
 * The OpenAI Responses adapter (`turngate/adapters/openai-responses`): one tool registry as
 * function `tools`, and a tool loop that answers `client.responses.create` replies with the
 * mutation gate: the reply's output items go back as input items, each `function_call`
 * (`arguments` parsed and validated) answered by one `function_call_output` with its `call_id`,
 * mutating tools run only once the turn is closed. Types from `openai` only; nothing of the SDK
 * is imported at run time.
 *
 * Source: OpenAI, "Function calling" guide; Responses API reference.
 *
 * @module
 */
import type OpenAI from 'openai';
import { responsesToolResult } from '../../transcripts/internal.ts';
import type { ToolDefinitionsOf, ToolName, ToolRegistry } from '../../typestate/index.ts';
import { describedBy, toolSchemas, type DeclarationOptions } from '../core/declarations.ts';
import {
  createToolLoop,
  errorText,
  outputText,
  type ProviderCodec,
  type ToolLoop,
  type ToolLoopOptions,
  type NoSessionType,
  type HandlerNamesCheck,
  type ToolsBeingInferred,
} from '../core/loop.ts';

/**
 * A tool loop over the Responses API: replies are `Response`, the history is
 * `ResponseInputItem[]` (the request's `input`), the declarations `FunctionTool[]`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop, type ResponsesToolLoop } from 'turngate/adapters/openai-responses';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const loop: ResponsesToolLoop<Tools> = toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } });
 * ```
 */
export type ResponsesToolLoop<TTools extends ToolDefinitionsOf<TTools>> = ToolLoop<
  TTools,
  OpenAI.Responses.Response,
  OpenAI.Responses.ResponseInputItem,
  OpenAI.Responses.FunctionTool[],
  'openai-responses'
>;

/**
 * The stop reason of a Responses reply, as the stop reason table reads it: its `status`, with
 * `incomplete` told by `incomplete_details.reason` (`max_output_tokens`, `content_filter`),
 * `function_call` only for a `completed` reply that holds calls, `undefined` for none.
 */
function stopReasonOf(reply: OpenAI.Responses.Response, calls: boolean): string | undefined {
  const status = reply.status ?? undefined;
  if (status === 'incomplete') return reply.incomplete_details?.reason ?? 'incomplete';
  if (status === 'completed') return calls ? 'function_call' : status;
  return status;
}

/** The Responses codec; under `store: false` the check reads the request body, which needs each reasoning item's `encrypted_content`. */
function responsesCodec(
  store: boolean | undefined,
): ProviderCodec<OpenAI.Responses.Response, OpenAI.Responses.ResponseInputItem, 'openai-responses'> {
  return {
    format: 'openai-responses',
    read(reply) {
      if (reply === null || typeof reply !== 'object' || !Array.isArray(reply.output)) {
        throw new TypeError('openai-responses: expected the Response client.responses.create returned (with output)');
      }
      return {
        // The output items go back as input items, unchanged (the Responses API's stateless loop).
        messages: reply.output as OpenAI.Responses.ResponseInputItem[],
        stopReason: stopReasonOf(
          reply,
          reply.output.some((item) => item.type === 'function_call'),
        ),
        id: reply.id,
        model: reply.model,
      };
    },
    answers(calls) {
      return calls.map(({ toolCallId, result }) =>
        responsesToolResult(toolCallId, result.status === 'ok' ? outputText(result.output) : errorText(result)),
      );
    },
    ...(store === false
      ? { checked: (input: readonly OpenAI.Responses.ResponseInputItem[]) => ({ input, store: false }) }
      : {}),
  };
}

/**
 * What the Responses tool loop takes: the options of every loop, and `store` as the requests
 * send it. With `store: false` (a stateless loop) the next request can resolve a reasoning item
 * only by its `encrypted_content` (request `include: ['reasoning.encrypted_content']`): a reply
 * whose reasoning items carry none is refused before any tool runs
 * (`openai-responses.reasoning_not_persisted`), where the provider would answer the next request
 * with "Item with id 'rs_…' not found".
 *
 * Source: OpenAI, "Reasoning models: keeping reasoning items in context" (stateless use with
 * `store: false` and `include`).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import type { ResponsesToolLoopOptions } from 'turngate/adapters/openai-responses';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const options: ResponsesToolLoopOptions<Tools> = { tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` }, store: false };
 * ```
 */
export type ResponsesToolLoopOptions<
  TTools extends ToolDefinitionsOf<TTools>,
  TSession extends string | undefined | NoSessionType = NoSessionType,
> = ToolLoopOptions<TTools, TSession> & {
  /** The `store` the requests send (default: the API's, `true`). */
  readonly store?: boolean;
};

/**
 * The registry's tools as Responses function `tools`: `{ type: 'function', name, description,
 * parameters, strict: false }`, the input schema converted to JSON Schema by
 * `@valibot/to-json-schema` (the input type: before any transform). `strict` is `false`:
 * strict mode requires every property to be required, which optional fields break.
 *
 * @param tools - The registry (`defineTools`).
 * @param options - `ignoreActions`: valibot actions to leave to run-time validation only.
 * @returns One `FunctionTool` per tool, in the registry's name order.
 * @throws TypeError naming the tool and the place in its schema when its input cannot be
 *   expressed in JSON Schema (a custom check, a non-JSON value) or is not an object schema.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolDeclarations } from 'turngate/adapters/openai-responses';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * toolDeclarations(Tools)[0]?.name; //=> 'get_weather'
 * ```
 */
export function toolDeclarations<TTools extends ToolDefinitionsOf<TTools>>(
  tools: ToolRegistry<TTools>,
  options: DeclarationOptions = {},
): OpenAI.Responses.FunctionTool[] {
  return toolSchemas(tools, options).map((schema) => ({
    type: 'function',
    name: schema.name,
    ...describedBy(schema),
    parameters: { ...schema.parameters },
    strict: false,
  }));
}

/**
 * A tool loop over the Responses API. Send `loop.tools` as `tools` and the history as `input`;
 * give each response to `loop.answer(history, response)` and append the step's `messages` (the
 * response's output items, then one `function_call_output` per `function_call`, in call order).
 * A call whose `arguments` do not parse or validate, that names an unknown tool or whose handler
 * throws gets an error output (`code: message`), never an exception. Read tools run through
 * `settle`; mutating tools only through the mutation gate once the turn is closed.
 *
 * @param options - `tools` (the registry), `handlers` (one per tool), optionally `policy`,
 *   `ledger` with `sessionId`, `idempotencyKey`, `readFailures`, `mutationStopReasons`,
 *   `ignoreActions`, and `store` (send `false` here when the requests do: see
 *   {@link ResponsesToolLoopOptions}).
 * @returns The loop: `tools` (`FunctionTool[]`), `start()`, `answer(history, reply)`, `recorded(history)`.
 * @throws TypeError as {@link toolDeclarations}, when a tool cannot be declared.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop } from 'turngate/adapters/openai-responses';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const loop = toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } });
 * loop.tools.map((tool) => tool.name); //=> ['get_weather']
 * ```
 */
export function toolLoop<
  TTools extends ToolDefinitionsOf<TTools> = ToolsBeingInferred,
  TSession extends string | undefined = undefined,
  THandled extends string = ToolName<TTools>,
>(
  options: ResponsesToolLoopOptions<TTools, TSession> & HandlerNamesCheck<TTools, THandled>,
): ResponsesToolLoop<TTools> {
  return createToolLoop(responsesCodec(options.store), toolDeclarations(options.tools, options), options);
}
