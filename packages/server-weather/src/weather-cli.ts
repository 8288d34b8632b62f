import { defineServerCli, packageVersion, type ServerCli } from '@toolshed/mcp-core';
import { weatherServerOptions } from './weather-server-options.ts';

/** The `toolshed-weather` bin, derived from the options schema. */
export const weatherCli: ServerCli<typeof weatherServerOptions> = defineServerCli({
  name: 'toolshed-weather',
  version: packageVersion(import.meta.url),
  summary: 'Weather from Open-Meteo and US alerts from NWS, as an MCP server over stdio or Streamable HTTP',
  options: weatherServerOptions,
  envPrefix: 'TOOLSHED_WEATHER',
  examples: [
    'toolshed-weather --contact ops@example.com',
    'toolshed-weather --units imperial --http 127.0.0.1:3000',
    'OPEN_METEO_API_KEY=… toolshed-weather --forecast-url https://customer-api.open-meteo.com',
  ],
});
