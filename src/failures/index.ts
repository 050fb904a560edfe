/**
 * The fail-closed class taxonomy and the `Failure` / `Result` shapes.
 *
 * @module
 */
export { FAILURE_CLASSES, isFailureClass, describeFailureClass } from './classes.ts';
export type { FailureClass, FailureClassInfo, FailureClassSource, Failure, Result } from './classes.ts';
