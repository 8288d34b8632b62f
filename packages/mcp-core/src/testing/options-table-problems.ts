import { readFileSync } from 'node:fs';
import type * as z from 'zod';
import { withOptionsTable } from '../cli/format-options-table.ts';
import type { ServerCli } from '../cli/server-cli.ts';

/**
 * What is wrong with a package README's options table: missing markers, or
 * a table that no longer matches the options schema. Empty when it matches.
 *
 * @example
 * expect(optionsTableProblems(sqlCli, new URL('../README.md', import.meta.url))).toEqual([]);
 */
export function optionsTableProblems<Schema extends z.ZodObject>(cli: ServerCli<Schema>, readme: URL): string[] {
  const text = readFileSync(readme, 'utf8');
  const updated = withOptionsTable(text, cli);
  if (updated === undefined) return [`${readme.pathname} has no options-table markers`];
  return updated === text ? [] : [`the options table in ${readme.pathname} is out of date: run pnpm docs:options`];
}
