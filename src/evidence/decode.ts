/**
 * Decoding an unknown value into a typed join-check input.
 *
 * @module
 */
import * as v from 'valibot';
import { trimWhiteSpace } from '../canonical/index.ts';
import { formatPath } from '../internal/path.ts';
import { EvidenceInputError } from './errors.ts';
import { EXTENDED_PROFILE, ExtendedJoinCheckInputSchema, type ExtendedJoinCheckInput } from './extended.ts';
import { JoinCheckInputSchema, type JoinCheckInput } from './schemas.ts';
import { extension } from './struct.ts';

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

const ProfileSchema = extension('join-check input', { profile: v.optional(v.unknown()) });

/**
 * The result of {@link decodeExtendedInput}: the extended part of the input, `undefined` when
 * the input does not opt into the extended profile, or the first problem.
 */
export type ExtendedDecodeResult =
  | { readonly ok: true; readonly value: ExtendedJoinCheckInput | undefined }
  | { readonly ok: false; readonly error: EvidenceInputError };

/**
 * Reads the top-level `profile` field of a join-check input and, when it names the extended
 * profile ({@link EXTENDED_PROFILE}), validates the extended fields (shape and types only).
 * Without a profile (absent or `null`) nothing else is read, so extended fields in a premath
 * input are ignored, as premath ignores them.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §4.1-4.4 (the fields); the profile field is turngate's.
 *
 * @param input - The same value given to {@link decodeJoinCheckInput}.
 * @returns The extended part, `undefined` for a premath input, or an {@link EvidenceInputError}
 *   (a `profile` other than the extended one, or a malformed extended field).
 * @example
 * ```ts
 * import { decodeExtendedInput } from 'turngate';
 * decodeExtendedInput({ evidence: { callSpec: { toolPolicy: 'ignored' } } }); //=> { ok: true, value: undefined }
 * const wrong = decodeExtendedInput({ profile: 'turngate.harness.extended.v9', evidence: { callSpec: {} } });
 * if (!wrong.ok) wrong.error.field; //=> 'profile'
 * ```
 */
export function decodeExtendedInput(input: unknown): ExtendedDecodeResult {
  const head = v.safeParse(ProfileSchema, input, { abortEarly: true });
  if (!head.success) return { ok: false, error: errorOf(head.issues[0]) };
  const profile = head.output.profile;
  if (profile === undefined || profile === null) return { ok: true, value: undefined };
  if (typeof profile !== 'string' || trimWhiteSpace(profile) !== EXTENDED_PROFILE) {
    const received = typeof profile === 'string' ? JSON.stringify(profile) : typeof profile;
    return {
      ok: false,
      error: new EvidenceInputError(
        'profile',
        `expected "${EXTENDED_PROFILE}" (the extended profile), or no profile for premath's, received ${received}`,
      ),
    };
  }
  const result = v.safeParse(ExtendedJoinCheckInputSchema, input, { abortEarly: true });
  if (result.success) return { ok: true, value: result.output };
  return { ok: false, error: errorOf(result.issues[0]) };
}

function errorOf(issue: v.BaseIssue<unknown>): EvidenceInputError {
  return new EvidenceInputError(issuePath(issue), describe(issue));
}
