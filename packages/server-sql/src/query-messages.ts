/**
 * The messages between the server and its query processes. Everything a query
 * process sends back is already JSON text, so the server never re-encodes rows.
 */

/** A value bound to a `?`, `?NNN`, `:name`, `@name` or `$name` parameter. */
export type SqlParameter = string | number | boolean | null;

export type SqlParameters = readonly SqlParameter[] | Readonly<Record<string, SqlParameter>>;

/** What every request that reads rows is limited by. */
export interface RowLimits {
  maxRows: number;
  maxBytes: number;
  maxBlobBytes: number;
}

export type QueryRequest =
  | { kind: 'query'; database: string; sql: string; params: SqlParameters | undefined; limits: RowLimits }
  | { kind: 'explain'; database: string; sql: string }
  | ({ kind: 'list_tables'; database: string } & TableListing)
  | { kind: 'describe_table'; database: string; table: string }
  | { kind: 'schema_text'; database: string };

/**
 * Which tables and views list_tables wants: those whose name matches `name`
 * and, with `column`, that have a column whose name matches it (both
 * `NamePattern`s), `limit` of them from `offset` on, in name order. Left out:
 * all of them.
 */
export interface TableListing {
  name?: string | undefined;
  column?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/** One table or view as list_tables answers it; `columns` (the matching ones) only with a column search. */
export interface ListedTable {
  name: string;
  type: 'table' | 'view';
  column_count: number | null;
  row_estimate: number | null;
  columns?: string[];
}

/**
 * Puts a vetted statement through the read-only gate and binds NULL to each
 * of its parameters, without running it: a statement the gate refuses, or
 * one whose placeholders do not match its parameters, stops the server at
 * start.
 */
export interface ReaderCheckRequest {
  kind: 'check_reader';
  database: string;
  sql: string;
  parameterCount: number;
}

/** Why a request was refused or failed, in words a model can act on. */
export type QueryFailureCode = 'not_a_read' | 'sql_error' | 'unknown_table' | 'database_unavailable';

export type QueryResponse =
  | { id: number; ok: true; json: string }
  | { id: number; ok: false; code: QueryFailureCode; message: string };

/** Sent once by a query process when its connections are open and it is ready. */
export interface QueryProcessReady {
  ready: true;
}

/** How a query process opens its databases, given on its command line. */
export interface QueryProcessConfig {
  /** Database name → absolute path. */
  databases: Record<string, string>;
  busyTimeoutMs: number;
  /** The server's pid: the query process ends itself as soon as it has another parent. */
  parentPid: number;
}
