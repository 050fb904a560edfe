/**
 * The serde-derived struct rules that premath's input rows follow, as one valibot wrapper.
 *
 * @module
 */
import * as v from 'valibot';
import { duplicateKeysOf } from '../canonical/index.ts';
import { bareRecord } from '../internal/detach.ts';

const OPTIONAL_TYPES: ReadonlySet<string> = new Set(['optional', 'nullish', 'exact_optional']);

/** A schema typed as the plain object schema of `TEntries` (input and output). */
type StructSchema<TEntries extends v.ObjectEntries> = v.GenericSchema<
  v.InferInput<v.ObjectSchema<TEntries, undefined>>,
  v.InferOutput<v.ObjectSchema<TEntries, undefined>>
>;

/**
 * Wraps an object schema with the rules serde applies to a derived struct:
 * - a required field that is not an own property is an input error (`required field is
 *   missing`), decided here so the object schema never looks for a stand-in value on a
 *   prototype;
 * - a repeated known field is an input error (`duplicate field`), unknown fields are ignored;
 * - the struct may also be written as an array of its fields in declaration order, with
 *   trailing defaulted fields left out (serde's sequence form);
 * - anything else (string, number, null) is a type error.
 *
 * @param name - The struct name used in messages (e.g. `toolRequests[] row`).
 * @param entries - The field schemas, in premath's declaration order.
 * @returns A valibot schema whose input and output types are the object schema's.
 */
export function struct<const TEntries extends v.ObjectEntries>(
  name: string,
  entries: TEntries,
): StructSchema<TEntries> {
  const fields = Object.keys(entries);
  const required = fields.filter((field) => !OPTIONAL_TYPES.has((entries[field] as v.GenericSchema).type));
  // The object schema walks its entries with `for...in`: without a prototype, a key added to
  // Object.prototype is not walked as a field.
  const ownEntries: TEntries = Object.assign(bareRecord(), entries);
  // Typed as the object schema: the positional-array form is accepted at run time for premath
  // compatibility but is not part of the typed (wire) API.
  // biome-ignore lint/plugin: typed as the object schema; the positional-array form is accepted at run time only
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const input = dataset.value;
      if (Array.isArray(input)) {
        if (input.length > fields.length) {
          addIssue({
            message: `expected ${name} as an object, or as an array of at most ${fields.length} fields, received an array of ${input.length}`,
          });
          return NEVER;
        }
        const object = bareRecord();
        input.forEach((item, index) => {
          object[fields[index] as string] = item;
        });
        return missingRequired(object, required, addIssue) ? NEVER : object;
      }
      if (input !== null && typeof input === 'object') {
        const repeated = duplicateKeysOf(input);
        if (repeated !== undefined) {
          for (const field of fields) {
            if (repeated.has(field)) {
              addIssue({ message: `duplicate field \`${field}\``, path: [pathItem(input, field)] });
              return NEVER;
            }
          }
        }
        if (missingRequired(input, required, addIssue)) return NEVER;
      }
      return input;
    }),
    v.object(ownEntries),
  ) as unknown as StructSchema<TEntries>;
}

/** Adds an issue for the first required field `input` does not own; whether there was one. */
function missingRequired(
  input: object,
  required: readonly string[],
  addIssue: (info: { message: string; path: [v.ObjectPathItem] }) => void,
): boolean {
  for (const field of required) {
    if (!Object.hasOwn(input, field)) {
      addIssue({ message: 'required field is missing', path: [pathItem(input, field)] });
      return true;
    }
  }
  return false;
}

function pathItem(input: object, key: string): v.ObjectPathItem {
  return {
    type: 'object',
    origin: 'value',
    input: input as Record<string, unknown>,
    key,
    value: (input as Record<string, unknown>)[key],
  };
}

/**
 * Wraps an object schema for the extended-profile fields of a row premath also reads: an object
 * row is read as {@link struct} reads it (a repeated field is an input error); a row written in
 * serde's positional-array form holds premath's fields only, so its extended part is empty.
 *
 * @param name - The row name used in messages (e.g. `toolRequests[] row`).
 * @param entries - The extended field schemas (all optional or defaulted).
 * @returns A valibot schema whose input and output types are the object schema's.
 */
export function extension<const TEntries extends v.ObjectEntries>(
  name: string,
  entries: TEntries,
): StructSchema<TEntries> {
  const object = struct(name, entries);
  // biome-ignore lint/plugin: typed as the object schema; a positional row (an array) reads as having no extended fields
  return v.pipe(
    v.unknown(),
    v.transform((input) => (Array.isArray(input) ? {} : input)),
    object,
  ) as unknown as StructSchema<TEntries>;
}
