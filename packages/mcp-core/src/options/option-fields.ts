import type * as z from 'zod';
import { type OptionMeta, unwrapOption } from './option-meta.ts';
import { isZodKind } from './zod-kind.ts';

/** One leaf of a server's options, as the command line, the environment and the README see it. */
export interface OptionField {
  /** Where the value sits in the options object: `['limits', 'maxRows']`. */
  path: string[];
  /** How the command line spells it; `undefined` when only a library caller can give it. */
  type: 'string' | 'number' | 'boolean' | 'list' | undefined;
  /** The flag without `--`, such as `max-rows`; `undefined` when there is none. */
  flag: string | undefined;
  /** The environment twin; `undefined` when there is none. */
  env: string | undefined;
  description: string;
  placeholder: string | undefined;
  defaultValue: unknown;
  /** True when the options are incomplete without it. */
  required: boolean;
  /** The values an enum accepts. */
  choices: readonly string[] | undefined;
  /**
   * A boolean that defaults to true, turned off by its flag: `--no-ad-hoc`
   * (or its environment twin set to true) sets `adHoc` to false.
   */
  negated: boolean;
}

/** `maxRows` → `max-rows`. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function commandLineType(inner: z.ZodType): Pick<OptionField, 'type' | 'choices'> {
  if (isZodKind(inner, 'ZodEnum')) return { type: 'string', choices: inner.options.map(String) };
  if (isZodKind(inner, 'ZodString')) return { type: 'string', choices: undefined };
  if (isZodKind(inner, 'ZodNumber')) return { type: 'number', choices: undefined };
  if (isZodKind(inner, 'ZodBoolean')) return { type: 'boolean', choices: undefined };
  if (isZodKind(inner, 'ZodArray')) {
    const element = unwrapOption(inner.element as z.ZodType).inner;
    const members = isZodKind(element, 'ZodUnion') ? (element.options as z.ZodType[]) : [element];
    // A list of strings, or of things one of which may be written as a string (a directory or its grant).
    if (members.some((member) => isZodKind(member, 'ZodString') || isZodKind(member, 'ZodEnum'))) {
      return { type: 'list', choices: undefined };
    }
  }
  return { type: undefined, choices: undefined };
}

/**
 * Every leaf of an options schema with its flag, environment twin, default
 * and description: what the bin parses and what --help and the README show.
 * Nested objects are groups: their flags carry the group's prefix (`smtp` →
 * `--smtp-host`) unless the group's meta sets another (`limits` sets none).
 *
 * @example
 * optionFields(sqlServerOptions, 'TOOLSHED_SQL') // [{ path: ['limits', 'maxRows'], flag: 'max-rows', env: 'TOOLSHED_SQL_MAX_ROWS', … }]
 */
export function optionFields(
  schema: z.ZodObject,
  envPrefix: string,
  /** Command-line forms for options the schema alone cannot give one (a union of a path and a map, say), by path. */
  commandLineTypes: Readonly<Record<string, 'string' | 'list'>> = {},
): OptionField[] {
  const fields: OptionField[] = [];
  const visit = (object: z.ZodObject, path: string[], flagPrefix: string, required: boolean): void => {
    for (const [key, child] of Object.entries(object.shape as Record<string, z.ZodType>)) {
      const { inner, meta, defaultValue, optional } = unwrapOption(child);
      if (isZodKind(inner, 'ZodObject')) {
        const prefix = meta.flagPrefix ?? kebabCase(key);
        visit(
          inner,
          [...path, key],
          flagPrefix === '' ? prefix : prefix === '' ? flagPrefix : `${flagPrefix}-${prefix}`,
          required && !optional,
        );
        continue;
      }
      const leafPath = [...path, key];
      const given = commandLineTypes[leafPath.join('.')];
      const form = given === undefined ? commandLineType(inner) : { type: given, choices: undefined };
      fields.push(leafField(meta, leafPath, flagPrefix, envPrefix, form, defaultValue, required && !optional));
    }
  };
  visit(schema, [], '', true);
  return fields;
}

function leafField(
  meta: OptionMeta,
  path: string[],
  flagPrefix: string,
  envPrefix: string,
  { type, choices }: Pick<OptionField, 'type' | 'choices'>,
  defaultValue: unknown,
  required: boolean,
): OptionField {
  const key = path[path.length - 1] ?? '';
  const flag =
    meta.flag === false || type === undefined
      ? undefined
      : (meta.flag ?? (flagPrefix === '' ? kebabCase(key) : `${flagPrefix}-${kebabCase(key)}`));
  const env =
    meta.env === false
      ? undefined
      : (meta.env ?? (flag === undefined ? undefined : `${envPrefix}_${flag.replaceAll('-', '_').toUpperCase()}`));
  return {
    path,
    type,
    flag,
    env,
    negated: type === 'boolean' && defaultValue === true && flag?.startsWith('no-') === true,
    description: meta.description ?? '',
    placeholder: meta.placeholder ?? (choices === undefined ? undefined : choices.join('|')),
    defaultValue,
    required,
    choices,
  };
}
