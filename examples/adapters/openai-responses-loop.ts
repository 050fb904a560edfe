/**
 * A complete tool loop with the OpenAI SDK's own client (Responses API, stateless): the model
 * asks for the read tool and the mutating tool, the loop answers each `function_call` with its
 * `function_call_output` (the email is sent only once the turn is closed), the model answers.
 * The tests run it with the client's `fetch` option pointed at a scripted API
 * (test/adapters/examples.test.ts); with `new OpenAI()` it runs against the real one.
 */
import type OpenAI from 'openai';
import { toolLoop } from 'turngate/adapters/openai-responses';
import { handlers, Tools, type Outbox } from './tools.ts';

/**
 * Runs the loop to the model's answer.
 *
 * @param client - An OpenAI client (`new OpenAI()`).
 * @returns The input items and the emails sent.
 */
export async function runOpenAIResponsesLoop(client: OpenAI) {
  const outbox: Outbox = { sent: [] };
  const history: OpenAI.Responses.ResponseInputItem[] = [
    { role: 'user', content: 'Weather in Oslo? Email it to ada@example.com.' },
  ];

  // Stateless (store: false): a reasoning item goes back with its encrypted content, which the
  // request asks for; the loop refuses, before any tool runs, a reply the next request could not resolve.
  const loop = toolLoop({ tools: Tools, handlers: handlers(outbox), store: false });
  for (let step = loop.start(); !step.done; ) {
    const reply = await client.responses.create({
      model: 'gpt-5',
      tools: loop.tools,
      input: history,
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    step = await loop.answer(history, reply);
    history.push(...step.messages);
  }
  return { history, outbox };
}

/**
 * A replayed reply: the second answer runs no effect; the ledger gives the mutating call its
 * recorded output.
 *
 * @param client - An OpenAI client.
 * @returns Both steps and the emails sent (one).
 */
export async function replayOpenAIResponsesReply(client: OpenAI) {
  const outbox: Outbox = { sent: [] };
  const history: OpenAI.Responses.ResponseInputItem[] = [
    { role: 'user', content: 'Weather in Oslo? Email it to ada@example.com.' },
  ];
  const loop = toolLoop({ tools: Tools, handlers: handlers(outbox), store: false });
  const reply = await client.responses.create({
    model: 'gpt-5',
    tools: loop.tools,
    input: history,
    store: false,
    include: ['reasoning.encrypted_content'],
  });
  const first = await loop.answer(history, reply);
  const again = await loop.answer(history, reply);
  return { first, again, outbox };
}
