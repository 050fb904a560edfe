/**
 * The tusk layer's internals that other layers use, reached here rather than through the files
 * that hold them. Not part of the public API.
 *
 * @module
 */
export { parseRfc3339 } from './time.ts';
