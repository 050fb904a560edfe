#!/usr/bin/env node
// What a conversion cannot carry across, per pair of formats: every conformance transcript of
// each format converted into every other (`convertTranscript`), the `lost` and
// `reasoning_dropped` records gathered by what was lost (positions left out), and printed as a
// Markdown list per pair. Run after `npm run build`: node scripts/conversion-losses.mjs [--json]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertTranscriptJson, TRANSCRIPT_FORMATS } from '../dist/esm/transcripts/index.js';

const root = new URL('..', import.meta.url).pathname;
const cases = join(root, 'conformance', 'transcripts');
const json = process.argv.includes('--json');

/** A loss's kind, without the ids, names and counts that vary from case to case. */
const kindOf = (detail) =>
  detail
    .replace(/\b(?:tool call|call) [^\s:]+/g, 'tool call …')
    .replace(/\d+/g, 'N')
    .trim();

const table = {};
for (const from of TRANSCRIPT_FORMATS) {
  let files;
  try {
    files = readdirSync(join(cases, from)).filter((f) => f.endsWith('.json'));
  } catch {
    continue;
  }
  const inputs = files
    .map((f) => JSON.parse(readFileSync(join(cases, from, f), 'utf8')))
    .filter((c) => c.result !== 'invalid');
  for (const to of TRANSCRIPT_FORMATS) {
    if (from === to) continue;
    const kinds = new Map();
    for (const c of inputs) {
      const out = convertTranscriptJson(c.input, { from, to, expect: c.expect ?? 'sendable' });
      if (!out.ok) continue;
      for (const change of out.value.changes) {
        if (change.kind !== 'lost' && change.kind !== 'reasoning_dropped') continue;
        const key = `${change.kind === 'lost' ? (change.stage === 'source' ? `${from} -> ChatMessage` : `ChatMessage -> ${to}`) : 'reasoning'}: ${kindOf(change.detail)}`;
        kinds.set(key, (kinds.get(key) ?? 0) + 1);
      }
    }
    table[`${from} -> ${to}`] = Object.fromEntries([...kinds].sort());
  }
}
if (json) console.log(JSON.stringify(table, null, 2));
else
  for (const [pair, kinds] of Object.entries(table)) {
    console.log(
      `- **${pair}**: ${Object.keys(kinds).length === 0 ? 'nothing lost on the conformance transcripts' : ''}`,
    );
    for (const [kind, n] of Object.entries(kinds)) console.log(`  - ${kind} (${n})`);
  }
