/**
 * An MCP tool's JSON Schema as the Standard Schema a tool definition takes: validated at run time
 * by Ajv (the validator the MCP SDK itself uses), declared to the providers as the server gave
 * it (its Standard JSON Schema converter). Nothing is fetched: a `$ref` Ajv cannot resolve in
 * the schema itself makes the schema refused. Internal.
 *
 * Source: MCP 2025-11-25, Server / Tools (`inputSchema`, `outputSchema`: JSON Schema, 2020-12
 * unless `$schema` names another dialect).
 *
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { formatPath } from '../internal/path.ts';

/** A Standard Schema that also converts to JSON Schema (what the adapters' declarations read). */
export type JsonSchemaStandard = StandardSchemaV1 & StandardJSONSchemaV1;

const OPTIONS = { strict: false, validateFormats: false, allErrors: false, logger: false } as const;
let draft7: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

/** The Ajv instance of a schema's dialect: draft-07 (or older) when its `$schema` says so, 2020-12 otherwise. */
function validatorFor(schema: { readonly [key: string]: unknown }): Ajv | Ajv2020 {
  const dialect = schema['$schema'];
  if (typeof dialect === 'string' && /draft-0[4-7]/.test(dialect)) {
    draft7 ??= new Ajv(OPTIONS);
    return draft7;
  }
  draft2020 ??= new Ajv2020(OPTIONS);
  return draft2020;
}

/** An Ajv error as the project writes a schema issue. */
function issueOf(error: ErrorObject): StandardSchemaV1.Issue {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  const where = formatPath(path);
  return {
    message: `${where === '' ? 'the arguments' : where} ${error.message ?? 'is invalid'}`,
    path,
  };
}

/**
 * Compiles a JSON Schema object; the reason when it is not one Ajv accepts (not valid against its
 * dialect's meta-schema, an unresolvable `$ref`, a compile that throws).
 */
export function compileSchema(schema: unknown): ValidateFunction | string {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return 'not a JSON Schema object';
  const object = schema as { readonly [key: string]: unknown };
  try {
    const ajv = validatorFor(object);
    // A schema with an `$id` is cached by it in Ajv: compile a copy without it, so two servers'
    // schemas of one `$id` never meet.
    const { $id: _id, ...rest } = object;
    const validate = ajv.compile(rest);
    // Ajv keeps every schema it compiled: forget this one (the function keeps what it needs), so
    // a process that makes registries again and again does not grow.
    ajv.removeSchema(rest);
    return validate;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * A Standard Schema of an MCP tool's `inputSchema`: `validate` runs the compiled Ajv validator
 * (the value is passed on as it is; Ajv neither coerces nor fills defaults here), and
 * `jsonSchema.input` gives the schema as the server listed it (without `$schema`).
 *
 * @param schema - The tool's `inputSchema` (an object schema, as MCP requires).
 * @param validate - Its compiled validator ({@link compileSchema}).
 */
export function inputSchemaOf(
  schema: { readonly [key: string]: unknown },
  validate: ValidateFunction,
): JsonSchemaStandard {
  const { $schema: _dialect, ...declared } = schema;
  const json = () => declared;
  return {
    '~standard': {
      version: 1,
      vendor: 'turngate-mcp',
      validate(value) {
        if (validate(value)) return { value };
        const issues = (validate.errors ?? []).map(issueOf);
        return { issues: issues.length > 0 ? issues : [{ message: 'the arguments do not match the inputSchema' }] };
      },
      jsonSchema: { input: json, output: json },
    },
  };
}

/**
 * The output schema of every MCP tool: the output the handler builds from the MCP result (JSON
 * data it copied itself), passed on as it is.
 */
export const MCP_OUTPUT: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'turngate-mcp', validate: (value) => ({ value }) },
};
