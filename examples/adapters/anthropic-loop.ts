/**
 * A complete tool loop with the Anthropic SDK's own client: the model asks for the read tool
 * and the mutating tool, the loop answers both (the email is sent only once the turn is
 * closed), the model answers. The tests run it with the client's `fetch` option pointed at a
 * scripted Messages API (test/adapters/examples.test.ts); with `new Anthropic()` it runs
 * against the real one.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { toolLoop } from 'turngate/adapters/anthropic';
import { handlers, Tools, type Outbox } from './tools.ts';

/**
 * Runs the loop to the model's answer.
 *
 * @param client - An Anthropic client (`new Anthropic()`).
 * @returns The history and the emails sent.
 */
export async function runAnthropicLoop(client: Anthropic) {
  const outbox: Outbox = { sent: [] };
  const history: Anthropic.MessageParam[] = [
    { role: 'user', content: 'Weather in Oslo? Email it to ada@example.com.' },
  ];

  const loop = toolLoop({ tools: Tools, handlers: handlers(outbox) });
  for (let step = loop.start(); !step.done; ) {
    const reply = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      tools: loop.tools,
      messages: history,
    });
    step = await loop.answer(history, reply);
    history.push(...step.messages);
  }
  return { history, outbox };
}

/**
 * A replayed reply (a retry after a timeout hands the same reply to the loop again): the second
 * answer runs no effect; the ledger gives the mutating call its recorded output.
 *
 * @param client - An Anthropic client.
 * @returns Both steps and the emails sent (one).
 */
export async function replayAnthropicReply(client: Anthropic) {
  const outbox: Outbox = { sent: [] };
  const history: Anthropic.MessageParam[] = [
    { role: 'user', content: 'Weather in Oslo? Email it to ada@example.com.' },
  ];
  const loop = toolLoop({ tools: Tools, handlers: handlers(outbox) });
  const reply = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    tools: loop.tools,
    messages: history,
  });
  const first = await loop.answer(history, reply);
  const again = await loop.answer(history, reply);
  return { first, again, outbox };
}
