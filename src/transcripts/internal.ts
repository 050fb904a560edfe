/**
 * The transcripts layer's internals that other layers use (the adapters), reached here rather
 * than through the files that hold them. Not part of the public API.
 *
 * @module
 */
export { runCheck } from './check.ts';
export { runRepair } from './repair.ts';
