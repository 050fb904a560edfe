/**
 * Type tests of the one word for why an error was thrown: `code` where one reason is meant,
 * `failures` where several are. The fields the errors had before (`category`, `reason`,
 * `failureClass`, `failureClasses`) are gone. Negative cases use `@ts-expect-error`.
 */
import { expectType } from 'tsd';
import type { Failure, TypestateError, TypestateErrorCode } from 'turngate';
import {
  ChatError,
  SessionStoreUnavailable,
  type SessionWriteConflict,
  type SignalIdInUse,
  type StoreUnavailableReason,
} from 'turngate/chat';
import { type RetryPolicyError, type RetryPolicyFailureClass, StepFailure } from 'turngate/tusk';

declare const typestate: TypestateError;
expectType<TypestateErrorCode>(typestate.code);
expectType<readonly Failure[]>(typestate.failures);
// @ts-expect-error -- "Property 'failureClass' does not exist on type 'TypestateError'"
typestate.failureClass;

const chat = new ChatError('provider_invalid_request', 'the file is too large');
expectType<string>(chat.code);
// @ts-expect-error -- "Property 'category' does not exist on type 'ChatError'"
chat.category;

declare const conflict: SessionWriteConflict;
expectType<'session_write_conflict'>(conflict.code);
// @ts-expect-error -- "Property 'category' does not exist on type 'SessionWriteConflict'"
conflict.category;

declare const inUse: SignalIdInUse;
expectType<'harness_signal_subscription_failed'>(inUse.code);
// @ts-expect-error -- "Property 'category' does not exist on type 'SignalIdInUse'"
inUse.category;

const unavailable = new SessionStoreUnavailable('busy', 'the database is busy');
expectType<StoreUnavailableReason>(unavailable.code);
// @ts-expect-error -- "Property 'reason' does not exist on type 'SessionStoreUnavailable'"
unavailable.reason;

declare const refused: RetryPolicyError;
expectType<RetryPolicyFailureClass>(refused.code);
// @ts-expect-error -- "Property 'failureClass' does not exist on type 'RetryPolicyError'"
refused.failureClass;

const step = new StepFailure(['flaky_io'], 'disk read timed out');
expectType<readonly string[]>(step.failures);
// @ts-expect-error -- "Property 'failureClasses' does not exist on type 'StepFailure'"
step.failureClasses;
