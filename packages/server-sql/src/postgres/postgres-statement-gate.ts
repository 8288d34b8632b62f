import { loadModule, parseSync } from 'libpg-query';
import { QueryFailure } from '../query-failure.ts';
import { statementShape } from '../statement-shape.ts';

/**
 * The statement gate for PostgreSQL: the server's own parser (libpg-query,
 * PostgreSQL's grammar compiled to WebAssembly) reads the SQL, and only one
 * statement of a read form passes, calling no function that acts outside
 * the data. It is one layer of several: the READ ONLY transaction, the
 * rollback and `DISCARD ALL` stand behind it and would hold without it.
 */

export const postgresOnlyReadsMessage: string =
  'Only SELECT-style reads are allowed: one SELECT, WITH … SELECT, VALUES, TABLE, SHOW or EXPLAIN (without ANALYZE) statement. ' +
  'Writes, schema changes, settings, locks, COPY, LISTEN/NOTIFY, cursors and transaction statements are refused; ' +
  'use list_tables and describe_table for the schema.';

/** Statements that may stand at the top. */
const readStatements = new Set(['SelectStmt', 'ExplainStmt', 'VariableShowStmt']);

/** Nodes that write, wherever they sit (a data-modifying CTE, say). */
const writingNodes = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

/**
 * Functions that act outside the data: they notify, signal or terminate
 * other sessions, take locks that outlive a statement, change settings,
 * touch large objects, server files and programs, remote databases or
 * replication, run SQL given as text (which no gate would then see), or
 * sleep.
 */
const refusedFunctions = new Set([
  'pg_notify',
  'pg_cancel_backend',
  'pg_terminate_backend',
  'pg_log_backend_memory_contexts',
  'set_config',
  'nextval',
  'setval',
  'pg_sleep',
  'pg_sleep_for',
  'pg_sleep_until',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_promote',
  'pg_switch_wal',
  'pg_create_restore_point',
  'pg_start_backup',
  'pg_stop_backup',
  'pg_backup_start',
  'pg_backup_stop',
  'pg_stat_file',
  'pg_import_system_collations',
  'pg_truncate_visibility_map',
  'gin_clean_pending_list',
  'brin_summarize_new_values',
  'brin_summarize_range',
  'brin_desummarize_range',
  'loread',
  'lowrite',
  'ts_stat',
  'ts_rewrite',
  'txid_current',
  'pg_current_xact_id',
]);

const refusedPrefixes = [
  'pg_advisory_',
  'pg_try_advisory_',
  'lo_',
  'pg_read_',
  'pg_ls_',
  'pg_file_',
  'dblink',
  'pg_stat_reset',
  'pg_stat_statements_reset',
  'pg_replication_',
  'pg_logical_',
  'pg_wal_replay_',
  'pg_create_',
  'pg_drop_',
  'pg_copy_',
  'binary_upgrade_',
];

function isRefusedFunction(name: string): boolean {
  return (
    refusedFunctions.has(name) ||
    refusedPrefixes.some((prefix) => name.startsWith(prefix)) ||
    // query_to_xml, cursor_to_xml, table_to_xmlschema …: they run SQL they are given as text.
    name.includes('_to_xml')
  );
}

let parserLoaded: Promise<void> | undefined;

/** Loads the parser (about 150 ms, once per process); start it early, await it before the first gate. */
export function loadPostgresParser(): Promise<void> {
  parserLoaded ??= loadModule();
  return parserLoaded;
}

type Node = Record<string, unknown>;

function functionName(call: Node): string {
  const names = (call.funcname as { String?: { sval?: string } }[] | undefined) ?? [];
  return (names.at(-1)?.String?.sval ?? '').toLowerCase();
}

/** Walks every node, refusing what writes, locks or calls a refused function. */
function checkTree(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) checkTree(item);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value as Node)) {
    if (writingNodes.has(key)) throw new QueryFailure('not_a_read', postgresOnlyReadsMessage);
    if (key === 'SelectStmt') {
      const select = child as Node;
      if (select.intoClause !== undefined) {
        throw new QueryFailure('not_a_read', `SELECT … INTO creates a table. ${postgresOnlyReadsMessage}`);
      }
      if (select.lockingClause !== undefined) {
        throw new QueryFailure('not_a_read', `FOR UPDATE/SHARE locks rows. ${postgresOnlyReadsMessage}`);
      }
    }
    if (key === 'FuncCall') {
      const name = functionName(child as Node);
      if (isRefusedFunction(name)) {
        throw new QueryFailure(
          'not_a_read',
          `The function ${name}() acts outside the data (sessions, locks, settings, files, sequences or time) and is refused. Query the data with plain SELECTs.`,
        );
      }
    }
    checkTree(child);
  }
}

/**
 * Parses the SQL and lets it through only when it is exactly one statement
 * of a read form that calls no refused function; otherwise throws a
 * `not_a_read` QueryFailure saying what to send instead, or `sql_error` with
 * the parser's own words. Call `loadPostgresParser()` first.
 */
export function checkPostgresStatement(sql: string): void {
  if (sql.includes('\u0000')) {
    throw new QueryFailure('not_a_read', 'The SQL contains a NUL character; remove it and send one statement.');
  }
  let statements: { stmt?: Node }[];
  try {
    statements = (parseSync(sql).stmts ?? []) as { stmt?: Node }[];
  } catch (error) {
    throw new QueryFailure('sql_error', `PostgreSQL could not parse the statement: ${(error as Error).message}`);
  }
  if (statements.length !== 1) {
    throw new QueryFailure(
      'not_a_read',
      statements.length === 0
        ? `The SQL holds no statement. ${postgresOnlyReadsMessage}`
        : `Send exactly one statement per call. ${postgresOnlyReadsMessage}`,
    );
  }
  const statement = statements[0]?.stmt ?? {};
  const [kind] = Object.keys(statement);
  if (kind === undefined || !readStatements.has(kind)) throw new QueryFailure('not_a_read', postgresOnlyReadsMessage);
  if (kind === 'ExplainStmt') {
    const options = ((statement.ExplainStmt as Node).options as { DefElem?: { defname?: string } }[] | undefined) ?? [];
    if (options.some((option) => option.DefElem?.defname?.toLowerCase() === 'analyze')) {
      throw new QueryFailure(
        'not_a_read',
        `EXPLAIN ANALYZE runs the statement; use explain_query for the plan. ${postgresOnlyReadsMessage}`,
      );
    }
  }
  checkTree(statement);
}

/**
 * The statements the gate let through lately, by their shape (the text with
 * its integer literals as `0`, see `statementShape`) or, for a text that has
 * none, by the text itself: a parse costs tens of microseconds of the
 * server's one thread (and, with libpg-query 18.1, a few kilobytes of memory
 * that never come back), while a model or an application sends the same
 * statement with new params or new ids written into it again and again. The
 * gate's verdict never depends on a constant's value (it looks at statement
 * kinds, function names and EXPLAIN options), so texts of one shape share it.
 * Refusals are not kept; they are rare and their messages cheap to remake.
 */
export class AdmittedStatementCache {
  readonly #admitted = new Set<string>();
  readonly #size: number;

  constructor(size = 256) {
    this.#size = size;
  }

  /** `checkPostgresStatement`, remembered; call `loadPostgresParser()` first. */
  check(sql: string): void {
    const key = statementShape(sql) ?? sql;
    if (this.#admitted.has(key)) {
      // Most recently used last: the first one is the one to drop.
      this.#admitted.delete(key);
      this.#admitted.add(key);
      return;
    }
    checkPostgresStatement(sql);
    if (this.#admitted.size >= this.#size) this.#admitted.delete(this.#admitted.values().next().value as string);
    this.#admitted.add(key);
  }
}
