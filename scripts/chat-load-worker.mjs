#!/usr/bin/env node
// One process of the chat load test (scripts/chat-load-test.mjs): sends its share of turns to
// the shared sessions (in order per session) and to its distinct sessions, through a
// PostgresSessionStore, and prints one line before each send ("start <tag>") and one after it
// ("done <tag> <outcome> <category>"). Each turn runs a tool loop as a graph: the model asks for
// a tool, the tool answers, the model replies.
//
// usage: node scripts/chat-load-worker.mjs <url> <prefix> <worker> <workers> <shared> <perShared> <distinct> <concurrency>
import { createChatHarness } from '../dist/chat/index.js';
import { toolLoopGraph } from './chat-tool-loop.mjs';
import { PostgresSessionStore } from '../dist/chat/postgres.js';

const [url, prefix, workerText, workersText, sharedText, perSharedText, distinctText, concurrencyText] =
  process.argv.slice(2);
const worker = Number(workerText);
const workers = Number(workersText);
const shared = Number(sharedText);
const perShared = Number(perSharedText);
const distinct = Number(distinctText);
const concurrency = Number(concurrencyText);

const graph = toolLoopGraph(1);

// A short lease: the run that kills a process waits this long for the sessions it held.
const store = new PostgresSessionStore(url, { tablePrefix: prefix, maxConnections: 10, lockLeaseMs: 2000 });
const harness = createChatHarness({ graph, store });

/** The turns of this worker, as sequences per session (each sequence sent in order). */
const sequences = [];
for (let s = 0; s < shared; s++)
  sequences.push({
    sessionId: `shared-${s}`,
    tags: Array.from({ length: perShared }, (_, k) => `w${worker}-shared-${s}-k${k}`),
  });
for (let d = worker; d < distinct; d += workers)
  sequences.push({ sessionId: `distinct-${d}`, tags: [`w${worker}-distinct-${d}-k0`] });

async function runSequence({ sessionId, tags }) {
  for (const tag of tags) {
    process.stdout.write(`start ${tag}\n`);
    const outcome = await harness.send(sessionId, { role: 'user', content: `ask ${tag}` });
    process.stdout.write(
      `done ${tag} ${outcome.outcome} ${outcome.outcome === 'errored' ? outcome.errorCategory : '-'}\n`,
    );
  }
}

let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < sequences.length) await runSequence(sequences[next++]);
  }),
);
await store.close();
process.stdout.write('finished\n');
