import type * as z from 'zod';
import { LocalError } from '../errors/local-error.ts';
import { type OptionField, optionFields } from '../options/option-fields.ts';
import { parseOptions } from '../options/parse-options.ts';
import type { CliOptionSpec, CliSpec } from './cli-spec.ts';
import { environmentValue } from './environment-value.ts';
import { httpCliOptions } from './http-cli-options.ts';

/** Turns a flag's text (or texts, for a list) into the option's value: `NAME=PATH` pairs into a map, say. */
export interface OptionReader {
  type: 'string' | 'list';
  read(value: string | string[]): unknown;
}

export interface ServerCliDefinition<Schema extends z.ZodObject> {
  /** The bin's name, as typed. */
  name: string;
  version: string;
  /** One line: what the bin serves. */
  summary: string;
  /** The server's strict options schema: flags, environment twins, --help and the README table come from it. */
  options: Schema;
  /** Environment twins are this prefix and the flag in upper snake case: `TOOLSHED_SQL` → `TOOLSHED_SQL_MAX_ROWS`. */
  envPrefix: string;
  /** How the command line writes options the schema cannot say by itself, by path (`databases`). */
  readers?: Readonly<Record<string, OptionReader>>;
  /** Arguments that are not flags, added to a list option: `toolshed-filesystem ~/notes ~/code`. */
  operands?: { option: string; placeholder: string; description: string };
  examples?: readonly string[];
}

/** A server's bin, derived from its options schema: what `runServerCli` runs and the README documents. */
export interface ServerCli<Schema extends z.ZodObject> {
  definition: ServerCliDefinition<Schema>;
  /** The command-line view: the server's flags and the shared HTTP flags. */
  spec: CliSpec;
  /** Every option, with or without a flag. */
  fields: readonly OptionField[];
}

/** `max-rows` → `maxRows`, the key the command-line parser uses. */
function camelCase(flag: string): string {
  return flag.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function commandLineOption(field: OptionField & { type: NonNullable<OptionField['type']> }): CliOptionSpec {
  const option: CliOptionSpec = { type: field.type, description: field.description };
  if (field.env !== undefined) option.env = field.env;
  if (field.placeholder !== undefined) option.placeholder = field.placeholder;
  if (field.required) option.required = true;
  const shown = field.defaultValue;
  // `--no-ad-hoc` is off until given, whatever the option's own default.
  if (field.negated) return option;
  if (typeof shown === 'string' || typeof shown === 'number' || typeof shown === 'boolean') option.default = shown;
  return option;
}

/**
 * Declares a server's bin from its options schema, so the flags, their
 * environment twins, --help and the README's options table cannot drift from
 * what the server accepts.
 *
 * @example
 * export const sqlCli = defineServerCli({
 *   name: 'toolshed-sql', version: '1.0.0', summary: 'Read-only SQL', options: sqlServerOptions, envPrefix: 'TOOLSHED_SQL',
 *   readers: { databases: { type: 'list', read: parseDatabaseSpecs } },
 * });
 */
export function defineServerCli<Schema extends z.ZodObject>(
  definition: ServerCliDefinition<Schema>,
): ServerCli<Schema> {
  const readers = definition.readers ?? {};
  const types = Object.fromEntries(Object.entries(readers).map(([path, reader]) => [path, reader.type]));
  const fields = optionFields(definition.options, definition.envPrefix, types);
  const options: Record<string, CliOptionSpec> = {};
  const environment: { name: string; description: string }[] = [];
  for (const field of fields) {
    if (field.flag !== undefined && field.type !== undefined) {
      const key = camelCase(field.flag);
      if (options[key] !== undefined) throw new Error(`${definition.name}: two options share --${field.flag}`);
      const option = commandLineOption({ ...field, type: field.type });
      // Operands can stand in for a required list, so the flag itself is not required.
      if (definition.operands?.option === field.path.join('.')) delete option.required;
      options[key] = option;
    } else if (field.env !== undefined) {
      environment.push({ name: field.env, description: field.description });
    }
  }
  const spec: CliSpec = {
    name: definition.name,
    version: definition.version,
    summary: definition.summary,
    options: { ...options, ...httpCliOptions },
  };
  if (environment.length > 0) spec.environment = environment;
  if (definition.operands !== undefined) {
    spec.operands = { placeholder: definition.operands.placeholder, description: definition.operands.description };
  }
  if (definition.examples !== undefined) spec.examples = definition.examples;
  return { definition, spec, fields };
}

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
    else {
      const created: Record<string, unknown> = {};
      node[key] = created;
      node = created;
    }
  }
  node[path[path.length - 1] as string] = value;
}

/**
 * The server's options from parsed command-line values, operands and the
 * environment-only options, checked against the schema; a mistake names the
 * flag to fix.
 *
 * @example
 * const options = serverOptionsFromCli(sqlCli, { db: ['./app.db'], maxRows: 50 }, [], process.env);
 */
export function serverOptionsFromCli<Schema extends z.ZodObject>(
  cli: ServerCli<Schema>,
  values: Readonly<Record<string, unknown>>,
  operands: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): z.output<Schema> {
  const { definition } = cli;
  const input: Record<string, unknown> = {};
  const flagsByPath = new Map<string, string>();
  for (const field of cli.fields) {
    const path = field.path.join('.');
    let value: unknown;
    if (field.flag !== undefined) {
      flagsByPath.set(path, `--${field.flag}`);
      value = values[camelCase(field.flag)];
      if (definition.operands?.option === path) value = [...operands, ...((value as string[] | undefined) ?? [])];
    } else if (field.env !== undefined) {
      flagsByPath.set(path, field.env);
      value = environmentValue(env, field.env);
    }
    if (value === undefined) continue;
    if (field.negated && typeof value === 'boolean') value = !value;
    const reader = definition.readers?.[path];
    setAt(input, field.path, reader === undefined ? value : reader.read(value as string | string[]));
  }
  try {
    return parseOptions(definition.options, input, 'options', (issuePath) => {
      const dotted = issuePath.map(String).join('.');
      return flagsByPath.get(dotted) ?? dotted;
    });
  } catch (error) {
    if (!LocalError.isInstance(error)) throw error;
    throw new LocalError('config_invalid', error.message.replace(/^options: /, ''));
  }
}
