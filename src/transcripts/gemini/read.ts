/**
 * The reader of Gemini `contents`: one pass that refuses what is not Gemini contents (a content
 * that is not an object, a role other than `user`, `model` and the legacy `function`, `parts` that is not a list, a part
 * that is not an object, a `functionCall` without a function name, an `id` that is not a string)
 * and collects, for the rules, the function calls and responses with where they stand and what
 * their shape lacks. It builds no map: pairing looks calls up by content (`firstCall`). Internal.
 *
 * @module
 */
import type { CallSite } from '../core/calls.ts';
import { invalid, isJsonObject } from '../core/input.ts';

/** Bits of {@link GeminiRead.flags}, one byte per content. */
export const CONTENT = {
  /** A `model` content (else `user`). */
  model: 1,
  /** It holds a `functionCall` part. */
  call: 2,
  /** It holds a `functionResponse` part. */
  response: 4,
  /** It holds a part that is no `functionResponse` (text, data, a call): a user turn of its own. */
  standard: 8,
} as const;

/** Bits of {@link GeminiResponseSite.shape}: what a `functionResponse` lacks. */
export const SHAPE = {
  /** No `name`, or an empty one. */
  nameMissing: 1,
  /** No `response`. */
  responseMissing: 2,
  /** A `response` that is not a JSON object (a string, a list, a number, `null`). */
  responseNotObject: 4,
} as const;

/** A `functionCall` part as read: `key` is its id, or its name when it has none. */
export interface GeminiCallSite extends CallSite {
  readonly hasId: boolean;
  /** Whether its part carries a `thoughtSignature` (a non-empty string). */
  readonly signed: boolean;
}

/** A `functionResponse` part as read. */
export interface GeminiResponseSite {
  readonly id: string | undefined;
  /** Its function name; `undefined` when missing or empty. */
  readonly name: string | undefined;
  /** The index of its content. */
  readonly content: number;
  /** Its index in the content's parts. */
  readonly slot: number;
  readonly seq: number;
  /** The nearest `model` content before its content (-1 for none): the call turn of its run of user contents. */
  readonly after: number;
  /** {@link SHAPE} bits. */
  readonly shape: number;
}

/** What the reader collects. */
export interface GeminiRead {
  /** {@link CONTENT} bits per content. */
  readonly flags: Uint8Array;
  /** Per content, the index in `calls` of its first call; -1 for a content without calls. */
  readonly firstCall: Int32Array;
  /** The calls, in input order (a content's calls are consecutive). */
  readonly calls: readonly GeminiCallSite[];
  /** The responses, in input order. */
  readonly responses: readonly GeminiResponseSite[];
  /** The contents without parts (`parts` absent or empty). */
  readonly empty: readonly number[];
  /** The contents with the legacy role `function` (read as `user` contents). */
  readonly functionRoles: readonly number[];
  /**
   * The contents without a role, with the role they are read as: `model` when they hold a
   * `functionCall`, else `user` (the API's reading of a single-turn content).
   */
  readonly roleless: readonly { readonly content: number; readonly role: 'user' | 'model' }[];
  /** The last `user` content with a part that is no `functionResponse` (-1 for none): the current turn starts after it. */
  readonly lastUserTurn: number;
}

const at = (i: number) => `contents[${i}]`;
const partAt = (i: number, j: number) => `contents[${i}].parts[${j}]`;

/** Whether a content's parts hold a `functionCall` part. */
function holdsCall(parts: unknown): boolean {
  return Array.isArray(parts) && parts.some((part) => isJsonObject(part) && part['functionCall'] !== undefined);
}

/** Reads `contents`: raises a `TranscriptInputError` for input that is not Gemini contents. */
export function readGemini(contents: readonly unknown[]): GeminiRead {
  const n = contents.length;
  const flags = new Uint8Array(n);
  const firstCall = new Int32Array(n).fill(-1);
  const calls: GeminiCallSite[] = [];
  const responses: GeminiResponseSite[] = [];
  const empty: number[] = [];
  const functionRoles: number[] = [];
  const roleless: { content: number; role: 'user' | 'model' }[] = [];
  let lastUserTurn = -1;
  let lastModel = -1;
  let seq = 0;
  for (let i = 0; i < n; i++) {
    const content = contents[i];
    if (!isJsonObject(content)) invalid(at(i), 'a content object');
    const role = content['role'];
    const parts = content['parts'];
    if (parts !== undefined && !Array.isArray(parts)) invalid(`${at(i)}.parts`, 'an array of parts');
    // A content without a role but with its parts: read as its parts say (a rule of the check, not
    // an input error). Without parts either (absent or empty), it is no content of this format.
    if (role === undefined && (parts === undefined || parts.length === 0))
      invalid(`${at(i)}.role`, "'user' or 'model'");
    const readAs = role === undefined ? (holdsCall(parts) ? 'model' : 'user') : role;
    const model = readAs === 'model';
    if (role === undefined) roleless.push({ content: i, role: model ? 'model' : 'user' });
    else if (!model && role !== 'user') {
      // The legacy function-result role: a user content the API now refuses (a rule, not an input error).
      if (role !== 'function') invalid(`${at(i)}.role`, "'user' or 'model'");
      functionRoles.push(i);
    }
    let f: number = model ? CONTENT.model : 0;
    if (parts === undefined || parts.length === 0) empty.push(i);
    const count = parts === undefined ? 0 : parts.length;
    for (let j = 0; j < count; j++) {
      const part: unknown = (parts as unknown[])[j];
      if (!isJsonObject(part)) invalid(partAt(i, j), 'a part object');
      const call = part['functionCall'];
      const response = part['functionResponse'];
      if (call !== undefined) {
        if (!isJsonObject(call)) invalid(`${partAt(i, j)}.functionCall`, 'an object');
        const name = call['name'];
        if (typeof name !== 'string' || name === '')
          invalid(`${partAt(i, j)}.functionCall.name`, 'a function name (a non-empty string)');
        const id = call['id'];
        if (id !== undefined && typeof id !== 'string') invalid(`${partAt(i, j)}.functionCall.id`, 'a string');
        if ((f & CONTENT.call) === 0) {
          firstCall[i] = calls.length;
          f |= CONTENT.call;
        }
        const signature = part['thoughtSignature'];
        const hasId = id !== undefined;
        calls.push({
          key: hasId ? id : name,
          name,
          message: i,
          slot: j,
          seq: seq++,
          server: false,
          answered: false,
          claimed: false,
          hasId,
          signed: typeof signature === 'string' && signature !== '',
        });
      }
      if (response === undefined) {
        f |= CONTENT.standard;
        continue;
      }
      if (!isJsonObject(response)) invalid(`${partAt(i, j)}.functionResponse`, 'an object');
      const id = response['id'];
      if (id !== undefined && typeof id !== 'string') invalid(`${partAt(i, j)}.functionResponse.id`, 'a string');
      const name = response['name'];
      const named = typeof name === 'string' && name !== '';
      const value = response['response'];
      // Gemini 3's multimodal function response carries its media in `parts`; `response` may then be left out.
      const media = response['parts'];
      const multimodal = Array.isArray(media) && media.length > 0;
      f |= CONTENT.response;
      responses.push({
        id,
        name: named ? name : undefined,
        content: i,
        slot: j,
        seq: seq++,
        after: lastModel,
        shape:
          (named ? 0 : SHAPE.nameMissing) |
          (value === undefined
            ? multimodal
              ? 0
              : SHAPE.responseMissing
            : isJsonObject(value)
              ? 0
              : SHAPE.responseNotObject),
      });
    }
    flags[i] = f;
    if (model) lastModel = i;
    else if ((f & CONTENT.standard) !== 0) lastUserTurn = i;
  }
  return { flags, firstCall, calls, responses, empty, functionRoles, roleless, lastUserTurn };
}
