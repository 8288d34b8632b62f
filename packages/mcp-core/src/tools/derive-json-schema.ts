import { LocalError } from '../errors/local-error.ts';

/**
 * Runs a schema library's JSON Schema conversion for a tool's schema: a
 * schema it cannot express (a transform, a custom check) is a fault of the
 * tool's definition, named where it is. The result is a copy without
 * `$schema`: 2020-12 is the default dialect of MCP tool schemas, and leaving
 * it out keeps tool lists small.
 */
export function deriveJsonSchema(derive: () => Record<string, unknown>, where: string): Record<string, unknown> {
  let derived: Record<string, unknown>;
  try {
    derived = derive();
  } catch (error) {
    throw new LocalError(
      'tool_definition_invalid',
      `${where} cannot be expressed as JSON Schema: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const { $schema: _dialect, ...jsonSchema } = derived;
  return jsonSchema;
}
