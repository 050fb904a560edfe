#!/usr/bin/env node
// npm run bench:steps: the tool loop's transcript checks per step, at step 10 and step 1,000 of
// a conversation of steps of one read call each (an assistant message with one `get_weather`
// call, then its result), and over the whole 1,000-step conversation; with `--baseline
// <checkout>` the same through another build (its dist/), in the same rounds.
//
// Three measures, each CPU of this process (user + system), medians of interleaved rounds (the
// order of the builds and rows rotates round by round):
// - `checks`: the two checks the loop makes per step (before any handler: the history, the reply
//   and a placeholder result; after: the history and the step's messages). This build:
//   `extendTranscript` from the transcript the last step ended with (what the loop does);
//   the baseline: `checkTranscriptJson` of the whole history, twice (what its loop did).
// - `total`: those checks summed over the steps 1 to 1,000 of one conversation.
// - `answer`: the loop's `answer` at that step (its checks, the typestate steps, the handler):
//   a fresh loop's first step (not measured), then 8 steps in a row from step k, the caller
//   appending each step's messages.
// Formats: openai-chat and anthropic (with their tool loops), openai-responses, gemini, aisdk, mistral and
// bedrock-converse
// (`checks` and `total` only).
// - `guard`: the AI SDK middleware `transcriptGuard` on the prompt of step k (the SDK's
//   `LanguageModelV4Prompt`, built anew each step as the SDK does), the guard having passed the
//   prompt of step k - 1 (not measured).
// Each sample starts after a full collection when run with --expose-gc (so a row does not pay
// for the garbage of the row before it). Build first: it measures dist/.
//
// Usage: node --expose-gc scripts/bench-steps.mjs [--rounds N] [--baseline <checkout>] [--steps 10,1000]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { median } from './bench/stats.mjs';
import { anthropicReply } from '../test/fixtures/anthropic-reply.mjs';

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, baseline: { type: 'string' }, steps: { type: 'string' } },
});
const ROUNDS = Number(values.rounds ?? 5);
const STEPS = (values.steps ?? '10,1000').split(',').map(Number);
const LONGEST = Math.max(...STEPS);
const FORMATS = ['openai-chat', 'anthropic', 'openai-responses', 'gemini', 'aisdk', 'mistral', 'bedrock-converse'];
/** The formats with a tool loop (`answer` rows). */
const LOOPS = ['openai-chat', 'anthropic'];
/** The AI SDK middleware's rows: a pseudo-format. */
const GUARD = 'aisdk-guard';
/** A guard sample's runs (each primed with the step before, unmeasured). */
const GUARD_RUNS = 50;
/** CPU microseconds a sample should last at least (a sample repeats its work to reach it). */
const SAMPLE_US = 10000;
/** The steps in a row an `answer` sample measures (steps k to k + ANSWERED - 1). */
const ANSWERED = 8;

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function build(root) {
  const at = (path) => pathToFileURL(resolve(root, 'dist', 'esm', path)).href;
  const [core, transcripts, chat, anthropic, aisdk] = await Promise.all([
    import(at('index.js')),
    import(at('transcripts/index.js')),
    import(at('adapters/openai-chat.js')),
    import(at('adapters/anthropic.js')),
    import(at('adapters/aisdk.js')),
  ]);
  class Tools extends core.defineTools({
    get_weather: { input: v.object({ city: v.string() }), output: v.string() },
  }) {}
  const handlers = { get_weather: async ({ city }) => `snow in ${city}` };
  const loops = { 'openai-chat': chat, anthropic };
  return {
    transcripts,
    guard: aisdk.transcriptGuard,
    extends: typeof transcripts.extendTranscript === 'function',
    loop: (format) => loops[format].toolLoop({ tools: Tools, handlers }),
  };
}

/** Step `s`'s messages: the assistant's call (as history) and its result, and the provider's reply. */
const STEP = {
  'openai-chat': (s) => {
    const call = { id: `call_${s}`, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } };
    const assistant = { role: 'assistant', content: null, tool_calls: [call] };
    return {
      messages: [assistant, { role: 'tool', tool_call_id: call.id, content: 'snow in Oslo' }],
      placeholder: [assistant, { role: 'tool', tool_call_id: call.id, content: 'mutation_pending: not answered yet' }],
      reply: {
        id: `chatcmpl-${s}`,
        object: 'chat.completion',
        created: 0,
        model: 'gpt-5',
        choices: [{ index: 0, finish_reason: 'tool_calls', logprobs: null, message: { ...assistant, refusal: null } }],
      },
    };
  },
  anthropic: (s) => {
    const use = { type: 'tool_use', id: `toolu_${s}`, name: 'get_weather', input: { city: 'Oslo' } };
    const assistant = { role: 'assistant', content: [use] };
    const result = (text) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: text }] });
    return {
      messages: [assistant, result('snow in Oslo')],
      placeholder: [assistant, result('mutation_pending: not answered yet')],
      reply: anthropicReply(`msg_${s}`, [], { content: [use] }),
    };
  },
};

STEP['openai-responses'] = (s) => {
  const call = { type: 'function_call', call_id: `call_${s}`, name: 'get_weather', arguments: '{"city":"Oslo"}' };
  const output = (text) => ({ type: 'function_call_output', call_id: call.call_id, output: text });
  return {
    messages: [call, output('snow in Oslo')],
    placeholder: [call, output('mutation_pending: not answered yet')],
  };
};
STEP.gemini = (s) => {
  const model = {
    role: 'model',
    parts: [{ functionCall: { id: `call_${s}`, name: 'get_weather', args: { city: 'Oslo' } } }],
  };
  const user = (text) => ({
    role: 'user',
    parts: [{ functionResponse: { id: `call_${s}`, name: 'get_weather', response: { text } } }],
  });
  return { messages: [model, user('snow in Oslo')], placeholder: [model, user('mutation_pending: not answered yet')] };
};
STEP.aisdk = (s) => {
  const call = { type: 'tool-call', toolCallId: `call_${s}`, toolName: 'get_weather', input: { city: 'Oslo' } };
  const result = (value) => ({
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: `call_${s}`, toolName: 'get_weather', output: { type: 'text', value } },
    ],
  });
  return {
    messages: [{ role: 'assistant', content: [call] }, result('snow in Oslo')],
    placeholder: [{ role: 'assistant', content: [call] }, result('mutation_pending: not answered yet')],
  };
};
STEP.mistral = (s) => {
  const id = `call${String(s).padStart(5, '0')}`;
  const call = { id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } };
  const assistant = { role: 'assistant', content: null, tool_calls: [call] };
  return {
    messages: [assistant, { role: 'tool', tool_call_id: id, content: 'snow in Oslo' }],
    placeholder: [assistant, { role: 'tool', tool_call_id: id, content: 'mutation_pending: not answered yet' }],
  };
};
STEP['bedrock-converse'] = (s) => {
  const assistant = {
    role: 'assistant',
    content: [{ toolUse: { toolUseId: `tooluse_${s}`, name: 'get_weather', input: { city: 'Oslo' } } }],
  };
  const user = (text) => ({
    role: 'user',
    content: [{ toolResult: { toolUseId: `tooluse_${s}`, content: [{ text }], status: 'success' } }],
  });
  return {
    messages: [assistant, user('snow in Oslo')],
    placeholder: [assistant, user('mutation_pending: not answered yet')],
  };
};
/** The first message of each format's history. */
const QUESTION = {
  gemini: { role: 'user', parts: [{ text: 'Weather in Oslo, step by step?' }] },
  'bedrock-converse': { role: 'user', content: [{ text: 'Weather in Oslo, step by step?' }] },
};

/** The SDK's prompt of step `steps` (LanguageModelV4Prompt), new objects each call as the SDK builds them. */
function promptOf(steps) {
  const prompt = [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo, step by step?' }], providerOptions: undefined },
  ];
  for (let s = 0; s < steps; s++) {
    const call = { type: 'tool-call', toolCallId: `call_${s}`, toolName: 'get_weather', input: { city: 'Oslo' } };
    prompt.push({ role: 'assistant', content: [{ ...call, providerExecuted: undefined, providerOptions: undefined }] });
    prompt.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: call.toolCallId,
          toolName: 'get_weather',
          output: { type: 'text', value: 'snow in Oslo' },
          providerOptions: undefined,
        },
      ],
      providerOptions: undefined,
    });
  }
  return prompt;
}

/** The history after `steps` steps (the user's question first). */
function historyOf(format, steps) {
  const history = [QUESTION[format] ?? { role: 'user', content: 'Weather in Oslo, step by step?' }];
  for (let s = 0; s < steps; s++) history.push(...STEP[format](s).messages);
  return history;
}

/** The loop's two checks of step `s` after `history`, as each build's loop makes them; returns the transcript the step ends with. */
function stepChecks(b, format, history, anchor, s) {
  const step = STEP[format](s);
  if (b.extends) {
    const before = b.transcripts.extendTranscript(anchor, step.placeholder);
    const after = b.transcripts.extendTranscript(anchor, step.messages);
    if (before.result !== 'accepted' || after.result !== 'accepted') throw new Error(`${format}: step ${s} refused`);
    return after.transcript;
  }
  const before = b.transcripts.checkTranscriptJson([...history, ...step.placeholder], { format });
  const after = b.transcripts.checkTranscriptJson([...history, ...step.messages], { format });
  if (before.result !== 'accepted' || after.result !== 'accepted') throw new Error(`${format}: step ${s} refused`);
  return undefined;
}

/** The transcript of `history` as this build's loop holds it after a step (a lineage started by `extendTranscript`). */
function anchorOf(b, format, history) {
  if (!b.extends) return undefined;
  const empty = b.transcripts.checkTranscriptJson([], { format }).transcript;
  return b.transcripts.extendTranscript(empty, history).transcript;
}

/** Repeats `run` until the sample lasts SAMPLE_US; CPU microseconds per run. */
async function sample(run) {
  let reps = 0;
  const start = cpu();
  let used = 0;
  while (used < SAMPLE_US || reps < 1) {
    await run();
    reps++;
    used = cpu() - start;
  }
  return used / reps;
}

const builds = [['this', await build('.')]];
if (values.baseline !== undefined) builds.push(['baseline', await build(values.baseline)]);
const histories = new Map();
for (const format of FORMATS) for (const k of STEPS) histories.set(`${format}:${k}`, historyOf(format, k));

const rows = [];
for (const [name, b] of builds) {
  for (const format of FORMATS) {
    for (const k of STEPS) {
      const history = histories.get(`${format}:${k}`);
      const anchor = anchorOf(b, format, history);
      rows.push({
        name,
        format,
        what: 'checks',
        k,
        us: [],
        run: async () => stepChecks(b, format, history, anchor, k),
      });
      // The loop: a fresh one, whose first step (not measured) leaves it the history it ended
      // with; then ANSWERED steps in a row, each appending its messages, measured.
      if (LOOPS.includes(format))
        rows.push({
          name,
          format,
          what: 'answer',
          k,
          us: [],
          sample: async () => {
            const loop = b.loop(format);
            const before = history.slice(0, -2);
            const first = await loop.answer(before, STEP[format](k - 1).reply);
            const grown = [...before, ...first.messages];
            const start = cpu();
            for (let s = k; s < k + ANSWERED; s++)
              grown.push(...(await loop.answer(grown, STEP[format](s).reply)).messages);
            return (cpu() - start) / ANSWERED;
          },
        });
    }
    // Every step of a LONGEST-step conversation: one run per sample.
    rows.push({
      name,
      format,
      what: 'total',
      k: LONGEST,
      us: [],
      run: () => {
        const history = historyOf(format, 0);
        let anchor = anchorOf(b, format, history);
        for (let s = 0; s < LONGEST; s++) {
          anchor = stepChecks(b, format, history, anchor, s) ?? anchor;
          history.push(...STEP[format](s).messages);
        }
      },
      once: true,
    });
  }

  // The middleware at step k: a guard that passed step k - 1's prompt (not measured).
  for (const k of STEPS) {
    rows.push({
      name,
      format: GUARD,
      what: 'checks',
      k,
      us: [],
      sample: async () => {
        let used = 0;
        for (let r = 0; r < GUARD_RUNS; r++) {
          const guard = b.guard();
          await guard.transformParams({ type: 'generate', params: { prompt: promptOf(k - 1) } });
          const params = { prompt: promptOf(k) };
          const start = cpu();
          await guard.transformParams({ type: 'generate', params });
          used += cpu() - start;
        }
        return used / GUARD_RUNS;
      },
    });
  }
  rows.push({
    name,
    format: GUARD,
    what: 'total',
    k: LONGEST,
    us: [],
    once: true,
    run: async () => {
      const guard = b.guard();
      for (let s = 1; s <= LONGEST; s++)
        await guard.transformParams({ type: 'generate', params: { prompt: promptOf(s) } });
    },
  });
}

// Warm-up: every row once.
for (const row of rows) await (row.sample ?? row.run)();
for (let round = 0; round < ROUNDS; round++) {
  const order = rows.map((_, i) => rows[(i + round) % rows.length]);
  for (const row of order) {
    globalThis.gc?.();
    if (row.sample !== undefined) {
      row.us.push(await row.sample());
    } else if (row.once) {
      const start = cpu();
      await row.run();
      row.us.push(cpu() - start);
    } else row.us.push(await sample(row.run));
  }
}

const fmt = (us) =>
  us >= 10000 ? `${(us / 1000).toFixed(0)} ms` : us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`;
console.log(
  `CPU per step (checks, answer) and per ${LONGEST}-step conversation (total); medians of ${ROUNDS} interleaved rounds`,
);
console.log('format        measure   step    this        baseline    this/baseline   this step/first step');
for (const format of [...FORMATS, GUARD]) {
  for (const what of ['checks', 'answer', 'total']) {
    const ks = what === 'total' ? [LONGEST] : STEPS;
    for (const k of ks) {
      const m = (name) => {
        const row = rows.find((r) => r.name === name && r.format === format && r.what === what && r.k === k);
        return row === undefined ? undefined : median(row.us);
      };
      const first = rows.find((r) => r.name === 'this' && r.format === format && r.what === what && r.k === ks[0]);
      const mine = m('this');
      const base = m('baseline');
      if (mine === undefined) continue;
      console.log(
        [
          format.padEnd(13),
          what.padEnd(9),
          String(k).padStart(4),
          fmt(mine).padStart(10),
          (base === undefined ? '-' : fmt(base)).padStart(11),
          (base === undefined ? '-' : (mine / base).toFixed(3)).padStart(15),
          (first === undefined ? '' : (mine / median(first.us)).toFixed(2)).padStart(22),
        ].join(' '),
      );
    }
  }
}
