/**
 * The AI SDK adapter (`turngate/adapters/aisdk`): one tool registry as a `ToolSet` (tools
 * without `execute`, so `generateText` hands the calls back instead of running them); a tool
 * loop that answers `generateText` results with the mutation gate: the result's response
 * messages, then one `tool` message whose `tool-result` parts answer every call, mutating tools
 * run only once the turn is closed; and the language-model middleware `transcriptGuard()`,
 * which checks the prompt of every call a wrapped model makes (or repairs it) before the model
 * sees it. Types from `ai` only; nothing of it is imported at run time.
 *
 * Source: AI SDK, "Tool calling" and the `ModelMessage` reference.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { AssistantModelMessage, FinishReason, ModelMessage, Tool, ToolModelMessage } from 'ai';
import { aisdkToolResult } from '../../transcripts/internal.ts';
import type { ToolDefinitionsOf, ToolName, ToolRegistry } from '../../typestate/index.ts';
import { describedBy, toolSchemas, type DeclarationOptions, type ToolSchema } from '../core/declarations.ts';
import {
  createToolLoop,
  errorText,
  type ProviderCodec,
  type ToolLoop,
  type ToolLoopOptions,
  type HandlerNamesCheck,
  type ToolsBeingInferred,
} from '../core/loop.ts';

export { transcriptGuard } from './middleware.ts';
export type { GuardedCallOptions, OnReject, TranscriptGuardMiddleware, TranscriptGuardOptions } from './middleware.ts';
export { TranscriptRejectedError } from './errors.ts';

/**
 * What the loop reads of a `generateText` result: its response messages (`responseMessages`),
 * its finish reason, and its response's id and model. A `GenerateTextResult` is one.
 *
 * @example
 * ```ts
 * import type { AISDKReply } from 'turngate/adapters/aisdk';
 * const reply: AISDKReply = { finishReason: 'stop', responseMessages: [{ role: 'assistant', content: 'Snow in Oslo.' }] };
 * ```
 */
export interface AISDKReply {
  /** The messages the call generated (the assistant message with its `tool-call` parts). */
  readonly responseMessages: ReadonlyArray<AssistantModelMessage | ToolModelMessage>;
  /** Why the model stopped (`tool-calls`, `stop`, ...). */
  readonly finishReason: FinishReason;
  /** The response's id and model, made the turn's `callId` and `modelRef`. */
  readonly response?: { readonly id?: string; readonly modelId?: string };
}

/** The registry's tools as an AI SDK `ToolSet`: a tool per name, none with `execute`. */
export type AISDKTools<TTools extends ToolDefinitionsOf<TTools>> = { [TName in keyof TTools & string]: Tool };

/**
 * A tool loop over the AI SDK: replies are `generateText` results, the history is
 * `ModelMessage[]`, the declarations a `ToolSet`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop, type AISDKToolLoop } from 'turngate/adapters/aisdk';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const loop: AISDKToolLoop<Tools> = toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } });
 * ```
 */
export type AISDKToolLoop<TTools extends ToolDefinitionsOf<TTools>> = ToolLoop<
  TTools,
  AISDKReply,
  ModelMessage,
  AISDKTools<TTools>,
  'aisdk'
>;

const codec: ProviderCodec<AISDKReply, ModelMessage, 'aisdk'> = {
  format: 'aisdk',
  // generateText answers a call it found invalid (an unknown tool, arguments that do not parse) with
  // an error result in its own response messages: that result is the call's answer.
  ownErrorResults: true,
  read(reply) {
    if (reply === null || typeof reply !== 'object' || !Array.isArray(reply.responseMessages)) {
      throw new TypeError('aisdk: expected the result generateText returned (with responseMessages)');
    }
    return {
      messages: [...reply.responseMessages],
      stopReason: reply.finishReason,
      id: reply.response?.id,
      model: reply.response?.modelId,
    };
  },
  answers(calls) {
    return [
      {
        role: 'tool',
        content: calls.map(({ toolCallId, toolName, result }) =>
          aisdkToolResult(
            toolCallId,
            toolName,
            result.status === 'ok'
              ? typeof result.output === 'string'
                ? { type: 'text', value: result.output }
                : // biome-ignore lint/plugin: a result's output passed its schema and is JSON data (settle and the gate check it), which is what the AI SDK's JSONValue describes
                  { type: 'json', value: result.output as never }
              : { type: 'error-text', value: errorText(result) },
          ),
        ),
      },
    ];
  },
};

/**
 * A tool's input as the AI SDK reads a schema: a Standard Schema whose JSON Schema is the
 * converted one. Validation stays with the loop (a call that fails its schema becomes its error
 * result), so the SDK is given a schema that accepts any value and never drops a call.
 */
function inputSchema(schema: ToolSchema): StandardSchemaV1<unknown> & {
  readonly '~standard': {
    readonly jsonSchema: { input: () => Record<string, unknown>; output: () => Record<string, unknown> };
  };
} {
  const json = () => ({ ...schema.parameters });
  return {
    '~standard': {
      version: 1,
      vendor: 'turngate',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: json, output: json },
    },
  };
}

/**
 * The registry's tools as an AI SDK `ToolSet`: per tool, `{ description, inputSchema }` with
 * no `execute`, so `generateText` returns the calls for the loop to run. `inputSchema` is a
 * Standard Schema carrying the JSON Schema `@valibot/to-json-schema` made (the input type:
 * before any transform); it accepts any value, so every call reaches the loop, which validates
 * it against the tool's own schema.
 *
 * @param tools - The registry (`defineTools`).
 * @param options - `ignoreActions`: valibot actions to leave to run-time validation only.
 * @returns A tool per name.
 * @throws TypeError naming the tool and the place in its schema when its input cannot be
 *   expressed in JSON Schema (a custom check, a non-JSON value) or is not an object schema.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolDeclarations } from 'turngate/adapters/aisdk';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string(), description: 'Weather now.' } }) {}
 * toolDeclarations(Tools).get_weather.description; //=> 'Weather now.'
 * ```
 */
export function toolDeclarations<TTools extends ToolDefinitionsOf<TTools>>(
  tools: ToolRegistry<TTools>,
  options: DeclarationOptions = {},
): AISDKTools<TTools> {
  const set: Record<string, Tool> = {};
  for (const schema of toolSchemas(tools, options)) {
    set[schema.name] = { ...describedBy(schema), inputSchema: inputSchema(schema) };
  }
  return set as AISDKTools<TTools>;
}

/**
 * A tool loop over the AI SDK. Pass `loop.tools` as `tools` to `generateText`; give each result
 * to `loop.answer(history, result)` and append the step's `messages` (the response messages,
 * then one `tool` message of `tool-result` parts, in call order: `text` or `json` outputs,
 * `error-text` for an error result `code: message`). A call whose input fails its schema, that
 * names an unknown tool or whose handler throws gets an error result, never an exception. Read
 * tools run through `settle`; mutating tools only through the mutation gate once the turn is
 * closed.
 *
 * @param options - `tools` (the registry), `handlers` (one per tool), optionally `policy`,
 *   `ledger` (default: one `MemoryEffectLedger` per loop), `idempotencyKey`, `sessionId`,
 *   `ignoreActions`.
 * @returns The loop: `tools` (a `ToolSet`), `start()`, `answer(history, reply)`.
 * @throws TypeError as {@link toolDeclarations}, when a tool cannot be declared.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop } from 'turngate/adapters/aisdk';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const loop = toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } });
 * const step = await loop.answer([{ role: 'user', content: 'Weather in Oslo?' }], {
 *   finishReason: 'tool-calls',
 *   responseMessages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: { city: 'Oslo' } }] }],
 * });
 * step.messages[1]; //=> { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', output: { type: 'text', value: 'snow in Oslo' } }] }
 * ```
 */
export function toolLoop<
  TTools extends ToolDefinitionsOf<TTools> = ToolsBeingInferred,
  TSession extends string | undefined = undefined,
  THandled extends string = ToolName<TTools>,
>(options: ToolLoopOptions<TTools, TSession> & HandlerNamesCheck<TTools, THandled>): AISDKToolLoop<TTools> {
  return createToolLoop(codec, toolDeclarations(options.tools, options), options);
}
