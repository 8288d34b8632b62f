import { closestNames } from '../closest-names.ts';
import { unknownTable } from '../unknown-table.ts';

/**
 * Schema reads for describe_table, explain_query and the schema resource,
 * from information_schema, in the same JSON shapes as SQLite's
 * (schema-introspection.ts; list_tables is mysql-table-listing.ts). Names
 * reach the server only as bound values, or backtick-quoted after they were
 * found in information_schema.
 */

/** Runs one read inside the call's guarded session and returns its rows as objects. */
export type SchemaQuery = (sql: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;

interface SchemaObject {
  schema: string;
  table: string;
  /** What list_tables and describe_table call it: `schema.table`, as the PostgreSQL side names its tables. */
  name: string;
  /** Whether it is in the URL's database, where SQL may name it without its schema. */
  current: boolean;
  type: 'table' | 'view';
}

/** The server's own schemas, which the tools never show. */
export const systemSchemas = "('information_schema', 'performance_schema', 'mysql', 'sys')";

/** Backtick quoting, with inner backticks doubled. */
export function quoteMysqlIdentifier(name: string): string {
  return `\`${name.replaceAll('`', '``')}\``;
}

async function schemaObjects(query: SchemaQuery): Promise<SchemaObject[]> {
  const rows = await query(
    `SELECT TABLE_SCHEMA AS table_schema, TABLE_NAME AS table_name, TABLE_TYPE AS table_type, DATABASE() AS current_schema
       FROM information_schema.TABLES
      WHERE (DATABASE() IS NULL AND TABLE_SCHEMA NOT IN ${systemSchemas}) OR TABLE_SCHEMA = DATABASE()
      ORDER BY TABLE_SCHEMA, TABLE_NAME`,
  );
  return rows.map((row) => {
    const schema = String(row.table_schema);
    const table = String(row.table_name);
    return {
      schema,
      table,
      name: `${schema}.${table}`,
      current: row.current_schema === schema,
      type: /VIEW/.test(String(row.table_type)) ? 'view' : 'table',
    };
  });
}

async function findObject(query: SchemaQuery, wanted: string): Promise<SchemaObject> {
  const objects = await schemaObjects(query);
  // A bare name is looked up in the URL's database first, as the server resolves it in SQL.
  const bare = (object: SchemaObject) => (object.current ? object.table : undefined);
  const found =
    objects.find((object) => object.name === wanted || bare(object) === wanted) ??
    objects.find(
      (object) =>
        object.name.toLowerCase() === wanted.toLowerCase() || bare(object)?.toLowerCase() === wanted.toLowerCase(),
    );
  if (found !== undefined) return found;
  const names = objects.map((object) => object.name);
  const byTable = closestNames(
    wanted,
    objects.map((object) => object.table),
  ).flatMap((table) => objects.filter((object) => object.table === table).map((object) => object.name));
  throw unknownTable(wanted, names, [...new Set([...byTable, ...closestNames(wanted, names)])].slice(0, 5));
}

async function createStatement(query: SchemaQuery, object: SchemaObject): Promise<string | null> {
  const qualified = `${quoteMysqlIdentifier(object.schema)}.${quoteMysqlIdentifier(object.table)}`;
  try {
    const [row] = await query(`SHOW CREATE ${object.type === 'view' ? 'VIEW' : 'TABLE'} ${qualified}`);
    const text = row?.['Create Table'] ?? row?.['Create View'];
    return typeof text === 'string' ? text : null;
  } catch {
    // SHOW CREATE VIEW needs SHOW VIEW as well as SELECT; without it the statement is not ours to show.
    return null;
  }
}

/**
 * A foreign key's ON UPDATE/ON DELETE rule: from information_schema when the
 * account may read REFERENTIAL_CONSTRAINTS there (MariaDB hides it from a
 * SELECT-only account), else from the CREATE statement; RESTRICT when unsaid.
 */
function foreignKeyRule(
  given: unknown,
  createSql: string | null,
  constraint: string,
  event: 'UPDATE' | 'DELETE',
): string {
  if (typeof given === 'string' && given !== '') return given;
  const clause = createSql
    ?.split('\n')
    .find((line) => line.includes(`CONSTRAINT ${quoteMysqlIdentifier(constraint)} FOREIGN KEY`));
  const rule =
    clause === undefined
      ? undefined
      : new RegExp(`ON ${event} (SET NULL|SET DEFAULT|NO ACTION|RESTRICT|CASCADE)`).exec(clause);
  return rule?.[1] ?? 'RESTRICT';
}

export async function describeMysqlTableAsJson(query: SchemaQuery, table: string): Promise<string> {
  const object = await findObject(query, table);
  const createSql = await createStatement(query, object);
  const key = [object.schema, object.table];
  const primaryKey = (
    await query(
      `SELECT COLUMN_NAME AS name FROM information_schema.KEY_COLUMN_USAGE
        WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY ORDINAL_POSITION`,
      key,
    )
  ).map((row) => String(row.name));
  const columns = (
    await query(
      `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, COLUMN_DEFAULT AS column_default, EXTRA AS extra
         FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
      key,
    )
  ).map((row) => {
    const name = String(row.name);
    const position = primaryKey.indexOf(name);
    const columnDefault =
      row.column_default === null || row.column_default === 'NULL' ? null : String(row.column_default);
    return {
      name,
      quoted: quoteMysqlIdentifier(name),
      type: String(row.type),
      nullable: row.nullable === 'YES',
      default: columnDefault,
      primary_key_position: position === -1 ? null : position + 1,
      generated: /GENERATED|VIRTUAL|PERSISTENT|STORED/i.test(String(row.extra)),
    };
  });
  const foreignKeys = new Map<
    string,
    { table: string; columns: string[]; references: (string | null)[]; on_update: string; on_delete: string }
  >();
  for (const row of await query(
    `SELECT k.CONSTRAINT_NAME AS constraint_name, k.COLUMN_NAME AS column_name, k.REFERENCED_TABLE_SCHEMA AS referenced_schema,
            k.REFERENCED_TABLE_NAME AS referenced_table, k.REFERENCED_COLUMN_NAME AS referenced_column,
            r.UPDATE_RULE AS on_update, r.DELETE_RULE AS on_delete
       FROM information_schema.KEY_COLUMN_USAGE k
       LEFT JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME
      WHERE k.TABLE_SCHEMA = ? AND k.TABLE_NAME = ? AND k.REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
    key,
  )) {
    const name = String(row.constraint_name);
    const referenced =
      row.referenced_schema === object.schema
        ? String(row.referenced_table)
        : `${row.referenced_schema}.${row.referenced_table}`;
    const foreignKey = foreignKeys.get(name) ?? {
      table: referenced,
      columns: [],
      references: [],
      on_update: foreignKeyRule(row.on_update, createSql, name, 'UPDATE'),
      on_delete: foreignKeyRule(row.on_delete, createSql, name, 'DELETE'),
    };
    foreignKey.columns.push(String(row.column_name));
    foreignKey.references.push(row.referenced_column === null ? null : String(row.referenced_column));
    foreignKeys.set(name, foreignKey);
  }
  const indexes = new Map<
    string,
    { name: string; unique: boolean; origin: string; partial: boolean; columns: string[] }
  >();
  for (const row of await query(
    `SELECT INDEX_NAME AS name, NON_UNIQUE AS non_unique, COLUMN_NAME AS column_name, INDEX_TYPE AS index_type
       FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
    key,
  )) {
    const name = String(row.name);
    const unique = Number(row.non_unique) === 0;
    const index = indexes.get(name) ?? {
      name,
      unique,
      origin: name === 'PRIMARY' ? 'PRIMARY KEY' : unique ? 'UNIQUE' : `${String(row.index_type)} INDEX`,
      partial: false,
      columns: [],
    };
    index.columns.push(row.column_name === null ? '(expression)' : String(row.column_name));
    indexes.set(name, index);
  }
  return JSON.stringify({
    name: object.name,
    quoted: `${quoteMysqlIdentifier(object.schema)}.${quoteMysqlIdentifier(object.table)}`,
    type: object.type,
    columns,
    primary_key: primaryKey,
    foreign_keys: [...foreignKeys.values()],
    indexes: [...indexes.values()],
    sql: createSql,
  });
}

/** Every CREATE statement of the schema, for the schema resource. */
export async function mysqlSchemaText(query: SchemaQuery): Promise<string> {
  const statements: string[] = [];
  for (const object of (await schemaObjects(query)).slice(0, 1000)) {
    const text = await createStatement(query, object);
    statements.push(text ?? `-- ${object.type} ${object.name}: its CREATE statement cannot be shown to this account`);
  }
  return statements.length === 0 ? '-- (empty database)\n' : `${statements.join(';\n\n')};\n`;
}

/** EXPLAIN of a reader statement in the shape of SQLite's query plan: steps, a tree, full scans and temporary sorts. */
export function mysqlQueryPlanAsJson(rows: readonly Record<string, unknown>[]): string {
  const plan = rows.map((row, index) => {
    const table = row.table === null || row.table === undefined ? '' : ` ${String(row.table)}`;
    const key = row.key === null || row.key === undefined ? '' : ` using index ${String(row.key)}`;
    const estimate = row.rows === null || row.rows === undefined ? '' : `, about ${String(row.rows)} rows`;
    const extra = row.Extra === null || row.Extra === undefined || row.Extra === '' ? '' : `; ${String(row.Extra)}`;
    const access = row.type === null || row.type === undefined ? '' : ` access ${String(row.type)}`;
    return {
      id: index + 1,
      parent: 0,
      detail: `${String(row.select_type)}${table}:${access}${key}${estimate}${extra}`,
    };
  });
  const full = rows.flatMap((row, index) => (row.type === 'ALL' ? [plan[index]?.detail ?? ''] : []));
  const temporary = rows.flatMap((row, index) =>
    /Using temporary|Using filesort/.test(String(row.Extra ?? '')) ? [plan[index]?.detail ?? ''] : [],
  );
  return JSON.stringify({
    plan,
    tree: plan.map((step) => step.detail).join('\n'),
    full_scans: full,
    temp_b_trees: temporary,
  });
}
