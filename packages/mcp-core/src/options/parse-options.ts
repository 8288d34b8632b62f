import * as z from 'zod';
import { LocalError } from '../errors/local-error.ts';
import { closestName } from './closest-name.ts';

type Path = readonly PropertyKey[];

/** The object schema found at a path, through optional, default and nullable wrappers. */
function objectAt(schema: z.ZodType, path: Path): z.ZodObject | undefined {
  let current: z.ZodType | undefined = schema;
  for (const key of [...path, undefined]) {
    while (current !== undefined && !(current instanceof z.ZodObject)) {
      const inner: unknown = (current as { _zod: { def: { innerType?: unknown } } })._zod.def.innerType;
      current = inner instanceof z.ZodType ? inner : undefined;
    }
    if (current === undefined || key === undefined) break;
    current = current.shape[String(key)] as z.ZodType | undefined;
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
