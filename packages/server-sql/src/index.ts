/**
 * A read-only SQL MCP server for SQLite files: one reader statement per call,
 * stopped at a time limit, with row and byte caps.
 *
 * @module
 */
export { createSqlServer } from './create-sql-server.ts';
export { type SqlServerOptions, sqlServerOptions } from './sql-server-options.ts';
