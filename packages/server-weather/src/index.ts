/**
 * A weather MCP server on Open-Meteo and the US National Weather Service:
 * keep-alive connections, timeouts, retries with backoff, and a cache that
 * serves its last answer, marked stale, when an upstream fails.
 *
 * @module
 */
export { createWeatherServer } from './create-weather-server.ts';
export { type WeatherServerOptions, weatherServerOptions } from './weather-server-options.ts';
