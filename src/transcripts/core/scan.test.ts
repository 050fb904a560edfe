/**
 * The check's one pass (`unsendable`) gives what the two walks it stands for give: the
 * serialization problem (`serializationError`), else the foreign structure (`foreignStructure`),
 * else nothing; for histories of every format checked as every format, with values planted at
 * message, block and deeper level that are plain, foreign markers, or not JSON-writable. The
 * copying pass (`scanMessages` with `copy`) refuses what `unsendable` refuses, and otherwise copies: the
 * same JSON, plain objects and arrays frozen and new, other objects kept.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { render, type Step } from '../../../test/transcript-loops.ts';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../check/stop-reasons.ts';
import { MAX_DATA_DEPTH } from '../../internal/own-data.ts';
import { serializationError } from '../../internal/serializable.ts';
import { foreignStructure } from './markers.ts';
import { scanMessages, unsendable } from './scan.ts';

const LOOP: readonly Step[] = [
  { kind: 'user', text: 'Weather in Oslo?' },
  { kind: 'assistant', text: 'Let me look.', calls: [{ id: 'call00001', name: 'get_weather' }] },
  { kind: 'results', ids: ['call00001'] },
  { kind: 'assistant', text: 'Snow.', calls: [] },
];

/** Nesting `depth` arrays deep. */
const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let k = 0; k < depth; k++) value = [value];
  return value;
};

/** A value to plant: plain, a marker's value, or something `JSON.stringify` throws on. */
const PLANTED: readonly (() => unknown)[] = [
  () => 'text',
  () => 7,
  () => null,
  () => ({ q: 'x' }),
  () => [],
  () => 'tool_use',
  () => 'tool-call',
  () => 'model',
  () => 'tool',
  () => 1n,
  () => Object(2n),
  () => ({ constructor: Object, n: 3n }),
  () => Object.assign(Object(4n), { constructor: Object }),
  () => new Date(0),
  () => new Uint8Array(3),
  () => new BigInt64Array(1),
  () => nested(MAX_DATA_DEPTH),
  () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle['self'] = cycle;
    return cycle;
  },
  () =>
    Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    }),
];

const KEYS = ['extra', 'type', 'role', 'content', 'tool_calls', 'parts', 'toolUse', 'kwargs', 'constructor', 'text'];

/** Sets `key` of the object at `path` below `root` (when there is one) to `value`. */
function plant(root: unknown[], path: readonly number[], key: string, value: unknown): void {
  let holder: unknown = root;
  for (const step of path) {
    if (typeof holder !== 'object' || holder === null) return;
    const list = Array.isArray(holder)
      ? holder
      : ((holder as Record<string, unknown>)['content'] ?? (holder as Record<string, unknown>)['parts']);
    if (!Array.isArray(list) || list.length === 0) break;
    holder = list[step % list.length];
  }
  if (typeof holder === 'object' && holder !== null && !Array.isArray(holder))
    (holder as Record<string, unknown>)[key] = value;
}

/** Up to three values planted in a history: where (a path of indexes), under which key, which value of `PLANTED`. */
const PLANTS = fc.array(
  fc.record({
    path: fc.array(fc.nat(5), { maxLength: 2 }),
    key: fc.constantFrom(...KEYS),
    value: fc.nat(PLANTED.length - 1),
  }),
  { maxLength: 3 },
);

const describeOutcome = (value: unknown): unknown =>
  value instanceof Error ? { name: value.name, message: value.message } : value;

describe('unsendable (the check pass)', () => {
  it('reports what serializationError, then foreignStructure, report', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TRANSCRIPT_FORMATS),
        fc.constantFrom(...TRANSCRIPT_FORMATS),
        PLANTS,
        fc.boolean(),
        (from: TranscriptFormat, as: TranscriptFormat, plants, inBody) => {
          const messages = structuredClone(render(from, LOOP)) as unknown[];
          for (const { path, key, value } of plants) plant(messages, path, key, (PLANTED[value] as () => unknown)());
          const depth = inBody ? MAX_DATA_DEPTH - 1 : MAX_DATA_DEPTH;
          const expected =
            serializationError(messages, 'messages', depth) ?? foreignStructure(messages, as, 'messages');
          expect(describeOutcome(unsendable(messages, as, 'messages', depth))).toEqual(describeOutcome(expected));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('passes a format its own history, and refuses another format with the same error as foreignStructure', () => {
    for (const from of TRANSCRIPT_FORMATS) {
      const messages = render(from, LOOP) as unknown[];
      expect(unsendable(messages, from, 'messages', MAX_DATA_DEPTH)).toBeUndefined();
      for (const as of TRANSCRIPT_FORMATS) {
        const expected = foreignStructure(messages, as, 'messages');
        expect(describeOutcome(unsendable(messages, as, 'messages', MAX_DATA_DEPTH))).toEqual(
          describeOutcome(expected),
        );
      }
    }
  });
});

/** Every plain object and array under `value` (the root too), each once. */
function plainParts(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value !== 'object' || value === null || into.has(value)) return into;
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return into;
  into.add(value);
  for (const item of Object.values(value)) plainParts(item, into);
  return into;
}

describe('scanMessages with copy (the copying pass)', () => {
  it('refuses what unsendable refuses; otherwise its copy writes the same JSON, frozen and new all the way down', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TRANSCRIPT_FORMATS),
        fc.constantFrom(...TRANSCRIPT_FORMATS),
        PLANTS,
        (from: TranscriptFormat, as: TranscriptFormat, plants) => {
          const messages = structuredClone(render(from, LOOP)) as unknown[];
          for (const { path, key, value } of plants) plant(messages, path, key, (PLANTED[value] as () => unknown)());
          const refused = unsendable(messages, as, 'messages', MAX_DATA_DEPTH);
          const snapshot = scanMessages(messages, as, 'messages', MAX_DATA_DEPTH, true);
          expect(describeOutcome(snapshot.refused)).toEqual(describeOutcome(refused));
          if (snapshot.copy === undefined) return;
          expect(JSON.stringify(snapshot.copy)).toBe(JSON.stringify(messages));
          const before = plainParts(messages);
          for (const part of plainParts(snapshot.copy)) {
            expect(Object.isFrozen(part)).toBe(true);
            expect(before.has(part)).toBe(false);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("keeps an own __proto__ field a field, an empty object or array one shared frozen value, and a Date or bytes the caller's", () => {
    const when = new Date(0);
    const bytes = new Uint8Array([1, 2]);
    const messages = JSON.parse(
      '[{"role":"user","content":[{"type":"text","text":"hi","__proto__":{"planted":true}}],"meta":{},"tags":[]},{"role":"assistant","content":"ok","meta":{}}]',
    ) as Record<string, unknown>[];
    (messages[0] as Record<string, unknown>)['when'] = when;
    (messages[0] as Record<string, unknown>)['bytes'] = bytes;
    const { copy } = scanMessages(messages, 'anthropic', 'messages', MAX_DATA_DEPTH, true);
    const [first, second] = copy as [Record<string, unknown>, Record<string, unknown>];
    const block = (first['content'] as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(block)).toBe(Object.prototype);
    expect(Object.hasOwn(block, '__proto__')).toBe(true);
    expect(block['planted']).toBeUndefined();
    expect(first['meta']).toBe(second['meta']);
    expect(Object.isFrozen(first['tags'])).toBe(true);
    expect(first['when']).toBe(when);
    expect(first['bytes']).toBe(bytes);
  });
});
