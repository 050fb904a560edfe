/**
 * The text-field and keyed-row rules of normalization: required and optional strings (trimmed as
 * Rust trims), refs lists, enum fields (lowercased, checked against their vocabulary), and row
 * sets deduplicated and sorted by id. Internal; normalize.ts and the extended files apply them.
 *
 * @module
 */
import { asciiLowercase, sortUtf8, trimWhiteSpace } from '../canonical/index.ts';
import { EvidenceInputError } from '../evidence/index.ts';

/**
 * Row `index` of an evidence surface, naming its fields for errors: `evidence.toolResults[3]`
 * and `evidence.toolResults[3].status`. The names are built only when an error needs one (a
 * turn of 10,000 calls has some 100,000 fields and, as a rule, no error). Internal.
 */
export class RowAt {
  constructor(
    readonly surface: string,
    readonly index: number,
  ) {}

  /** The row's path, `evidence.<surface>[<index>]`. */
  path(): string {
    return `evidence.${this.surface}[${this.index}]`;
  }

  /** The path of the row's field `name`. */
  field(name: string): string {
    return `${this.path()}.${name}`;
  }
}

/** A field named in full, or row `at`'s field `name`. */
function fieldName(at: string | RowAt, name: string | undefined): string {
  if (typeof at === 'string') return at;
  return name === undefined ? at.path() : at.field(name);
}

function wellFormed(value: string, at: string | RowAt, name?: string): string {
  if (!value.isWellFormed())
    throw new EvidenceInputError(fieldName(at, name), 'expected a string of valid Unicode (it holds a lone surrogate)');
  return value;
}

/**
 * Trims a required string; a blank one is an input error naming the field: `field` itself, or
 * row `field`'s field `name`. Internal.
 */
export function required(value: string, field: string | RowAt, name?: string): string {
  const trimmed = trimWhiteSpace(wellFormed(value, field, name));
  if (trimmed === '') throw new EvidenceInputError(fieldName(field, name), 'expected a non-blank string');
  return trimmed;
}

/** Trims an optional string; blank is the same as absent. The field is named as by {@link required}. Internal. */
export function optional(value: string | null | undefined, field: string | RowAt, name?: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = trimWhiteSpace(wellFormed(value, field, name));
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Normalizes a refs list (`sessionRefs`, `trajectoryRefs`, `requiredArtifactRefs`,
 * `sourceRefs`): trims each entry, drops blanks, deduplicates, sorts by UTF-8 byte order.
 *
 * Source: DIGESTS.md "What is digested".
 *
 * @param values - The raw refs.
 * @param field - The field name used in the error for a lone surrogate.
 * @returns The normalized refs (possibly empty).
 * @example
 * ```ts
 * import { normalizeRefs } from 'turngate/normalize';
 * normalizeRefs([' b ', 'a', 'b', ' ']); //=> ['a', 'b']
 * ```
 */
export function normalizeRefs(values: readonly string[], field = 'refs'): string[] {
  const set = new Set<string>();
  for (const value of values) {
    const trimmed = trimWhiteSpace(wellFormed(value, field));
    if (trimmed !== '') set.add(trimmed);
  }
  return sortUtf8([...set]);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every(
      (key) =>
        Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

/**
 * Normalizes rows of one surface, deduplicates them by id (identical repeats collapse,
 * differing repeats are an input error) and sorts them by id in UTF-8 byte order. Internal.
 */
export function keyedRows<TIn, TOut>(
  rows: readonly TIn[],
  surface: string,
  idField: string,
  normalizeRow: (row: TIn, at: string) => TOut,
  idOf: (row: TOut) => string,
): TOut[] {
  return keyedRowsAt(rows, surface, idField, (row, at) => normalizeRow(row, at.path()), idOf);
}

/** {@link keyedRows} whose `normalizeRow` is given the row's place as a {@link RowAt}, named only on error. Internal. */
export function keyedRowsAt<TIn, TOut>(
  rows: readonly TIn[],
  surface: string,
  idField: string,
  normalizeRow: (row: TIn, at: RowAt) => TOut,
  idOf: (row: TOut) => string,
): TOut[] {
  const byId = new Map<string, { row: TOut; index: number }>();
  rows.forEach((input, index) => {
    const row = normalizeRow(input, new RowAt(surface, index));
    const id = idOf(row);
    const existing = byId.get(id);
    if (existing === undefined) {
      byId.set(id, { row, index });
    } else if (!sameValue(existing.row, row)) {
      throw new EvidenceInputError(
        `evidence.${surface}`,
        `conflicting duplicate ${idField} ${JSON.stringify(id)}: rows ${existing.index} and ${index} differ after normalization`,
      );
    }
  });
  return sortUtf8([...byId.keys()]).map((id) => (byId.get(id) as { row: TOut }).row);
}

/** A required enum field: trimmed, lowercased, and one of `allowed`. Internal. */
export function oneOf<const T extends string>(value: string, allowed: readonly T[], field: string): T {
  const lowered = asciiLowercase(required(value, field));
  if (!(allowed as readonly string[]).includes(lowered)) {
    throw new EvidenceInputError(field, `expected one of ${allowed.join('|')}, received \`${lowered}\``);
  }
  return lowered as T;
}

/** An optional enum field: blank is absent, else as {@link oneOf}. Internal. */
export function optionalOneOf<const T extends string>(
  value: string | null | undefined,
  allowed: readonly T[],
  field: string,
): T | undefined {
  const trimmed = optional(value, field);
  return trimmed === undefined ? undefined : oneOf(trimmed, allowed, field);
}

/** A refs list of enum values: lowercased, each checked, deduplicated, sorted. Internal. */
export function enumList<const T extends string>(values: readonly string[], allowed: readonly T[], field: string): T[] {
  const refs = normalizeRefs(
    values.map((value) => asciiLowercase(value)),
    field,
  );
  refs.forEach((ref) => {
    oneOf(ref, allowed, field);
  });
  return refs as T[];
}
