/**
 * The `toolshed-weather` bin: flags and environment → createWeatherServer →
 * stdio, or Streamable HTTP with --http.
 * The run is the default export, for the bundle's start module to wait on.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { createWeatherServer } from './create-weather-server.ts';
import { weatherCli } from './weather-cli.ts';

const run: Promise<void> = runServerCli(weatherCli, process.argv.slice(2), process.env, (options, http) =>
  serve(createWeatherServer(options), http),
);

export default run;
