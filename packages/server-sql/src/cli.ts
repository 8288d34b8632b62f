/**
 * The `toolshed-sql` bin: flags and environment → startSqlServer → stdio,
 * or Streamable HTTP with --http.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { startSqlServer } from './create-sql-server.ts';
import { passwordsFromEnvironment, sqlCli } from './sql-cli.ts';

await runServerCli(sqlCli, process.argv.slice(2), process.env, async (options, http) =>
  serve(await startSqlServer({ ...options, passwords: passwordsFromEnvironment(options, process.env) }), http),
);
