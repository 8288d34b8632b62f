/**
 * The `toolshed-filesystem` bin: allowed directories as arguments, as the
 * reference server takes them, plus flags and environment → stdio, or
 * Streamable HTTP with --http. The run is the default export, for the bundle's
 * start module to wait on.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { createFilesystemServer } from './create-filesystem-server.ts';
import { filesystemCli } from './filesystem-cli.ts';

const run: Promise<void> = runServerCli(filesystemCli, process.argv.slice(2), process.env, (options, http) => {
  if (options.directories.length === 0) {
    process.stderr.write(
      "toolshed-filesystem: no directories given; the client's roots are the allowed directories (a client without roots can use none)\n",
    );
  }
  return serve(createFilesystemServer(options), http);
});

export default run;
