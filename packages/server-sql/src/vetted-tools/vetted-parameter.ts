import * as z from 'zod';
import type { SqlParameter } from '../query-messages.ts';
import type { SqlEngineKind } from '../sql-engine.ts';
import type { ParameterDefinition, ScalarType } from './vetted-tools-file.ts';

/** Items an array parameter takes when the file sets no `maxItems`: checked, not advertised. */
const defaultMaxItems = 1000;
/** Characters a string parameter takes when the file sets no `maxLength`: checked, not advertised. */
const defaultMaxLength = 10_000;

const typeWords: Record<ScalarType, [one: string, many: string]> = {
  string: ['a string', 'strings'],
  integer: ['an integer', 'integers'],
  number: ['a number', 'numbers'],
  boolean: ['true or false', 'true/false values'],
  date: ['a date as YYYY-MM-DD', 'dates as YYYY-MM-DD'],
  timestamp: ['a timestamp as ISO 8601 (2026-11-25T14:30:00Z)', 'ISO 8601 timestamps'],
};

/** A value as the model sent it, short, with its JSON type: what came, in an error the model can act on. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return `${text.length > 60 ? `${text.slice(0, 57)}…` : text} (${kind})`;
}

function allowedValues(parameter: ParameterDefinition): readonly (string | number | boolean)[] | undefined {
  return parameter.enum ?? parameter.allowedValues;
}

/** What one value (or each item) must be, in words: `an integer from 1 to 100`. */
function expectedItem(parameter: ParameterDefinition, type: ScalarType, plural: boolean): string {
  const values = allowedValues(parameter);
  if (values !== undefined)
    return `${plural ? 'each ' : ''}one of ${values.map((value) => JSON.stringify(value)).join(', ')}`;
  let words = typeWords[type][plural ? 1 : 0];
  const { min, max } = parameter;
  if (min !== undefined && max !== undefined) words += ` from ${min} to ${max}`;
  else if (min !== undefined) words += ` of at least ${min}`;
  else if (max !== undefined) words += ` of at most ${max}`;
  if (parameter.pattern !== undefined) words += ` matching /${parameter.pattern}/`;
  if (parameter.maxLength !== undefined) words += ` of at most ${parameter.maxLength} characters`;
  return words;
}

/** What the parameter must be, in words, for its errors. */
export function expectedValue(parameter: ParameterDefinition): string {
  if (parameter.type !== 'array') return expectedItem(parameter, parameter.type, false);
  const items = parameter.items as ScalarType;
  const most = parameter.maxItems === undefined ? '' : ` (at most ${parameter.maxItems})`;
  return `an array of ${expectedItem(parameter, items, true)}${most}`;
}

function itemSchema(parameter: ParameterDefinition, type: ScalarType, error: z.core.$ZodErrorMap): z.ZodType {
  const values = allowedValues(parameter);
  if (values !== undefined) return z.literal(values as [string, ...string[]], { error });
  switch (type) {
    case 'string': {
      let schema = z.string({ error }).max(parameter.maxLength ?? defaultMaxLength, { error });
      // The pattern was compiled when the file was read, so it is valid here.
      if (parameter.pattern !== undefined) schema = schema.regex(new RegExp(parameter.pattern, 'u'), { error });
      return schema;
    }
    case 'integer':
    case 'number': {
      let schema = type === 'integer' ? z.int({ error }) : z.number({ error });
      if (parameter.min !== undefined) schema = schema.min(parameter.min, { error });
      if (parameter.max !== undefined) schema = schema.max(parameter.max, { error });
      return schema;
    }
    case 'boolean':
      return z.boolean({ error });
    case 'date':
      return z.iso.date({ error });
    case 'timestamp':
      return z.iso.datetime({ offset: true, local: true, error });
  }
}

/**
 * How a parameter's value is checked: its type and every constraint of the
 * file, with errors that name what was expected and what came.
 */
export function parameterSchema(parameter: ParameterDefinition): z.ZodType {
  const expected = expectedValue(parameter);
  const error: z.core.$ZodErrorMap = (issue) => `expected ${expected}; got ${shown(issue.input)}`;
  if (parameter.type !== 'array') return itemSchema(parameter, parameter.type, error);
  const itemError: z.core.$ZodErrorMap = (issue) =>
    `expected ${expectedItem(parameter, parameter.items as ScalarType, false)}; got ${shown(issue.input)}`;
  return z
    .array(itemSchema(parameter, parameter.items as ScalarType, itemError), { error })
    .max(parameter.maxItems ?? defaultMaxItems, { error });
}

function itemJsonSchema(parameter: ParameterDefinition, type: ScalarType): Record<string, unknown> {
  const values = allowedValues(parameter);
  const schema: Record<string, unknown> = {
    type: type === 'date' || type === 'timestamp' ? 'string' : type,
  };
  if (type === 'date') schema.format = 'date';
  if (type === 'timestamp') schema.format = 'date-time';
  if (values !== undefined) schema.enum = values;
  if (parameter.min !== undefined) schema.minimum = parameter.min;
  if (parameter.max !== undefined) schema.maximum = parameter.max;
  if (parameter.pattern !== undefined) schema.pattern = parameter.pattern;
  if (parameter.maxLength !== undefined) schema.maxLength = parameter.maxLength;
  return schema;
}

/** The parameter as the model sees it in the tool's input schema: exactly the file's constraints, nothing more. */
export function parameterJsonSchema(parameter: ParameterDefinition): Record<string, unknown> {
  const schema: Record<string, unknown> =
    parameter.type === 'array'
      ? { type: 'array', items: itemJsonSchema(parameter, parameter.items as ScalarType) }
      : itemJsonSchema(parameter, parameter.type);
  if (parameter.type === 'array' && parameter.maxItems !== undefined) schema.maxItems = parameter.maxItems;
  if (parameter.description !== undefined) schema.description = parameter.description;
  if (parameter.default !== undefined) schema.default = parameter.default;
  return schema;
}

/** A PostgreSQL array literal of checked scalars: each item quoted, `"` and `\` escaped, as the array input syntax says. */
function postgresArrayLiteral(items: readonly unknown[]): string {
  const quoted = items.map((item) =>
    item === null ? 'NULL' : `"${String(item).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
  );
  return `{${quoted.join(',')}}`;
}

/**
 * A timestamp as MySQL and MariaDB read it: `YYYY-MM-DD HH:MM:SS[.ffffff]`.
 * One with an offset is an instant, written in UTC, the time zone every
 * call's session runs in.
 */
function mysqlTimestamp(value: string): string {
  const offset = /(?:Z|[+-]\d\d:\d\d)$/i.exec(value);
  if (offset === null) return value.replace('T', ' ');
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  const utc = new Date(value).toISOString().slice(0, 19).replace('T', ' ');
  return fraction === '' ? utc : `${utc}.${fraction.slice(0, 6)}`;
}

/**
 * A checked value as the engine's driver binds it. Arrays are one value:
 * a PostgreSQL array (`= ANY(:ids)`), or JSON text on SQLite
 * (`IN (SELECT value FROM json_each(:ids))`) and MySQL/MariaDB
 * (`JSON_CONTAINS(:ids, CAST(id AS CHAR))`).
 */
export function boundValue(parameter: ParameterDefinition, value: unknown, engine: SqlEngineKind): SqlParameter {
  if (value === undefined || value === null) return null;
  if (parameter.type === 'array') {
    const items = value as unknown[];
    return engine === 'postgres' ? postgresArrayLiteral(items) : JSON.stringify(items);
  }
  if (parameter.type === 'timestamp' && engine === 'mysql') return mysqlTimestamp(value as string);
  return value as SqlParameter;
}

/** The claim a parameter is bound to (`from: claim.tenant_id` → `tenant_id`), if it is. */
export function claimName(parameter: ParameterDefinition): string | undefined {
  return parameter.from?.slice('claim.'.length);
}
