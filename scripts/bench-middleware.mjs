#!/usr/bin/env node
// npm run bench:middleware: what `transcriptGuard()` (turngate/adapters/aisdk) costs per model call.
// `generateText` runs with a mock language model (answers `ok` at once, records nothing) over
// accepted histories of 10, 100 and 1,000 ModelMessages, unwrapped (A) and wrapped with
// `wrapLanguageModel({ model, middleware: transcriptGuard() })` (B).
//
// The repeats are interleaved A/B pairs: the order alternates pair by pair, and each round runs
// one pair of every size, so a burst of load (or a late JIT tier) hits both sides and every size
// alike. Each side of a pair is a batch of sequential calls (about 20 ms), timed in process CPU
// time (user + system: other processes on a shared machine weigh less than in wall time; --wall
// for wall time). Printed per size: the median microseconds per call of A and of B, the median
// of the per-pair differences (B - A) and of the per-pair ratios (B / A) with their
// interquartile range, and, in the same rounds, the guard alone (`transformParams` on the prompt
// the model got). Build first: it measures dist/.
//
// Usage: node scripts/bench-middleware.mjs [--pairs N] [--sizes 10,100,1000] [--wall] [--warmup MS]
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { generateText, wrapLanguageModel } from 'ai';
import { transcriptGuard } from 'turngate/adapters/aisdk';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string' },
    sizes: { type: 'string' },
    wall: { type: 'boolean' },
    warmup: { type: 'string' },
  },
});
const WALL = values.wall === true;
const WARMUP_MS = Number(values.warmup ?? 3000);
const PAIRS = Number(values.pairs ?? 21);
const SIZES = (values.sizes ?? '10,100,1000').split(',').map(Number);
const BATCH_MS = 20;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const answer = {
  content: [{ type: 'text', text: 'ok' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
};
let lastPrompt;
const model = {
  specificationVersion: 'v4',
  provider: 'bench',
  modelId: 'ok',
  supportedUrls: {},
  doGenerate: async (options) => {
    lastPrompt = options.prompt;
    return answer;
  },
  doStream: async () => {
    throw new Error('not used');
  },
};
const guard = transcriptGuard();
const guarded = wrapLanguageModel({ model, middleware: guard });

// A tool loop's history, round after round: a question, an assistant message with text and 1-3
// tool calls, a tool message with their results, an answer; cut to n - 1 messages (a cut call
// message becomes an answer) and a last question.
function history(n) {
  const out = [];
  let id = 0;
  for (let r = 0; out.length < n - 1; r++) {
    const ids = Array.from({ length: 1 + (r % 3) }, () => `call_${String(++id).padStart(6, '0')}`);
    out.push(
      { role: 'user', content: `Question ${r}: what about item ${r}?` },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          ...ids.map((c) => ({ type: 'tool-call', toolCallId: c, toolName: 'search_docs', input: { q: c } })),
        ],
      },
      {
        role: 'tool',
        content: ids.map((c) => ({
          type: 'tool-result',
          toolCallId: c,
          toolName: 'search_docs',
          output: { type: 'text', value: `result of ${c}` },
        })),
      },
      { role: 'assistant', content: `Answer ${r}.` },
    );
  }
  const messages = out.slice(0, n - 1);
  if (messages.at(-1)?.role === 'assistant') messages[messages.length - 1] = { role: 'assistant', content: 'Answer.' };
  messages.push({ role: 'user', content: 'One more question.' });
  return messages;
}

/** Microseconds per call over `count` sequential calls: process CPU time (user + system), or wall time with --wall. */
async function batch(call, count) {
  if (WALL) {
    const start = performance.now();
    for (let i = 0; i < count; i++) await call();
    return ((performance.now() - start) * 1000) / count;
  }
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await call();
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / count;
}

function quantile(sorted, q) {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}
const median = (xs) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
const iqr = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return [quantile(sorted, 0.25), quantile(sorted, 0.75)];
};
const us = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

console.log(
  `bench:middleware  node ${process.version}  ai ${(await import('ai/package.json', { with: { type: 'json' } })).default.version}  load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  `${PAIRS} interleaved A/B pairs per size, ${WALL ? 'wall' : 'CPU'} time; A = generateText unwrapped, B = wrapped with transcriptGuard()`,
);
console.log('');
// Warm up first, every size in turn in 100 ms slices for WARMUP_MS in all: generateText is a lot of
// code, and the size measured first would otherwise carry the JIT's warm-up (about 2x at 10 messages).
const histories = new Map(SIZES.map((n) => [n, history(n)]));
for (const start = performance.now(); performance.now() - start < WARMUP_MS; ) {
  for (const messages of histories.values()) {
    for (const slice = performance.now(); performance.now() - slice < 100; ) {
      await generateText({ model, messages });
      await generateText({ model: guarded, messages });
    }
  }
}
// Per size: the calls, a batch size of about BATCH_MS, and the samples.
const cases = [];
for (const n of SIZES) {
  const messages = histories.get(n);
  const plain = () => generateText({ model, messages });
  const wrapped = () => generateText({ model: guarded, messages });
  await wrapped();
  const params = { prompt: lastPrompt };
  if ((await guard.transformParams({ type: 'generate', params })) !== params)
    throw new Error('the bench history must be accepted unchanged');
  const guardAlone = () => guard.transformParams({ type: 'generate', params });
  const calls = Math.max(1, Math.round((BATCH_MS * 1000) / (await batch(plain, 10))));
  const guardCalls = Math.max(1, Math.round((BATCH_MS * 1000) / Math.max(1, await batch(guardAlone, 50))));
  cases.push({ n, plain, wrapped, guardAlone, calls, guardCalls, a: [], b: [], alone: [] });
}
// The rounds: each runs one A/B pair per size (the order of A and B alternates round by round),
// then the guard alone, so a change of load or a late JIT tier hits every size and side alike.
for (let p = 0; p < PAIRS; p++) {
  for (const c of cases) {
    if (p % 2 === 0) {
      c.a.push(await batch(c.plain, c.calls));
      c.b.push(await batch(c.wrapped, c.calls));
    } else {
      c.b.push(await batch(c.wrapped, c.calls));
      c.a.push(await batch(c.plain, c.calls));
    }
    c.alone.push(await batch(c.guardAlone, c.guardCalls));
  }
}
const columns = ['messages', 'A us/call', 'B us/call', 'B - A us', 'B / A median [IQR]', 'guard alone us'];
const widths = [8, 9, 9, 8, 21, 14];
const row = (cells) => cells.map((cell, i) => String(cell).padStart(widths[i])).join(' | ');
console.log(row(columns));
for (const { n, a, b, alone } of cases) {
  const ratios = a.map((x, i) => b[i] / x);
  const diffs = a.map((x, i) => b[i] - x);
  const [lo, hi] = iqr(ratios);
  const ratio = `${median(ratios).toFixed(3)} [${lo.toFixed(3)}-${hi.toFixed(3)}]`;
  console.log(row([n, us(median(a)), us(median(b)), us(median(diffs)), ratio, us(median(alone))]));
}
console.log('');
console.log(
  `load at end ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
