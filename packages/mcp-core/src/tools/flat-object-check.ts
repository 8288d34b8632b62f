import { isPlainObject } from '../messages/is-plain-object.ts';
import type { JsonObjectSchema } from './tool-input.ts';

/** Whether arguments certainly pass a schema; false means "ask the validator", not "invalid". */
export type FlatObjectCheck = (args: unknown) => boolean;

type PrimitiveType = 'string' | 'number' | 'integer' | 'boolean';

const rootKeywords = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  '$schema',
  'title',
  'description',
]);
const propertyKeywords = new Set(['type', 'title', 'description']);
const primitiveTypes = new Set<unknown>(['string', 'number', 'integer', 'boolean']);

function onlyKeywords(schema: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(schema)) if (!allowed.has(key)) return false;
  return true;
}

function hasType(value: unknown, type: PrimitiveType): boolean {
  if (type === 'integer') return Number.isInteger(value);
  return typeof value === type;
}

/**
 * The check of the most common tool input: an object whose properties are each
 * a string, number, integer or boolean, some required, perhaps no others. It
 * answers a call that passes without the JSON Schema validator, which for
 * such a schema spent more than the rest of an echo call's handling (about
 * 12% of its CPU and 1.7 KB of garbage, most of it JSON Pointers it built for
 * every property checked). It only ever says "passes"; anything else, and
 * every other schema, goes to the validator, so what a failing call is told
 * never changes. The rules are those of @cfworker/json-schema for these
 * keywords: own properties, `for…in` for additional ones, `integer` a whole
 * finite number. A property named like a member of Object.prototype leaves
 * the schema to the validator.
 */
export function flatObjectCheck(schema: JsonObjectSchema): FlatObjectCheck | undefined {
  const root = schema as Record<string, unknown>;
  if (root.type !== 'object' || !onlyKeywords(root, rootKeywords)) return undefined;
  const { properties = {}, required = [], additionalProperties } = root;
  if (!isPlainObject(properties) || !Array.isArray(required)) return undefined;
  if (additionalProperties !== undefined && typeof additionalProperties !== 'boolean') return undefined;
  const types = new Map<string, PrimitiveType>();
  for (const [name, property] of Object.entries(properties)) {
    if (name in Object.prototype || !isPlainObject(property) || !onlyKeywords(property, propertyKeywords)) {
      return undefined;
    }
    if (!primitiveTypes.has(property.type)) return undefined;
    types.set(name, property.type as PrimitiveType);
  }
  const requiredNames: string[] = [];
  for (const name of required) {
    if (typeof name !== 'string' || name in Object.prototype) return undefined;
    requiredNames.push(name);
  }
  const closed = additionalProperties === false;
  return (args) => {
    if (!isPlainObject(args)) return false;
    for (const name of requiredNames) if (!Object.hasOwn(args, name)) return false;
    for (const [name, type] of types) {
      if (Object.hasOwn(args, name) && !hasType(args[name], type)) return false;
    }
    if (closed) {
      for (const name in args) if (!types.has(name)) return false;
    }
    return true;
  };
}
