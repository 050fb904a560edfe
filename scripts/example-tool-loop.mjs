#!/usr/bin/env node
// The main job on bundled real input: a gated tool loop (turngate/adapters/gemini's `toolLoop`)
// answering the model replies of Google's own sequential function-calling example, as the
// Gemini API documentation prints them (conformance/transcripts/gemini/
// gemini3-every-step-with-thought-signature.json: the model asks `check_flight`, then, told the
// flight is delayed, `book_taxi`; each call carries its thought signature). Each recorded model
// content is handed to the loop as the `GenerateContentResponse` `generateContent` returns
// (`candidates[0].content`, `finishReason: 'STOP'`, `modelVersion`). It prints each step: the read
// run at once, the mutation held by the gate until the turn closed and run once (a replayed reply
// does not run it again), and the history the next request would send, which the Gemini check
// accepts. Exits 0 when every step behaved so, 1 otherwise.
//
//   npm run example:tool-loop        (node scripts/example-tool-loop.mjs; `npm ci` built dist/)
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { defineTools } from 'turngate';
import { toolLoop } from 'turngate/adapters/gemini';
import { checkTranscript } from 'turngate/transcripts';

const CASE = 'conformance/transcripts/gemini/gemini3-every-step-with-thought-signature.json';
const root = new URL('..', import.meta.url);
const recorded = JSON.parse(readFileSync(new URL(CASE, root), 'utf8'));
const { model, contents } = recorded.input;
const replies = contents.filter((content) => content.role === 'model');
/** What the documented conversation answered each call with: the handlers give the same. */
const answers = new Map(
  contents.flatMap((content) =>
    content.parts
      .filter((part) => part.functionResponse !== undefined)
      .map((part) => [part.functionResponse.name, part.functionResponse.response]),
  ),
);

class Tools extends defineTools({
  check_flight: {
    description: 'The status of a flight.',
    input: v.object({ flight: v.string() }),
    output: v.object({ status: v.string(), departure_time: v.string() }),
  },
  book_taxi: {
    description: 'Books a taxi.',
    input: v.object({ time: v.string() }),
    output: v.object({ booking_status: v.string() }),
    mutation: true,
  },
}) {}

const say = (line) => console.log(line);
const json = (value) => JSON.stringify(value);
const short = (digest) => `${digest.slice(0, 19)}…`;
/** The taxis booked: each with the join-set digest of the closed turn its witness names. */
const taxis = [];
const handlers = {
  check_flight: async (input) => {
    const output = answers.get('check_flight');
    say(`  read check_flight ${json(input)}: ran at once -> ${json(output)}`);
    return output;
  },
  book_taxi: async (input, witness) => {
    taxis.push({ input, joinSetDigest: witness.joinSetDigest });
    return answers.get('book_taxi');
  },
};

/** A recorded model content as the `GenerateContentResponse` `ai.models.generateContent` returns. */
const replyOf = (content) => ({ candidates: [{ content, finishReason: 'STOP', index: 0 }], modelVersion: model });
/** What went wrong, if anything: the example exits 1 naming it. */
const wrong = [];

say(`A gated tool loop on recorded Gemini replies (${CASE}; ${recorded.source})`);
const loop = toolLoop({ tools: Tools, handlers });
const history = [contents[0]];
for (const [index, content] of replies.entries()) {
  const reply = replyOf(content);
  const calls = content.parts.filter((part) => part.functionCall !== undefined).map((part) => part.functionCall.name);
  say(`reply ${index + 1} (${model}, finishReason STOP): ${calls.join(', ')}`);
  const booked = taxis.length;
  const step = await loop.answer(history, reply);
  const report = step.closed?.report;
  if (report?.result !== 'accepted' || step.failures.length > 0)
    wrong.push(`reply ${index + 1}: the turn did not close`);
  say(`  turn closed: ${report?.result ?? 'no'}`);
  const ran = taxis.slice(booked);
  for (const m of step.mutations) {
    const name = m.intent.kind === 'tool_call' ? m.intent.toolName : m.intent.kind;
    if (m.outcome !== 'performed' || ran.length !== 1) wrong.push(`reply ${index + 1}: ${name} ${m.outcome}`);
    const taxi = ran[0];
    say(
      `  gate: ${name}${taxi === undefined ? '' : ` ${json(taxi.input)}`} held until the turn closed, then ${m.outcome}` +
        (taxi === undefined ? '' : ` once (its witness: join set ${short(taxi.joinSetDigest)})`),
    );
  }
  history.push(...step.messages);
  say(
    `  sent back: the reply and ${step.results.length} functionResponse (${step.results.map((r) => `${r.toolName} ${r.status}`).join(', ')}); done: ${step.done}`,
  );
}

// A retry after a timeout hands the last reply to the loop again: the ledger answers the taxi.
const again = await loop.answer(history.slice(0, -2), replyOf(replies.at(-1)));
say(
  `replayed reply ${replies.length}: ${again.mutations.map((m) => `${m.intent.kind === 'tool_call' ? m.intent.toolName : ''} ${m.outcome}`).join(', ')}; taxis booked: ${taxis.length}`,
);

const report = checkTranscript({ model, contents: history }, { format: 'gemini' });
say(`next request: ${history.length} contents; checkTranscript (gemini, ${model}): ${report.result}`);
if (report.result !== 'accepted') wrong.push(`the next request's history is ${report.result}`);
if (taxis.length !== 1) wrong.push(`${taxis.length} taxis booked, not 1`);
if (wrong.length > 0) {
  console.error(`example:tool-loop: ${wrong.join('; ')}`);
  process.exit(1);
}
