#!/usr/bin/env node
// The durable tool loop on DBOS, end to end: a worker process starts an agent workflow (a
// scripted Anthropic model: read the weather, then email it), is killed with SIGKILL right after
// the email went out and before anything recorded it, and a second worker process recovers the
// workflow and finishes the conversation. Prints what each process did and what the model got
// back for the email: `effect_outcome_unknown` (the kill hid the outcome; the email is not sent
// again). Needs PostgreSQL: TURNGATE_PG_URL, or a server of its own from scripts/start-postgres.sh.
//
// usage: node scripts/example-durable.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const script = fileURLToPath(import.meta.url);
const [role, workflowID] = process.argv.slice(2);

if (role === undefined) {
  if (!existsSync(`${root}dist/esm/durable/dbos.js`)) execFileSync(process.execPath, [`${root}scripts/bundle.mjs`]);
  let url = process.env.TURNGATE_PG_URL;
  if (url === undefined || url === '') {
    const line = execFileSync('bash', [`${root}scripts/start-postgres.sh`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    url = /TURNGATE_PG_URL=['"]?([^'"\n]+)/.exec(line)?.[1];
  }
  const prefix = `example_${randomBytes(4).toString('hex')}`;
  const env = { ...process.env, TURNGATE_PG_URL: url, EXAMPLE_PREFIX: prefix, NODE_NO_WARNINGS: '1' };
  const id = `${prefix}-conversation`;
  const first = spawnSync(process.execPath, [script, 'first', id], { env, encoding: 'utf8' });
  process.stdout.write(first.stdout);
  console.log(`worker 1: ended by ${first.signal ?? `exit ${first.status}`}`);
  const second = spawnSync(process.execPath, [script, 'second', id], { env, encoding: 'utf8' });
  process.stdout.write(second.stdout);
  if (second.status !== 0) throw new Error(`worker 2 failed: ${second.stderr}`);
  process.exit(0);
}

// A worker: the same code in every process (DBOS may hand a recovered workflow to any of them).
const { DBOS } = await import('@dbos-inc/dbos-sdk');
const v = await import('valibot');
const { defineTools } = await import('../dist/esm/index.js');
const { toolLoop } = await import('../dist/esm/adapters/anthropic.js');
const { PostgresSessionStore } = await import('../dist/esm/chat/postgres.js');
const { durableToolLoop } = await import('../dist/esm/durable.js');
const { dbosEngine } = await import('../dist/esm/durable/dbos.js');

const url = process.env.TURNGATE_PG_URL;
const prefix = process.env.EXAMPLE_PREFIX;
const store = new PostgresSessionStore(url, { tablePrefix: prefix });
class Tools extends defineTools({
  get_weather: { input: v.object({ city: v.string() }), output: v.string() },
  send_email: { input: v.object({ to: v.string() }), output: v.object({ sent: v.boolean() }), mutation: true },
}) {}
/** A scripted model: turn 1 asks for the weather and an email, turn 2 answers. */
const model = async (history, { turn }) => ({
  id: `msg_${turn}`,
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  stop_reason: turn === 1 ? 'tool_use' : 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
  content:
    turn === 1
      ? [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'send_email', input: { to: 'ada@example.com' } },
        ]
      : [{ type: 'text', text: `Done (${history.length} messages so far).` }],
});

const agent = DBOS.registerWorkflow(
  async (history) =>
    durableToolLoop(dbosEngine(DBOS), {
      ledger: store.approvalLedger(),
      history,
      model,
      loop: (session) =>
        toolLoop({
          tools: Tools,
          ...session,
          handlers: {
            get_weather: async ({ city }) => `snow in ${city}`,
            send_email: async ({ to }) => {
              console.log(`worker ${role}: sending the email to ${to}`);
              // The email went out; the process dies before anything records it.
              if (role === 'first') process.kill(process.pid, 'SIGKILL');
              return { sent: true };
            },
          },
        }),
    }),
  { name: 'agent' },
);

DBOS.setConfig({
  name: 'turngate-example',
  systemDatabaseUrl: url,
  systemDatabaseSchemaName: `${prefix}_dbos`,
  executorID: 'worker',
  applicationVersion: 'example-1',
  runAdminServer: false,
  logLevel: 'error',
});
await DBOS.launch(); // the second worker recovers the first one's workflow here
const handle =
  role === 'first'
    ? await DBOS.startWorkflow(agent, { workflowID })([
        { role: 'user', content: 'Weather in Oslo, and email it to Ada' },
      ])
    : DBOS.retrieveWorkflow(workflowID);
const result = await handle.getResult();
for (const turn of result.turns)
  for (const call of turn.calls)
    console.log(
      `worker ${role}: turn ${turn.turn}: ${call.toolName} answered ${call.status}${call.errorCode ? ` (${call.errorCode})` : ''}`,
    );
console.log(
  `worker ${role}: workflow ${result.status}, ${result.history.length} messages; last: ${JSON.stringify(result.history.at(-1))}`,
);
await DBOS.shutdown();
await store.close();
