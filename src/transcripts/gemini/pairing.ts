/**
 * Which `functionResponse` answers which `functionCall`: the one home of Gemini pairing, for the
 * check, repair, conversion and the evidence reader. Internal.
 *
 * A response pairs with a call of the content its position points to: the content right before
 * it (the call turn it answers), its own content (a call and its response mixed in one content),
 * or, for a response in a later user content of the run right after a call turn whose first user
 * content holds responses, that call turn (a parallel batch split over contents). Within that
 * content a response with `id` takes the call with that id; one without takes the first call of
 * its name no response has taken yet (the k-th response named `n` answers the k-th call named
 * `n`). A content's responses with ids pair first, so a response without one never takes a call
 * a later response names by id. A response no position pairs is a repeat (its call was taken), an
 * orphan (no call has its id, or its name), or misplaced (its call stands elsewhere); a misplaced
 * response with an id claims its call, as a result standing anywhere claims its call in the
 * other formats, so a later one is a repeat.
 *
 * Source: Gemini API, function calling guide (parallel function calling; responses in the `user`
 * content after the call turn) and `FunctionResponse` reference (`id` matches the call's `id`).
 *
 * @module
 */
import { CONTENT, type GeminiCallSite, type GeminiRead, type GeminiResponseSite } from './read.ts';

/** What pairing made of each response ({@link GeminiPairing.verdict}). */
export const VERDICT = {
  /** In the user content right after its call's content: it answers the call. */
  answers: 0,
  /** In a later user content of the run after its call turn, whose first user content holds responses: it answers the call, split off. */
  split: 1,
  /** In its call's own content, or in the model content right after it: it answers the call; its content's role is wrong. */
  mixed: 2,
  /** Its call was already answered (`call` is that call). */
  duplicate: 3,
  /** No call has its id (or, without one, its name). */
  orphan: 4,
  /** Its call stands elsewhere (`call` is where repair moves it, -1 when every candidate is answered). */
  misplaced: 5,
  /** Neither id nor name: nothing to pair by. */
  unnamed: 6,
} as const;

/** What pairing found, in typed arrays indexed like `read.calls` and `read.responses`. */
export interface GeminiPairing {
  /** Per call: the index in `read.responses` of the response answering it, or -1. */
  readonly answer: Int32Array;
  /** Per response: a {@link VERDICT}. */
  readonly verdict: Uint8Array;
  /** Per response: the call it answers, repeats or belongs after (see {@link VERDICT}), or -1. */
  readonly call: Int32Array;
}

/** How many calls of one content are scanned for a response; a content with more is indexed. */
const SCAN_LIMIT = 16;

/** One content's calls by id (calls with one) and by name (all), in order, with each list's cursor. */
interface ContentIndex {
  readonly byId: Map<string, number[]>;
  readonly byName: Map<string, number[]>;
  /** Per list: the position before which every call is taken. */
  readonly cursor: Map<number[], number>;
}

function push(map: Map<string, number[]>, key: string, k: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [k]);
  else list.push(k);
}

/**
 * Pairs the responses of `read` with its calls: one pass over the responses, linear in the
 * input; a content with more than `scanLimit` calls is looked up through an index (the default
 * limit keeps small contents map-free; tests pass 0 and `Infinity` to hold the two lookups
 * together).
 */
export function pairGemini(read: GeminiRead, scanLimit: number = SCAN_LIMIT): GeminiPairing {
  const { calls, responses, flags, firstCall } = read;
  const answer = new Int32Array(calls.length).fill(-1);
  const verdict = new Uint8Array(responses.length);
  const target = new Int32Array(responses.length).fill(-1);
  const taken = new Uint8Array(calls.length);
  let byId: Map<string, number> | undefined;
  let names: Set<string> | undefined;
  let idless: number[] | undefined;

  // A content with many calls (a large parallel batch) is looked up through an index of its calls
  // by id and by name, each list walked once by a cursor (a call once taken stays taken), so
  // pairing stays linear; a small one is scanned.
  const indexes = new Map<number, ContentIndex>();
  const indexOf = (c: number): ContentIndex => {
    let index = indexes.get(c);
    if (index === undefined) {
      index = { byId: new Map(), byName: new Map(), cursor: new Map() };
      for (let k = firstCall[c] as number; k < calls.length && (calls[k] as GeminiCallSite).message === c; k++) {
        const call = calls[k] as GeminiCallSite;
        if (call.hasId) push(index.byId, call.key, k);
        push(index.byName, call.name, k);
      }
      indexes.set(c, index);
    }
    return index;
  };

  /** In content `c`: the first call matching and not taken (>= 0), the last taken match (-2 - index), or -1. */
  const find = (c: number, id: string | undefined, name: string | undefined): number => {
    const start = firstCall[c] as number;
    const large = start + scanLimit < calls.length && (calls[start + scanLimit] as GeminiCallSite).message === c;
    if (large) {
      const index = indexOf(c);
      const list = id !== undefined ? index.byId.get(id) : index.byName.get(name as string);
      if (list === undefined) return -1;
      let p = index.cursor.get(list) ?? 0;
      while (p < list.length && taken[list[p] as number] !== 0) p++;
      index.cursor.set(list, p);
      return p < list.length ? (list[p] as number) : -2 - (list[list.length - 1] as number);
    }
    let found = -1;
    for (let k = start; k >= 0 && k < calls.length; k++) {
      const call = calls[k] as GeminiCallSite;
      if (call.message !== c) break;
      if (id !== undefined ? call.hasId && call.key === id : call.name === name) {
        if (taken[k] === 0) return k;
        found = -2 - k;
      }
    }
    return found;
  };

  const pair = (i: number): void => {
    const r = responses[i] as GeminiResponseSite;
    const { id, name } = r;
    if (id === undefined && name === undefined) {
      verdict[i] = VERDICT.unnamed;
      return;
    }
    if (id === undefined) {
      names ??= new Set(calls.map((call) => call.name));
      if (!names.has(name as string)) {
        verdict[i] = VERDICT.orphan;
        return;
      }
    }
    const u = r.content;
    const inModel = (flags[u] as number) & CONTENT.model;
    let repeated = -1;
    // The contents its position points to, in order: [content, verdict when it pairs there].
    const first = inModel ? u : u - 1;
    const second = inModel ? u - 1 : u;
    const run = !inModel && r.after >= 0 && r.after < u - 1 && (flags[r.after + 1] as number) & CONTENT.response;
    for (let step = 0; step < 3; step++) {
      const c = step === 0 ? first : step === 1 ? second : run ? r.after : -1;
      if (c < 0 || (firstCall[c] as number) < 0) continue;
      const k = find(c, id, name);
      if (k >= 0) {
        taken[k] = 1;
        answer[k] = i;
        target[i] = k;
        verdict[i] = step === 2 ? VERDICT.split : step === 0 && !inModel ? VERDICT.answers : VERDICT.mixed;
        return;
      }
      if (k < -1) repeated = -2 - k;
    }
    if (repeated >= 0) {
      verdict[i] = VERDICT.duplicate;
      target[i] = repeated;
      return;
    }
    if (id === undefined) {
      verdict[i] = VERDICT.misplaced;
      idless ??= [];
      idless.push(i);
      return;
    }
    if (byId === undefined) {
      byId = new Map();
      for (let k = 0; k < calls.length; k++) {
        const call = calls[k] as GeminiCallSite;
        if (call.hasId && !byId.has(call.key)) byId.set(call.key, k);
      }
    }
    const k = byId.get(id);
    if (k === undefined) verdict[i] = VERDICT.orphan;
    else {
      verdict[i] = taken[k] === 0 ? VERDICT.misplaced : VERDICT.duplicate;
      taken[k] = 1;
      target[i] = k;
    }
  };

  // A content's responses with ids pair first; those without wait for the end of their content.
  let pending: number[] = [];
  for (let i = 0; i < responses.length; i++) {
    const r = responses[i] as GeminiResponseSite;
    if (pending.length > 0 && (responses[pending[0] as number] as GeminiResponseSite).content !== r.content) {
      for (const p of pending) pair(p);
      pending = [];
    }
    if (r.id === undefined) pending.push(i);
    else pair(i);
  }
  for (const p of pending) pair(p);

  // A misplaced response without id belongs after the first call of its name nothing took.
  if (idless !== undefined) {
    const open = new Map<string, number[]>();
    for (let k = calls.length - 1; k >= 0; k--) {
      const call = calls[k] as GeminiCallSite;
      if (taken[k] !== 0) continue;
      const list = open.get(call.name);
      if (list === undefined) open.set(call.name, [k]);
      else list.push(k);
    }
    for (const i of idless) {
      const k = open.get((responses[i] as GeminiResponseSite).name as string)?.pop();
      if (k !== undefined) target[i] = k;
    }
  }
  return { answer, verdict, call: target };
}

/**
 * The response answering each call of `read.calls` (same index), if any: the one pairing places
 * with it (in the user content right after its call turn, or split off or mixed in, which the
 * check reports but which still answers it). A misplaced response answers nothing here: the
 * provider refuses it where it stands.
 */
export function answersOf(
  read: GeminiRead,
  pairing: GeminiPairing = pairGemini(read),
): (GeminiResponseSite | undefined)[] {
  const out: (GeminiResponseSite | undefined)[] = new Array(read.calls.length);
  for (let k = 0; k < read.calls.length; k++) {
    const i = pairing.answer[k] as number;
    out[k] = i < 0 ? undefined : read.responses[i];
  }
  return out;
}

/**
 * The id of each call of `read.calls` (same index): its own `id`, or for a call without one
 * `name#k`, the k-th call without id of that name in its content (`get_weather#1`,
 * `get_weather#2`): the one naming of id-less calls (conversion, evidence).
 */
export function callIds(read: GeminiRead): string[] {
  const out: string[] = new Array(read.calls.length);
  let content = -1;
  let counts: Map<string, number> | undefined;
  for (let k = 0; k < read.calls.length; k++) {
    const call = read.calls[k] as GeminiCallSite;
    if (call.hasId) {
      out[k] = call.key;
      continue;
    }
    if (call.message !== content || counts === undefined) {
      content = call.message;
      counts = new Map();
    }
    const n = (counts.get(call.name) ?? 0) + 1;
    counts.set(call.name, n);
    out[k] = `${call.name}#${n}`;
  }
  return out;
}
