import { closestName } from '@toolshed/mcp-core';
import * as z from 'zod';

function quoted(names: readonly PropertyKey[]): string {
  return names.map((name) => `"${String(name)}"`).join(', ');
}

/**
 * A tool's arguments, or an object inside them: a strict object, so a key the
 * tool does not know is refused by name instead of dropped. Dropped, it would
 * change what a call does without a word — `write_file` given `mode: "append"`
 * would replace the file the caller meant to append to.
 *
 * @example
 * input: () => toolArguments({ path: pathArgument(), content: z.string() }),
 */
export function toolArguments<Shape extends z.ZodRawShape>(shape: Shape): z.ZodObject<Shape, z.core.$strict> {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error(issue) {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const suggestions = issue.keys
        .map((key) => [key, closestName(key, known)] as const)
        .filter((pair): pair is readonly [string, string] => pair[1] !== undefined)
        .map(([key, meant]) => `"${meant}" for "${key}"`);
      const accepted =
        known.length === 0
          ? 'no keys are accepted'
          : `only ${quoted(known)} ${known.length === 1 ? 'is' : 'are'} accepted`;
      const perhaps = suggestions.length === 0 ? '' : ` (perhaps ${suggestions.join(', ')})`;
      return `Unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${quoted(issue.keys)}: ${accepted}${perhaps}`;
    },
  });
}
