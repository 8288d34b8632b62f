import type { ClientBase } from 'pg';
import { namePattern } from '../name-pattern.ts';
import type { ListedTable, TableListing } from '../query-messages.ts';
import { shownRelations } from './postgres-schema.ts';

/**
 * list_tables on PostgreSQL: the filtering, counting and paging happen in the
 * catalogs, so a schema of 100,000 tables costs one round trip and a page of
 * rows. Row estimates are the planner's (`pg_class.reltuples`, as of the
 * last VACUUM or ANALYZE; a partitioned table sums its partitions'); null for
 * views and tables never analysed.
 */

interface PageRow {
  total: number;
  schema: string | null;
  name: string | null;
  kind: string | null;
  column_count: number | null;
  row_estimate: string | null;
  columns: string[] | null;
}

// $1: the name pattern or NULL, $2: the column pattern or NULL, $3: the page size or NULL (all), $4: the offset.
const listingSql = `
  WITH matched AS (
    SELECT c.oid, n.nspname AS schema, c.relname AS name, c.relkind AS kind, c.reltuples
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE ${shownRelations}
       AND ($1::text IS NULL OR lower(c.relname) LIKE $1 OR lower(n.nspname || '.' || c.relname) LIKE $1)
       AND ($2::text IS NULL OR EXISTS (
             SELECT 1 FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND lower(a.attname) LIKE $2))
  ), page AS (
    SELECT * FROM matched ORDER BY schema, name LIMIT $3 OFFSET $4
  )
  SELECT (SELECT count(*) FROM matched)::int AS total, p.schema, p.name, p.kind::text AS kind,
         (SELECT count(*) FROM pg_attribute a
           WHERE a.attrelid = p.oid AND a.attnum > 0 AND NOT a.attisdropped)::int AS column_count,
         (CASE
            WHEN p.kind IN ('r', 'm', 'f') AND p.reltuples >= 0 THEN p.reltuples
            WHEN p.kind = 'p' THEN (
              WITH RECURSIVE tree(relid) AS (
                SELECT p.oid UNION ALL SELECT i.inhrelid FROM pg_inherits i JOIN tree ON i.inhparent = tree.relid)
              SELECT sum(part.reltuples) FROM tree JOIN pg_class part ON part.oid = tree.relid
               WHERE part.relkind IN ('r', 'f') AND part.reltuples >= 0)
          END)::bigint::text AS row_estimate,
         CASE WHEN $2::text IS NULL THEN NULL ELSE ARRAY(
           SELECT a.attname::text FROM pg_attribute a
            WHERE a.attrelid = p.oid AND a.attnum > 0 AND NOT a.attisdropped AND lower(a.attname) LIKE $2
            ORDER BY a.attnum) END AS columns
    FROM (SELECT 1) AS one LEFT JOIN page p ON true
   ORDER BY p.schema, p.name`;

/** A page of the tables and views the role may read, as `{"tables": […], "total": n}`. */
export async function listPostgresTablesAsJson(client: ClientBase, listing: TableListing): Promise<string> {
  const { rows } = await client.query<PageRow>({
    text: listingSql,
    values: [
      listing.name === undefined ? null : namePattern(listing.name).like,
      listing.column === undefined ? null : namePattern(listing.column).like,
      listing.limit ?? null,
      listing.offset ?? 0,
    ],
  });
  const tables = rows
    .filter((row) => row.name !== null)
    .map((row): ListedTable => {
      const table: ListedTable = {
        name: `${row.schema}.${row.name}`,
        type: row.kind === 'v' || row.kind === 'm' ? 'view' : 'table',
        column_count: row.column_count,
        row_estimate: row.row_estimate === null ? null : Number(row.row_estimate),
      };
      if (row.columns !== null) table.columns = row.columns;
      return table;
    });
  return JSON.stringify({ tables, total: rows[0]?.total ?? 0 });
}
