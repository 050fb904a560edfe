/**
 * What the wire schemas share: the valibot action they end with (a message holding another
 * format's structure is refused, as every reader refuses it; the table is in `markers.ts`), and
 * the object schema of formats whose parts are untyped objects (Gemini, Bedrock Converse). Internal.
 *
 * @module
 */
import * as v from 'valibot';
import type { TranscriptFormat } from '../../check/index.ts';
import { ownStructure } from './markers.ts';

/** Refuses a message holding a marker of a format other than `format`. */
export function ownStructureOf<TMessage>(format: TranscriptFormat): v.CheckAction<TMessage, string> {
  return v.check<TMessage, string>(
    (message) => ownStructure(message, format),
    `expected a message of format "${format}" (it holds another format's structure)`,
  );
}

/** A JSON object with these entries: valibot's object schemas also take arrays, JSON objects are not arrays. */
export const jsonObject = <const TEntries extends v.ObjectEntries>(entries: TEntries) =>
  v.pipe(
    v.custom<object>(
      (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
      'expected an object',
    ),
    v.looseObject(entries),
  );
