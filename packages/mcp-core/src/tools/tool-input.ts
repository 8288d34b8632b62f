import type * as z from 'zod';
import { LocalError } from '../errors/local-error.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import { deriveJsonSchema } from './derive-json-schema.ts';
import { checkJsonSchemaArguments } from './json-schema-arguments.ts';
import {
  isStandardSchema,
  type StandardSchemaIssue,
  type StandardSchemaOutput,
  type StandardSchemaResult,
  type StandardSchemaV1,
} from './standard-schema.ts';
import { checkToolJsonSchema, isZodObject, toToolJsonSchema } from './tool-json-schema.ts';

/** A JSON Schema (2020-12 unless its `$schema` says otherwise) of the object a tool takes. */
export interface JsonObjectSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: readonly string[];
  [keyword: string]: unknown;
}

/**
 * What a tool's arguments are checked with: a zod object schema, any Standard
 * Schema validator (valibot, ArkType, …), or a JSON Schema object, which
 * needs no schema library at all.
 */
export type ToolInputSchema = z.ZodObject | StandardSchemaV1 | JsonObjectSchema;

/** The arguments `run` gets: the schema's output; with a JSON Schema, the arguments object as sent. */
export type ToolArguments<Input extends ToolInputSchema> = Input extends z.ZodObject
  ? z.output<Input>
  : Input extends StandardSchemaV1
    ? StandardSchemaOutput<Input>
    : Record<string, unknown>;

/** One thing wrong with a call's arguments: where, and what. */
export interface ArgumentIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** What checking a call's arguments found: the arguments as the tool gets them, or what is wrong. */
export type ArgumentCheck =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly issues: readonly ArgumentIssue[] };

function isJsonObjectSchema(value: unknown): value is JsonObjectSchema {
  return isPlainObject(value) && value.type === 'object' && !isStandardSchema(value);
}

/** A Standard Schema from another library: zod's schemas are one too, but a zod input must be an object. */
function isForeignStandardSchema(value: unknown): value is StandardSchemaV1 {
  return isStandardSchema(value) && (value as { _zod?: unknown })._zod === undefined;
}

/** Whether a value can be a tool's input: a zod object, a Standard Schema, or an object's JSON Schema. */
export function isToolInputSchema(value: unknown): value is ToolInputSchema {
  return isZodObject(value) || isForeignStandardSchema(value) || isJsonObjectSchema(value);
}

/** The `inputSchema` clients see for a tool's input, checked for what clients reject. */
export function toolInputJsonSchema(input: unknown, where: string): Record<string, unknown> {
  if (isZodObject(input)) return toToolJsonSchema(input, 'input', where);
  if (isJsonObjectSchema(input)) return checkToolJsonSchema(structuredClone(input), where);
  if (isForeignStandardSchema(input)) {
    const convert = input['~standard'].jsonSchema?.input;
    if (convert === undefined) {
      throw new LocalError(
        'tool_definition_invalid',
        `${where} is a Standard Schema that derives no JSON Schema; give the tool's inputSchema as advertisedInputSchema`,
      );
    }
    const jsonSchema = deriveJsonSchema(() => convert({ target: 'draft-2020-12' }), where);
    if (jsonSchema.type !== 'object') {
      throw new LocalError('tool_definition_invalid', `${where} must describe an object`);
    }
    return checkToolJsonSchema(jsonSchema, where);
  }
  throw new LocalError(
    'tool_definition_invalid',
    `${where} must be a zod object schema (z.object({...})), a Standard Schema, or a JSON Schema with type "object"`,
  );
}

function pathOf(path: StandardSchemaIssue['path']): PropertyKey[] {
  return (path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment));
}

function standardCheck(result: StandardSchemaResult<unknown>): ArgumentCheck {
  if (result.issues === undefined) return { ok: true, value: result.value as Record<string, unknown> };
  return { ok: false, issues: result.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message })) };
}

/**
 * Checks a call's arguments against a tool's input. Synchronous for zod and
 * for a JSON Schema once its validator is built; a Standard Schema may
 * answer asynchronously.
 */
export function checkArguments(input: ToolInputSchema, args: unknown): ArgumentCheck | Promise<ArgumentCheck> {
  if (isZodObject(input)) {
    const parsed = input.safeParse(args);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: parsed.error.issues };
  }
  if (isStandardSchema(input)) {
    const result = input['~standard'].validate(args);
    return result instanceof Promise ? result.then(standardCheck) : standardCheck(result);
  }
  return checkJsonSchemaArguments(input, args);
}
