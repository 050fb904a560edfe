/**
 * A complete tool loop with the OpenAI SDK's own client (Chat Completions): the model asks for
 * the read tool and the mutating tool, the loop parses and validates each call's `arguments`,
 * answers both with one `tool` message each (the email is sent only once the turn is closed),
 * the model answers. The tests run it with the client's `fetch` option pointed at a scripted
 * API (test/adapters/examples.test.ts); with `new OpenAI()` it runs against the real one.
 */
import type OpenAI from 'openai';
import { toolLoop } from 'turngate/adapters/openai-chat';
import { handlers, Tools, type Outbox } from './tools.ts';

/**
 * Runs the loop to the model's answer.
 *
 * @param client - An OpenAI client (`new OpenAI()`).
 * @returns The history and the emails sent.
 */
export async function runOpenAIChatLoop(client: OpenAI) {
  const outbox: Outbox = { sent: [] };
  const history: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'Weather in Oslo? Email it to ada@example.com.' },
  ];

  const loop = toolLoop({ tools: Tools, handlers: handlers(outbox) });
  for (let step = loop.start(); !step.done; ) {
    const reply = await client.chat.completions.create({ model: 'gpt-5', tools: loop.tools, messages: history });
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
export async function replayOpenAIChatReply(client: OpenAI) {
  const outbox: Outbox = { sent: [] };
  const history: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'Weather in Oslo? Email it to ada@example.com.' },
  ];
  const loop = toolLoop({ tools: Tools, handlers: handlers(outbox) });
  const reply = await client.chat.completions.create({ model: 'gpt-5', tools: loop.tools, messages: history });
  const first = await loop.answer(history, reply);
  const again = await loop.answer(history, reply);
  return { first, again, outbox };
}
