/**
 * What crosses into a session: inbound messages, the messages and state a graph produces, signal
 * payloads. Each is taken as a snapshot of its own data (no getter or Proxy trap runs twice, a
 * polluted `Object.prototype` supplies nothing), checked to be JSON data and, for messages,
 * `ChatMessage`; what is kept is a plain copy nobody else holds. Internal.
 *
 * @module
 */
import { isBlank } from '../canonical/index.ts';
import { MAX_DATA_DEPTH, snapshotOwnData, type OwnDataError } from '../internal/own-data.ts';
import { type ChatMessage, validateChatMessage } from './messages.ts';
import type { ChatState } from './session-records.ts';
import { firstFailure } from '../failures/internal.ts';
import type { Result } from '../failures/index.ts';

/** Snapshot options given in full, so a polluted `Object.prototype` cannot supply one. */
const SNAPSHOT = { maxDepth: MAX_DATA_DEPTH, isLeaf: () => false } as const;

/**
 * A plain copy of a snapshot (JSON data in null-prototype objects): ordinary objects and arrays,
 * exactly what a JSON store returns for it (`-0` becomes `0`), so the in-memory store and the SQL
 * stores hold the same values.
 */
function plainCopy(value: unknown): unknown {
  if (typeof value === 'number') return value === 0 ? 0 : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainCopy);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = plainCopy((value as Record<string, unknown>)[key]);
    // An own `__proto__` key stays a key (assignment would set the prototype instead).
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}

/**
 * A session state for the graph: a null-prototype object holding `fields`' own enumerable
 * properties and `messages`, so a field the state lacks reads as `undefined` whatever
 * `Object.prototype` holds.
 *
 * @param fields - The other state fields (an object's own enumerable properties are taken).
 * @param messages - The history.
 */
export function chatState(fields: object, messages: readonly ChatMessage[]): ChatState {
  const state: Record<string, unknown> = Object.assign(Object.create(null), fields);
  state['messages'] = messages;
  return state as ChatState;
}

/** A refusal: a diagnostic fit for a reply, and the full detail for the application. */
export interface BoundaryRefusal {
  /** Names the field and what was expected; shows no value and no thrown error's text. */
  readonly diagnostic: string;
  /** The same, with everything known (a thrown getter's error text included). */
  readonly detail: string;
}

/** The result of a boundary check: the plain copy, or `failures` holding one {@link BoundaryRefusal}. */
export type Accepted<T> = Result<T, BoundaryRefusal>;

function refusal(error: OwnDataError, what: string): Accepted<never> {
  const where = error.path === '' ? what : error.path;
  const diagnostic = error.problem === 'read_failed' ? `${where} could not be read` : `${where}: ${error.detail}`;
  return { ok: false, failures: [{ diagnostic, detail: `${where}: ${error.detail}` }] };
}

/**
 * A plain copy of a value that must be JSON data (own enumerable properties, no cycles,
 * nesting within the JSON parser's limit).
 *
 * @param value - Any value.
 * @param root - Its name in diagnostics (`''` for none).
 * @param what - What to call it when the root itself is wrong (e.g. `the message`).
 */
export function acceptJson(value: unknown, root: string, what: string): Accepted<unknown> {
  const snapshot = snapshotOwnData(value, { ...SNAPSHOT, root });
  if (!snapshot.ok) return refusal(firstFailure(snapshot), what);
  return { ok: true, value: plainCopy(snapshot.value) };
}

/**
 * A plain copy of a value that must be a `ChatMessage` (harness-chat §3.1), validated on its
 * own-data snapshot.
 *
 * @param value - Any value.
 * @param root - Its name in diagnostics: `''` for an inbound message, `messages[4]` for a graph's.
 */
export function acceptMessage(value: unknown, root: string): Accepted<ChatMessage> {
  const what = root === '' ? 'the message' : root;
  const snapshot = snapshotOwnData(value, { ...SNAPSHOT, root });
  if (!snapshot.ok) return refusal(firstFailure(snapshot), what);
  const checked = validateChatMessage(snapshot.value);
  if (!checked.ok) {
    const first = checked.failures.join('; ');
    const diagnostic = root === '' ? first : `${root}: ${first}`;
    return { ok: false, failures: [{ diagnostic, detail: diagnostic }] };
  }
  // The schema's output is the message: its objects keep only the fields a ChatMessage has (an
  // extra field of a block, e.g. `cache_control`, is dropped), so every store keeps the same
  // value. The copy is a plain object graph only this session holds.
  return { ok: true, value: plainCopy(checked.value) as ChatMessage };
}

/**
 * Whether a session or signal id is unusable: not a string, blank, not well-formed Unicode (a
 * lone surrogate, which UTF-8 stores cannot keep apart from U+FFFD), or holding U+0000 (which
 * PostgreSQL text cannot hold). Every store then sees the same ids.
 */
export function unusableId(value: unknown): boolean {
  return typeof value !== 'string' || isBlank(value) || !value.isWellFormed() || value.includes('\0');
}
