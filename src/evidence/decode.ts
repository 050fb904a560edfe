/**
 * Decoding an unknown value into a typed join-check input.
 *
 * @module
 */
import * as v from 'valibot';
import { formatPath } from '../internal/path.ts';
import { EvidenceInputError } from './errors.ts';
import { JoinCheckInputSchema, type JoinCheckInput } from './schemas.ts';

/**
 * The result of {@link decodeJoinCheckInput}.
 *
 * @example
 * ```ts
 * import type { DecodeResult } from 'turngate';
 * declare const value: DecodeResult;
 * void value;
 * ```
 */
export type DecodeResult =
  | { readonly ok: true; readonly value: JoinCheckInput }
  | { readonly ok: false; readonly error: EvidenceInputError };

/**
 * Formats a valibot issue path as `evidence.toolRequests[1].toolName`.
 *
 * @param issue - A valibot issue.
 * @returns The dotted path, `''` at the root.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { issuePath, JoinCheckInputSchema } from 'turngate';
 * const result = v.safeParse(JoinCheckInputSchema, { evidence: { toolRequests: [{}] } });
 * if (!result.success) issuePath(result.issues[0]); //=> 'evidence.callSpec'
 * ```
 */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  return formatPath((issue.path ?? []).map((item) => (typeof item.key === 'number' ? item.key : String(item.key))));
}

function describe(issue: v.BaseIssue<unknown>): string {
  if (issue.kind !== 'schema') return issue.message;
  if (issue.received === 'undefined') return 'required field is missing';
  return `expected ${issue.expected}, received ${issue.received}`;
}

/**
 * Validates an unknown value as a `harness-join-check` input (shape and types only).
 *
 * @param input - Parsed JSON (from {@link parseJson}) or a plain object built in code.
 * @returns The decoded input, or the first problem as an {@link EvidenceInputError}.
 * @example
 * ```ts
 * import { decodeJoinCheckInput } from 'turngate';
 * decodeJoinCheckInput({ evidence: 1 }).ok; //=> false
 * ```
 */
export function decodeJoinCheckInput(input: unknown): DecodeResult {
  const result = v.safeParse(JoinCheckInputSchema, input, { abortEarly: true });
  if (result.success) return { ok: true, value: result.output };
  const issue = result.issues[0];
  return { ok: false, error: new EvidenceInputError(issuePath(issue), describe(issue)) };
}
