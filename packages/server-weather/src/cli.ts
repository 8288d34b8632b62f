/**
 * The `toolshed-weather` bin: flags and environment → createWeatherServer →
 * stdio, or Streamable HTTP with --http.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { createWeatherServer } from './create-weather-server.ts';
import { weatherCli } from './weather-cli.ts';

await runServerCli(weatherCli, process.argv.slice(2), process.env, (options, http) =>
  serve(createWeatherServer(options), http),
);
