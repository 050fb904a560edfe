#!/usr/bin/env node
// npm run bench:transcripts: check and repair transcripts of 100, 1,000 and 10,000 messages in
// each format. Each is compared with a floor measured in the same run: one pass over the same
// messages that collects the call ids and the result ids into two Sets (the least any check of
// pairing must do). For each format and size, the repeats are interleaved (floor, check, repair,
// repair of a broken copy, floor, check, ...) and each figure is the median over the repeats.
// A repeat runs the operation over about 100,000 messages in all (10 times on 10,000, 1,000
// times on 100) and is timed in process CPU time, so other processes on a shared machine weigh
// less than in wall time.
//
// With --baseline <checkout>, another build of turngate (that checkout's dist/, built there)
// checks the same transcripts in the same repeats, interleaved with this build's (the order
// alternating repeat by repeat), each against the same floor: a before and after in one run.
// --lib <file> and --baseline-lib <file> name the modules themselves (a bundle of
// src/transcripts/index.ts, say) instead of dist/transcripts/index.js.
//
// Two more figures in the same repeats put the check's cost in context: the check under
// `expect: 'received'` (the same rules, no SendableTranscript: no frozen copy of the messages),
// and JSON.stringify of the messages (what sending them costs the SDK anyway; the check walks
// every value too, to know JSON.stringify can write it), printed as check/stringify.
//
// For aisdk, the AI SDK's own message schema (`modelMessageSchema` from `ai`, the zod schema of
// a ModelMessage, `safeParse` of each message) is timed in the same repeats, over about 2,000
// messages a repeat (it is slow), after the check's repeats, and printed beside the check
// (--no-sdk leaves it out).
//
// Usage: node scripts/bench-transcripts.mjs [--repeats N] [--formats a,b] [--sizes 1000,10000]
//   [--baseline <checkout> | --baseline-lib <file>] [--lib <file>] [--no-repair] [--no-sdk]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    repeats: { type: 'string' },
    formats: { type: 'string' },
    sizes: { type: 'string' },
    baseline: { type: 'string' },
    'baseline-lib': { type: 'string' },
    lib: { type: 'string' },
    'no-repair': { type: 'boolean' },
    'no-sdk': { type: 'boolean' },
  },
});
const REPEATS = Number(values.repeats ?? 9);
const FORMATS = (
  values.formats ?? 'anthropic,openai-chat,openai-responses,aisdk,gemini,bedrock-converse,chat,langchain,mistral'
).split(',');
const SIZES = (values.sizes ?? '100,1000,10000').split(',').map(Number);
const REPAIR = values['no-repair'] !== true;
const load = (file) => import(pathToFileURL(resolve(file)).href);
const { checkTranscriptJson, repairTranscriptJson } = await load(
  values.lib ?? new URL('../dist/transcripts/index.js', import.meta.url).pathname,
);
const baselineFile =
  values['baseline-lib'] ??
  (values.baseline === undefined ? undefined : resolve(values.baseline, 'dist/transcripts/index.js'));
const baseline = baselineFile === undefined ? undefined : await load(baselineFile);
// The AI SDK's own check of a history: its ModelMessage schema, message by message.
const sdkSchema =
  values['no-sdk'] === true || !FORMATS.includes('aisdk') ? undefined : (await import('ai')).modelMessageSchema;
const sdkCheck = (messages) => {
  for (const message of messages) if (!sdkSchema.safeParse(message).success) throw new Error('not a ModelMessage');
};

// A realistic loop, round after round: a user question, an assistant message with 1-3 calls,
// their results, an answer; whole rounds until the transcript has at least `size` messages.
function transcript(format, size) {
  const out = [];
  let id = 0;
  for (let r = 0; out.length < size; r++) {
    const calls = Array.from({ length: 1 + (r % 3) }, () => {
      id++;
      return { id: `call_${String(id).padStart(6, '0')}`, name: ['get_weather', 'read_file', 'search_docs'][id % 3] };
    });
    out.push(...render[format]([{ user: `Question ${r}: what about item ${r}?`, calls, answer: `Answer ${r}.` }]));
  }
  // Mistral takes a history ending with an assistant message only as a prefix.
  if (format === 'mistral') out[out.length - 1] = { ...out[out.length - 1], prefix: true };
  return out;
}

const render = {
  anthropic: (rs) =>
    rs.flatMap((r) => [
      { role: 'user', content: r.user },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          ...r.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: { q: c.id } })),
        ],
      },
      {
        role: 'user',
        content: r.calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: `result of ${c.id}` })),
      },
      { role: 'assistant', content: [{ type: 'text', text: r.answer }] },
    ]),
  'openai-chat': (rs) =>
    rs.flatMap((r) => [
      { role: 'user', content: r.user },
      {
        role: 'assistant',
        content: null,
        tool_calls: r.calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: `{"q":"${c.id}"}` },
        })),
      },
      ...r.calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: `result of ${c.id}` })),
      { role: 'assistant', content: r.answer },
    ]),
  // Mistral: the openai-chat loop with ids of 9 letters and digits (call_000001 -> cal000001).
  mistral: (rs) =>
    render['openai-chat'](
      rs.map((r) => ({ ...r, calls: r.calls.map((c) => ({ ...c, id: c.id.replace('call_', 'cal') })) })),
    ),
  chat: (rs) =>
    rs.flatMap((r) => [
      { role: 'user', content: r.user },
      {
        role: 'assistant',
        content: '',
        tool_calls: r.calls.map((c) => ({ id: c.id, name: c.name, arguments: { q: c.id } })),
      },
      ...r.calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: `result of ${c.id}` })),
      { role: 'assistant', content: r.answer },
    ]),
  'openai-responses': (rs) =>
    rs.flatMap((r) => [
      { role: 'user', content: r.user },
      { type: 'reasoning', id: `rs_${r.calls[0].id}`, summary: [] },
      ...r.calls.map((c) => ({
        type: 'function_call',
        id: `fc_${c.id}`,
        call_id: c.id,
        name: c.name,
        arguments: `{"q":"${c.id}"}`,
      })),
      ...r.calls.map((c) => ({ type: 'function_call_output', call_id: c.id, output: `result of ${c.id}` })),
      { type: 'message', role: 'assistant', content: r.answer },
    ]),
  aisdk: (rs) =>
    rs.flatMap((r) => [
      { role: 'user', content: r.user },
      {
        role: 'assistant',
        content: r.calls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: { q: c.id } })),
      },
      {
        role: 'tool',
        content: r.calls.map((c) => ({
          type: 'tool-result',
          toolCallId: c.id,
          toolName: c.name,
          output: { type: 'text', value: `result of ${c.id}` },
        })),
      },
      { role: 'assistant', content: [{ type: 'text', text: r.answer }] },
    ]),
  // LangChain: the toJSON() form (what JSON.stringify and LangGraph checkpoints write), written
  // as literals (objects built by spreading differently shaped objects read far slower in V8
  // than the parsed JSON a real history is).
  langchain: (rs) =>
    rs.flatMap((r) => [
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'HumanMessage'],
        kwargs: { content: r.user, additional_kwargs: {}, response_metadata: {} },
      },
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'AIMessage'],
        kwargs: {
          content: '',
          tool_calls: r.calls.map((c) => ({ id: c.id, name: c.name, args: { q: c.id }, type: 'tool_call' })),
          invalid_tool_calls: [],
          additional_kwargs: {},
          response_metadata: {},
        },
      },
      ...r.calls.map((c) => ({
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'ToolMessage'],
        kwargs: { content: `result of ${c.id}`, tool_call_id: c.id, additional_kwargs: {}, response_metadata: {} },
      })),
      {
        lc: 1,
        type: 'constructor',
        id: ['langchain_core', 'messages', 'AIMessage'],
        kwargs: {
          content: r.answer,
          tool_calls: [],
          invalid_tool_calls: [],
          additional_kwargs: {},
          response_metadata: {},
        },
      },
    ]),
  gemini: (rs) =>
    rs.flatMap((r) => [
      { role: 'user', parts: [{ text: r.user }] },
      { role: 'model', parts: r.calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: { q: c.id } } })) },
      {
        role: 'user',
        parts: r.calls.map((c) => ({
          functionResponse: { id: c.id, name: c.name, response: { output: `result of ${c.id}` } },
        })),
      },
      { role: 'model', parts: [{ text: r.answer }] },
    ]),
  'bedrock-converse': (rs) =>
    rs.flatMap((r) => [
      { role: 'user', content: [{ text: r.user }] },
      {
        role: 'assistant',
        content: [
          { text: 'Let me check.' },
          ...r.calls.map((c) => ({ toolUse: { toolUseId: c.id, name: c.name, input: { q: c.id } } })),
        ],
      },
      {
        role: 'user',
        content: r.calls.map((c) => ({ toolResult: { toolUseId: c.id, content: [{ text: `result of ${c.id}` }] } })),
      },
      { role: 'assistant', content: [{ text: r.answer }] },
    ]),
};

// The floor: one pass collecting call ids and result ids into Sets, reading each format's fields.
const floor = {
  anthropic(ms) {
    const calls = new Set();
    const results = new Set();
    for (const m of ms) {
      if (typeof m.content === 'string') continue;
      for (const b of m.content) {
        if (b.type === 'tool_use') calls.add(b.id);
        else if (b.type === 'tool_result') results.add(b.tool_use_id);
      }
    }
    return calls.size + results.size;
  },
  'openai-chat'(ms) {
    const calls = new Set();
    const results = new Set();
    for (const m of ms) {
      if (m.role === 'assistant' && m.tool_calls) for (const c of m.tool_calls) calls.add(c.id);
      else if (m.role === 'tool') results.add(m.tool_call_id);
    }
    return calls.size + results.size;
  },
  'openai-responses'(items) {
    const calls = new Set();
    const results = new Set();
    for (const it of items) {
      if (it.type === 'function_call') calls.add(it.call_id);
      else if (it.type === 'function_call_output') results.add(it.call_id);
    }
    return calls.size + results.size;
  },
  aisdk(ms) {
    const calls = new Set();
    const results = new Set();
    for (const m of ms) {
      if (typeof m.content === 'string') continue;
      for (const p of m.content) {
        if (p.type === 'tool-call') calls.add(p.toolCallId);
        else if (p.type === 'tool-result') results.add(p.toolCallId);
      }
    }
    return calls.size + results.size;
  },
  gemini(cs) {
    const calls = new Set();
    const results = new Set();
    for (const c of cs) {
      for (const p of c.parts) {
        if (p.functionCall) calls.add(p.functionCall.id);
        else if (p.functionResponse) results.add(p.functionResponse.id);
      }
    }
    return calls.size + results.size;
  },
};
floor['bedrock-converse'] = (ms) => {
  const calls = new Set();
  const results = new Set();
  for (const m of ms) {
    for (const b of m.content) {
      if (b.toolUse !== undefined) calls.add(b.toolUse.toolUseId);
      else if (b.toolResult !== undefined) results.add(b.toolResult.toolUseId);
    }
  }
  return calls.size + results.size;
};
floor.chat = floor['openai-chat'];
floor.langchain = (ms) => {
  const calls = new Set();
  const results = new Set();
  for (const m of ms) {
    const k = m.kwargs;
    if (k.tool_calls) for (const c of k.tool_calls) calls.add(c.id);
    else if (k.tool_call_id !== undefined) results.add(k.tool_call_id);
  }
  return calls.size + results.size;
};
floor.mistral = floor['openai-chat'];

// A broken copy: every 50th message that holds results loses its first result (a dangling call
// for repair to answer); a message left empty is dropped.
function broken(format, messages) {
  const key = format === 'gemini' ? 'parts' : 'content';
  const isResult = (p) =>
    p.type === 'tool_result' ||
    p.type === 'tool-result' ||
    p.functionResponse !== undefined ||
    p.toolResult !== undefined;
  let n = 0;
  const out = [];
  for (const m of messages) {
    const own = (m.role === 'tool' && !Array.isArray(m.content)) || m.kwargs?.tool_call_id !== undefined;
    if (own || m.type === 'function_call_output') {
      if (n++ % 50 !== 0) out.push(m);
      continue;
    }
    const list = m[key];
    if (!Array.isArray(list) || !list.some(isResult) || n++ % 50 !== 0) {
      out.push(m);
      continue;
    }
    const first = list.findIndex(isResult);
    const kept = list.filter((_, i) => i !== first);
    if (kept.length > 0) out.push({ ...m, [key]: kept });
  }
  return out;
}

/** CPU milliseconds per call of `fn`, over `times` calls. */
function time(fn, times) {
  const start = process.cpuUsage();
  for (let i = 0; i < times; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / times;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const cases = [];
for (const format of FORMATS) {
  for (const size of SIZES) {
    const messages = transcript(format, size);
    const bad = broken(format, messages);
    const report = checkTranscriptJson(messages, { format });
    if (report.result !== 'accepted') throw new Error(`${format} ${size}: generated transcript is ${report.result}`);
    const fixed = repairTranscriptJson(bad, { format });
    if (!fixed.ok || checkTranscriptJson([...fixed.value.messages], { format }).result !== 'accepted')
      throw new Error(`${format} ${size}: repair failed`);
    if (baseline !== undefined && baseline.checkTranscriptJson(messages, { format }).result !== 'accepted')
      throw new Error(`${format} ${size}: the baseline does not accept the generated transcript`);
    cases.push({
      format,
      size: messages.length,
      messages,
      bad,
      floor: [],
      check: [],
      received: [],
      stringify: [],
      base: [],
      sdk: [],
      repair: [],
      repairBroken: [],
    });
  }
}

// Per case: warm up, then interleave.
for (const c of cases) {
  const options = { format: c.format };
  const received = { format: c.format, expect: 'received' };
  for (let i = 0; i < 3; i++) {
    floor[c.format](c.messages);
    checkTranscriptJson(c.messages, options);
    baseline?.checkTranscriptJson(c.messages, options);
  }
  const times = Math.max(1, Math.round(100_000 / c.size));
  for (let r = 0; r < REPEATS; r++) {
    c.floor.push(time(() => floor[c.format](c.messages), times));
    const ours = () => c.check.push(time(() => checkTranscriptJson(c.messages, options), times));
    const theirs = () => c.base.push(time(() => baseline.checkTranscriptJson(c.messages, options), times));
    if (baseline === undefined) ours();
    else if (r % 2 === 0) {
      ours();
      theirs();
    } else {
      theirs();
      ours();
    }
    c.received.push(time(() => checkTranscriptJson(c.messages, received), times));
    c.stringify.push(time(() => JSON.stringify(c.messages), times));
    if (!REPAIR) continue;
    c.repair.push(time(() => repairTranscriptJson(c.messages, options), times));
    c.repairBroken.push(time(() => repairTranscriptJson(c.bad, options), times));
  }
  // After the case's repeats (its garbage would land in the floor's and the check's time).
  if (sdkSchema !== undefined && c.format === 'aisdk')
    for (let r = 0; r < Math.min(REPEATS, 5); r++)
      c.sdk.push(time(() => sdkCheck(c.messages), Math.max(1, Math.round(2_000 / c.size))));
}

const us = (ms, n) => ((ms * 1000) / n).toFixed(3);
const col = (x, w) => String(x).padStart(w);
console.log(`bench:transcripts  medians of ${REPEATS} interleaved repeats (Node ${process.version})`);
if (baseline !== undefined) console.log(`baseline: ${baselineFile}`);
console.log(
  `format            messages  floor us/msg  check us/msg  check/floor${baseline === undefined ? '' : '  baseline us/msg  baseline/floor'}  received us/msg  received/floor  check/stringify${REPAIR ? '  repair(ok) us/msg  repair(broken) us/msg' : ''}`,
);
for (const c of cases) {
  const f = median(c.floor);
  const perFloor = (key) => (c[key].length === 0 ? '-' : `${(median(c[key]) / f).toFixed(2)}x`);
  let line = `${c.format.padEnd(17)} ${col(c.size, 8)}  ${col(us(f, c.size), 12)}  ${col(us(median(c.check), c.size), 12)}  ${col(perFloor('check'), 11)}`;
  if (baseline !== undefined) line += `  ${col(us(median(c.base), c.size), 15)}  ${col(perFloor('base'), 14)}`;
  line += `  ${col(us(median(c.received), c.size), 15)}  ${col(perFloor('received'), 14)}  ${col(`${(median(c.check) / median(c.stringify)).toFixed(2)}x`, 15)}`;
  if (REPAIR) line += `  ${col(us(median(c.repair), c.size), 17)}  ${col(us(median(c.repairBroken), c.size), 21)}`;
  console.log(line);
}
for (const c of cases.filter((one) => one.sdk.length > 0)) {
  const sdk = median(c.sdk);
  console.log(
    `\naisdk ${c.size}: the AI SDK's modelMessageSchema.safeParse per message ${us(sdk, c.size)} us/msg; the check costs ${(median(c.check) / sdk).toFixed(4)}x of it`,
  );
}
const [low, high] = [SIZES.at(-2), SIZES.at(-1)];
if (low !== undefined) {
  console.log(
    `\ngrowth per message, ${low.toLocaleString('en')} -> ${high.toLocaleString('en')} messages (1.00 = linear; target for the check <= 1.15), of the check${baseline === undefined ? '' : ', of the baseline'} and of the floor:`,
  );
  for (const format of FORMATS) {
    const mine = cases.filter((c) => c.format === format);
    const [mid, big] = mine.slice(-2);
    const growth = (key) => (median(big[key]) / big.size / (median(mid[key]) / mid.size)).toFixed(2);
    console.log(
      `  ${format.padEnd(17)} check ${growth('check')}${baseline === undefined ? '' : `   baseline ${growth('base')}`}   floor ${growth('floor')}`,
    );
  }
}
