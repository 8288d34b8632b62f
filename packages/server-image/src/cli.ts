/**
 * The `toolshed-image` bin: directories as arguments, flags and environment →
 * createImageServer → stdio, or Streamable HTTP with --http.
 * The run is the default export, for the bundle's start module to wait on.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { createImageServer } from './create-image-server.ts';
import { imageCli } from './image-cli.ts';

const run: Promise<void> = runServerCli(imageCli, process.argv.slice(2), process.env, async (options, http) => {
  const server = createImageServer(options);
  await serve(server, http);
  // Closed here too, for HTTP, whose shutdown closes the endpoint only: an OCR worker thread kept for the next call
  // would otherwise hold the process open.
  await server.close();
});

export default run;
