/**
 * The valibot action the wire schemas end with: a message holding another format's structure
 * is refused, as every reader refuses it (the table is in `markers.ts`). Internal.
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
