/**
 * The check's first pass over the messages, one walk for two questions: can `JSON.stringify`
 * write every field (`serializationError`: no cycle, `bigint`, throwing getter or nesting past
 * the limit), and does a message hold another format's structure (`foreignStructure`, the
 * markers of `markers.ts`)? The two were two walks over every message and its blocks; here the
 * message's keys and its content blocks are read once, for both, and the values below them go
 * to the serializability walk. Any doubt (a problem, a throw, an object that is not plain, a
 * marker) hands over to the two functions themselves, which decide and word the error as before:
 * the errors and their order do not change. Internal.
 *
 * @module
 */
import type { TranscriptFormat } from '../../check/index.ts';
import type { OwnDataError } from '../../internal/own-data.ts';
import { isPlainQuick, QUICK_WALK_OBJECTS, quickWalk, serializationError } from '../../internal/serializable.ts';
import {
  blockTypeMarker,
  FOREIGN,
  type ForeignTable,
  foreignRole,
  foreignStructure,
  holdsForeign,
  untypedParts,
} from './markers.ts';
import type { JsonObject } from './input.ts';
import type { TranscriptInputError } from './report.ts';

/**
 * A quick pre-test for a set of strings: one bit per length (32 and over share one) and first
 * character (its low 5 bits). A string it says no to is not in the set; one it says yes to is
 * looked up. The markers are few and the strings a history holds (`role`, `content`, `text`)
 * mostly miss: a bit test in place of a hash lookup per key, role and block type.
 */
class StringFilter {
  private readonly bits = new Uint32Array(33);
  /** The shortest string the suffixes match, and the bits of their last characters. */
  private readonly suffixLength: number;
  private readonly suffixEnds: number;

  constructor(strings: Iterable<string>, suffixes: readonly string[] = []) {
    for (const value of strings) {
      const slot = Math.min(value.length, 32);
      this.bits[slot] = (this.bits[slot] as number) | (1 << (value.charCodeAt(0) & 31));
    }
    this.suffixLength = suffixes.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...suffixes.map((x) => x.length));
    let ends = 0;
    for (const suffix of suffixes) ends |= 1 << (suffix.charCodeAt(suffix.length - 1) & 31);
    this.suffixEnds = ends;
  }

  /** Whether `value` may be in the set (or end with one of the suffixes). */
  maybe(value: string): boolean {
    const length = value.length;
    if ((((this.bits[length < 32 ? length : 32] as number) >>> (value.charCodeAt(0) & 31)) & 1) === 1) return true;
    return length >= this.suffixLength && ((this.suffixEnds >>> (value.charCodeAt(length - 1) & 31)) & 1) === 1;
  }
}

/** A format's foreign markers with the pre-tests of each place. */
interface Filtered {
  readonly table: ForeignTable;
  readonly role: StringFilter;
  readonly messageType: StringFilter;
  readonly messageKeys: StringFilter;
  readonly blockType: StringFilter;
  readonly blockKeys: StringFilter;
}

const FILTERED = new Map<TranscriptFormat, Filtered>();

function filtered(format: TranscriptFormat): Filtered {
  let entry = FILTERED.get(format);
  if (entry === undefined) {
    const table = FOREIGN[format];
    entry = {
      table,
      role: new StringFilter(table.role.keys()),
      messageType: new StringFilter(table.messageType.keys()),
      messageKeys: new StringFilter(table.messageKeys.keys()),
      blockType: new StringFilter(
        table.blockType.keys(),
        table.suffixes.map((marker) => marker.value),
      ),
      blockKeys: new StringFilter(table.blockKeys.keys()),
    };
    FILTERED.set(format, entry);
  }
  return entry;
}

/** Thrown by the pass on anything it does not decide itself. */
const UNDECIDED = Symbol('undecided');

/** The pass's state: the walk's budget of objects and whether a message held a marker. */
interface Pass {
  budget: number;
  foreign: boolean;
}

/**
 * The first reason `messages` cannot go on as format `format`'s messages: the serialization
 * problem (as `serializationError(messages, root, maxDepth)` words it) before the foreign
 * structure (as `foreignStructure(messages, format, root)`), or `undefined`. Call it while
 * `Object.prototype` is clean (`objectPrototypeIsClean`), as `serializationError`.
 */
export function unsendable(
  messages: readonly unknown[],
  format: TranscriptFormat,
  root: string,
  maxDepth: number,
): OwnDataError | TranscriptInputError | undefined {
  const pass: Pass = { budget: QUICK_WALK_OBJECTS, foreign: false };
  try {
    if (maxDepth < 2) throw UNDECIDED;
    const table = filtered(format);
    pass.budget--; // the list itself
    for (let i = 0; i < messages.length; i++) {
      const message: unknown = messages[i];
      if (typeof message === 'object') {
        if (message !== null) scanMessage(message, table, maxDepth, pass);
      } else if (typeof message === 'bigint') throw UNDECIDED;
    }
  } catch {
    return serializationError(messages, root, maxDepth) ?? foreignStructure(messages, format, root);
  }
  return pass.foreign ? foreignStructure(messages, format, root) : undefined;
}

/** One message (depth 2): its keys read for the markers, its values walked. */
function scanMessage(message: object, table: Filtered, maxDepth: number, pass: Pass): void {
  if (Array.isArray(message) || !isPlainQuick(message)) {
    pass.budget = quickWalk(message, 2, maxDepth, pass.budget);
    if (!Array.isArray(message) && !pass.foreign) pass.foreign = holdsForeign(message as JsonObject, table.table);
    return;
  }
  if (--pass.budget < 0) throw UNDECIDED;
  const record = message as JsonObject;
  let foreign = pass.foreign;
  for (const key in record) {
    const value: unknown = record[key];
    if (typeof value === 'object') {
      if (key === 'content' && Array.isArray(value)) {
        foreign = scanBlocks(value, table, maxDepth, pass) || foreign;
        continue;
      }
      // A field holding null is still a marker (`kwargs: null`).
      if (value !== null) pass.budget = quickWalk(value, 3, maxDepth, pass.budget);
    } else if (typeof value === 'bigint' || value === Object) throw UNDECIDED;
    if (foreign || value === undefined) continue;
    // The markers, as `holdsForeign` reads them.
    if (key === 'role')
      foreign =
        typeof value === 'string' && table.role.maybe(value) && foreignRole(record, value, table.table) !== undefined;
    else if (key === 'type')
      foreign = typeof value === 'string' && table.messageType.maybe(value) && table.table.messageType.has(value);
    else if (key !== 'content')
      foreign =
        table.messageKeys.maybe(key) && table.table.messageKeys.has(key) && (key !== 'parts' || untypedParts(value));
  }
  pass.foreign = foreign;
}

/**
 * A message's `content` list (depth 3): each block's keys read for the markers, its values
 * walked. Whether a block holds a marker (after the first marker of the pass: not asked).
 */
function scanBlocks(blocks: readonly unknown[], table: Filtered, maxDepth: number, pass: Pass): boolean {
  if (3 > maxDepth || --pass.budget < 0) throw UNDECIDED;
  let foreign = pass.foreign;
  for (let j = 0; j < blocks.length; j++) {
    const block: unknown = blocks[j];
    if (typeof block !== 'object') {
      if (typeof block === 'bigint') throw UNDECIDED;
      continue;
    }
    if (block === null) continue;
    if (Array.isArray(block) || !isPlainQuick(block)) {
      pass.budget = quickWalk(block, 4, maxDepth, pass.budget);
      foreign ||= !Array.isArray(block) && holdsForeign({ content: [block] }, table.table);
      continue;
    }
    if (4 > maxDepth || --pass.budget < 0) throw UNDECIDED;
    const record = block as JsonObject;
    let type: unknown;
    for (const key in record) {
      const value: unknown = record[key];
      if (typeof value === 'object') {
        if (value !== null) pass.budget = quickWalk(value, 5, maxDepth, pass.budget);
      } else if (typeof value === 'bigint' || value === Object) throw UNDECIDED;
      if (key === 'type') type = value;
    }
    if (foreign) continue;
    // A typed block is told by its type; an untyped one (Bedrock Converse's) by its fields.
    if (typeof type === 'string')
      foreign = table.blockType.maybe(type) && blockTypeMarker(table.table, type) !== undefined;
    else for (const key in record) foreign ||= table.blockKeys.maybe(key) && table.table.blockKeys.has(key);
  }
  return foreign;
}
