/**
 * One tool definition, every provider's declaration: the registry's tools as name, description
 * and JSON Schema parameters, which each adapter wraps in its SDK's shape. Internal.
 *
 * @module
 */
import { sortUtf8 } from '../../canonical/index.ts';
import type { ToolDefinitionsOf, ToolRegistry } from '../../typestate/index.ts';
import { registryDefinitions } from '../../typestate/internal.ts';
import { inputJsonSchema, type ConvertOptions, type JsonSchemaObject } from './json-schema.ts';

/** A tool as every provider declares it: name, description, parameters (an object JSON Schema). */
export interface ToolSchema {
  readonly name: string;
  readonly description: string | undefined;
  readonly parameters: JsonSchemaObject;
}

/**
 * Options of the declarations (every adapter's `toolDeclarations` and `toolLoop` take them).
 *
 * @example
 * ```ts
 * import type { DeclarationOptions } from 'turngate/adapters';
 * const options: DeclarationOptions = { ignoreActions: ['check'] };
 * ```
 */
export interface DeclarationOptions extends ConvertOptions {}

/**
 * The registry's tools (in the registry's name order) as name, description (the definition's
 * `description`) and parameters (its input schema as JSON Schema).
 *
 * @throws TypeError naming the tool and the place in its schema when an input schema cannot be
 *   converted, or when `tools` is not a registry made by `defineTools`.
 */
export function toolSchemas<TTools extends ToolDefinitionsOf<TTools>>(
  tools: ToolRegistry<TTools>,
  options: DeclarationOptions = {},
): ToolSchema[] {
  const definitions = registryDefinitions(tools);
  return sortUtf8(Object.keys(definitions)).map((name) => {
    const definition = definitions[name];
    if (definition === undefined) throw new TypeError(`tool ${JSON.stringify(name)} is not in the registry`);
    return {
      name,
      description: definition.description,
      parameters: inputJsonSchema(name, definition.input, options),
    };
  });
}

/** `{ description }` when there is one (for exact optional properties). */
export function describedBy(schema: ToolSchema): { description?: string } {
  return schema.description === undefined ? {} : { description: schema.description };
}
