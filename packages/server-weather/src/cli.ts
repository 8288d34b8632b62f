/**
 * The `toolshed-weather` bin: flags and environment → createWeatherServer →
 * stdio, or Streamable HTTP with --http.
 */
import {
  defineCli,
  httpCliOptions,
  LocalError,
  limitOption,
  runCli,
  serve,
  withoutHttpValues,
} from '@toolshed/mcp-core';
import { createWeatherServer } from './create-weather-server.ts';
import { defaultUpstreamUrls, defaultWeatherLimits } from './weather-server-options.ts';

const limits = defaultWeatherLimits;

const cli = defineCli({
  name: 'toolshed-weather',
  version: '0.1.0',
  summary: 'Weather from Open-Meteo and US alerts from NWS, as an MCP server over stdio or Streamable HTTP',
  options: {
    contact: {
      type: 'string',
      env: 'TOOLSHED_WEATHER_CONTACT',
      placeholder: 'EMAIL|URL',
      description: 'How the upstreams can reach you, sent in the User-Agent (NWS asks every client for one)',
    },
    units: {
      type: 'string',
      env: 'TOOLSHED_WEATHER_UNITS',
      placeholder: 'metric|imperial',
      default: 'metric',
      description: 'Units when a call does not choose: metric (°C, km/h, mm) or imperial (°F, mph, inch)',
    },
    forecastUrl: {
      type: 'string',
      env: 'TOOLSHED_WEATHER_FORECAST_URL',
      placeholder: 'URL',
      default: defaultUpstreamUrls.forecastUrl,
      description: 'Open-Meteo forecast API',
    },
    geocodingUrl: {
      type: 'string',
      env: 'TOOLSHED_WEATHER_GEOCODING_URL',
      placeholder: 'URL',
      default: defaultUpstreamUrls.geocodingUrl,
      description: 'Open-Meteo geocoding API',
    },
    airQualityUrl: {
      type: 'string',
      env: 'TOOLSHED_WEATHER_AIR_QUALITY_URL',
      placeholder: 'URL',
      default: defaultUpstreamUrls.airQualityUrl,
      description: 'Open-Meteo air-quality API',
    },
    nwsUrl: {
      type: 'string',
      env: 'TOOLSHED_WEATHER_NWS_URL',
      placeholder: 'URL',
      default: defaultUpstreamUrls.nwsUrl,
      description: 'US National Weather Service API (alerts)',
    },
    connectTimeoutMs: limitOption(
      'TOOLSHED_WEATHER_CONNECT_TIMEOUT_MS',
      'Milliseconds to open a connection',
      limits.connectTimeoutMs,
    ),
    headersTimeoutMs: limitOption(
      'TOOLSHED_WEATHER_HEADERS_TIMEOUT_MS',
      'Milliseconds to wait for response headers',
      limits.headersTimeoutMs,
    ),
    bodyTimeoutMs: limitOption(
      'TOOLSHED_WEATHER_BODY_TIMEOUT_MS',
      'Milliseconds a response body may go quiet',
      limits.bodyTimeoutMs,
    ),
    requestTimeoutMs: limitOption(
      'TOOLSHED_WEATHER_REQUEST_TIMEOUT_MS',
      'Milliseconds one try may take in all, connecting to the last byte',
      limits.requestTimeoutMs,
    ),
    maxAttempts: limitOption(
      'TOOLSHED_WEATHER_MAX_ATTEMPTS',
      'Tries per upstream request, the first included (429, 5xx and network failures are retried)',
      limits.maxAttempts,
    ),
    retryDelayMs: limitOption(
      'TOOLSHED_WEATHER_RETRY_DELAY_MS',
      'Base of the jittered exponential backoff between tries',
      limits.retryDelayMs,
    ),
    maxRetryDelayMs: limitOption(
      'TOOLSHED_WEATHER_MAX_RETRY_DELAY_MS',
      'Longest wait between tries; a longer Retry-After fails the call saying when to try again',
      limits.maxRetryDelayMs,
    ),
    maxResponseBytes: limitOption(
      'TOOLSHED_WEATHER_MAX_RESPONSE_BYTES',
      'Bytes an upstream response may have',
      limits.maxResponseBytes,
    ),
    maxConnections: limitOption(
      'TOOLSHED_WEATHER_MAX_CONNECTIONS',
      'Keep-alive connections per upstream host; more requests queue on them',
      limits.maxConnections,
    ),
    geocodingTtlSeconds: limitOption(
      'TOOLSHED_WEATHER_GEOCODING_TTL_SECONDS',
      'Seconds place searches (and NWS point lookups) stay cached',
      limits.geocodingTtlSeconds,
    ),
    currentTtlSeconds: limitOption(
      'TOOLSHED_WEATHER_CURRENT_TTL_SECONDS',
      'Seconds current conditions stay cached',
      limits.currentTtlSeconds,
    ),
    forecastTtlSeconds: limitOption(
      'TOOLSHED_WEATHER_FORECAST_TTL_SECONDS',
      'Seconds forecasts stay cached',
      limits.forecastTtlSeconds,
    ),
    airQualityTtlSeconds: limitOption(
      'TOOLSHED_WEATHER_AIR_QUALITY_TTL_SECONDS',
      'Seconds air quality stays cached',
      limits.airQualityTtlSeconds,
    ),
    alertsTtlSeconds: limitOption(
      'TOOLSHED_WEATHER_ALERTS_TTL_SECONDS',
      'Seconds alerts stay cached',
      limits.alertsTtlSeconds,
    ),
    maxStaleSeconds: limitOption(
      'TOOLSHED_WEATHER_MAX_STALE_SECONDS',
      'Seconds past freshness an answer is still served, marked stale, when the upstream fails',
      limits.maxStaleSeconds,
    ),
    cacheMaxBytes: limitOption(
      'TOOLSHED_WEATHER_CACHE_MAX_BYTES',
      'Bytes of upstream answers kept in memory',
      limits.cacheMaxBytes,
    ),
    ...httpCliOptions,
  },
  examples: [
    'toolshed-weather --contact ops@example.com',
    'toolshed-weather --units imperial --http 127.0.0.1:3000',
    'OPEN_METEO_API_KEY=… toolshed-weather --forecast-url https://customer-api.open-meteo.com',
  ],
});

await runCli(cli, process.argv.slice(2), process.env, (options) => {
  const { units, ...own } = withoutHttpValues(options);
  if (units !== 'metric' && units !== 'imperial') {
    throw new LocalError('config_invalid', `--units must be metric or imperial; got ${units}`);
  }
  return serve(createWeatherServer({ ...own, units, openMeteoApiKey: process.env.OPEN_METEO_API_KEY }), options);
});
