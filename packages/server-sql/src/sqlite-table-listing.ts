import type Database from 'better-sqlite3';
import { namePattern } from './name-pattern.ts';
import type { ListedTable, TableListing } from './query-messages.ts';
import { columnCount, type SchemaObject, schemaObjects } from './schema-introspection.ts';

/** The names of a table's columns (hidden ones of virtual tables left out); none for a view that cannot be resolved. */
function columnNames(connection: Database.Database, table: string): string[] {
  try {
    return connection
      .prepare('SELECT name FROM pragma_table_xinfo(?) WHERE hidden IN (0, 2, 3) ORDER BY cid')
      .pluck()
      .all(table) as string[];
  } catch {
    return [];
  }
}

/**
 * Row estimates from `sqlite_stat1`, which ANALYZE writes: the first number
 * of each entry is the rows of the table (or of one of its indexes, which has
 * as many). SQLite keeps no estimate otherwise, and a count would read every
 * table whole, so a file never analysed has none.
 */
function rowEstimates(connection: Database.Database): Map<string, number> {
  const estimates = new Map<string, number>();
  const analysed = connection.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1'");
  if (analysed.get() === undefined) return estimates;
  for (const { tbl, stat } of connection.prepare('SELECT tbl, stat FROM sqlite_stat1').all() as {
    tbl: string;
    stat: unknown;
  }[]) {
    const rows = Number.parseInt(String(stat), 10);
    if (Number.isSafeInteger(rows)) estimates.set(tbl, Math.max(rows, estimates.get(tbl) ?? 0));
  }
  return estimates;
}

/**
 * A page of the tables and views whose names (and, with a column search,
 * whose columns' names) match, with column counts and row estimates, as
 * JSON: `{"tables": […], "total": n}`.
 */
export function listSqliteTablesAsJson(connection: Database.Database, listing: TableListing): string {
  let objects: SchemaObject[] = schemaObjects(connection);
  if (listing.name !== undefined) {
    const pattern = namePattern(listing.name);
    objects = objects.filter((object) => pattern.matches(object.name));
  }
  const matchingColumns = new Map<string, string[]>();
  if (listing.column !== undefined) {
    const pattern = namePattern(listing.column);
    objects = objects.filter((object) => {
      const matching = columnNames(connection, object.name).filter((name) => pattern.matches(name));
      matchingColumns.set(object.name, matching);
      return matching.length > 0;
    });
  }
  const offset = listing.offset ?? 0;
  const page = objects.slice(offset, listing.limit === undefined ? undefined : offset + listing.limit);
  const estimates = rowEstimates(connection);
  const tables = page.map(({ name, type }): ListedTable => {
    const table: ListedTable = {
      name,
      type,
      column_count: columnCount(connection, name),
      row_estimate: type === 'table' ? (estimates.get(name) ?? null) : null,
    };
    if (listing.column !== undefined) table.columns = matchingColumns.get(name) ?? [];
    return table;
  });
  return JSON.stringify({ tables, total: objects.length });
}
