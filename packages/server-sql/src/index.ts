/**
 * A read-only SQL MCP server for SQLite files and PostgreSQL (MySQL/MariaDB
 * through the same flag): one reader statement per call, stopped at a time
 * limit, with row and byte caps.
 *
 * @module
 */
export { createSqlServer, startSqlServer } from './create-sql-server.ts';
export { type SqlServerOptions, sqlServerOptions } from './sql-server-options.ts';
