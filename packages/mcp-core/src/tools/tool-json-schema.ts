import type * as z from 'zod';
import { LocalError } from '../errors/local-error.ts';
import { deriveJsonSchema } from './derive-json-schema.ts';
import { toPortableJsonSchema } from './portable-json-schema.ts';

/** Whether a value is a zod v4 object schema, from any copy of zod. */
export function isZodObject(value: unknown): value is z.ZodObject {
  const def = (value as { _zod?: { def?: { type?: unknown } } } | undefined)?._zod?.def;
  return def?.type === 'object';
}

/** Where the first `$ref` is: a JSON pointer to the object that holds it, '' for the root itself. */
function findRef(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index += 1) {
      const found = findRef(node[index]);
      if (found !== undefined) return `/${index}${found}`;
    }
    return undefined;
  }
  // The pointer is spelt on the way back from a find only: most schemas have no $ref at all.
  for (const key of Object.keys(node)) {
    if (key === '$ref') return '';
    const found = findRef((node as Record<string, unknown>)[key]);
    if (found !== undefined) return `/${key}${found}`;
  }
  return undefined;
}

/**
 * Turns a tool's zod object schema into the JSON Schema 2020-12 that clients
 * see, in its most portable form (see toPortableJsonSchema), refusing shapes
 * that clients in the field reject: `$ref` (recursive or shared schemas), and
 * `oneOf`/`anyOf`/`allOf` at the top level.
 */
export function toToolJsonSchema(schema: unknown, io: 'input' | 'output', where: string): Record<string, unknown> {
  if (!isZodObject(schema)) {
    throw new LocalError('tool_definition_invalid', `${where} must be a zod object schema (z.object({...}))`);
  }
  if (typeof schema.toJSONSchema !== 'function') {
    throw new LocalError('tool_definition_invalid', `${where} comes from a zod older than 4.6; upgrade zod`);
  }
  const jsonSchema = deriveJsonSchema(
    // The schema's own method, not zod's module: the engine never imports zod, so a server without it never loads it.
    () => schema.toJSONSchema({ target: 'draft-2020-12', io, reused: 'inline' }) as Record<string, unknown>,
    where,
  );
  return checkToolJsonSchema(toPortableJsonSchema(jsonSchema, io), where);
}

/**
 * Refuses what clients in the field reject in a tool's JSON Schema: `$ref`
 * (recursive or shared schemas), and `oneOf`/`anyOf`/`allOf` at the top level.
 */
export function checkToolJsonSchema(jsonSchema: Record<string, unknown>, where: string): Record<string, unknown> {
  const refPath = findRef(jsonSchema);
  if (refPath !== undefined) {
    throw new LocalError(
      'tool_definition_invalid',
      `${where} has a $ref at "${refPath || '/'}" (a recursive schema); clients cannot resolve it. Inline the shape.`,
    );
  }
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
    if (keyword in jsonSchema) {
      throw new LocalError('tool_definition_invalid', `${where} has ${keyword} at the top level; clients reject it.`);
    }
  }
  return jsonSchema;
}
