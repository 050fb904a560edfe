#!/usr/bin/env node
// The hostile-reply table: each adapter's tool loop of a built checkout (its dist/) fed replies a
// hostile provider or a broken server sends, counting the effects (emails) each ran, and what
// `answer` did (returned, or threw which error). Run it on two checkouts to compare builds:
//   node scripts/hostile-replies.mjs [checkout ...]      (default: this one; build first)
// The suite's own assertions are test/adapters/hostile-replies.test.ts; this prints the counts.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as v from 'valibot';
import { anthropicReply } from '../test/fixtures/anthropic-reply.mjs';

const ADAPTERS = ['anthropic', 'openai-chat', 'openai-responses', 'aisdk', 'gemini'];
const TOOL_STOP = {
  anthropic: 'tool_use',
  'openai-chat': 'tool_calls',
  'openai-responses': 'completed',
  aisdk: 'tool-calls',
  gemini: 'STOP',
};
const CUT = {
  anthropic: 'max_tokens',
  'openai-chat': 'length',
  'openai-responses': 'max_output_tokens',
  aisdk: 'length',
  gemini: 'MAX_TOKENS',
};
const FINAL = {
  anthropic: 'end_turn',
  'openai-chat': 'stop',
  'openai-responses': 'failed',
  aisdk: 'stop',
  gemini: 'RECITATION',
};

function responsesStatus(stop) {
  if (['max_output_tokens', 'content_filter'].includes(stop))
    return { status: 'incomplete', incomplete_details: { reason: stop } };
  return { status: stop };
}

function reply(adapter, calls, { stop = TOOL_STOP[adapter], id = 'r1' } = {}) {
  const text = (c) => c.argsText ?? JSON.stringify(c.input);
  switch (adapter) {
    case 'anthropic':
      return anthropicReply(id, [], {
        stop,
        content: calls.map((c) => c.raw ?? { type: 'tool_use', id: c.id, name: c.name, input: c.input }),
      });
    case 'openai-chat':
      return {
        id,
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [
          {
            index: 0,
            finish_reason: stop,
            logprobs: null,
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: text(c) },
              })),
            },
          },
        ],
      };
    case 'openai-responses':
      return {
        id,
        object: 'response',
        created_at: 1,
        model: 'm',
        output_text: '',
        ...responsesStatus(stop),
        output: calls.map(
          (c, i) =>
            c.raw ?? {
              type: 'function_call',
              id: `fc_${id}_${i}`,
              call_id: c.id,
              name: c.name,
              arguments: text(c),
              status: 'completed',
            },
        ),
      };
    case 'aisdk':
      return {
        finishReason: stop,
        response: { id, modelId: 'm' },
        responseMessages: [
          {
            role: 'assistant',
            content: calls
              .filter((c) => !c.raw)
              .map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.input })),
          },
          ...calls.filter((c) => c.raw).map((c) => c.raw),
        ],
      };
    case 'gemini':
      return {
        responseId: id,
        modelVersion: 'm',
        candidates: [
          {
            index: 0,
            finishReason: stop,
            content: {
              role: 'model',
              parts: calls.map((c) => c.raw ?? { functionCall: { id: c.id, name: c.name, args: c.input } }),
            },
          },
        ],
      };
  }
}
const history = (adapter) =>
  adapter === 'gemini' ? [{ role: 'user', parts: [{ text: 'go' }] }] : [{ role: 'user', content: 'go' }];
const email = (id, to = 'a@x') => ({ id, name: 'send_email', input: { to, body: 'b' } });
const weather = (id) => ({ id, name: 'get_weather', input: { city: 'Oslo' } });
const selfAnswer = {
  anthropic: { raw: { type: 'tool_result', tool_use_id: 'c1', content: 'sent' } },
  'openai-responses': { raw: { type: 'function_call_output', call_id: 'c1', output: 'sent' } },
  aisdk: {
    raw: {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'c1', toolName: 'send_email', output: { type: 'text', value: 'sent' } },
      ],
    },
  },
  gemini: { raw: { functionResponse: { id: 'c1', name: 'send_email', response: { output: 'sent' } } } },
};

const CASES = [
  [
    '129 emails in one reply',
    (a) =>
      reply(
        a,
        Array.from({ length: 129 }, (_, i) => email(`m${i}`, `u${i}@x`)),
      ),
  ],
  [
    '10,000 reads and an email',
    (a) => reply(a, [...Array.from({ length: 10_000 }, (_, i) => weather(`r${i}`)), email('m1')]),
  ],
  ['one id twice', (a) => reply(a, [weather('c1'), email('c1')])],
  ['an id with a control character', (a) => reply(a, [email('c\u0000x')])],
  ['a reply answering its own call', (a) => (selfAnswer[a] ? reply(a, [email('c1'), selfAnswer[a]]) : undefined)],
  [
    'a failing read beside an email',
    (a) => reply(a, [{ id: 'c0', name: 'fail_read', input: { q: 'x' } }, email('c1')]),
  ],
  ['an unknown tool beside an email', (a) => reply(a, [{ id: 'c0', name: 'rm_rf', input: {} }, email('c1')])],
  ['cut off (max tokens)', (a) => reply(a, [email('c1')], { stop: CUT[a] })],
  ['final, failed or filtered with a call', (a) => reply(a, [email('c1')], { stop: FINAL[a] })],
  ['a made-up stop reason', (a) => reply(a, [email('c1')], { stop: 'made_up' })],
];

async function table(checkout) {
  const at = (path) => pathToFileURL(resolve(checkout, 'dist', 'esm', path)).href;
  const core = await import(at('index.js'));
  const adapters = Object.fromEntries(
    await Promise.all(ADAPTERS.map(async (a) => [a, await import(at(`adapters/${a}.js`))])),
  );
  class Tools extends core.defineTools({
    get_weather: { input: v.object({ city: v.string() }), output: v.string() },
    fail_read: { input: v.object({ q: v.string() }), output: v.string() },
    send_email: {
      input: v.object({ to: v.string(), body: v.string() }),
      output: v.object({ id: v.string() }),
      mutation: true,
    },
  }) {}
  const rows = [];
  for (const [name, make] of CASES) {
    const row = [name];
    for (const adapter of ADAPTERS) {
      const r = make(adapter);
      if (r === undefined) {
        row.push('n/a');
        continue;
      }
      let sent = 0;
      const loop = adapters[adapter].toolLoop({
        tools: Tools,
        handlers: {
          get_weather: async () => 'snow',
          fail_read: async () => {
            throw new Error('down');
          },
          send_email: async ({ to }) => {
            sent++;
            return { id: to };
          },
        },
      });
      let how;
      try {
        await loop.answer(history(adapter), r);
        how = 'ok';
      } catch (error) {
        how = error?.code ?? error?.name ?? 'threw';
      }
      row.push(`${sent} ${how}`);
    }
    rows.push(row);
  }
  return rows;
}

const checkouts = process.argv.length > 2 ? process.argv.slice(2) : ['.'];
for (const checkout of checkouts) {
  console.log(`\n${checkout}: emails sent, then what answer did (ok, or the error's code or name)`);
  console.log(['case', ...ADAPTERS].join(' | '));
  for (const row of await table(checkout)) console.log(row.join(' | '));
}
