import * as z from 'zod';

type Limit = z.ZodOptional<z.ZodNumber>;

/** What each option accepts; its documentation shows on the options type inferred from it. */
type SqlServerOptionsShape = {
  /**
   * The database files: one path, or names to paths (`{ sales: './sales.db' }`).
   * With several, every tool takes a `database` argument naming one.
   */
  databases: z.ZodUnion<readonly [z.ZodString, z.ZodRecord<z.ZodString, z.ZodString>]>;
  /** Rows a query may return at most; the `max_rows` argument can only lower it. Default 1000. */
  maxRows: Limit;
  /** Bytes of JSON a query result may hold at most. Default 262144 (256 KiB). */
  maxResultBytes: Limit;
  /** BLOBs larger than this are returned as their length only. Default 4096 bytes. */
  maxBlobBytes: Limit;
  /** A statement still running after this long is stopped. Default 10000 ms. */
  timeoutMs: Limit;
  /** Statements that run at the same time, each in its own process. Default 4. */
  maxConcurrentQueries: Limit;
  /** Characters of SQL a call may send. Default 100000. */
  maxSqlLength: Limit;
};

// Limits are checked for whole numbers of at least 1 by resolveLimits, which names the limit in its message.
const limit = (): Limit => z.number().optional();

/**
 * The options of `createSqlServer`, strict: an unknown or misspelt key is
 * refused with its path and the closest valid name.
 *
 * @example
 * const options = sqlServerOptions.parse({ databases: { sales: './sales.db' }, maxRows: 200 });
 */
export const sqlServerOptions: z.ZodObject<SqlServerOptionsShape, z.core.$strict> = z.strictObject({
  databases: z.union([z.string(), z.record(z.string(), z.string())]),
  maxRows: limit(),
  maxResultBytes: limit(),
  maxBlobBytes: limit(),
  timeoutMs: limit(),
  maxConcurrentQueries: limit(),
  maxSqlLength: limit(),
});

/** How a SQL server is set up: which files, and the limits every call keeps to. */
export type SqlServerOptions = z.input<typeof sqlServerOptions>;

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
