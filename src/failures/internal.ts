/**
 * The failures layer's internals that other layers use, reached here rather than through the files
 * that hold them. Not part of the public API.
 *
 * @module
 */
export { FailureCollector, fail, failedWith, failure, firstFailure, joinDetails } from './collect.ts';
