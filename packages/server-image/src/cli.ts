/**
 * The `toolshed-image` bin: directories as arguments, flags and environment →
 * createImageServer → stdio, or Streamable HTTP with --http.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { createImageServer } from './create-image-server.ts';
import { imageCli } from './image-cli.ts';

await runServerCli(imageCli, process.argv.slice(2), process.env, (options, http) =>
  serve(createImageServer(options), http),
);
