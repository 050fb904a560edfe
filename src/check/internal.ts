/**
 * The check layer's internals that other layers use, reached here rather than through the files
 * that hold them. Not part of the public API.
 *
 * @module
 */
export { checkMutationGate } from './mutation-gate.ts';
export { checkJoinRows, checkJoinRowsOwnData, checkOwnData, type JoinRowsReport } from './check.ts';
