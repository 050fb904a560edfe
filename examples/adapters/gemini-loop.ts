/**
 * A complete tool loop with the Gemini SDK's own client (`@google/genai`): the model asks for
 * the read tool and the mutating tool, the loop answers each `functionCall` with its
 * `functionResponse` (the email is sent only once the turn is closed), the model answers. The
 * tests run it with the client's `httpOptions.fetch` pointed at a scripted API
 * (test/adapters/examples.test.ts); with `new GoogleGenAI({})` it runs against the real one.
 */
import type { Content, GoogleGenAI } from '@google/genai';
import { toolLoop } from 'turngate/adapters/gemini';
import { handlers, Tools, type Outbox } from './tools.ts';

/**
 * Runs the loop to the model's answer.
 *
 * @param ai - A Gemini client (`new GoogleGenAI({})`).
 * @returns The contents and the emails sent.
 */
export async function runGeminiLoop(ai: GoogleGenAI) {
  const outbox: Outbox = { sent: [] };
  const history: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Oslo? Email it to ada@example.com.' }] }];

  const loop = toolLoop({ tools: Tools, handlers: handlers(outbox) });
  for (let step = loop.start(); !step.done; ) {
    const reply = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: history,
      config: { tools: loop.tools },
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
 * @param ai - A Gemini client.
 * @returns Both steps and the emails sent (one).
 */
export async function replayGeminiReply(ai: GoogleGenAI) {
  const outbox: Outbox = { sent: [] };
  const history: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Oslo? Email it to ada@example.com.' }] }];
  const loop = toolLoop({ tools: Tools, handlers: handlers(outbox) });
  const reply = await ai.models.generateContent({
    model: 'gemini-2.5-flash',
    contents: history,
    config: { tools: loop.tools },
  });
  const first = await loop.answer(history, reply);
  const again = await loop.answer(history, reply);
  return { first, again, outbox };
}
