/**
 * The typed errors of the Tusk harness: malformed artifacts and arguments, a refused retry
 * policy, a trajectory whose last line was torn by a crash, and a step that failed with failure
 * classes.
 *
 * @module
 */

/**
 * A harness artifact, row, policy or argument that cannot be read: a missing or blank required
 * field, a value of the wrong type, a malformed RFC 3339 timestamp, a wrong kind or schema, a
 * repeated field, or JSON text that does not parse. Nothing was written when this is thrown.
 *
 * Source: the Tusk harness contract §11 (session artifact), §12 (trajectory rows);
 * HARNESS-RUNTIME §4, §6.
 *
 * @example
 * ```ts
 * import { HarnessInputError, normalizeTrajectoryRow } from 'turngate/tusk';
 * try {
 *   normalizeTrajectoryRow({ stepId: 's-1', action: 'apply.patch', resultClass: 'completed', finishedAt: 'yesterday' });
 * } catch (error) {
 *   if (error instanceof HarnessInputError) error.field; //=> 'row.finishedAt'
 * }
 * ```
 */
export class HarnessInputError extends Error {
  /** The path of the offending field, e.g. `session.updatedAt` or `policy.rules[2].maxAttempts`; `''` for the whole input. */
  readonly field: string;
  /** What was expected there, in words, with what was found when it helps. */
  readonly expected: string;
  /** The file the input came from, when it came from a file. */
  readonly path: string | undefined;
  /** The 1-based line of the file (JSONL files), when known. */
  readonly line: number | undefined;
  /**
   * Creates a harness input error.
   *
   * @param field - The path of the offending field.
   * @param expected - What was expected, and what was found when it helps.
   * @param where - The file and line the input came from, when known.
   */
  constructor(field: string, expected: string, where: { readonly path?: string; readonly line?: number } = {}) {
    const location =
      where.path === undefined ? '' : ` (in ${where.path}${where.line === undefined ? '' : ` line ${where.line}`})`;
    super(`${field === '' ? expected : `${field}: ${expected}`}${location}`);
    this.name = 'HarnessInputError';
    this.field = field;
    this.expected = expected;
    this.path = where.path;
    this.line = where.line;
  }
}

/**
 * The failure classes premath's retry-policy loader uses when it refuses a policy; a wrapper
 * fails closed on each.
 *
 * Source: HARNESS-RETRY-ESCALATION §2 (digest discipline), §5 (fail closed on policy load).
 *
 * @example
 * ```ts
 * import type { RetryPolicyFailureClass } from 'turngate/tusk';
 * const refused: RetryPolicyFailureClass = 'retry_policy_invalid_digest';
 * ```
 */
export type RetryPolicyFailureClass =
  | 'retry_policy_invalid_json'
  | 'retry_policy_invalid_shape'
  | 'retry_policy_invalid_digest';

/**
 * A retry policy refused at load: not JSON, the wrong shape (kind, schema, rules, attempts,
 * overlapping failure classes), or a `policyDigest` that does not match its payload.
 *
 * Source: HARNESS-RETRY-ESCALATION §2, §3, §5.
 *
 * @example
 * ```ts
 * import { RetryPolicyError, parseRetryPolicy } from 'turngate/tusk';
 * try {
 *   parseRetryPolicy('{"schema": 1}');
 * } catch (error) {
 *   if (error instanceof RetryPolicyError) error.code; //=> 'retry_policy_invalid_shape'
 * }
 * ```
 */
export class RetryPolicyError extends HarnessInputError {
  /** Why the policy was refused: the failure class a wrapper reports (premath's vocabulary). */
  readonly code: RetryPolicyFailureClass;
  /**
   * Creates a retry policy error.
   *
   * @param code - Why the policy was refused.
   * @param field - The offending field (`policy.rules[1].maxAttempts`), `''` for the whole policy.
   * @param expected - What was expected there.
   */
  constructor(code: RetryPolicyFailureClass, field: string, expected: string) {
    super(field, expected);
    this.name = 'RetryPolicyError';
    this.code = code;
  }
}

/**
 * A trajectory file whose last line has no line end: an append that a crash cut short (or a
 * writer that is not a trajectory writer). The torn bytes are never parsed as a row; appending
 * is refused until `repairTrajectory` moves them aside.
 *
 * Source: the Tusk harness contract §12 (append-only rows); HARNESS-RUNTIME §6.
 *
 * @example
 * ```ts
 * import { TrajectoryTornTailError } from 'turngate/tusk';
 * const error = new TrajectoryTornTailError('.premath/harness_trajectory.jsonl', { line: 3, byteOffset: 412, byteLength: 57 });
 * error.line; //=> 3
 * ```
 */
export class TrajectoryTornTailError extends Error {
  /** The trajectory file. */
  readonly path: string;
  /** The 1-based line number of the torn line. */
  readonly line: number;
  /** Where the torn line starts, in bytes from the start of the file. */
  readonly byteOffset: number;
  /** How many bytes the torn line has. */
  readonly byteLength: number;
  /**
   * Creates a torn-tail error.
   *
   * @param path - The trajectory file.
   * @param tail - Where the torn line is.
   */
  constructor(path: string, tail: TornTail) {
    super(
      `${path} line ${tail.line} is torn (${tail.byteLength} bytes with no line end, at byte ${tail.byteOffset}): ` +
        `a crash cut an append short; move it aside with repairTrajectory() or \`turngate harness-trajectory repair --path ${path}\``,
    );
    this.name = 'TrajectoryTornTailError';
    this.path = path;
    this.line = tail.line;
    this.byteOffset = tail.byteOffset;
    this.byteLength = tail.byteLength;
  }
}

/**
 * Who holds a trajectory's lock file (`<file>.lock`), as it wrote itself there.
 *
 * @example
 * ```ts
 * import type { TrajectoryLockHolder } from 'turngate/tusk';
 * const holder: TrajectoryLockHolder = { pid: 4242, host: 'ci-runner-7', acquiredAt: '2026-02-22T01:00:00.000Z' };
 * ```
 */
export interface TrajectoryLockHolder {
  /** The holder's process id. */
  readonly pid: number;
  /** The holder's host name (`os.hostname()`). */
  readonly host: string;
  /** When it took the lock (ISO 8601, milliseconds). */
  readonly acquiredAt: string;
}

/**
 * Another process kept a trajectory's lock (`<file>.lock`) longer than the wait (30 s): a process
 * on another machine, or a live one that is stuck. Appends, repairs, and reads that find a line
 * without its end take the lock, so none judges a line torn while another process is still
 * writing it. A lock whose holder ran on this machine and is gone is broken, never waited for.
 * `code` is `ELOCKED`: the command line exits 1.
 *
 * Source: the Tusk harness contract §12 (append-only rows).
 *
 * @example
 * ```ts
 * import { TrajectoryLockTimeoutError } from 'turngate/tusk';
 * const error = new TrajectoryLockTimeoutError('t.jsonl', 't.jsonl.lock', { pid: 4242, host: 'ci-7', acquiredAt: '2026-02-22T01:00:00.000Z' }, 30000);
 * error.code; //=> 'ELOCKED'
 * ```
 */
export class TrajectoryLockTimeoutError extends Error {
  /** Always `ELOCKED`. */
  readonly code = 'ELOCKED';
  /** The trajectory file. */
  readonly path: string;
  /** Its lock file. */
  readonly lockPath: string;
  /** Who holds the lock, when its file says so. */
  readonly holder: TrajectoryLockHolder | undefined;
  /** How long this process waited, in milliseconds. */
  readonly waitedMs: number;
  /**
   * Creates a lock timeout error.
   *
   * @param path - The trajectory file.
   * @param lockPath - Its lock file.
   * @param holder - Who holds the lock, when known.
   * @param waitedMs - How long the wait was, in milliseconds.
   */
  constructor(path: string, lockPath: string, holder: TrajectoryLockHolder | undefined, waitedMs: number) {
    const who =
      holder === undefined
        ? 'a holder that cannot be read'
        : `pid ${holder.pid} on host ${holder.host}, since ${holder.acquiredAt}`;
    super(
      `${path} is locked by another process (${who}): waited ${waitedMs} ms for ${lockPath}; ` +
        `if that process is no longer running, remove ${lockPath}`,
    );
    this.name = 'TrajectoryLockTimeoutError';
    this.path = path;
    this.lockPath = lockPath;
    this.holder =
      holder === undefined ? undefined : { pid: holder.pid, host: holder.host, acquiredAt: holder.acquiredAt };
    this.waitedMs = waitedMs;
  }
}

/**
 * Where a torn last line of a trajectory file is.
 *
 * @example
 * ```ts
 * import type { TornTail } from 'turngate/tusk';
 * const tail: TornTail = { line: 3, byteOffset: 412, byteLength: 57 };
 * ```
 */
export interface TornTail {
  /** The 1-based line number. */
  readonly line: number;
  /** The offset of its first byte. */
  readonly byteOffset: number;
  /** Its length in bytes (no line end). */
  readonly byteLength: number;
}

/**
 * Thrown inside a step (by a hook, or by the harness for a refused effect) to fail it with
 * failure classes the retry policy classifies. Any other thrown error fails the step with
 * `step_uncaught_error`.
 *
 * Source: the Tusk harness contract §5 (verification classes; no silent pass-through).
 *
 * @example
 * ```ts
 * import { StepFailure } from 'turngate/tusk';
 * const failure = new StepFailure(['flaky_io'], 'disk read timed out');
 * failure.failures; //=> ['flaky_io']
 * ```
 */
export class StepFailure extends Error {
  /**
   * Why: the failure classes, in the order given (the first one the policy knows picks the rule).
   */
  readonly failures: readonly string[];
  /**
   * Creates a step failure.
   *
   * @param failures - The failure classes.
   * @param detail - What went wrong.
   */
  constructor(failures: readonly string[], detail: string) {
    super(`${failures.join(', ')}: ${detail}`);
    this.name = 'StepFailure';
    this.failures = Object.freeze([...failures]);
  }
}
