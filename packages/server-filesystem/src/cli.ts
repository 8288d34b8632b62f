/**
 * The `toolshed-filesystem` bin: allowed directories as arguments, as the
 * reference server takes them, plus flags and environment → stdio, or
 * Streamable HTTP with --http.
 */
import { LocalError, runServerCli, serve } from '@toolshed/mcp-core';
import { createFilesystemServer } from './create-filesystem-server.ts';
import { filesystemCli } from './filesystem-cli.ts';

await runServerCli(filesystemCli, process.argv.slice(2), process.env, (options, http) => {
  if (options.directories === undefined || options.directories.length === 0) {
    throw new LocalError(
      'config_invalid',
      'pass at least one directory to allow, as in toolshed-filesystem ~/projects',
    );
  }
  return serve(createFilesystemServer(options), http);
});
