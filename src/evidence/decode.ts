/**
 * Decoding an unknown value into a typed join-check input.
 *
 * @module
 */
import * as v from 'valibot';
import { trimWhiteSpace } from '../canonical/index.ts';
import type { JsonNumber } from '../canonical/index.ts';
import { carryDuplicateKeys, isJsonNumber } from '../canonical/internal.ts';
import { shielded } from '../internal/detach.ts';
import { excerpt, quote } from '../internal/display.ts';
import { snapshotOwnData } from '../internal/own-data.ts';
import { schemaIssuePath } from '../internal/path.ts';
import type { Result } from '../failures/index.ts';
import { EvidenceInputError } from './errors.ts';
import { EXTENDED_PROFILE, ExtendedJoinCheckInputSchema, type ExtendedJoinCheckInput } from './extended.ts';
import { JoinCheckInputSchema, type JoinCheckInput } from './schemas.ts';
import { extension } from './struct.ts';
import { firstFailure } from '../failures/internal.ts';

/**
 * The result of {@link decodeJoinCheckInput}: the decoded input, or `failures` holding one
 * {@link EvidenceInputError}, the first problem found.
 */
export type DecodeResult = Result<JoinCheckInput, EvidenceInputError>;

/**
 * Formats a valibot issue path as `evidence.toolRequests[1].toolName`.
 *
 * @param issue - A valibot issue.
 * @returns The dotted path, `''` at the root.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { issuePath, JoinCheckInputSchema } from 'turngate/evidence';
 * const result = v.safeParse(JoinCheckInputSchema, { evidence: { toolRequests: [{}] } });
 * if (!result.success) issuePath(result.issues[0]); //=> 'evidence.callSpec'
 * ```
 */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  return schemaIssuePath(issue.path);
}

/** What a value is, for a message: a string quoted (cut after 200 characters), a number as written, else its kind. */
function describeReceived(input: unknown): string {
  if (typeof input === 'string') return quote(input);
  if (typeof input === 'number' || typeof input === 'bigint' || typeof input === 'boolean') return String(input);
  if (input === null) return 'null';
  if (isJsonNumber(input as object)) return excerpt((input as JsonNumber).raw);
  return Array.isArray(input) ? 'Array' : 'Object';
}

function describe(issue: v.BaseIssue<unknown>): string {
  if (issue.kind !== 'schema') return issue.message;
  if (issue.input === undefined) return 'required field is missing';
  return `expected ${issue.expected}, received ${describeReceived(issue.input)}`;
}

/**
 * Names the schema library reads from its own working objects without asking whether they are
 * own properties (a dataset's `issues` and `typed`, a schema's `fallback`). Every other read of
 * the decode is of own data; these three, found on `Object.prototype`, would make it accept or
 * refuse at random, so the decode refuses to run instead.
 */
const VALIDATOR_READS = ['issues', 'typed', 'fallback'] as const;

function pollutedValidatorRead(): string | undefined {
  const probe: Record<string, unknown> = {};
  return VALIDATOR_READS.find((name) => name in probe);
}

/** The schema's options: a null-prototype object, so no option is read from a polluted prototype. */
const PARSE_CONFIG: v.Config<v.BaseIssue<unknown>> = Object.assign(Object.create(null), { abortEarly: true });

/**
 * Validates an unknown value as a `harness-join-check` input (shape and types only).
 *
 * The value is first copied as own data (the boundary snapshot): only own enumerable
 * properties are read, each once, so a polluted `Object.prototype`, a getter or a Proxy cannot
 * change what is checked; a cycle, nesting deeper than 127 levels, a getter or Proxy trap that
 * throws, or a value that is not JSON data (a function, `NaN`, a `Date`, `undefined` in an array)
 * is an {@link EvidenceInputError} naming its path. Numbers may be `number`, `bigint` or
 * {@link JsonNumber}. Should `Object.prototype` be polluted, every object in the decoded input
 * has a `null` prototype, so an absent optional field still reads as absent. Should some code
 * have set `issues`, `typed` or `fallback` on `Object.prototype` (names the schema library reads
 * from its own objects), every input is refused with field `''`, naming the property: a
 * validator that could be misled does not decide. Never throws.
 *
 * @param input - Parsed JSON (from {@link parseJson}) or a plain object built in code.
 * @returns The decoded input, or `failures` holding the first problem as an {@link EvidenceInputError}.
 * @example
 * ```ts
 * import { decodeJoinCheckInput } from 'turngate/evidence';
 * decodeJoinCheckInput({ evidence: 1 }).ok; //=> false
 * ```
 */
export function decodeJoinCheckInput(input: unknown): DecodeResult {
  const own = ownJoinCheckInput(input);
  return own.ok ? decodeOwnData(own.value) : own;
}

/**
 * The boundary snapshot of a join-check input: own data only (see {@link decodeJoinCheckInput}),
 * with `JsonNumber` leaves, `bigint`s and the parser's repeated-key records kept. Internal; the
 * join check takes it once and decodes both the premath part and the extended part from it.
 *
 * @param input - Any value.
 * @returns The own-data copy, or `failures` holding one {@link EvidenceInputError} naming the path
 *   of what cannot be copied.
 */
export function ownJoinCheckInput(input: unknown): Result<unknown, EvidenceInputError> {
  const snapshot = snapshotOwnData(input, { isLeaf: isJsonNumber, bigint: true, onObjectCopied: carryDuplicateKeys });
  if (!snapshot.ok) {
    const error = firstFailure(snapshot);
    return { ok: false, failures: [new EvidenceInputError(error.path, error.detail)] };
  }
  return { ok: true, value: snapshot.value };
}

/**
 * {@link decodeJoinCheckInput} for a value that is own data already: what the boundary
 * snapshot or the parser's null-prototype mode returns. Internal.
 *
 * @param input - Own data: the boundary snapshot's, or the parser's (without prototypes when
 *   `Object.prototype` is polluted).
 */
export function decodeOwnData(input: unknown): DecodeResult {
  const polluted = pollutedValidatorRead();
  if (polluted !== undefined) {
    return {
      ok: false,
      failures: [
        new EvidenceInputError(
          '',
          `Object.prototype holds \`${polluted}\` (some code has polluted it), which the input schemas would read as their own: refusing to decide`,
        ),
      ],
    };
  }
  let result: ReturnType<typeof v.safeParse<typeof JoinCheckInputSchema>>;
  try {
    result = v.safeParse(JoinCheckInputSchema, input, PARSE_CONFIG);
  } catch (error) {
    // Not reachable with own data; kept so the boundary never throws whatever the schema does.
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'a non-error value';
    return {
      ok: false,
      failures: [new EvidenceInputError('', `the input could not be validated (${excerpt(reason)})`)],
    };
  }
  if (result.success) return { ok: true, value: shielded(result.output) };
  const issue = result.issues[0];
  return { ok: false, failures: [new EvidenceInputError(issuePath(issue), describe(issue))] };
}

const ProfileSchema = extension('join-check input', { profile: v.optional(v.unknown()) });

/**
 * The result of {@link decodeExtendedInput}: the extended part of the input, `undefined` when
 * the input does not opt into the extended profile, or `failures` holding one
 * {@link EvidenceInputError}, the first problem found.
 */
export type ExtendedDecodeResult = Result<ExtendedJoinCheckInput | undefined, EvidenceInputError>;

/**
 * Reads the top-level `profile` field of a join-check input and, when it names the extended
 * profile ({@link EXTENDED_PROFILE}), validates the extended fields (shape and types only).
 * Without a profile (absent or `null`) nothing else is read, so extended fields in a premath
 * input are ignored, as premath ignores them.
 *
 * Source: TOOL-CALLING-HARNESS-TYPESTATE §4.1-4.4 (the fields); the profile field is turngate's.
 *
 * @param input - The same value given to {@link decodeJoinCheckInput}.
 * @returns The extended part, `undefined` for a premath input, or `failures` holding one
 *   {@link EvidenceInputError} (a `profile` other than the extended one, or a malformed extended field).
 * @example
 * ```ts
 * import { decodeExtendedInput } from 'turngate/evidence';
 * decodeExtendedInput({ evidence: { callSpec: { toolPolicy: 'ignored' } } }); //=> { ok: true, value: undefined }
 * const wrong = decodeExtendedInput({ profile: 'turngate.harness.extended.v9', evidence: { callSpec: {} } });
 * if (!wrong.ok) wrong.failures[0]?.field; //=> 'profile'
 * ```
 */
export function decodeExtendedInput(input: unknown): ExtendedDecodeResult {
  const own = ownJoinCheckInput(input);
  return own.ok ? decodeExtendedOwnData(own.value) : own;
}

/**
 * {@link decodeExtendedInput} for a value that is own data already (the boundary snapshot, or
 * the parser's null-prototype output). Internal.
 *
 * @param input - Own data.
 */
export function decodeExtendedOwnData(input: unknown): ExtendedDecodeResult {
  const head = v.safeParse(ProfileSchema, input, PARSE_CONFIG);
  if (!head.success) return { ok: false, failures: [errorOf(head.issues[0])] };
  // The schema's output is a fresh object: shielded, an absent `profile` reads as absent whatever the prototype holds.
  const profile = shielded(head.output).profile;
  if (profile === undefined || profile === null) return { ok: true, value: undefined };
  if (typeof profile !== 'string' || trimWhiteSpace(profile) !== EXTENDED_PROFILE) {
    const received = typeof profile === 'string' ? JSON.stringify(profile) : typeof profile;
    return {
      ok: false,
      failures: [
        new EvidenceInputError(
          'profile',
          `expected "${EXTENDED_PROFILE}" (the extended profile), or no profile for premath's, received ${received}`,
        ),
      ],
    };
  }
  const result = v.safeParse(ExtendedJoinCheckInputSchema, input, PARSE_CONFIG);
  if (result.success) return { ok: true, value: shielded(result.output) };
  return { ok: false, failures: [errorOf(result.issues[0])] };
}

function errorOf(issue: v.BaseIssue<unknown>): EvidenceInputError {
  return new EvidenceInputError(issuePath(issue), describe(issue));
}
