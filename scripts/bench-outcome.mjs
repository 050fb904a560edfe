#!/usr/bin/env node
// npm run bench:outcome: what the outcome boundary adds to one delegated call.
// Every figure is measured in this run: each boundary case beside its floor (calling the tool
// directly; for a schema deliverable, the tool plus the same valibot safeParse without the
// boundary), medians over interleaved rounds so drift on a shared machine hits all cases alike.
import { performance } from 'node:perf_hooks';
import * as v from 'valibot';
import { defineContracts, delegate, Outcome } from '../dist/outcome/index.js';

const ROUNDS = Number(process.env.ROUNDS ?? 9);
const CALLS = Number(process.env.CALLS ?? 5000);

const itemSchema = v.object({ title: v.string(), link: v.string() });
const feedSchema = v.array(itemSchema);
const tools = defineContracts({
  web_fetcher: {
    deliverable: { type: 'object', required: ['body', 'statusCode'] },
    methods: ['fetch_url'],
    aliases: { fetch: 'fetch_url' },
    requiredInputs: ['url'],
  },
  rss_parser: { deliverable: feedSchema, methods: ['parse'], requiredInputs: ['xml'] },
});

const page = { body: '<rss/>', statusCode: 200 };
const renamed = { [Symbol.for('body')]: '<rss/>', status_code: 200 };
const items = Array.from({ length: 20 }, (_, i) => ({ title: `t${i}`, link: `https://news.example/a/${i}` }));
const itemsRenamed = items.map(({ title, link }) => ({ title, [Symbol.for('link')]: link }));
const input = { url: 'https://news.example/rss' };
const xml = { xml: '<rss/>' };
let sink = 0;

const cases = [
  ['tool called directly (floor)', () => Outcome.ok(page)],
  [
    'delegate, light shape, keys as declared',
    () => delegate(tools.web_fetcher, { method: 'fetch_url', input }, () => Outcome.ok(page)),
  ],
  [
    'delegate, light shape, alias + 2 keys renamed',
    () => delegate(tools.web_fetcher, { method: 'fetch', input }, () => Outcome.ok(renamed)),
  ],
  ['20-item feed: tool + v.safeParse (floor)', () => v.safeParse(feedSchema, Outcome.ok(items).value)],
  [
    'delegate, valibot deliverable, 20 items',
    () => delegate(tools.rss_parser, { method: 'parse', input: xml }, () => Outcome.ok(items)),
  ],
  [
    'delegate, valibot deliverable, 20 keys renamed',
    () => delegate(tools.rss_parser, { method: 'parse', input: xml }, () => Outcome.ok(itemsRenamed)),
  ],
];

function run(fn) {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) sink += fn() === undefined ? 0 : 1;
  return ((performance.now() - start) * 1e6) / CALLS; // ns per call
}

for (const [, fn] of cases) run(fn); // warm up
const samples = cases.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, [, fn]] of cases.entries()) samples[i].push(run(fn));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const medians = samples.map(median);

console.log(`outcome boundary, ns per call (median of ${ROUNDS} interleaved rounds of ${CALLS} calls):`);
const floors = [medians[0], medians[0], medians[0], medians[3], medians[3], medians[3]];
cases.forEach(([name], i) => {
  const extra = i === 0 || i === 3 ? '' : `   +${Math.round(medians[i] - floors[i])} ns over its floor`;
  console.log(`  ${name.padEnd(48)} ${String(Math.round(medians[i])).padStart(7)} ns${extra}`);
});
if (sink < 0) console.log(sink);
