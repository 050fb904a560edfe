/**
 * The Gemini adapter (`turngate/adapters/gemini`): one tool registry as `functionDeclarations`
 * (with `parametersJsonSchema`), and a tool loop that answers `ai.models.generateContent`
 * replies with the mutation gate: the candidate's content, then one `user` content whose
 * `functionResponse` parts answer every `functionCall` (by `id` when the call has one, else by
 * position and name), mutating tools run only once the turn is closed. Types from
 * `@google/genai` only; nothing of the SDK is imported at run time.
 *
 * Source: Gemini API, "Function calling" guide.
 *
 * @module
 */
import type { Content, FunctionDeclaration, GenerateContentResponse, Part, Tool } from '@google/genai';
import { geminiToolResult } from '../../transcripts/internal.ts';
import type { ToolDefinitionsOf, ToolName, ToolRegistry } from '../../typestate/index.ts';
import { describedBy, toolSchemas, type DeclarationOptions } from '../core/declarations.ts';
import {
  createToolLoop,
  type ProviderCodec,
  type ToolLoop,
  type ToolLoopOptions,
  type HandlerNamesCheck,
  type ToolsBeingInferred,
} from '../core/loop.ts';

/**
 * A tool loop over Gemini: replies are `GenerateContentResponse`, the history is `Content[]`
 * (the request's `contents`), the declarations one `Tool` holding every function declaration.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop, type GeminiToolLoop } from 'turngate/adapters/gemini';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const loop: GeminiToolLoop<Tools> = toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } });
 * ```
 */
export type GeminiToolLoop<TTools extends ToolDefinitionsOf<TTools>> = ToolLoop<
  TTools,
  GenerateContentResponse,
  Content,
  Tool[],
  'gemini'
>;

const codec: ProviderCodec<GenerateContentResponse, Content, 'gemini'> = {
  format: 'gemini',
  read(reply) {
    const candidate =
      reply !== null && typeof reply === 'object' && Array.isArray(reply.candidates) ? reply.candidates[0] : undefined;
    const content = candidate?.content;
    if (candidate === undefined || content === undefined || !Array.isArray(content.parts)) {
      const blocked = reply?.promptFeedback?.blockReason;
      throw new TypeError(
        `gemini: expected the GenerateContentResponse ai.models.generateContent returned, with candidates[0].content${blocked === undefined ? '' : ` (the prompt was blocked: ${blocked})`}`,
      );
    }
    return {
      messages: [{ ...content, role: 'model' }],
      stopReason: candidate.finishReason,
      id: reply.responseId,
      model: reply.modelVersion,
      // A call without an id is named by position (`send_email#1`), the same in every reply.
      positionalIds: content.parts.some(
        (part) => part.functionCall !== undefined && part.functionCall.id === undefined,
      ),
    };
  },
  answers(calls, reply) {
    // Calls without an id pair by position and name: their answers keep the calls' order, without an id.
    const ids = new Set<string>();
    for (const content of reply.messages)
      for (const part of content.parts ?? []) if (part.functionCall?.id !== undefined) ids.add(part.functionCall.id);
    const parts = calls.map(
      ({ toolCallId, toolName, result }): Part =>
        geminiToolResult(
          ids.has(toolCallId) ? toolCallId : undefined,
          toolName,
          result.status === 'ok'
            ? { output: result.output }
            : { error: { code: result.error.errorCode, message: result.error.errorMessage } },
        ),
    );
    return [{ role: 'user', parts }];
  },
};

/**
 * The registry's tools as Gemini `tools`: one `Tool` whose `functionDeclarations` hold `{ name,
 * description, parametersJsonSchema }` per tool, the input schema converted to JSON Schema by
 * `@valibot/to-json-schema` (the input type: before any transform).
 *
 * @param tools - The registry (`defineTools`).
 * @param options - `ignoreActions`: valibot actions to leave to run-time validation only.
 * @returns `[{ functionDeclarations }]`, the declarations in the registry's name order.
 * @throws TypeError naming the tool and the place in its schema when its input cannot be
 *   expressed in JSON Schema (a custom check, a non-JSON value) or is not an object schema.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolDeclarations } from 'turngate/adapters/gemini';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * toolDeclarations(Tools)[0]?.functionDeclarations?.map((d) => d.name); //=> ['get_weather']
 * ```
 */
export function toolDeclarations<TTools extends ToolDefinitionsOf<TTools>>(
  tools: ToolRegistry<TTools>,
  options: DeclarationOptions = {},
): Tool[] {
  const functionDeclarations = toolSchemas(tools, options).map(
    (schema): FunctionDeclaration => ({
      name: schema.name,
      ...describedBy(schema),
      parametersJsonSchema: { ...schema.parameters },
    }),
  );
  return [{ functionDeclarations }];
}

/**
 * A tool loop over Gemini. Send `loop.tools` as `config.tools`; give each response to
 * `loop.answer(history, response)` and append the step's `messages` (the candidate's content as
 * a `model` content, then one `user` content of `functionResponse` parts, in call order:
 * `response: { output }`, or `response: { error: { code, message } }` for an error result). A
 * call whose arguments fail its schema, that names an unknown tool or whose handler throws gets
 * an error response, never an exception. Read tools run through `settle`; mutating tools only
 * through the mutation gate once the turn is closed.
 *
 * @param options - `tools` (the registry), `handlers` (one per tool), optionally `policy`,
 *   `ledger` (default: one `MemoryEffectLedger` per loop), `idempotencyKey`, `sessionId`,
 *   `ignoreActions`.
 * @returns The loop: `tools` (`Tool[]`), `start()`, `answer(history, reply)`.
 * @throws TypeError as {@link toolDeclarations}, when a tool cannot be declared.
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools } from 'turngate';
 * import { toolLoop } from 'turngate/adapters/gemini';
 * class Tools extends defineTools({ get_weather: { input: v.object({ city: v.string() }), output: v.string() } }) {}
 * const loop = toolLoop({ tools: Tools, handlers: { get_weather: async ({ city }) => `snow in ${city}` } });
 * loop.start().done; //=> false
 * ```
 */
export function toolLoop<
  TTools extends ToolDefinitionsOf<TTools> = ToolsBeingInferred,
  TSession extends string | undefined = undefined,
  THandled extends string = ToolName<TTools>,
>(options: ToolLoopOptions<TTools, TSession> & HandlerNamesCheck<TTools, THandled>): GeminiToolLoop<TTools> {
  return createToolLoop(codec, toolDeclarations(options.tools, options), options);
}
