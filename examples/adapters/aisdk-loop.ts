/**
 * A complete tool loop with the AI SDK's own `generateText`: the model asks for the read tool
 * and the mutating tool (the tools have no `execute`, so `generateText` hands the calls back),
 * the loop answers both in one `tool` message (the email is sent only once the turn is
 * closed), the model answers. The tests run it with a mock model from `ai/test`
 * (test/adapters/examples.test.ts); with a provider's model it runs against the real one.
 */
import { generateText, type LanguageModel, type ModelMessage } from 'ai';
import { toolLoop } from 'turngate/adapters/aisdk';
import { handlers, Tools, type Outbox } from './tools.ts';

/**
 * Runs the loop to the model's answer.
 *
 * @param model - The model (`'openai/gpt-5'`, `anthropic('claude-sonnet-4-5')`, ...).
 * @returns The messages and the emails sent.
 */
export async function runAISDKLoop(model: LanguageModel) {
  const outbox: Outbox = { sent: [] };
  const history: ModelMessage[] = [{ role: 'user', content: 'Weather in Oslo? Email it to ada@example.com.' }];

  const loop = toolLoop({ tools: Tools, handlers: handlers(outbox) });
  for (let step = loop.start(); !step.done; ) {
    const reply = await generateText({ model, tools: loop.tools, messages: history });
    step = await loop.answer(history, reply);
    history.push(...step.messages);
  }
  return { history, outbox };
}

/**
 * A replayed reply: the second answer runs no effect; the ledger gives the mutating call its
 * recorded output.
 *
 * @param model - The model.
 * @returns Both steps and the emails sent (one).
 */
export async function replayAISDKReply(model: LanguageModel) {
  const outbox: Outbox = { sent: [] };
  const history: ModelMessage[] = [{ role: 'user', content: 'Weather in Oslo? Email it to ada@example.com.' }];
  const loop = toolLoop({ tools: Tools, handlers: handlers(outbox) });
  const reply = await generateText({ model, tools: loop.tools, messages: history });
  const first = await loop.answer(history, reply);
  const again = await loop.answer(history, reply);
  return { first, again, outbox };
}
