/**
 * Type tests of the provider adapters (`turngate/adapters/*`): one handler map over the
 * registry, typed by tool (a missing handler, a wrong input or output type does not compile);
 * each loop takes only its own SDK's reply and history; the declarations are the SDK's own
 * types. Negative cases use `@ts-expect-error`, so tsd and TypeScript 7 check the same file.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Content, GenerateContentResponse, Tool as GeminiTool } from '@google/genai';
import type { ModelMessage, ToolSet } from 'ai';
import type OpenAI from 'openai';
import { expectAssignable, expectType } from 'tsd';
import * as v from 'valibot';
import { defineTools, type JoinClosed } from 'turngate';
import { toolLoop as aisdkLoop, type AISDKReply } from 'turngate/adapters/aisdk';
import { toolLoop as anthropicLoop } from 'turngate/adapters/anthropic';
import type { LoopHandlers, LoopStep, RecordedReply, ToolLoopOptions } from 'turngate/adapters';
import { toolLoop as geminiLoop } from 'turngate/adapters/gemini';
import { toolLoop as chatLoop } from 'turngate/adapters/openai-chat';
import { toolLoop as responsesLoop } from 'turngate/adapters/openai-responses';

class Tools extends defineTools({
  get_weather: { input: v.object({ city: v.string() }), output: v.object({ sky: v.string() }) },
  send_email: { input: v.object({ to: v.string() }), output: v.object({ sent: v.boolean() }), mutation: true },
}) {}

const handlers = {
  get_weather: async ({ city }: { city: string }) => ({ sky: `snow in ${city}` }),
  send_email: async ({ to }: { to: string }) => ({ sent: to.length > 0 }),
};

// The right calls compile; the declarations are each SDK's own type.
const anthropic = anthropicLoop({ tools: Tools, handlers });
expectType<Anthropic.Tool[]>(anthropic.tools);
const chat = chatLoop({ tools: Tools, handlers });
expectAssignable<OpenAI.ChatCompletionTool[]>(chat.tools);
const responses = responsesLoop({ tools: Tools, handlers });
expectAssignable<OpenAI.Responses.Tool[]>(responses.tools);
const gemini = geminiLoop({ tools: Tools, handlers });
expectType<GeminiTool[]>(gemini.tools);
const aisdk = aisdkLoop({ tools: Tools, handlers });
expectAssignable<ToolSet>(aisdk.tools);
expectAssignable<LoopHandlers<Tools>>(handlers);

declare const message: Anthropic.Message;
declare const completion: OpenAI.ChatCompletion;
declare const response: OpenAI.Responses.Response;
declare const generated: GenerateContentResponse;
declare const result: AISDKReply;
declare const anthropicHistory: Anthropic.MessageParam[];
declare const chatHistory: OpenAI.ChatCompletionMessageParam[];
declare const input: OpenAI.Responses.ResponseInputItem[];
declare const contents: Content[];
declare const messages: ModelMessage[];

const step = await anthropic.answer(anthropicHistory, message);
expectType<LoopStep<Tools, Anthropic.MessageParam>>(step);
expectType<Anthropic.MessageParam[]>(step.messages);
expectType<JoinClosed<Tools> | undefined>(step.closed);
if (step.results[0]?.status === 'ok' && step.results[0].toolName === 'get_weather')
  expectType<{ sky: string }>(step.results[0].output);
expectType<OpenAI.ChatCompletionMessageParam[]>((await chat.answer(chatHistory, completion)).messages);
expectType<OpenAI.Responses.ResponseInputItem[]>((await responses.answer(input, response)).messages);
expectType<Content[]>((await gemini.answer(contents, generated)).messages);
expectType<ModelMessage[]>((await aisdk.answer(messages, result)).messages);

// A handler map missing a tool does not compile (the mutating one included): the error at
// `tools` names the tool without a handler.
// @ts-expect-error -- "no_handler: send_email has no handler in options.handlers"
anthropicLoop({ tools: Tools, handlers: { get_weather: handlers.get_weather } });
// @ts-expect-error -- "no_handler: get_weather has no handler in options.handlers"
chatLoop({ tools: Tools, handlers: { send_email: handlers.send_email } });
// (both tools are named, in the order the compiler lists them)
// @ts-expect-error -- "no_handler:"
geminiLoop({ tools: Tools, handlers: {} });
// A handler for a tool the registry does not have does not compile; nor does a map missing a
// mutating tool's handler whose read handlers take no parameters.
// @ts-expect-error -- "'nope' does not exist in type 'NoInfer<LoopHandlers<Tools>>"
chatLoop({ tools: Tools, handlers: { ...handlers, nope: () => 1 } });
// @ts-expect-error -- "no_handler: send_email has no handler in options.handlers"
chatLoop({ tools: Tools, handlers: { get_weather: () => ({ sky: 'snow' }) } });
// A handler with the wrong input type does not compile.
anthropicLoop({
  tools: Tools,
  // @ts-expect-error -- "is not assignable to type '(input: { city: string; }"
  handlers: { ...handlers, get_weather: async ({ town }: { town: string }) => ({ sky: town }) },
});
anthropicLoop({
  tools: Tools,
  // @ts-expect-error -- "is not assignable to type '(input: { to: string; }"
  handlers: { ...handlers, send_email: async (email: { to: number }) => ({ sent: email.to > 0 }) },
});
// A handler with the wrong output shape does not compile.
// @ts-expect-error -- "Type 'Promise<{ sky: 3; }>' is not assignable to type"
geminiLoop({ tools: Tools, handlers: { ...handlers, get_weather: async () => ({ sky: 3 }) } });

// A reply of another SDK's type does not compile: the error names the class and the loop's format.
// @ts-expect-error -- "transcript.wrong_format: not a reply of anthropic"
await anthropic.answer(anthropicHistory, completion);
// @ts-expect-error -- "transcript.wrong_format: not a reply of openai-chat"
await chat.answer(chatHistory, message);
// @ts-expect-error -- "transcript.wrong_format: not a reply of openai-responses"
await responses.answer(input, completion);
// @ts-expect-error -- "transcript.wrong_format: not a reply of gemini"
await gemini.answer(contents, message);
// @ts-expect-error -- "transcript.wrong_format: not a reply of aisdk"
await aisdk.answer(messages, response);
// The reply recorded for the turn is taken in place of the SDK's (`loop.recorded(history)`).
declare const recordedReply: RecordedReply;
await chat.answer(chatHistory, recordedReply);
await gemini.answer(contents, recordedReply);
// A history of another SDK's type does not compile.
// @ts-expect-error -- "Type 'Content' is not assignable to type 'MessageParam'"
await anthropic.answer(contents, message);

// Edge inputs for the reply: `any` and `never` pass (as everywhere), `unknown` and `string` do not.
// biome-ignore lint/suspicious/noExplicitAny: the `any` input is what is tested
declare const loose: any;
await anthropic.answer(anthropicHistory, loose);
declare const none: never;
await chat.answer(chatHistory, none);
declare const opaque: unknown;
// @ts-expect-error -- "transcript.wrong_format: not a reply of anthropic"
await anthropic.answer(anthropicHistory, opaque);
// @ts-expect-error -- "transcript.wrong_format: not a reply of gemini"
await gemini.answer(contents, 'STOP');
// A registry typed `any` takes any handler map; handlers typed `unknown` or `string` do not compile.
// @ts-expect-error -- "Type 'unknown' is not assignable to type 'NoInfer<LoopHandlers<Tools>>"
anthropicLoop({ tools: Tools, handlers: opaque });
// @ts-expect-error -- "Type 'string' is not assignable to type 'NoInfer<LoopHandlers<Tools>>"
anthropicLoop({ tools: Tools, handlers: 'get_weather' });
anthropicLoop({ tools: Tools, handlers: loose });

// Inline handlers are typed by the registry alone: a read handler's second argument is the call
// (`ToolCallInfo`), a mutating one's the witness, both get the step's `{ signal }` last.
class Lights extends defineTools({
  light: { input: v.object({ room: v.string() }), output: v.picklist(['green', 'red']) },
  send_email: { input: v.object({ to: v.string() }), output: v.object({ id: v.string() }), mutation: true },
}) {}
anthropicLoop({
  tools: Lights,
  handlers: {
    light: async ({ room }, call, { signal }) => (room === call.toolCallId || signal.aborted ? 'green' : 'red'),
    send_email: async ({ to }, witness) => ({ id: `${to} ${witness.joinSetDigest}` }),
  },
});
chatLoop({ tools: Lights, handlers: { light: () => 'green' as const, send_email: async ({ to }) => ({ id: to }) } });
// A literal that is not in the picklist does not compile.
chatLoop({
  tools: Lights,
  // @ts-expect-error -- "Type '"blue"' is not assignable to type '"green" | "red""
  handlers: { light: () => 'blue' as const, send_email: async ({ to }) => ({ id: to }) },
});

// A handler written without parameters keeps its literal, sync or async, at any depth: the
// registry's output type is what it is compared with (the loop's first pass over the options
// types these handlers before it reads `tools`).
class Palette extends defineTools({
  light: { input: v.object({ room: v.string() }), output: v.picklist(['green', 'red']) },
  level: { input: v.object({}), output: v.union([v.literal(1), v.literal(2)]) },
  lamp: { input: v.object({}), output: v.object({ state: v.picklist(['on', 'off']), lit: v.literal(true) }) },
  lamps: { input: v.object({}), output: v.array(v.object({ state: v.picklist(['on', 'off']) })) },
  send_email: {
    input: v.object({ to: v.string() }),
    output: v.object({ status: v.literal('queued') }),
    mutation: true,
  },
}) {}
const palette = chatLoop({
  tools: Palette,
  handlers: {
    light: () => 'green',
    level: () => 2,
    lamp: () => ({ state: 'on', lit: true }),
    lamps: () => [{ state: 'off' }],
    send_email: () => ({ status: 'queued' }),
  },
});
expectType<OpenAI.ChatCompletionFunctionTool[]>(palette.tools);
for (const loop of [anthropicLoop, geminiLoop, aisdkLoop, responsesLoop] as const) {
  loop({
    tools: Palette,
    handlers: {
      light: async () => 'red',
      level: async () => 1,
      lamp: async () => ({ state: 'off', lit: true }),
      lamps: async () => [],
      send_email: async () => ({ status: 'queued' }),
    },
  });
}
// With parameters the handler is typed once the registry is known: the literal is kept too.
chatLoop({
  tools: Palette,
  handlers: {
    light: ({ room }) => (room === 'hall' ? 'green' : 'red'),
    level: (_input, call) => (call.toolCallId === '' ? 1 : 2),
    lamp: async (_input, call) => ({ state: call.toolName === 'lamp' ? 'on' : 'off', lit: true }),
    lamps: () => [],
    send_email: async ({ to }, witness) => ({ status: to === witness.callId ? 'queued' : 'queued' }),
  },
});
// A literal the output does not allow still fails, with the handler written either way.
chatLoop({
  tools: Palette,
  handlers: {
    // @ts-expect-error -- "Type '"blue"' is not assignable to type '"green" | "red" | Promise<"green" | "red">'"
    light: () => 'blue',
    level: () => 1,
    lamp: () => ({ state: 'on', lit: true }),
    lamps: () => [],
    send_email: () => ({ status: 'queued' }),
  },
});
chatLoop({
  tools: Palette,
  handlers: {
    light: () => 'green',
    // @ts-expect-error -- "Type 'Promise<3>' is not assignable to type"
    level: async () => 3,
    lamp: () => ({ state: 'on', lit: true }),
    lamps: () => [],
    send_email: () => ({ status: 'queued' }),
  },
});
chatLoop({
  tools: Palette,
  handlers: {
    light: () => 'green',
    level: () => 1,
    // @ts-expect-error -- "Type '"dim"' is not assignable to type"
    lamp: () => ({ state: 'dim', lit: true }),
    lamps: () => [],
    send_email: () => ({ status: 'queued' }),
  },
});
// A handler returning what its type says is `string` is not narrowed to a literal, nor is `unknown`;
// `any` and `never` pass (as everywhere).
declare const someText: string;
chatLoop({
  tools: Palette,
  handlers: {
    // @ts-expect-error -- "Type 'string' is not assignable to type '"green" | "red" | Promise<"green" | "red">'"
    light: () => someText,
    level: () => 1,
    lamp: () => ({ state: 'on', lit: true }),
    lamps: () => [],
    send_email: () => ({ status: 'queued' }),
  },
});
chatLoop({
  tools: Palette,
  handlers: {
    // @ts-expect-error -- "Type 'unknown' is not assignable to type '"green" | "red" | Promise<"green" | "red">'"
    light: () => opaque,
    level: () => 1,
    lamp: () => ({ state: 'on', lit: true }),
    lamps: () => [],
    send_email: () => ({ status: 'queued' }),
  },
});
chatLoop({
  tools: Palette,
  handlers: {
    light: () => loose,
    level: () => none,
    lamp: () => ({ state: 'on', lit: true }),
    lamps: () => [],
    send_email: () => loose,
  },
});
// A tool whose output is `any`, `unknown` or `string` takes what its type takes.
class Loose extends defineTools({
  anything: { input: v.object({}), output: v.any() },
  whatever: { input: v.object({}), output: v.unknown() },
  text: { input: v.object({}), output: v.string() },
}) {}
chatLoop({ tools: Loose, handlers: { anything: () => 'green', whatever: async () => 1n, text: () => 'green' } });
// @ts-expect-error -- "Type 'number' is not assignable to type 'string | Promise<string>'"
chatLoop({ tools: Loose, handlers: { anything: () => 1, whatever: () => 1, text: () => 1 } });

// The second argument is what the handler's tool gets: a read's handler the call, a mutation's the witness.
chatLoop({
  tools: Palette,
  handlers: {
    light: (_input, call) => (call.toolCallId.length > 0 ? 'green' : 'red'),
    level: () => 1,
    lamp: () => ({ state: 'on', lit: true }),
    lamps: () => [],
    // @ts-expect-error -- "Property 'toolCallId' does not exist on type 'MutationWitness'"
    send_email: (_input, witness) => ({ status: witness.toolCallId === '' ? 'queued' : 'queued' }),
  },
});
chatLoop({
  tools: Palette,
  handlers: {
    // @ts-expect-error -- "Property 'joinSetDigest' does not exist on type 'ToolCallInfo'"
    light: (_input, call) => (call.joinSetDigest === '' ? 'green' : 'red'),
    level: () => 1,
    lamp: () => ({ state: 'on', lit: true }),
    lamps: () => [],
    send_email: () => ({ status: 'queued' }),
  },
});

// A ledger shared beyond the loop needs the session every key in it is scoped by.
declare const ledger: import('turngate').EffectLedger;
anthropicLoop({ tools: Tools, handlers, ledger, sessionId: 'alice' });
// @ts-expect-error -- "options.sessionId is required with options.ledger"
anthropicLoop({ tools: Tools, handlers, ledger });
// @ts-expect-error -- "options.sessionId is required with options.ledger"
responsesLoop({ tools: Tools, handlers, store: false, ledger });
// A session that may be undefined is no session for the ledger; `ledger: undefined` is no ledger.
declare const maybeSession: string | undefined;
// @ts-expect-error -- "Type 'string | undefined' is not assignable to type 'string'" (past the limit: a session typed string | undefined leaves the options' type as written ahead of the call, whose error TypeScript prints after the object's whole type)
chatLoop({ tools: Tools, handlers, ledger, sessionId: maybeSession });
chatLoop({ tools: Tools, handlers, ledger: undefined, sessionId: maybeSession });
chatLoop({ tools: Tools, handlers, sessionId: undefined });
chatLoop({ tools: Tools, handlers, ledger, sessionId: maybeSession ?? 'default' });
geminiLoop({ tools: Tools, handlers, sessionId: 'alice' });
aisdkLoop({ tools: Tools, handlers, ledger, sessionId: 'alice' });
// Options typed ahead of the call take a ledger with its session, or no ledger.
const typedOptions: ToolLoopOptions<Tools> = { tools: Tools, handlers, ledger, sessionId: 'alice' };
anthropicLoop(typedOptions);
// @ts-expect-error -- "Property 'sessionId' is missing" (past the limit: options typed ahead of the call have no session type to infer, and TypeScript prints the object's whole type first; the call itself names the rule)
const untypedSession: ToolLoopOptions<Tools> = { tools: Tools, handlers, ledger };
void untypedSession;
// The loop's gate options, and answer's signal.
chatLoop({ tools: Tools, handlers, readFailures: 'refused_calls_only', mutationStopReasons: ['stop', null] });
// @ts-expect-error -- "Type '"never"' is not assignable to type 'ReadFailurePolicy'"
chatLoop({ tools: Tools, handlers, readFailures: 'never' });
await anthropic.answer(anthropicHistory, message, { signal: AbortSignal.timeout(1_000) });
responsesLoop({ tools: Tools, handlers, store: false });
