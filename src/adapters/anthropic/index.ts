/**
 * The Anthropic adapter (`turngate/adapters/anthropic`): one tool registry as the Messages
 * API's `tools`, and a tool loop that answers `client.messages.create` replies with the mutation
 * gate: every `tool_use` answered by one `tool_result` (`is_error` for an error result), all of
 * them first in the one user message after the reply, mutating tools run only once the turn is
 * closed. Types from `@anthropic-ai/sdk` only; nothing of the SDK is imported at run time.
 *
 * Source: Anthropic, "Tool use" (handle tool calls, parallel tool use).
 *
 * @module
 */
import type Anthropic from '@anthropic-ai/sdk';
import { anthropicToolResult } from '../../transcripts/internal.ts';
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
 * A tool loop over the Anthropic Messages API: replies are `Anthropic.Message`, the history is
 * `Anthropic.MessageParam[]`, the declarations `Anthropic.Tool[]`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop, type AnthropicToolLoop } from 'turngate/adapters/anthropic';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const loop: AnthropicToolLoop<Tools> = toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } });
 * ```
 */
export type AnthropicToolLoop<TTools extends ToolDefinitionsOf<TTools>> = ToolLoop<
  TTools,
  Anthropic.Message,
  Anthropic.MessageParam,
  Anthropic.Tool[],
  'anthropic'
>;

const codec: ProviderCodec<Anthropic.Message, Anthropic.MessageParam, 'anthropic'> = {
  format: 'anthropic',
  read(reply) {
    if (reply === null || typeof reply !== 'object' || !Array.isArray(reply.content)) {
      throw new TypeError('anthropic: expected the Anthropic.Message client.messages.create returned (with content)');
    }
    return {
      messages: [{ role: 'assistant', content: reply.content }],
      stopReason: reply.stop_reason ?? undefined,
      id: reply.id,
      model: reply.model,
    };
  },
  answers(calls) {
    return [
      {
        role: 'user',
        content: calls.map(
          ({ toolCallId, result }): Anthropic.ToolResultBlockParam =>
            result.status === 'ok'
              ? anthropicToolResult(toolCallId, outputText(result.output))
              : anthropicToolResult(toolCallId, errorText(result), true),
        ),
      },
    ];
  },
};

/**
 * The registry's tools as Anthropic `tools`: `{ name, description, input_schema }`, the input
 * schema converted to JSON Schema by `@valibot/to-json-schema` (the input type: before any
 * transform). The definition's `description` is the tool's description.
 *
 * @param tools - The registry (`defineTools`).
 * @param options - `ignoreActions`: valibot actions to leave to run-time validation only.
 * @returns One `Anthropic.Tool` per tool, in the registry's name order.
 * @throws TypeError naming the tool and the place in its schema when its input cannot be
 *   expressed in JSON Schema (a custom check, a non-JSON value) or is not an object schema.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolDeclarations } from 'turngate/adapters/anthropic';
 * class Tools extends defineTools({
 *   get_weather: { input: v.object({ city: v.string() }), output: v.string(), description: 'Weather now in a city.' },
 * }) {}
 * toolDeclarations(Tools)[0]?.input_schema.required; //=> ['city']
 * ```
 */
export function toolDeclarations<TTools extends ToolDefinitionsOf<TTools>>(
  tools: ToolRegistry<TTools>,
  options: DeclarationOptions = {},
): Anthropic.Tool[] {
  return toolSchemas(tools, options).map((schema) => ({
    name: schema.name,
    ...describedBy(schema),
    input_schema: { ...schema.parameters, type: 'object' },
  }));
}

/**
 * A tool loop over the Anthropic Messages API. Send `loop.tools` as `tools`; give each reply to
 * `loop.answer(history, reply)` and append the step's `messages` (the assistant message, then
 * one user message whose `tool_result` blocks answer every `tool_use`, in call order). Read tools
 * run through `settle`; mutating tools run only through the mutation gate once the turn is
 * closed (`settleMutations` with `policy`). A call whose input fails its schema, names an
 * unknown tool or throws gets an error result (`is_error: true`, text `code: message`); it never
 * throws out of `answer`.
 *
 * @param options - `tools` (the registry), `handlers` (one per tool), optionally `policy`,
 *   `ledger` (default: one `MemoryEffectLedger` per loop), `idempotencyKey`, `sessionId`,
 *   `ignoreActions`.
 * @returns The loop: `tools` (`Anthropic.Tool[]`), `start()`, `answer(history, reply)`.
 * @throws TypeError as {@link toolDeclarations}, when a tool cannot be declared.
 * @example
 * ```ts
 * import type Anthropic from '@anthropic-ai/sdk';
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop } from 'turngate/adapters/anthropic';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const loop = toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } });
 * const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];
 * const reply: Anthropic.Message = {
 *   id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', container: null, diagnostics: null,
 *   stop_reason: 'tool_use', stop_sequence: null, stop_details: null,
 *   usage: { input_tokens: 10, output_tokens: 5, cache_creation: null, cache_creation_input_tokens: null, cache_read_input_tokens: null, inference_geo: null, output_tokens_details: null, server_tool_use: null, service_tier: null, speed: null },
 *   content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' }, caller: { type: 'direct' } }],
 * };
 * const step = await loop.answer(history, reply);
 * step.messages[1]; //=> { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'snow in Oslo' }] }
 * ```
 */
export function toolLoop<
  TTools extends ToolDefinitionsOf<TTools> = ToolsBeingInferred,
  TSession extends string | undefined = undefined,
  THandled extends string = ToolName<TTools>,
>(options: ToolLoopOptions<TTools, TSession> & HandlerNamesCheck<TTools, THandled>): AnthropicToolLoop<TTools> {
  return createToolLoop(codec, toolDeclarations(options.tools, options), options);
}
