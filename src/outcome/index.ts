/**
 * The outcome boundary (`turngate/outcome`): `Outcome<T>` values, delegation validated against
 * the tool's contract (deliverable, methods and aliases, required inputs) with tolerant key
 * equivalence, validation records, and the `<known_tools>` prompt block.
 *
 * Source: ADR 0014 (outcome boundary contract validation and tolerant interface
 * canonicalization).
 *
 * @module
 */
export { Outcome, isOutcome } from './outcome.ts';
export type { OutcomeOk, OutcomeError, OutcomeDetails, OutcomeErrorOptions } from './outcome.ts';
export { isCaseTwin } from './keys.ts';
export type { KeySource } from './keys.ts';
export { describeDeliverable } from './shape.ts';
export type {
  ObjectShape,
  ArrayShape,
  ShapeContract,
  Deliverable,
  ShapeValue,
  DeliverableValue,
  DeliverableDescription,
} from './shape.ts';
export type { Mismatch, KeyAlias, MismatchFocus } from './shape-check.ts';
export { defineContracts } from './contract.ts';
export { resolveMethod } from '../typestate/index.ts';
export type { MethodAlias, MethodResolution, MethodSource, UnknownMethodMessage } from '../typestate/index.ts';
export type {
  ContractDefinition,
  ContractDefinitions,
  ContractDescription,
  ToolContract,
  ContractRegistry,
  ContractMethod,
  ContractAlias,
  ContractDeliverable,
  ContractRequiredInput,
  ContractDefinitionsCheck,
} from './contract.ts';
export type { DelegationRequestCheck, DelegationRequestShape, OutcomeCheck } from './request-check.ts';
export type {
  ContractField,
  UnknownFieldMessage,
  MethodMissingMessage,
  InputMissingMessage,
  NotAnOutcomeMessage,
  PromiseOutcomeMessage,
  RequestFieldMessage,
} from './messages.ts';
export { delegate, delegateAsync } from './delegate.ts';
export type {
  ContractViolation,
  ContractViolationDetails,
  PreconditionFailed,
  PreconditionFailedDetails,
  UnknownMethod,
  UnknownMethodDetails,
  DelegationError,
  AliasUse,
  ValidationRecord,
  Delegation,
  DelegatedInput,
  DelegatedCall,
  DelegationRequest,
  DelegationOf,
} from './delegation.ts';
export { renderKnownTools } from './known-tools.ts';
export {
  VIOLATION_DISPOSITIONS,
  isContractBreach,
  errorEnvelopeOf,
  toToolResult,
  checkUse,
} from './tool-result.ts';
export type { ViolationDisposition, ContractedToolResult } from './tool-result.ts';
