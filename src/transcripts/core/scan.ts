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
import {
  copyField,
  frozenList,
  frozenRecord,
  isPlainQuick,
  QUICK_WALK_OBJECTS,
  type QuickWalk,
  quickWalk,
  serializationError,
} from '../../internal/serializable.ts';
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

/**
 * The pass's state: the walk's budget of objects and whether it copies (`QuickWalk`), whether a
 * message held a marker, and whether the last content list did (`blocksForeign`).
 */
interface Pass extends QuickWalk {
  foreign: boolean;
  blocksForeign: boolean;
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
  return scanMessages(messages, format, root, maxDepth, false).refused;
}

/** What {@link scanMessages} found: a reason, or (copying) the frozen copy (`undefined`: not made, see there). */
export type Snapshot =
  | { readonly refused: OwnDataError | TranscriptInputError; readonly copy?: undefined }
  | { readonly refused?: undefined; readonly copy: readonly unknown[] | undefined };

/**
 * The check's one pass: {@link unsendable}'s reason, and with `copy` a frozen copy of the messages
 * built in the same pass (as `quickWalk` copies: arrays and plain objects copied and frozen all
 * the way down, other objects kept), for the check to read and the sendable transcript to hold.
 * `copy` is `undefined` when not asked for, or when the pass handed over (a value the exact walk
 * had to decide, data shared past the walk's budget) and found no reason: the caller copies the
 * messages another way.
 */
export function scanMessages(
  messages: readonly unknown[],
  format: TranscriptFormat,
  root: string,
  maxDepth: number,
  copy: boolean,
): Snapshot {
  const pass: Pass = { objects: QUICK_WALK_OBJECTS, copy, foreign: false, blocksForeign: false };
  let list: unknown[] | undefined;
  try {
    if (maxDepth < 2) throw UNDECIDED;
    const table = filtered(format);
    pass.objects--; // the list itself
    if (copy) list = messages.slice();
    for (let i = 0; i < messages.length; i++) {
      const message: unknown = messages[i];
      if (typeof message === 'object') {
        if (message === null) continue;
        const kept = scanMessage(message, table, maxDepth, pass);
        if (list !== undefined) list[i] = kept;
      } else if (typeof message === 'bigint') throw UNDECIDED;
    }
  } catch {
    const refused = serializationError(messages, root, maxDepth) ?? foreignStructure(messages, format, root);
    return refused === undefined ? { copy: undefined } : { refused };
  }
  const refused = pass.foreign ? foreignStructure(messages, format, root) : undefined;
  if (refused !== undefined) return { refused };
  return { copy: list === undefined ? undefined : (frozenList(list) as readonly unknown[]) };
}

/** Whether field `key` of a plain message (holding `value`, not `undefined`) is a marker, as `holdsForeign` reads it. */
function messageFieldForeign(record: JsonObject, key: string, value: unknown, table: Filtered): boolean {
  if (key === 'role')
    return (
      typeof value === 'string' && table.role.maybe(value) && foreignRole(record, value, table.table) !== undefined
    );
  if (key === 'type')
    return typeof value === 'string' && table.messageType.maybe(value) && table.table.messageType.has(value);
  if (key === 'content') return false;
  return table.messageKeys.maybe(key) && table.table.messageKeys.has(key) && (key !== 'parts' || untypedParts(value));
}

/** Whether a plain content block (whose `type` field holds `type`) is a marker: a typed block by its type, an untyped one (Bedrock Converse's) by its fields. */
function blockForeign(record: JsonObject, type: unknown, table: Filtered): boolean {
  if (typeof type === 'string') return table.blockType.maybe(type) && blockTypeMarker(table.table, type) !== undefined;
  for (const key in record) if (table.blockKeys.maybe(key) && table.table.blockKeys.has(key)) return true;
  return false;
}

/** One message (depth 2): its keys read for the markers, its values walked; returns it, or its frozen copy (`pass.copy`). */
function scanMessage(message: object, table: Filtered, maxDepth: number, pass: Pass): object {
  if (Array.isArray(message) || !isPlainQuick(message)) {
    const kept = quickWalk(message, 2, maxDepth, pass);
    if (!Array.isArray(message) && !pass.foreign) pass.foreign = holdsForeign(message as JsonObject, table.table);
    return kept;
  }
  if (--pass.objects < 0) throw UNDECIDED;
  const record = message as JsonObject;
  const copy = pass.copy;
  let out: Record<string, unknown> | undefined;
  let foreign = pass.foreign;
  for (const key in record) {
    const value: unknown = record[key];
    let kept = value;
    if (typeof value === 'object') {
      if (key === 'content' && Array.isArray(value)) {
        kept = scanBlocks(value, table, maxDepth, pass);
        foreign = pass.blocksForeign || foreign;
        if (copy) out = copyField(out, key, kept);
        continue;
      }
      // A field holding null is still a marker (`kwargs: null`).
      if (value !== null) kept = quickWalk(value, 3, maxDepth, pass);
    } else if (typeof value === 'bigint' || value === Object) throw UNDECIDED;
    if (copy) out = copyField(out, key, kept);
    if (!foreign && value !== undefined) foreign = messageFieldForeign(record, key, value, table);
  }
  pass.foreign = foreign;
  return copy ? frozenRecord(out) : message;
}

/**
 * A message's `content` list (depth 3): each block's keys read for the markers, its values
 * walked. Sets `pass.blocksForeign`: whether a block holds a marker (after the first marker of
 * the pass: not asked). Returns the list, or its frozen copy (`pass.copy`).
 */
function scanBlocks(blocks: readonly unknown[], table: Filtered, maxDepth: number, pass: Pass): object {
  if (3 > maxDepth || --pass.objects < 0) throw UNDECIDED;
  const copy = pass.copy;
  const list: unknown[] | undefined = copy ? blocks.slice() : undefined;
  let foreign = pass.foreign;
  for (let j = 0; j < blocks.length; j++) {
    const block: unknown = blocks[j];
    if (typeof block !== 'object') {
      if (typeof block === 'bigint') throw UNDECIDED;
      continue;
    }
    if (block === null) continue;
    if (Array.isArray(block) || !isPlainQuick(block)) {
      const kept = quickWalk(block, 4, maxDepth, pass);
      if (list !== undefined) list[j] = kept;
      foreign ||= !Array.isArray(block) && holdsForeign({ content: [block] }, table.table);
      continue;
    }
    if (4 > maxDepth || --pass.objects < 0) throw UNDECIDED;
    const record = block as JsonObject;
    let out: Record<string, unknown> | undefined;
    let type: unknown;
    for (const key in record) {
      let value: unknown = record[key];
      if (typeof value === 'object') {
        if (value !== null) value = quickWalk(value, 5, maxDepth, pass);
      } else if (typeof value === 'bigint' || value === Object) throw UNDECIDED;
      if (copy) out = copyField(out, key, value);
      if (key === 'type') type = value;
    }
    if (list !== undefined) list[j] = frozenRecord(out);
    foreign ||= blockForeign(record, type, table);
  }
  pass.blocksForeign = foreign;
  return list === undefined ? blocks : frozenList(list);
}
