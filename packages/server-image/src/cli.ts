/**
 * The `toolshed-image` bin: directories as arguments, flags and environment →
 * createImageServer → stdio, or Streamable HTTP with --http.
 * The run is the default export, for the bundle's start module to wait on.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { createImageServer } from './create-image-server.ts';
import { imageCli } from './image-cli.ts';

const run: Promise<void> = runServerCli(imageCli, process.argv.slice(2), process.env, (options, http) =>
  serve(createImageServer(options), http),
);

export default run;
