import type * as z from 'zod';
import { LocalError } from '../errors/local-error.ts';
import { closestName } from './closest-name.ts';
import { isZodKind } from './zod-kind.ts';

type Path = readonly PropertyKey[];

/** A schema without its optional, default, nullable and readonly wrappers; a union's object member. */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  for (let depth = 0; current !== undefined && depth < 10; depth++) {
    const def = (current as { _zod: { def: { innerType?: unknown; options?: unknown } } })._zod.def;
    if (isZodKind(def.innerType, 'ZodType')) current = def.innerType;
    else if (Array.isArray(def.options)) {
      current = def.options
        .map((option) => unwrap(option as z.ZodType))
        .find((option) => isZodKind(option, 'ZodObject'));
    } else break;
  }
  return current;
}

/** The object schema found at a path, through wrappers, unions and arrays. */
function objectAt(schema: z.ZodType, path: Path): z.ZodObject | undefined {
  let current = unwrap(schema);
  for (const key of path) {
    if (isZodKind(current, 'ZodObject')) current = unwrap(current.shape[String(key)] as z.ZodType | undefined);
    else if (isZodKind(current, 'ZodArray')) current = unwrap(current.element as z.ZodType);
    else return undefined;
  }
  return isZodKind(current, 'ZodObject') ? current : undefined;
}

/** Every key path inside an object schema: `limits.maxRows` and the like. */
function keyPaths(schema: z.ZodObject, prefix: readonly string[] = []): string[][] {
  return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, child]) => {
    const inner = unwrap(child);
    const path = [...prefix, key];
    return isZodKind(inner, 'ZodObject') && prefix.length < 4 ? [path, ...keyPaths(inner, path)] : [path];
  });
}

/** The valid name a misspelt key meant: a sibling, or failing that the same name elsewhere, such as in `limits`. */
function suggestionFor(schema: z.ZodType, path: Path, key: string): string | undefined {
  const sibling = closestName(key, Object.keys(objectAt(schema, path)?.shape ?? {}));
  if (sibling !== undefined) return sibling;
  const root = unwrap(schema);
  if (!isZodKind(root, 'ZodObject')) return undefined;
  const elsewhere = keyPaths(root).filter((candidate) => candidate.length > 1);
  const leaf = closestName(
    key,
    elsewhere.map((candidate) => candidate[candidate.length - 1] ?? ''),
  );
  return elsewhere.find((candidate) => candidate[candidate.length - 1] === leaf)?.join('.');
}

/**
 * A union's failure as the failure of the one member the value was meant for
 * (the only one whose type it has), so that a mistake deep inside an object
 * given where a string would also do is named, not reported as "Invalid input".
 */
function intendedIssues(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const meant = issue.errors.filter(
    (branch) => !branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0),
  );
  if (meant.length !== 1) return [issue];
  return (meant[0] ?? []).flatMap((inner) =>
    intendedIssues({ ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue),
  );
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
export function parseOptions<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  what: string,
  /** How a path is named in the message; a bin names the flag instead (`--max-rows`). */
  describe: (path: Path) => string = describePath,
): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .flatMap(intendedIssues)
    .slice(0, 5)
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return issue.keys
          .map((key) => {
            const suggestion = suggestionFor(schema, issue.path, key);
            const at = describe([...issue.path, key]);
            return `unknown option "${key}" at ${at}${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`}`;
          })
          .join('; ');
      }
      return `${describe(issue.path)}: ${issue.message}`;
    });
  throw new LocalError('config_invalid', `${what}: ${problems.join('; ')}`);
}
