import { createMcpServer, type McpServer, packageVersion, parseOptions } from '@toolshed/mcp-core';
import { createAirQualityTool } from './air-quality-tool.ts';
import { createCurrentWeatherTool } from './current-weather-tool.ts';
import { defaultLocationArguments } from './default-location.ts';
import { createForecastTool } from './forecast-tool.ts';
import { createForecastView } from './forecast-view.ts';
import { ResponseCache } from './response-cache.ts';
import { createSearchLocationsTool } from './search-locations-tool.ts';
import { UpstreamClient } from './upstream-client.ts';
import { createWeatherAlertsTool } from './weather-alerts-tool.ts';
import type { WeatherServerContext } from './weather-server-context.ts';
import { type WeatherServerOptions, weatherServerOptions } from './weather-server-options.ts';

const serverVersion = packageVersion(import.meta.url);
const projectUrl = 'https://github.com/toolshed/toolshed';

/**
 * A weather server: search_locations, get_current_weather, get_forecast and
 * get_air_quality from Open-Meteo, get_weather_alerts from the US National
 * Weather Service. Each server has its own connections and cache; closing it
 * closes them.
 *
 * @example
 * const server = createWeatherServer({ contact: 'ops@example.com', units: 'imperial' });
 * await server.connect(createStdioServerTransport());
 */
export function createWeatherServer(input: WeatherServerOptions = {}): McpServer {
  const options = parseOptions(weatherServerOptions, input, '@toolshed/server-weather options');
  const { limits, upstreams, contact } = options;
  const client = new UpstreamClient({
    ...limits,
    userAgent: `toolshed-weather/${serverVersion} (${contact === undefined || contact === '' ? projectUrl : `${projectUrl}; ${contact}`})`,
  });
  const seconds = (value: number) => value * 1000;
  const context: WeatherServerContext = {
    client,
    cache: new ResponseCache({ maxStaleMs: seconds(limits.maxStaleSeconds), maxBytes: limits.cacheMaxBytes }),
    forecastUrl: new URL(upstreams.forecastUrl),
    archiveUrl: new URL(upstreams.archiveUrl),
    geocodingUrl: new URL(upstreams.geocodingUrl),
    airQualityUrl: new URL(upstreams.airQualityUrl),
    nwsUrl: new URL(upstreams.nwsUrl),
    meteoalarmUrl: new URL(upstreams.meteoalarmUrl),
    environmentCanadaUrl: new URL(upstreams.environmentCanadaUrl),
    openMeteoApiKey: options.openMeteoApiKey === '' ? undefined : options.openMeteoApiKey,
    ttlMs: {
      geocoding: seconds(limits.geocodingTtlSeconds),
      current: seconds(limits.currentTtlSeconds),
      forecast: seconds(limits.forecastTtlSeconds),
      airQuality: seconds(limits.airQualityTtlSeconds),
      alerts: seconds(limits.alertsTtlSeconds),
      // Which office and zone a point belongs to changes with NWS reorganisations, not with the weather.
      points: seconds(limits.geocodingTtlSeconds),
    },
    defaultUnits: options.units,
    callTimeLimitMs: limits.callTimeoutMs,
    defaultLocation:
      options.defaultLocation === undefined ? undefined : defaultLocationArguments(options.defaultLocation),
  };
  return createMcpServer({
    name: 'toolshed-weather',
    title: 'Toolshed Weather (Open-Meteo, NWS, MeteoAlarm, Environment Canada)',
    version: serverVersion,
    instructions:
      'Weather anywhere from Open-Meteo, and weather alerts from the US National Weather Service, MeteoAlarm (Europe) and Environment Canada. ' +
      'Every tool takes a place name (qualify it with region or country after a comma: "Portland, Oregon") or latitude/longitude; ' +
      'use search_locations when a name is ambiguous. Results state their units and give local times in ISO 8601. ' +
      'Answers are cached for minutes; `freshness.stale: true` means the upstream is failing and the answer is older than usual — say so. ' +
      (options.defaultLocation === undefined
        ? ''
        : `A call that names no place is for the default location, ${options.defaultLocation}. `) +
      'Weather data by Open-Meteo.com (CC BY 4.0); alerts by the US National Weather Service, EUMETNET MeteoAlarm and Environment and Climate Change Canada.',
    tools: [
      createSearchLocationsTool(context),
      createCurrentWeatherTool(context),
      createForecastTool(context),
      createAirQualityTool(context),
      createWeatherAlertsTool(context),
    ],
    resources: [createForecastView()],
    onClose: () => client.close(),
  });
}
