/**
 * The canonical layer's internals that other layers use, reached here rather than through the files
 * that hold them. Not part of the public API.
 *
 * @module
 */
export { carryDuplicateKeys, isJsonNumber } from './json-value.ts';
export { parseJsonData } from './json.ts';
