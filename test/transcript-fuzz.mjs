// Inputs and properties for fuzzing the transcript check and repair, shared by the property
// test (test/fuzz-transcripts.test.ts, on the sources) and the release-check campaign
// (scripts/fuzz-campaign.mjs, on dist/). Plain JavaScript so both can import it.
//
// Inputs: the conformance cases' transcripts of each format (conformance/transcripts/<format>/),
// edited the ways real histories go wrong (a message dropped, duplicated, moved, swapped with
// its neighbour, a foreign value inserted, one field anywhere replaced by arbitrary data), plus
// arbitrary JSON. Properties: neither function throws; a report is well formed (accepted with no
// failures, rejected with failures that each name a class, rule, position and fix, or invalid
// with a path); repair's messages pass the check but for the failures it reports it cannot fix;
// repair is idempotent.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The wire formats, as the conformance folders name them (scripts/cross-format.mjs). */
export { FORMATS } from '../scripts/cross-format.mjs';
import { FORMATS } from '../scripts/cross-format.mjs';

/** The conformance transcripts of each format, as seeds: `{ format, expect, input }`. */
export function seedTranscripts(root) {
  const seeds = [];
  for (const format of FORMATS) {
    const dir = join(root, format);
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
      const kase = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      seeds.push({ format, expect: kase.expect ?? 'sendable', input: kase.input });
    }
  }
  return seeds;
}

/** Every path to a value inside `value` (arrays and objects), the root excluded. */
function paths(value, prefix = [], out = []) {
  if (value === null || typeof value !== 'object') return out;
  for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
    const path = [...prefix, key];
    out.push(path);
    paths(value[key], path, out);
  }
  return out;
}

function setAt(value, path, replacement) {
  const copy = structuredClone(value);
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path.at(-1)] = replacement;
  return copy;
}

/** The list of messages inside an input (a bare array, or a body's messages/input/contents). */
function listOf(input) {
  if (Array.isArray(input)) return { list: input, wrap: (list) => list };
  for (const key of ['messages', 'input', 'contents']) {
    if (input && Array.isArray(input[key])) return { list: input[key], wrap: (list) => ({ ...input, [key]: list }) };
  }
  return { list: [], wrap: (list) => list };
}

/** One edit of a seed transcript, drawn from `n` (a non-negative integer) and `junk` (any JSON). */
export function edit(input, kind, n, junk) {
  const { list, wrap } = listOf(input);
  const size = list.length;
  const i = size === 0 ? 0 : n % size;
  const j = size === 0 ? 0 : Math.floor(n / 7) % size;
  switch (kind) {
    case 'drop':
      return wrap(list.filter((_, k) => k !== i));
    case 'duplicate':
      return wrap([...list.slice(0, i + 1), structuredClone(list[i]), ...list.slice(i + 1)].filter((m) => m !== undefined));
    case 'move': {
      const rest = list.filter((_, k) => k !== i);
      return wrap([...rest.slice(0, j), list[i], ...rest.slice(j)].filter((m) => m !== undefined));
    }
    case 'swap': {
      const copy = [...list];
      if (i + 1 < size) [copy[i], copy[i + 1]] = [copy[i + 1], copy[i]];
      return wrap(copy);
    }
    case 'insert':
      return wrap([...list.slice(0, i), junk, ...list.slice(i)]);
    case 'field': {
      const all = paths(input);
      return all.length === 0 ? junk : setAt(input, all[n % all.length], junk);
    }
    default:
      return junk;
  }
}

export const EDITS = ['drop', 'duplicate', 'move', 'swap', 'insert', 'field', 'replace'];

/** A fast-check arbitrary of `{ format, expect, value }` over the seeds. */
export function transcriptInput(fc, seeds) {
  const junk = fc.jsonValue({ maxDepth: 3 });
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...seeds), fc.constantFrom(...EDITS), fc.nat(), junk) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...seeds), fc.constant('drop'), fc.nat(), junk) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...FORMATS), junk) },
  ).map((drawn) => {
    if (drawn.length === 2) return { format: drawn[0], expect: 'sendable', value: drawn[1] };
    const [seed, kind, n, j] = drawn;
    return { format: seed.format, expect: seed.expect, value: edit(seed.input, kind, n, j) };
  });
}

const isText = (s) => typeof s === 'string' && s !== '';

/**
 * Runs check and repair on one input and returns what broke (an empty list when every property
 * holds). `lib` is `{ checkTranscriptJson, repairTranscriptJson }` from the sources or from dist.
 */
export function violations(lib, { format, expect, value }) {
  const broken = [];
  let report;
  try {
    report = lib.checkTranscriptJson(value, { format, expect });
  } catch (error) {
    return [`check threw: ${error?.stack ?? error}`];
  }
  if (report.result === 'accepted' && report.failures.length !== 0) broken.push('accepted with failures');
  if (report.result === 'rejected') {
    if (report.failures.length === 0) broken.push('rejected without failures');
    for (const f of report.failures) {
      if (!isText(f.class) || !isText(f.rule) || !isText(f.at) || !isText(f.fix) || !Array.isArray(f.ids))
        broken.push(`malformed failure ${JSON.stringify(f)}`);
    }
  }
  if (report.result === 'invalid' && !isText(report.error?.field)) broken.push('invalid without a field');
  if (!['accepted', 'rejected', 'invalid'].includes(report.result)) broken.push(`result ${report.result}`);
  let repaired;
  try {
    repaired = lib.repairTranscriptJson(value, { format, expect });
  } catch (error) {
    return [...broken, `repair threw: ${error?.stack ?? error}`];
  }
  if (repaired.ok !== (report.result !== 'invalid')) broken.push('repair and check disagree on whether the input is a transcript');
  if (!repaired.ok) return broken;
  // A request body keeps its other fields (Responses' previous_response_id changes the rules).
  const repairedInput = listOf(value).wrap(repaired.value.messages);
  const again = lib.checkTranscriptJson(repairedInput, { format, expect });
  const left = new Set(repaired.value.remaining.map((f) => f.rule));
  if (again.result === 'invalid') broken.push(`repair made an invalid transcript: ${again.error.message}`);
  if (again.result === 'rejected' && !again.failures.every((f) => left.has(f.rule)))
    broken.push(`repair left failures it did not report: ${again.failures.map((f) => f.rule).join(', ')}`);
  if (report.result === 'accepted' && repaired.value.changed) broken.push('repair changed an accepted transcript');
  const twice = lib.repairTranscriptJson(repairedInput, { format, expect });
  if (!twice.ok || twice.value.changed) broken.push('repair is not idempotent');
  return broken;
}
