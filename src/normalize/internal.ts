/**
 * Normalization's rules that other layers apply too, reached here rather than through the files
 * that hold them. Not part of the public API (`turngate/normalize` is `index.ts`).
 *
 * @module
 */
export { optional, required } from './rows.ts';
export { rawErrorCovers } from './raw-error.ts';
export { normalizeJoin, type CarriedRows, type NormalizedJoin } from './normalize.ts';
