import { QueryFailure } from './query-failure.ts';

/**
 * The answer to a table name that does not exist, on every engine: the
 * closest names when there are any, else the first tables, and where to find
 * them all.
 */
export function unknownTable(wanted: string, names: readonly string[], near: readonly string[]): QueryFailure {
  const suggestion =
    near.length > 0
      ? `Did you mean ${near.map((name) => `"${name}"`).join(', ')}?`
      : `Tables and views: ${names.slice(0, 50).join(', ') || '(none)'}.`;
  return new QueryFailure(
    'unknown_table',
    `No table or view named "${wanted}". ${suggestion} list_tables lists them all.`,
  );
}
