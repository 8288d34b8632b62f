import { namePattern } from '../name-pattern.ts';
import type { ListedTable, TableListing } from '../query-messages.ts';
import { type SchemaQuery, systemSchemas } from './mysql-schema.ts';

/**
 * list_tables on MySQL/MariaDB, from information_schema: the filtering,
 * counting and paging happen on the server. Row estimates are
 * `TABLES.TABLE_ROWS` (InnoDB's sampled estimate, MyISAM's exact count);
 * null for views.
 */

/** The schemas the tools show: the URL's database, or every one but the system's when the URL names none. */
const shownSchemas = `((DATABASE() IS NULL AND t.TABLE_SCHEMA NOT IN ${systemSchemas}) OR t.TABLE_SCHEMA = DATABASE())`;

/** Whole numbers the tool checked, written into the SQL: a prepared LIMIT takes no DOUBLE, which mysql2 binds numbers as. */
function pageClause(listing: TableListing): string {
  const offset = Math.max(0, Math.trunc(listing.offset ?? 0));
  if (listing.limit === undefined) return offset === 0 ? '' : ` LIMIT ${offset}, 18446744073709551615`;
  return ` LIMIT ${offset}, ${Math.max(0, Math.trunc(listing.limit))}`;
}

/** A page of the tables and views, as `{"tables": […], "total": n}`. */
export async function listMysqlTablesAsJson(query: SchemaQuery, listing: TableListing): Promise<string> {
  const conditions = [shownSchemas];
  const values: string[] = [];
  if (listing.name !== undefined) {
    conditions.push("(LOWER(t.TABLE_NAME) LIKE ? OR LOWER(CONCAT(t.TABLE_SCHEMA, '.', t.TABLE_NAME)) LIKE ?)");
    const like = namePattern(listing.name).like;
    values.push(like, like);
  }
  const columnLike = listing.column === undefined ? undefined : namePattern(listing.column).like;
  if (columnLike !== undefined) {
    conditions.push(
      'EXISTS (SELECT 1 FROM information_schema.COLUMNS c WHERE c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME AND LOWER(c.COLUMN_NAME) LIKE ?)',
    );
    values.push(columnLike);
  }
  const where = conditions.join(' AND ');
  const [counted] = await query(`SELECT COUNT(*) AS total FROM information_schema.TABLES t WHERE ${where}`, values);
  const page = await query(
    `SELECT t.TABLE_SCHEMA AS table_schema, t.TABLE_NAME AS table_name, t.TABLE_TYPE AS table_type, t.TABLE_ROWS AS table_rows
       FROM information_schema.TABLES t WHERE ${where} ORDER BY t.TABLE_SCHEMA, t.TABLE_NAME${pageClause(listing)}`,
    values,
  );
  // The page's columns in one read: their count, and which match the column search.
  const columns = new Map<string, { count: number; matching: string[] }>();
  if (page.length > 0) {
    const tableKeys = page.map(() => '(c.TABLE_SCHEMA = ? AND c.TABLE_NAME = ?)').join(' OR ');
    const matched = columnLike === undefined ? '0' : 'LOWER(c.COLUMN_NAME) LIKE ?';
    for (const row of await query(
      `SELECT c.TABLE_SCHEMA AS table_schema, c.TABLE_NAME AS table_name, c.COLUMN_NAME AS column_name, ${matched} AS matched
         FROM information_schema.COLUMNS c WHERE ${tableKeys} ORDER BY c.TABLE_SCHEMA, c.TABLE_NAME, c.ORDINAL_POSITION`,
      [
        ...(columnLike === undefined ? [] : [columnLike]),
        ...page.flatMap((table) => [String(table.table_schema), String(table.table_name)]),
      ],
    )) {
      const key = `${row.table_schema}.${row.table_name}`;
      const entry = columns.get(key) ?? { count: 0, matching: [] };
      entry.count++;
      if (Number(row.matched) === 1) entry.matching.push(String(row.column_name));
      columns.set(key, entry);
    }
  }
  const tables = page.map((row): ListedTable => {
    const name = `${row.table_schema}.${row.table_name}`;
    const view = /VIEW/.test(String(row.table_type));
    const table: ListedTable = {
      name,
      type: view ? 'view' : 'table',
      // A view over a table that no longer exists has no columns to count.
      column_count: columns.get(name)?.count ?? null,
      row_estimate: view || row.table_rows === null ? null : Number(row.table_rows),
    };
    if (columnLike !== undefined) table.columns = columns.get(name)?.matching ?? [];
    return table;
  });
  return JSON.stringify({ tables, total: Number(counted?.total ?? 0) });
}
