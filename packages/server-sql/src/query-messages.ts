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
  | { kind: 'schema_text'; database: string }
  | ExportRequest;

/** The file formats export_query writes. */
export type ExportFormat = 'csv' | 'jsonl';

/** What an export is held to: its own caps, far above a query's, and how much of it the answer shows. */
export interface ExportLimits {
  maxRows: number;
  maxBytes: number;
  /** Rows the answer shows at most, and the bytes of JSON they may take. */
  previewRows: number;
  previewBytes: number;
  /** BLOBs in the shown rows past this many bytes are shown by their length only, as in a query's result. */
  previewBlobBytes: number;
}

/**
 * The temporary file an export writes into: the server made it (new,
 * inside the export directory) and names it by path and by what it is,
 * so that whoever opens it to write can check that it opened that file.
 */
export interface ExportFileTarget {
  path: string;
  /** `st_dev` and `st_ino` of the file, in decimal. */
  device: string;
  inode: string;
}

/** Runs a reader statement and writes its whole result into `file`; answers what was written. */
export interface ExportRequest {
  kind: 'export';
  database: string;
  sql: string;
  params: SqlParameters | undefined;
  format: ExportFormat;
  file: ExportFileTarget;
  limits: ExportLimits;
}

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
export type QueryFailureCode =
  | 'not_a_read'
  | 'sql_error'
  | 'unknown_table'
  | 'database_unavailable'
  | 'export_cap'
  | 'export_failed';

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
