/** How a SQL server is set up: which files, and the limits every call keeps to. */
export interface SqlServerOptions {
  /**
   * The database files: one path, or names to paths (`{ sales: './sales.db' }`).
   * With several, every tool takes a `database` argument naming one.
   */
  databases: string | Readonly<Record<string, string>>;
  /** Rows a query may return at most; the `max_rows` argument can only lower it. Default 1000. */
  maxRows?: number;
  /** Bytes of JSON a query result may hold at most. Default 262144 (256 KiB). */
  maxResultBytes?: number;
  /** BLOBs larger than this are returned as their length only. Default 4096 bytes. */
  maxBlobBytes?: number;
  /** A statement still running after this long is stopped. Default 10000 ms. */
  timeoutMs?: number;
  /** Statements that run at the same time, each in its own process. Default 4. */
  maxConcurrentQueries?: number;
  /** Characters of SQL a call may send. Default 100000. */
  maxSqlLength?: number;
}

/** The options with every default filled in. */
export interface ResolvedSqlLimits {
  maxRows: number;
  maxResultBytes: number;
  maxBlobBytes: number;
  timeoutMs: number;
  maxConcurrentQueries: number;
  maxSqlLength: number;
}

export const defaultSqlLimits: ResolvedSqlLimits = {
  maxRows: 1000,
  maxResultBytes: 262_144,
  maxBlobBytes: 4096,
  timeoutMs: 10_000,
  maxConcurrentQueries: 4,
  maxSqlLength: 100_000,
};
