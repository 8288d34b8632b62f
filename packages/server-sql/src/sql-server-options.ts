import { limitOption } from '@toolshed/mcp-core';
import * as z from 'zod';

type Limit = z.ZodDefault<z.ZodNumber>;

// Shapes are spelt out as types because exported schemas need declared types under isolatedDeclarations.
type SqlLimitsShape = {
  maxRows: Limit;
  maxResultBytes: Limit;
  maxBlobBytes: Limit;
  timeoutMs: Limit;
  maxConcurrentQueries: Limit;
  maxSqlLength: Limit;
};

type SqlServerOptionsShape = {
  databases: z.ZodUnion<readonly [z.ZodString, z.ZodRecord<z.ZodString, z.ZodString>]>;
  limits: z.ZodPrefault<z.ZodObject<SqlLimitsShape, z.core.$strict>>;
};

/**
 * The options of `createSqlServer`, strict: an unknown or misspelt key is
 * refused with its path and the closest valid name. The bin's flags, their
 * environment twins, --help and the README's options table come from it.
 *
 * @example
 * const options = sqlServerOptions.parse({ databases: { sales: './sales.db' }, limits: { maxRows: 200 } });
 */
export const sqlServerOptions: z.ZodObject<SqlServerOptionsShape, z.core.$strict> = z.strictObject({
  databases: z.union([z.string(), z.record(z.string(), z.string())]).meta({
    description:
      'SQLite files to serve, read-only: a path, or names to paths; with several, tools take a `database` argument',
    flag: 'db',
    placeholder: 'PATH|NAME=PATH',
  }),
  limits: z
    .strictObject({
      maxRows: limitOption(1000, 'Rows a query may return at most; the `max_rows` argument can only lower it'),
      maxResultBytes: limitOption(262_144, 'Bytes of JSON a query result may hold at most'),
      maxBlobBytes: limitOption(4096, 'BLOBs larger than this are returned as their length only'),
      timeoutMs: limitOption(10_000, 'Milliseconds a statement may run before it is stopped'),
      maxConcurrentQueries: limitOption(4, 'Statements running at once, each in its own query process'),
      maxSqlLength: limitOption(100_000, 'Characters of SQL a call may send'),
    })
    .prefault({})
    .meta({ flagPrefix: '', description: 'The caps every call is held to' }),
});

/** How a SQL server is set up: which files, and the limits every call keeps to. */
export type SqlServerOptions = z.input<typeof sqlServerOptions>;

/** The limits with every default filled in. */
export type SqlLimits = z.output<typeof sqlServerOptions>['limits'];
