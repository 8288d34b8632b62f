/**
 * The `toolshed-sql` bin: flags and environment → createSqlServer → stdio,
 * or Streamable HTTP with --http.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { createSqlServer } from './create-sql-server.ts';
import { sqlCli } from './sql-cli.ts';

await runServerCli(sqlCli, process.argv.slice(2), process.env, (options, http) =>
  serve(createSqlServer(options), http),
);
