import * as z from 'zod';
import { LocalError } from '../errors/local-error.ts';
import { closestName } from './closest-name.ts';

type Path = readonly PropertyKey[];

/** A schema without its optional, default, nullable and readonly wrappers; a union's object member. */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  for (let depth = 0; current !== undefined && depth < 10; depth++) {
    const def = (current as { _zod: { def: { innerType?: unknown; options?: unknown } } })._zod.def;
    if (def.innerType instanceof z.ZodType) current = def.innerType;
    else if (Array.isArray(def.options)) {
      current = def.options
        .map((option) => unwrap(option as z.ZodType))
        .find((option) => option instanceof z.ZodObject);
    } else break;
  }
  return current;
}

/** The object schema found at a path, through wrappers, unions and arrays. */
function objectAt(schema: z.ZodType, path: Path): z.ZodObject | undefined {
  let current = unwrap(schema);
  for (const key of path) {
    if (current instanceof z.ZodObject) current = unwrap(current.shape[String(key)] as z.ZodType | undefined);
    else if (current instanceof z.ZodArray) current = unwrap(current.element as z.ZodType);
    else return undefined;
  }
  return current instanceof z.ZodObject ? current : undefined;
}

function describePath(path: Path): string {
  return path.length === 0 ? 'the top level' : path.map(String).join('.');
}

/**
 * Checks a server's options against its strict schema. Any mistake is one
 * `config_invalid` error naming where it is — an unknown key with the closest
 * valid name, so a typo such as `maxRowz` is refused, never silently ignored.
 *
 * @example
 * const options = parseOptions(sqlServerOptions, input, '@toolshed/server-sql options');
 */
export function parseOptions<Schema extends z.ZodType>(schema: Schema, input: unknown, what: string): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const valid = Object.keys(objectAt(schema, issue.path)?.shape ?? {});
      return issue.keys
        .map((key) => {
          const suggestion = closestName(key, valid);
          const at = describePath([...issue.path, key]);
          return `unknown option "${key}" at ${at}${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`}`;
        })
        .join('; ');
    }
    return `${describePath(issue.path)}: ${issue.message}`;
  });
  throw new LocalError('config_invalid', `${what}: ${problems.join('; ')}`);
}
