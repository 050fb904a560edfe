#!/usr/bin/env node
// node scripts/bench-trim.mjs [--repeats N] [--sizes 1000,10000] (after `node scripts/bundle.mjs`):
// trimTranscript and cutPoints on Chat Completions histories of rounds of four messages (a user
// message, a tool call, its result, an answer) behind one system message, against the check of
// the same history measured in the same run. The repeats are interleaved (check, trim, trim with
// a summary, cutPoints, check, ...), each timed in process CPU time (other processes on a shared
// machine weigh less than in wall time), and each figure is the median over the repeats. trim
// keeps the last 40 messages, so it checks from its target back to the first cut point that
// passes; cutPoints checks every user turn (quadratic in the history: its size is capped).
import { parseArgs } from 'node:util';
import { median } from './bench/stats.mjs';

const { values } = parseArgs({ options: { repeats: { type: 'string' }, sizes: { type: 'string' } } });
const REPEATS = Number(values.repeats ?? 7);
const SIZES = (values.sizes ?? '1000,10000').split(',').map(Number);
const CUT_POINTS_MAX = 2_000;
const { checkTranscriptJson, cutPoints, trimTranscriptJson } = await import(
  new URL('../dist/transcripts/index.js', import.meta.url).href
);

/** A history of `size` messages or so: one system message, then rounds of four. */
function history(size) {
  const messages = [{ role: 'system', content: 'You report the weather.' }];
  for (let r = 0; messages.length < size; r++) {
    messages.push({ role: 'user', content: `Weather in city ${r}?` });
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `call_${r}`, type: 'function', function: { name: 'get_weather', arguments: '{"city":"x"}' } }],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${r}`, content: 'Snow' });
    messages.push({ role: 'assistant', content: 'It snows.' });
  }
  return messages;
}

/** The CPU milliseconds `run` takes. */
function cpu(run) {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const format = 'openai-chat';

for (const size of SIZES) {
  const messages = history(size);
  const times = { check: [], trim: [], trimSummary: [], cutPoints: [] };
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    times.check.push(cpu(() => checkTranscriptJson(messages, { format })));
    times.trim.push(cpu(() => trimTranscriptJson(messages, { format, keepLast: 40 })));
    times.trimSummary.push(
      cpu(() => trimTranscriptJson(messages, { format, keepLast: 40, summary: 'Earlier: snow.' })),
    );
    if (size <= CUT_POINTS_MAX) times.cutPoints.push(cpu(() => cutPoints(messages, { format })));
  }
  const check = median(times.check);
  const row = Object.entries(times)
    .filter(([, list]) => list.length > 0)
    .map(([name, list]) => `${name} ${median(list).toFixed(2)} ms (${(median(list) / check).toFixed(1)}x check)`);
  console.log(`${messages.length} messages: ${row.join(', ')}`);
}
