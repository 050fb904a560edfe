#!/usr/bin/env node
// npm run bench:chat: what the chat harness costs per turn, with a trivial one-node graph.
// All figures are measured in this run; ratios are against the graph invoked directly.
import { performance } from 'node:perf_hooks';
import { createChatHarness, InMemorySessionStore, sequentialGraph } from '../dist/chat/index.js';
import { SqliteSessionStore } from '../dist/chat/sqlite.js';

const graph = sequentialGraph({
  entry: 'reply',
  nodes: { reply: () => ({ messages: [{ role: 'assistant', content: 'ok' }] }) },
  edges: [],
});
const stores = [
  ['in-memory', () => new InMemorySessionStore()],
  ['SQLite', () => new SqliteSessionStore(':memory:')],
];
const us = (ms) => `${(ms * 1000).toFixed(1)} us`;

async function timePerCall(n, fn) {
  for (let i = 0; i < Math.min(200, n); i++) await fn(i, true);
  const start = performance.now();
  for (let i = 0; i < n; i++) await fn(i, false);
  return (performance.now() - start) / n;
}

// 1. Overhead: send() on fresh sessions vs graph.invoke on the same state.
const direct = await timePerCall(20000, () =>
  graph.invoke({ messages: [{ role: 'user', content: 'hi' }] }, { invocationId: 'x' }),
);
console.log('harness overhead per turn (trivial graph, new session each turn):');
console.log(`  graph.invoke directly        ${us(direct)}`);
for (const [name, make] of stores) {
  const harness = createChatHarness({ graph, store: make() });
  const send = await timePerCall(20000, (i, warm) =>
    harness.send(`${warm ? 'w' : 's'}${i}`, { role: 'user', content: 'hi' }),
  );
  console.log(
    `  send() ${name.padEnd(10)}           ${us(send)}  (${(send / direct).toFixed(1)}x direct; overhead ${us(send - direct)}, target <= 50 us in-memory)`,
  );
}

// 2. Throughput on 1 session (sequential) and on 1,000 sessions (concurrent).
console.log('\nturns per second:');
for (const [name, make] of stores) {
  const one = createChatHarness({ graph, store: make() });
  const start1 = performance.now();
  for (let i = 0; i < 2000; i++) await one.send('one', { role: 'user', content: `m${i}` });
  const perSec1 = 2000 / ((performance.now() - start1) / 1000);
  const many = createChatHarness({ graph, store: make() });
  const start2 = performance.now();
  for (let round = 0; round < 5; round++)
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) => many.send(`s${i}`, { role: 'user', content: `r${round}` })),
    );
  const perSec2 = 5000 / ((performance.now() - start2) / 1000);
  console.log(
    `  ${name.padEnd(10)} 1 session (2,000 turns): ${Math.round(perSec1)}/s   1,000 sessions (5 rounds): ${Math.round(perSec2)}/s`,
  );
}

// 3. Per-turn time along one long session.
console.log('\nper-turn time along one session (median of 50 turns around each mark):');
for (const [name, make] of stores) {
  const harness = createChatHarness({ graph, store: make() });
  const marks = new Map();
  let turn = 0;
  for (const mark of [10, 100, 1000]) {
    const samples = [];
    while (turn < mark + 25) {
      const start = performance.now();
      await harness.send('long', { role: 'user', content: `t${turn}` });
      if (turn >= mark - 25) samples.push(performance.now() - start);
      turn++;
    }
    samples.sort((a, b) => a - b);
    marks.set(mark, samples[Math.floor(samples.length / 2)]);
  }
  const t10 = marks.get(10);
  const t1000 = marks.get(1000);
  console.log(
    `  ${name.padEnd(10)} turn 10: ${us(t10)}  turn 100: ${us(marks.get(100))}  turn 1,000: ${us(t1000)}  (1,000 / 10 = ${(t1000 / t10).toFixed(1)}x, target <= 2x)`,
  );
}
console.log(
  '\nanchor: LangGraph.js 1.7.3 + MemorySaver, one-node graph: 1,000 sequential turns in 56 s (56 ms/turn), growing with history.',
);
