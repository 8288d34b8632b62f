import type { ClientBase } from 'pg';
import { closestNames } from '../closest-names.ts';
import { unknownTable } from '../unknown-table.ts';

/**
 * Schema reads for describe_table, the schema resource and explain_query, in
 * the same JSON shapes as SQLite's (list_tables is postgres-table-listing.ts).
 * Names reach the server only as bound values (by OID once found), never
 * spliced into SQL text. Tables and views are named with their schema:
 * `public.orders`.
 */

interface Relation {
  oid: number;
  schema: string;
  name: string;
  kind: string;
}

/**
 * The tables and views the tools show, of `pg_class c` joined to
 * `pg_namespace n`: tables, partitioned and foreign tables, views and
 * materialized views outside the system schemas that the role may read.
 */
export const shownRelations = `c.relkind IN ('r', 'p', 'v', 'm', 'f')
     AND n.nspname NOT IN ('pg_catalog', 'information_schema')
     AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
     AND has_any_column_privilege(c.oid, 'SELECT')`;

const relationsSql = `
  SELECT c.oid::int AS oid, n.nspname AS schema, c.relname AS name, c.relkind AS kind
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE ${shownRelations}
   ORDER BY n.nspname, c.relname`;

async function relations(client: ClientBase): Promise<Relation[]> {
  return (await client.query<Relation>({ text: relationsSql, values: [] })).rows;
}

const qualified = (relation: Relation) => `${relation.schema}.${relation.name}`;
const typeOf = (relation: Relation): 'table' | 'view' =>
  relation.kind === 'v' || relation.kind === 'm' ? 'view' : 'table';

/** PostgreSQL's identifier quoting: double quotes, with inner ones doubled. */
export function quotePostgresIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `orders`, `public.orders` or `"Odd".name`, matched exactly, then case-insensitively, else the closest names. */
function findRelation(all: readonly Relation[], wanted: string, searchPath: readonly string[]): Relation {
  const bare = wanted.replaceAll('"', '');
  const matches = (compare: (left: string, right: string) => boolean) =>
    all.filter((relation) => compare(qualified(relation), bare) || compare(relation.name, bare));
  for (const compare of [
    (left: string, right: string) => left === right,
    (left: string, right: string) => left.toLowerCase() === right.toLowerCase(),
  ]) {
    const found = matches(compare);
    if (found.length === 1) return found[0] as Relation;
    if (found.length > 1) {
      // The same name in several schemas: the one first on the search path, as an unqualified query would see it.
      const preferred = searchPath.map((schema) => found.find((relation) => relation.schema === schema)).find(Boolean);
      if (preferred !== undefined) return preferred;
      return found[0] as Relation;
    }
  }
  const names = all.map(qualified);
  const near = closestNames(bare, [...names, ...all.map((relation) => relation.name)]).map((name) =>
    names.includes(name) ? name : qualified(all.find((relation) => relation.name === name) as Relation),
  );
  throw unknownTable(wanted, names, [...new Set(near)]);
}

interface ColumnRow {
  name: string;
  type: string;
  not_null: boolean;
  default: string | null;
  generated: boolean;
}

const actions: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

async function describeRelation(client: ClientBase, relation: Relation) {
  const values = [relation.oid];
  const columnRows = (
    await client.query<ColumnRow>({
      text: `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
                    pg_get_expr(d.adbin, d.adrelid) AS default, a.attgenerated <> '' AS generated
               FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
              WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      values,
    })
  ).rows;
  const primaryKey = (
    await client.query<{ name: string }>({
      text: `SELECT a.attname AS name FROM pg_index i
               CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position)
               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
              WHERE i.indrelid = $1::oid AND i.indisprimary ORDER BY k.position`,
      values,
    })
  ).rows.map((row) => row.name);
  const foreignKeys = (
    await client.query<{
      table: string;
      columns: string[];
      references: string[];
      on_update: string;
      on_delete: string;
    }>({
      text: `SELECT fn.nspname || '.' || f.relname AS table,
                    ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, position)
                            JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.position)::text[] AS columns,
                    ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, position)
                            JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.position)::text[] AS references,
                    c.confupdtype AS on_update, c.confdeltype AS on_delete
               FROM pg_constraint c JOIN pg_class f ON f.oid = c.confrelid JOIN pg_namespace fn ON fn.oid = f.relnamespace
              WHERE c.conrelid = $1::oid AND c.contype = 'f' ORDER BY c.conname`,
      values,
    })
  ).rows.map((row) => ({
    ...row,
    on_update: actions[row.on_update] ?? row.on_update,
    on_delete: actions[row.on_delete] ?? row.on_delete,
  }));
  const indexes = (
    await client.query<{
      name: string;
      unique: boolean;
      primary: boolean;
      constraint: boolean;
      partial: boolean;
      columns: string[];
    }>({
      text: `SELECT ic.relname AS name, i.indisunique AS unique, i.indisprimary AS primary,
                    EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype = 'u') AS constraint,
                    i.indpred IS NOT NULL AS partial,
                    ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true) FROM generate_series(1, i.indnkeyatts) AS k) AS columns
               FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
              WHERE i.indrelid = $1::oid ORDER BY ic.relname`,
      values,
    })
  ).rows.map((row) => ({
    name: row.name,
    unique: row.unique,
    origin: row.primary ? 'PRIMARY KEY' : row.constraint ? 'UNIQUE constraint' : 'CREATE INDEX',
    partial: row.partial,
    columns: row.columns,
  }));
  const columns = columnRows.map((column) => {
    const position = primaryKey.indexOf(column.name);
    return {
      name: column.name,
      quoted: quotePostgresIdentifier(column.name),
      type: column.type,
      nullable: !column.not_null,
      default: column.default,
      primary_key_position: position === -1 ? null : position + 1,
      generated: column.generated,
    };
  });
  return { columns, primaryKey, foreignKeys, indexes };
}

async function createStatement(
  client: ClientBase,
  relation: Relation,
  columns: { quoted: string; type: string; nullable: boolean; default: string | null }[],
): Promise<string> {
  const name = `${quotePostgresIdentifier(relation.schema)}.${quotePostgresIdentifier(relation.name)}`;
  if (typeOf(relation) === 'view') {
    const { rows } = await client.query<{ definition: string | null }>({
      text: 'SELECT pg_get_viewdef($1::oid, true) AS definition',
      values: [relation.oid],
    });
    const materialized = relation.kind === 'm' ? 'MATERIALIZED ' : '';
    return `CREATE ${materialized}VIEW ${name} AS\n${(rows[0]?.definition ?? '').trim().replace(/;$/, '')}`;
  }
  const constraints = (
    await client.query<{ definition: string }>({
      text: `SELECT pg_get_constraintdef(oid, true) AS definition FROM pg_constraint
              WHERE conrelid = $1::oid AND contype IN ('p', 'u', 'f', 'c', 'x') ORDER BY contype, conname`,
      values: [relation.oid],
    })
  ).rows.map((row) => row.definition);
  const lines = [
    ...columns.map(
      (column) =>
        `${column.quoted} ${column.type}${column.nullable ? '' : ' NOT NULL'}${column.default === null ? '' : ` DEFAULT ${column.default}`}`,
    ),
    ...constraints,
  ];
  return `CREATE TABLE ${name} (\n  ${lines.join(',\n  ')}\n)`;
}

async function searchPath(client: ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ schemas: string[] }>({
    text: 'SELECT current_schemas(false)::text[] AS schemas',
    values: [],
  });
  return rows[0]?.schemas ?? ['public'];
}

export async function describePostgresTableAsJson(client: ClientBase, table: string): Promise<string> {
  const relation = findRelation(await relations(client), table, await searchPath(client));
  const { columns, primaryKey, foreignKeys, indexes } = await describeRelation(client, relation);
  return JSON.stringify({
    name: qualified(relation),
    quoted: `${quotePostgresIdentifier(relation.schema)}.${quotePostgresIdentifier(relation.name)}`,
    type: typeOf(relation),
    columns,
    primary_key: primaryKey,
    foreign_keys: foreignKeys,
    indexes,
    sql: await createStatement(client, relation, columns),
  });
}

/** Every table and view as a CREATE statement, and every index, for the schema resource. */
export async function postgresSchemaText(client: ClientBase): Promise<string> {
  const statements: string[] = [];
  for (const relation of await relations(client)) {
    const { columns } = await describeRelation(client, relation);
    statements.push(await createStatement(client, relation, columns));
    const { rows } = await client.query<{ definition: string }>({
      text: `SELECT pg_get_indexdef(indexrelid) AS definition FROM pg_index WHERE indrelid = $1::oid
                AND NOT indisprimary ORDER BY indexrelid`,
      values: [relation.oid],
    });
    statements.push(...rows.map((row) => row.definition));
  }
  return statements.length === 0 ? '-- (empty database)\n' : `${statements.join(';\n\n')};\n`;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Schema?: string;
  Alias?: string;
  'Index Name'?: string;
  'Total Cost'?: number;
  'Plan Rows'?: number;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/** Steps that sort or deduplicate: PostgreSQL's counterparts of SQLite's temporary B-trees. */
const sortingNodes = new Set(['Sort', 'Incremental Sort', 'Unique', 'HashAggregate', 'SetOp']);

/** EXPLAIN (FORMAT JSON) of a statement that passed the gate, flattened into SQLite's plan shape. */
export async function postgresPlanAsJson(client: ClientBase, sql: string): Promise<string> {
  const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
    text: `EXPLAIN (FORMAT JSON) ${sql}`,
    values: [],
    queryMode: 'extended',
  } as never);
  const root = rows[0]?.['QUERY PLAN'][0]?.Plan;
  const plan: { id: number; parent: number; detail: string }[] = [];
  const lines: string[] = [];
  const fullScans: string[] = [];
  const sorts: string[] = [];
  const visit = (node: PlanNode, parent: number, depth: number) => {
    const id = plan.length + 1;
    const on =
      node['Relation Name'] === undefined ? '' : ` on ${node.Schema ? `${node.Schema}.` : ''}${node['Relation Name']}`;
    const using = node['Index Name'] === undefined ? '' : ` using ${node['Index Name']}`;
    const detail = `${node['Node Type']}${using}${on} (cost=${node['Total Cost']} rows=${node['Plan Rows']})`;
    plan.push({ id, parent, detail });
    lines.push(`${'  '.repeat(depth)}${detail}`);
    if (node['Node Type'] === 'Seq Scan') fullScans.push(detail);
    if (sortingNodes.has(node['Node Type'])) sorts.push(detail);
    for (const child of node.Plans ?? []) visit(child, id, depth + 1);
  };
  if (root !== undefined) visit(root, 0, 0);
  return JSON.stringify({ plan, tree: lines.join('\n'), full_scans: fullScans, temp_b_trees: sorts });
}
