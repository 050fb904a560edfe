/**
 * Thrown value -> error category: the built-in classification, with the provider SDKs' errors
 * recognized by their shape, and the hook an application uses to add its own.
 *
 * @module
 */
import { className, ownField, ownString } from '../internal/own-field.ts';
import { ChatError, GRAPH_PROGRAMMING_ERROR } from './errors.ts';
import { SessionWriteConflict, SignalIdInUse } from './store-errors.ts';

/**
 * What a thrown value means for the turn.
 *
 * @example
 * ```ts
 * import type { ErrorClassification } from 'turngate/chat';
 * const classification: ErrorClassification = { category: 'provider_rate_limited' };
 * ```
 */
export interface ErrorClassification {
  /** The error category (see `ERROR_BUCKETS`); its bucket decides the reply. */
  readonly category: string;
  /**
   * A diagnostic written for the end user, shown in a `user_correctable` reply (harness-chat
   * §10.3). Absent: the reply names the problem in general terms. Never put a stack, a provider's
   * raw message or an internal id here; the thrown value itself reaches the application as the
   * errored outcome's `cause`.
   */
  readonly detail?: string;
}

/**
 * A classification hook: maps a thrown value to a classification, or returns `undefined` to
 * leave it to {@link classifyError}. It must not throw (if it does, the built-in classification
 * is used).
 *
 * @example
 * ```ts
 * import { createChatHarness, type ChatGraph, type ErrorClassifier } from 'turngate/chat';
 * declare const graph: ChatGraph;
 * class QuotaExceeded extends Error {}
 * const classifyError: ErrorClassifier = (error) =>
 *   error instanceof QuotaExceeded ? { category: 'provider_invalid_request', detail: 'your monthly quota is used up' } : undefined;
 * createChatHarness({ graph, classifyError });
 * ```
 */
export type ErrorClassifier = (error: unknown) => ErrorClassification | undefined;

/** The category of an error nobody classified (bucket `retryable_transient`). */
const UNCLASSIFIED = 'graph_error';

/** The JavaScript engine's own error classes: thrown by code that is wrong, not by the world. */
const PROGRAMMING_ERRORS = new Set([
  'TypeError',
  'ReferenceError',
  'RangeError',
  'SyntaxError',
  'EvalError',
  'URIError',
]);

/** Node.js and undici error codes of a network failure; the timeouts among them. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Diagnostics for the end user, per provider failure; no provider wording reaches the user. */
const DETAIL = {
  invalidRequest: 'the model could not accept this conversation',
  tooLong: 'the conversation is too long for the model',
  tooLarge: 'the message is too large for the model',
  authentication: 'the assistant is not authorized to use its model',
  invalidModel: 'the model the assistant uses is not available',
} as const;

/**
 * The classification of an HTTP error status from a provider API.
 *
 * @param status - The HTTP status (400-599).
 * @param code - The provider's error code, when it gave one (OpenAI `code`, Anthropic `error_code` or `type`).
 */
function classifyStatus(status: number, code: string | undefined): ErrorClassification {
  if (status === 401 || status === 402 || status === 403)
    return { category: 'provider_authentication', detail: DETAIL.authentication };
  if (status === 404) return { category: 'provider_invalid_model', detail: DETAIL.invalidModel };
  if (status === 408 || status === 504) return { category: 'provider_timeout' };
  if (status === 429) return { category: 'provider_rate_limited' };
  if (status >= 500) return { category: 'provider_unavailable' };
  if (status === 413) return { category: 'provider_invalid_request', detail: DETAIL.tooLarge };
  if (code === 'context_length_exceeded' || code === 'prompt_too_long')
    return { category: 'provider_invalid_request', detail: DETAIL.tooLong };
  return { category: 'provider_invalid_request', detail: DETAIL.invalidRequest };
}

/** A provider's error code, when the error carries one. */
function providerCode(error: unknown): string | undefined {
  return ownString(error, 'code') ?? ownString(error, 'errorCode') ?? undefined;
}

/**
 * A network failure somewhere along an error's `cause` chain (at most 8 deep), by its Node.js or
 * undici code: `timeout` (ETIMEDOUT, a connect or headers timeout) or `unreachable`
 * (ECONNREFUSED, ECONNRESET, EPIPE, a DNS failure, ...); `undefined` for anything else. The one
 * list of network codes: provider errors (here) and the session stores read it.
 *
 * @param error - The thrown value.
 */
export function networkFailure(error: unknown): 'timeout' | 'unreachable' | undefined {
  let current = error;
  for (let depth = 0; depth < 8 && current !== undefined; depth++) {
    const code = ownString(current, 'code');
    if (code !== undefined && TIMEOUT_CODES.has(code)) return 'timeout';
    if (code !== undefined && NETWORK_CODES.has(code)) return 'unreachable';
    current = ownField(current, 'cause');
  }
  return undefined;
}

/** A network failure's provider category. */
function networkCategory(error: unknown): string | undefined {
  const failure = networkFailure(error);
  return failure === 'timeout' ? 'provider_timeout' : failure === 'unreachable' ? 'provider_unavailable' : undefined;
}

/** A `DOMException`'s name (an accessor on its prototype), e.g. `TimeoutError` from `AbortSignal.timeout`. */
function domExceptionName(error: unknown): string | undefined {
  try {
    const name: unknown = Reflect.get(error as object, 'name');
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The category a thrown value names itself: this library's categorized errors carry it as `code`
 * (an own data property; a Node.js error's `code` is not a category), any other value as an own
 * string `category`.
 *
 * @param error - Any thrown value.
 */
function ownCategory(error: unknown): string | undefined {
  try {
    if (error instanceof ChatError || error instanceof SessionWriteConflict || error instanceof SignalIdInUse)
      return ownString(error, 'code');
  } catch {
    // A Proxy's getPrototypeOf trap threw: not one of ours.
  }
  return ownString(error, 'category');
}

/**
 * The built-in classification of a thrown value. It reads only own data properties (no getter
 * runs, a polluted `Object.prototype` supplies nothing) and never throws. In order:
 * 1. a {@link ChatError} (or a store's `SessionWriteConflict` / `SignalIdInUse`): its own string
 *    `code` is the category; any other value with an own string `category`: that category. The
 *    value's `message` is the end-user diagnostic;
 * 2. a provider SDK's HTTP error, recognized by an own integer `status` of 400-599 (the
 *    Anthropic and OpenAI SDKs' `APIError` subclasses; also the AI SDK's `statusCode`):
 *    400 and other 4xx -> `provider_invalid_request` (413 and a context-length code get their
 *    own diagnostic), 401 / 402 / 403 -> `provider_authentication`, 404 ->
 *    `provider_invalid_model`, 408 / 504 -> `provider_timeout`, 429 -> `provider_rate_limited`,
 *    other 5xx (Anthropic's 529 included) -> `provider_unavailable`. The diagnostic is ours,
 *    never the provider's text;
 * 3. the SDKs' connection errors, by class name: `APIConnectionTimeoutError` ->
 *    `provider_timeout`, `APIConnectionError` -> `provider_unavailable`;
 * 4. a network failure: a Node.js or undici error code along the `cause` chain (`ETIMEDOUT`,
 *    `UND_ERR_CONNECT_TIMEOUT`, ... -> `provider_timeout`; `ECONNRESET`, `ECONNREFUSED`,
 *    `ENOTFOUND`, ... -> `provider_unavailable`), fetch's `TypeError('fetch failed')`, or an
 *    `AbortSignal.timeout` `TimeoutError` (-> `provider_timeout`);
 * 5. a `TypeError`, `ReferenceError`, `RangeError`, `SyntaxError`, `EvalError` or `URIError`:
 *    {@link GRAPH_PROGRAMMING_ERROR};
 * 6. anything else: `graph_error` (bucket `retryable_transient`).
 *
 * Sources: llm-provider §7 (categories), harness-chat §10 (buckets and replies); the SDKs'
 * `core/error` modules (`@anthropic-ai/sdk`, `openai`) for the class names and `status`.
 *
 * @param error - Any thrown value.
 * @returns Its classification.
 * @example
 * ```ts
 * import { ChatError, classifyError } from 'turngate/chat';
 * classifyError(Object.assign(new Error('429 Too Many Requests'), { status: 429 })); //=> { category: 'provider_rate_limited' }
 * classifyError(new TypeError("Cannot read properties of undefined (reading 'text')")); //=> { category: 'graph_programming_error' }
 * classifyError(new ChatError('provider_invalid_request', 'the file is too large')); //=> { category: 'provider_invalid_request', detail: 'the file is too large' }
 * ```
 */
export function classifyError(error: unknown): ErrorClassification {
  const category = ownCategory(error);
  if (category !== undefined) {
    const message = ownString(error, 'message');
    return message === undefined || message === '' ? { category } : { category, detail: message };
  }
  const status = ownField(error, 'status') ?? ownField(error, 'statusCode');
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599)
    return classifyStatus(status, providerCode(error));
  const instanceName = className(error);
  const name = ownString(error, 'name') ?? (instanceName === 'DOMException' ? domExceptionName(error) : instanceName);
  if (name === 'APIConnectionTimeoutError') return { category: 'provider_timeout' };
  if (name === 'APIConnectionError') return { category: 'provider_unavailable' };
  const network = networkCategory(error);
  if (network !== undefined) return { category: network };
  if (name === 'TimeoutError') return { category: 'provider_timeout' };
  if (instanceName === 'TypeError' && ownString(error, 'message') === 'fetch failed')
    return { category: 'provider_unavailable' };
  if (instanceName !== undefined && PROGRAMMING_ERRORS.has(instanceName)) return { category: GRAPH_PROGRAMMING_ERROR };
  return { category: UNCLASSIFIED };
}

/**
 * Classifies with the application's hook first, then the built-in classification. Never throws.
 *
 * @param error - Any thrown value.
 * @param hook - The application's classifier, if any.
 */
export function classifyWith(error: unknown, hook: ErrorClassifier | undefined): ErrorClassification {
  if (hook !== undefined) {
    try {
      const custom = hook(error);
      const category = ownString(custom, 'category');
      if (category !== undefined) {
        const detail = ownString(custom, 'detail');
        return detail === undefined ? { category } : { category, detail };
      }
    } catch {
      // A faulty hook must not lose the turn's outcome: the built-in classification decides.
    }
  }
  return classifyError(error);
}
