/**
 * The `__BIN_NAME__` bin: flags and environment → createServer → stdio, or Streamable HTTP with --http.
 * Nothing but JSON-RPC may reach stdout: runServerCli sends console output to stderr.
 * The run is the default export, for the bundle's start module to wait on.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { createServer } from './create-server.ts';
import { serverCli } from './server-cli.ts';

const run: Promise<void> = runServerCli(serverCli, process.argv.slice(2), process.env, (options, http) =>
  serve(createServer(options), http),
);

export default run;
