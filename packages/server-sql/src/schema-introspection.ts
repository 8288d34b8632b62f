import type Database from 'better-sqlite3';
import { closestNames } from './closest-names.ts';
import { unknownTable } from './unknown-table.ts';

/**
 * Schema reads for list_tables, describe_table and the schema resource. Table
 * names only ever reach SQLite as bound values of the table-valued PRAGMA
 * functions (pragma_table_xinfo(?)), never spliced into SQL text.
 */

export interface SchemaObject {
  name: string;
  type: 'table' | 'view';
  sql: string | null;
}

export function schemaObjects(connection: Database.Database): SchemaObject[] {
  return connection
    .prepare(
      "SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .all() as SchemaObject[];
}

export function columnCount(connection: Database.Database, table: string): number | null {
  try {
    return connection
      .prepare('SELECT count(*) FROM pragma_table_xinfo(?) WHERE hidden IN (0, 2, 3)')
      .pluck()
      .get(table) as number;
  } catch {
    // A view over a table that no longer exists cannot be described; list it all the same.
    return null;
  }
}

interface ColumnInfo {
  cid: number;
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}

/** SQLite's identifier quoting: double quotes, with inner ones doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function findTable(connection: Database.Database, table: string): SchemaObject {
  const objects = schemaObjects(connection);
  const found =
    objects.find((object) => object.name === table) ??
    objects.find((object) => object.name.toLowerCase() === table.toLowerCase());
  if (found !== undefined) return found;
  const names = objects.map((object) => object.name);
  throw unknownTable(table, names, closestNames(table, names));
}

export function describeTableAsJson(connection: Database.Database, table: string): string {
  const object = findTable(connection, table);
  const columns = (connection.prepare('SELECT * FROM pragma_table_xinfo(?)').all(object.name) as ColumnInfo[])
    .filter((column) => column.hidden !== 1)
    .map((column) => ({
      name: column.name,
      quoted: quoteIdentifier(column.name),
      type: column.type,
      nullable: column.notnull === 0 && column.pk === 0,
      default: column.dflt_value,
      primary_key_position: column.pk === 0 ? null : column.pk,
      generated: column.hidden === 2 || column.hidden === 3,
    }));
  const foreignKeys = new Map<
    number,
    { table: string; columns: string[]; references: (string | null)[]; on_update: string; on_delete: string }
  >();
  for (const row of connection.prepare('SELECT * FROM pragma_foreign_key_list(?)').all(object.name) as {
    id: number;
    table: string;
    from: string;
    to: string | null;
    on_update: string;
    on_delete: string;
  }[]) {
    const key = foreignKeys.get(row.id) ?? {
      table: row.table,
      columns: [],
      references: [],
      on_update: row.on_update,
      on_delete: row.on_delete,
    };
    key.columns.push(row.from);
    key.references.push(row.to);
    foreignKeys.set(row.id, key);
  }
  const indexes = (
    connection.prepare('SELECT name, "unique", origin, partial FROM pragma_index_list(?)').all(object.name) as {
      name: string;
      unique: number;
      origin: string;
      partial: number;
    }[]
  ).map((index) => ({
    name: index.name,
    unique: index.unique === 1,
    origin:
      ({ c: 'CREATE INDEX', u: 'UNIQUE constraint', pk: 'PRIMARY KEY' } as Record<string, string>)[index.origin] ??
      index.origin,
    partial: index.partial === 1,
    columns: (
      connection.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck().all(index.name) as (
        | string
        | null
      )[]
    ).map((name) => name ?? '(expression)'),
  }));
  const primaryKey = columns
    .filter((column) => column.primary_key_position !== null)
    .sort((left, right) => (left.primary_key_position as number) - (right.primary_key_position as number))
    .map((column) => column.name);
  return JSON.stringify({
    name: object.name,
    quoted: quoteIdentifier(object.name),
    type: object.type,
    columns,
    primary_key: primaryKey,
    foreign_keys: [...foreignKeys.values()],
    indexes,
    sql: object.sql,
  });
}

/** Every CREATE statement in the file, for the schema resource. */
export function schemaText(connection: Database.Database): string {
  const statements = connection
    .prepare(
      "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type DESC, name",
    )
    .pluck()
    .all() as string[];
  return statements.length === 0 ? '-- (empty database)\n' : `${statements.join(';\n\n')};\n`;
}

/** EXPLAIN QUERY PLAN of a reader statement, as rows and as an indented tree. */
export function queryPlanAsJson(connection: Database.Database, sql: string): string {
  const rows = connection.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as {
    id: number;
    parent: number;
    detail: string;
  }[];
  const depth = new Map<number, number>([[0, -1]]);
  const lines: string[] = [];
  for (const row of rows) {
    const level = (depth.get(row.parent) ?? -1) + 1;
    depth.set(row.id, level);
    lines.push(`${'  '.repeat(level)}${row.detail}`);
  }
  const uses = {
    full_scans: rows.filter((row) => /^SCAN /.test(row.detail)).map((row) => row.detail),
    temp_b_trees: rows.filter((row) => /USE TEMP B-TREE/.test(row.detail)).map((row) => row.detail),
  };
  return JSON.stringify({
    plan: rows.map(({ id, parent, detail }) => ({ id, parent, detail })),
    tree: lines.join('\n'),
    ...uses,
  });
}
