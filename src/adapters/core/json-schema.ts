/**
 * A tool's input schema as the JSON Schema a provider declares: one converter
 * (`@valibot/to-json-schema`) for valibot schemas, the schema's own Standard JSON Schema
 * converter for any other vendor. What JSON Schema cannot express is an error naming the tool
 * and the place in its schema, never a silent loss. Internal.
 *
 * @module
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import type * as v from 'valibot';

/** A JSON Schema object, as the converters return it. */
export type JsonSchemaObject = { readonly [key: string]: unknown };

/** How input schemas are converted. */
export interface ConvertOptions {
  /**
   * Valibot pipe actions to leave out of the JSON Schema (e.g. `['check']` for a `v.check`
   * refinement): the model is not told about them; the input is still checked against the whole
   * schema at run time (a call that fails it gets an `invalid_input` error result).
   */
  readonly ignoreActions?: readonly string[];
}

type AnySchema = v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>;

const WHAT_JSON_SCHEMA_CANNOT_EXPRESS =
  'JSON Schema cannot express custom checks (v.check, v.custom, v.rawCheck), schemas of values that are not JSON ' +
  '(v.date, v.bigint, v.map, v.set, v.function, v.promise, v.symbol, v.instance), or a pipe of two schemas without ' +
  'a transform between them';

function config(options: ConvertOptions): ConversionConfig {
  return {
    errorMode: 'throw',
    // What the model sends: a pipe's transforms happen after, in the handler's input.
    typeMode: 'input',
    ...(options.ignoreActions === undefined ? {} : { ignoreActions: [...options.ignoreActions] }),
  };
}

function converted(schema: AnySchema, options: ConvertOptions): JsonSchemaObject | Error {
  try {
    return toJsonSchema(schema, config(options)) as JsonSchemaObject;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The children of a valibot schema, each with the path step to it (`.to`, `[]`, `[0]`, ` (option 2)`). */
function children(schema: AnySchema): [string, AnySchema][] {
  const node: Readonly<Record<string, unknown>> = { ...schema };
  const out: [string, AnySchema][] = [];
  const entries = node['entries'];
  if (entries !== null && typeof entries === 'object')
    for (const [key, child] of Object.entries(entries)) out.push([`.${key}`, child as AnySchema]);
  if (node['type'] === 'array' && node['item'] !== undefined) out.push(['[]', node['item'] as AnySchema]);
  if (Array.isArray(node['items'])) {
    for (const [i, child] of (node['items'] as AnySchema[]).entries()) out.push([`[${i}]`, child]);
  }
  if (Array.isArray(node['options']) && node['type'] !== 'picklist' && node['type'] !== 'enum')
    for (const [i, child] of (node['options'] as AnySchema[]).entries()) out.push([` (option ${i + 1})`, child]);
  if (node['wrapped'] !== undefined) out.push(['', node['wrapped'] as AnySchema]);
  if (node['type'] === 'record' && node['value'] !== undefined) out.push(['[key]', node['value'] as AnySchema]);
  if (node['rest'] !== undefined && typeof node['rest'] === 'object') out.push(['[rest]', node['rest'] as AnySchema]);
  return out;
}

/** The deepest place under `schema` that does not convert, and the converter's message there. */
function locate(schema: AnySchema, path: string, error: Error, options: ConvertOptions, depth = 0): [string, Error] {
  if (depth > 64) return [path, error];
  for (const [step, child] of children(schema)) {
    const result = converted(child, options);
    if (result instanceof Error) return locate(child, `${path}${step}`, result, options, depth + 1);
  }
  return [path, error];
}

/**
 * The JSON Schema of a tool's input schema (the type the model sends: before any transform).
 *
 * @param toolName - The tool, for the error.
 * @param schema - Its input schema (valibot, or a Standard Schema with a Standard JSON Schema converter).
 * @param options - Actions to leave to run time.
 * @returns An object schema (`type: 'object'`), without `$schema`.
 * @throws TypeError naming the tool and the place in its schema: a part JSON Schema cannot
 *   express (`tool "send_email": input.to cannot be converted to JSON Schema: The "check" action
 *   cannot be converted to JSON Schema. ...`), a schema that is not an object (providers take an
 *   object of arguments), or a vendor with no JSON Schema converter.
 */
export function inputJsonSchema(
  toolName: string,
  schema: StandardSchemaV1,
  options: ConvertOptions = {},
): JsonSchemaObject {
  const where = `tool ${JSON.stringify(toolName)}`;
  let json: JsonSchemaObject;
  const standard = schema['~standard'];
  if (standard.vendor === 'valibot') {
    // biome-ignore lint/plugin: a Standard Schema whose vendor is valibot is a valibot schema
    const valibot = schema as unknown as AnySchema;
    const result = converted(valibot, options);
    if (result instanceof Error) {
      const [path, error] = locate(valibot, 'input', result, options);
      throw new TypeError(
        `${where}: ${path} cannot be converted to JSON Schema: ${error.message} (${WHAT_JSON_SCHEMA_CANNOT_EXPRESS}; ` +
          'to leave an action to run-time validation only, pass it in ignoreActions)',
      );
    }
    json = result;
  } else {
    const converter = (standard as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
    if (converter === undefined || typeof converter.input !== 'function') {
      throw new TypeError(
        `${where}: input is a ${standard.vendor} schema without a Standard JSON Schema converter (~standard.jsonSchema); use a valibot schema or one that has a converter`,
      );
    }
    try {
      json = converter.input({ target: 'draft-07' });
    } catch (error) {
      throw new TypeError(
        `${where}: input cannot be converted to JSON Schema by its ${standard.vendor} converter: ${String((error as Error)?.message ?? error)}`,
      );
    }
  }
  if (json['type'] !== 'object') {
    throw new TypeError(
      `${where}: input must be an object schema (providers take the arguments as one object), got JSON Schema type ${JSON.stringify(json['type'] ?? null)}`,
    );
  }
  const { $schema: _dropped, ...rest } = json;
  return rest;
}
