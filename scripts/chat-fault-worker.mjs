#!/usr/bin/env node
// One process of the PostgreSQL fault suite (scripts/chat-fault-test.mjs). It sends turns until
// it reads "stop" on stdin: one lane per session (its own sessions and the shared ones), each
// lane sending its turns in order, every turn a tool loop (the model asks for a tool, the tool
// answers, the model replies) and every send carrying its tag as idempotency key. It retries as a
// client app would: an errored outcome in the `retryable_transient` bucket is sent again (same
// message, same key) after a backoff, until the retry deadline; any other outcome is final.
//
// It prints one line per event:
//   start <tag>
//   try <tag> <attempt> <outcome> <bucket|-> <category|-> <replayed 0|1> <ms>
//   hang <tag> <attempt>          (an attempt unresolved after hangMs; the lane stops there)
//   done <tag> <attempts> <ms>    (after the final attempt)
//   finished
//
// usage: node scripts/chat-fault-worker.mjs '<json config>'
//   config: { url, prefix, worker, own, shared, thinkMs, errorPauseMs, slowMs, retryDeadlineMs, hangMs, keys, storeOptions }
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createChatHarness } from '../dist/chat/index.js';
import { toolLoopGraph } from './chat-tool-loop.mjs';
import { PostgresSessionStore } from '../dist/chat/postgres.js';

const config = JSON.parse(process.argv[2]);
const { url, prefix, worker, own, shared, thinkMs, errorPauseMs, slowMs, retryDeadlineMs, hangMs, keys, storeOptions } =
  config;

const graph = toolLoopGraph(slowMs > 0 ? slowMs : 1);

const store = new PostgresSessionStore(url, { tablePrefix: prefix, ...storeOptions });
const harness = createChatHarness({ graph, store });
const say = (line) => process.stdout.write(`${line}\n`);

let stopping = false;
// "stop", or the suite going away (stdin closed), ends the load.
createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (line.trim() === 'stop') stopping = true;
  })
  .on('close', () => {
    stopping = true;
  });

const HUNG = Symbol('hung');

/** One attempt, or HUNG when it is still unresolved after `hangMs`. */
async function attempt(sessionId, tag) {
  let timer;
  const hung = new Promise((resolve) => {
    timer = setTimeout(() => resolve(HUNG), hangMs);
  });
  const message = { role: 'user', content: `ask ${tag}` };
  const sent = harness.send(sessionId, message, keys ? { idempotencyKey: tag } : undefined);
  try {
    return await Promise.race([sent, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends one turn with the client retry policy: its final outcome, or HUNG when an attempt hung. */
async function sendTurn(sessionId, tag) {
  say(`start ${tag}`);
  const first = performance.now();
  let backoff = 200;
  for (let n = 1; ; n++) {
    const began = performance.now();
    const outcome = await attempt(sessionId, tag);
    if (outcome === HUNG) {
      say(`hang ${tag} ${n}`);
      return HUNG;
    }
    const errored = outcome.outcome === 'errored';
    say(
      `try ${tag} ${n} ${outcome.outcome} ${errored ? outcome.errorBucket : '-'} ${errored ? outcome.errorCategory : '-'} ${outcome.replayed === true ? 1 : 0} ${Math.round(performance.now() - began)}`,
    );
    const retry = errored && outcome.errorBucket === 'retryable_transient';
    if (!retry || performance.now() + backoff - first > retryDeadlineMs) {
      say(`done ${tag} ${n} ${Math.round(performance.now() - first)}`);
      return outcome;
    }
    await sleep(backoff);
    backoff = Math.min(backoff * 2, 2000);
  }
}

// A lane sends its session's turns one after another; after a final error it pauses as a user
// reading the error would (so a server that is down is not asked thousands of times a second).
async function lane(sessionId) {
  for (let k = 0; !stopping; k++) {
    const outcome = await sendTurn(sessionId, `w${worker}-${sessionId}-k${k}`);
    if (outcome === HUNG) return;
    const pause = outcome.outcome === 'errored' ? errorPauseMs : thinkMs;
    if (pause > 0) await sleep(pause);
  }
}

const sessions = [
  ...Array.from({ length: own }, (_, i) => `own${worker}x${i}`),
  ...Array.from({ length: shared }, (_, s) => `shared${s}`),
];
await Promise.all(sessions.map(lane));
say('finished');
// A store that cannot close (a server still paused) must not keep the process alive.
await Promise.race([store.close().catch(() => undefined), sleep(3000)]);
process.exit(0);
