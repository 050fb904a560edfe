/**
 * The OpenAI Chat Completions adapter (`turngate/adapters/openai-chat`): one tool registry as
 * `tools` (`type: 'function'`), and a tool loop that answers `client.chat.completions.create`
 * replies with the mutation gate: each call's `arguments` (a JSON string) parsed and validated,
 * one `tool` message per call right after the assistant message, mutating tools run only once
 * the turn is closed. Types from `openai` only; nothing of the SDK is imported at run time.
 *
 * Source: OpenAI, "Function calling" guide; Chat Completions API reference.
 *
 * @module
 */
import type OpenAI from 'openai';
import { openAIChatToolResult } from '../../transcripts/internal.ts';
import type { ToolDefinitionsOf, ToolName, ToolRegistry } from '../../typestate/index.ts';
import { describedBy, toolSchemas, type DeclarationOptions } from '../core/declarations.ts';
import {
  createToolLoop,
  errorText,
  outputText,
  type ProviderCodec,
  type ToolLoop,
  type ToolLoopOptions,
  type HandlerNamesCheck,
  type ToolsBeingInferred,
} from '../core/loop.ts';

/**
 * A tool loop over Chat Completions: replies are `ChatCompletion`, the history is
 * `ChatCompletionMessageParam[]`, the declarations `ChatCompletionFunctionTool[]`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop, type OpenAIChatToolLoop } from 'turngate/adapters/openai-chat';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const loop: OpenAIChatToolLoop<Tools> = toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } });
 * ```
 */
export type OpenAIChatToolLoop<TTools extends ToolDefinitionsOf<TTools>> = ToolLoop<
  TTools,
  OpenAI.ChatCompletion,
  OpenAI.ChatCompletionMessageParam,
  OpenAI.ChatCompletionFunctionTool[],
  'openai-chat'
>;

const codec: ProviderCodec<OpenAI.ChatCompletion, OpenAI.ChatCompletionMessageParam, 'openai-chat'> = {
  format: 'openai-chat',
  read(reply) {
    const choice =
      reply !== null && typeof reply === 'object' && Array.isArray(reply.choices) ? reply.choices[0] : undefined;
    if (choice === undefined || choice.message === null || typeof choice.message !== 'object') {
      throw new TypeError(
        'openai-chat: expected the ChatCompletion client.chat.completions.create returned (with choices[0].message)',
      );
    }
    return {
      messages: [choice.message],
      stopReason: choice.finish_reason ?? undefined,
      id: reply.id,
      model: reply.model,
    };
  },
  answers(calls) {
    return calls.map(({ toolCallId, result }) =>
      openAIChatToolResult(toolCallId, result.status === 'ok' ? outputText(result.output) : errorText(result)),
    );
  },
};

/**
 * The registry's tools as Chat Completions `tools`: `{ type: 'function', function: { name,
 * description, parameters } }`, the input schema converted to JSON Schema by
 * `@valibot/to-json-schema` (the input type: before any transform).
 *
 * @param tools - The registry (`defineTools`).
 * @param options - `ignoreActions`: valibot actions to leave to run-time validation only.
 * @returns One `ChatCompletionFunctionTool` per tool, in the registry's name order.
 * @throws TypeError naming the tool and the place in its schema when its input cannot be
 *   expressed in JSON Schema (a custom check, a non-JSON value) or is not an object schema.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolDeclarations } from 'turngate/adapters/openai-chat';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * toolDeclarations(Tools)[0]?.function.name; //=> 'get_weather'
 * ```
 */
export function toolDeclarations<TTools extends ToolDefinitionsOf<TTools>>(
  tools: ToolRegistry<TTools>,
  options: DeclarationOptions = {},
): OpenAI.ChatCompletionFunctionTool[] {
  return toolSchemas(tools, options).map((schema) => ({
    type: 'function',
    function: { name: schema.name, ...describedBy(schema), parameters: { ...schema.parameters } },
  }));
}

/**
 * A tool loop over Chat Completions. Send `loop.tools` as `tools`; give each completion to
 * `loop.answer(history, completion)` and append the step's `messages` (the assistant message,
 * then one `tool` message per call, in call order). Each call's `arguments` JSON is parsed and
 * validated against the tool's input schema; a call whose arguments do not parse or validate,
 * that names an unknown tool or whose handler throws gets an error result (content
 * `code: message`), never an exception. Read tools run through `settle`; mutating tools only
 * through the mutation gate once the turn is closed.
 *
 * @param options - `tools` (the registry), `handlers` (one per tool), optionally `policy`,
 *   `ledger` (default: one `MemoryEffectLedger` per loop), `idempotencyKey`, `sessionId`,
 *   `ignoreActions`.
 * @returns The loop: `tools` (`ChatCompletionFunctionTool[]`), `start()`, `answer(history, reply)`.
 * @throws TypeError as {@link toolDeclarations}, when a tool cannot be declared.
 * @example
 * ```ts
 * import type OpenAI from 'openai';
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop } from 'turngate/adapters/openai-chat';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const loop = toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } });
 * const completion: OpenAI.ChatCompletion = {
 *   id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: 'gpt-5',
 *   choices: [{ index: 0, finish_reason: 'tool_calls', logprobs: null, message: { role: 'assistant', content: null, refusal: null,
 *     tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] } }],
 * };
 * const step = await loop.answer([{ role: 'user', content: 'Weather in Oslo?' }], completion);
 * step.results[0]?.status; //=> 'error'
 * ```
 */
export function toolLoop<
  TTools extends ToolDefinitionsOf<TTools> = ToolsBeingInferred,
  TSession extends string | undefined = undefined,
  THandled extends string = ToolName<TTools>,
>(options: ToolLoopOptions<TTools, TSession> & HandlerNamesCheck<TTools, THandled>): OpenAIChatToolLoop<TTools> {
  return createToolLoop(codec, toolDeclarations(options.tools, options), options);
}
