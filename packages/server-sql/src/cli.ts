/**
 * The `toolshed-sql` bin: flags and environment → startSqlServer → stdio,
 * or Streamable HTTP with --http.
 * The run is the default export, for the bundle's start module to wait on.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { startSqlServer } from './create-sql-server.ts';
import { passwordsFromEnvironment, sqlCli, sshPassphrasesFromEnvironment } from './sql-cli.ts';

const run: Promise<void> = runServerCli(sqlCli, process.argv.slice(2), process.env, async (options, http) => {
  const server = await startSqlServer({
    ...options,
    passwords: passwordsFromEnvironment(options, process.env),
    sshPassphrases: sshPassphrasesFromEnvironment(options, process.env),
  });
  // With a tools file or tools removed, what a model can run is the operator's choice: say what it is.
  if (options.tools !== undefined || !options.adHoc || !options.schemaTools) {
    process.stderr.write(`toolshed-sql: serving the tools ${server.toolNames().join(', ')}\n`);
  }
  await serve(server, http);
});

export default run;
