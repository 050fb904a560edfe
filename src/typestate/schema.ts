/**
 * Standard Schema v1 helpers the typestate shares (and users may call): whether a value is a
 * schema, validating a value against one synchronously, and writing its issues as one line.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Result } from '../failures/index.ts';
import { describeThrown } from '../internal/display.ts';
import { schemaIssuePath } from '../internal/path.ts';

/** Whether a value is a Standard Schema v1 object (reading it never throws). Internal. */
export function isSchema(value: unknown): value is StandardSchemaV1 {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    const standard = (value as Partial<StandardSchemaV1>)['~standard'];
    return typeof standard?.validate === 'function';
  } catch {
    return false;
  }
}

/**
 * One schema issue, flattened for a failure detail.
 *
 * @example
 * ```ts
 * import type { SchemaIssue } from 'turngate/types';
 * const issue: SchemaIssue = { path: 'path', message: 'Invalid type: Expected string but received 3' };
 * ```
 */
export interface SchemaIssue {
  /** Where the offending value is, as the project writes places (`items[0].link`; `''` at the root). */
  readonly path: string;
  /** What was wrong. */
  readonly message: string;
}

/**
 * The outcome of validating a value against a Standard Schema: the parsed value, or `failures`
 * holding the schema's issues (at least one).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { validateWith } from 'turngate';
 * import type { SchemaCheck } from 'turngate/types';
 * const checked: SchemaCheck = validateWith(v.string(), 'a');
 * checked.ok; //=> true
 * ```
 */
export type SchemaCheck = Result<unknown, SchemaIssue>;

/**
 * Validates a value against a Standard Schema v1 object, synchronously. Never throws: a schema
 * that throws (a refinement or transform that throws, a validator that overflows the stack) is
 * reported as an issue.
 *
 * @param schema - The schema.
 * @param value - The value.
 * @returns The parsed value, or `failures` holding the issues (each path written as
 *   `items[0].link`). An asynchronous schema is reported as an issue.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { validateWith } from 'turngate';
 * validateWith(v.object({ path: v.string() }), { path: 3 }).ok; //=> false
 * const checked = validateWith(v.array(v.object({ link: v.string() })), [{ link: 3 }]);
 * checked.ok ? [] : checked.failures.map((issue) => issue.path); //=> ['[0].link']
 * ```
 */
export function validateWith(schema: StandardSchemaV1, value: unknown): SchemaCheck {
  let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  try {
    result = schema['~standard'].validate(value);
  } catch (error) {
    return { ok: false, failures: [{ path: '', message: `the schema threw ${describeThrown(error)}` }] };
  }
  if (result instanceof Promise) {
    result.catch(() => undefined);
    return {
      ok: false,
      failures: [{ path: '', message: 'asynchronous schemas are not supported in a turn; validate synchronously' }],
    };
  }
  if (result.issues === undefined) return { ok: true, value: result.value };
  return {
    ok: false,
    failures: result.issues.map((issue) => ({
      path: schemaIssuePath(issue.path),
      message: issue.message,
    })),
  };
}

/**
 * Formats schema issues as one line: `path: message; path: message`.
 *
 * @param issues - The issues from {@link validateWith} (its `failures`).
 * @returns The line.
 *
 * @example
 * ```ts
 * import { formatIssues } from 'turngate';
 * formatIssues([{ path: 'path', message: 'Invalid type' }]); //=> 'path: Invalid type'
 * ```
 */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((i) => (i.path === '' ? i.message : `${i.path}: ${i.message}`)).join('; ');
}
