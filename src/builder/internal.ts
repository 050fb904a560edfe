/**
 * The builder layer's internals that other layers use (the tool loops of `adapters/`), reached
 * here rather than through the files that hold them. Not part of the public API.
 *
 * @module
 */
export { handlerOf } from './settle.ts';
