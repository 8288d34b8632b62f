import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { withinCallTimeLimit } from './call-time-limit.ts';
import { freshnessOutput, locationArguments, locationOutput } from './location-arguments.ts';
import {
  hourlyParameters,
  readCurrent,
  readSeries,
  type SeriesField,
  seriesShape,
  unitsOf,
  variablesOf,
} from './open-meteo-answer.ts';
import { resolveLocation } from './resolve-location.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { fetchOpenMeteo, weatherResult } from './weather-result.ts';
import type { WeatherServerContext } from './weather-server-context.ts';

const pollutantFields: readonly SeriesField[] = [
  { name: 'us_aqi', variable: 'us_aqi', description: 'US EPA AQI, 0-500' },
  { name: 'european_aqi', variable: 'european_aqi', description: 'European AQI, 0-100+' },
  { name: 'pm2_5', variable: 'pm2_5' },
  { name: 'pm10', variable: 'pm10' },
  { name: 'ozone', variable: 'ozone' },
  { name: 'nitrogen_dioxide', variable: 'nitrogen_dioxide' },
  { name: 'sulphur_dioxide', variable: 'sulphur_dioxide' },
  { name: 'carbon_monoxide', variable: 'carbon_monoxide' },
  { name: 'dust', variable: 'dust' },
  { name: 'uv_index', variable: 'uv_index' },
];

/** US EPA AQI bands. */
const usBands: readonly [number, string][] = [
  [50, 'good'],
  [100, 'moderate'],
  [150, 'unhealthy for sensitive groups'],
  [200, 'unhealthy'],
  [300, 'very unhealthy'],
  [Number.POSITIVE_INFINITY, 'hazardous'],
];

/** European Environment Agency AQI bands. */
const europeanBands: readonly [number, string][] = [
  [20, 'good'],
  [40, 'fair'],
  [60, 'moderate'],
  [80, 'poor'],
  [100, 'very poor'],
  [Number.POSITIVE_INFINITY, 'extremely poor'],
];

function band(value: unknown, bands: readonly [number, string][]): string | null {
  if (typeof value !== 'number') return null;
  return bands.find(([upTo]) => value <= upTo)?.[1] ?? null;
}

function withBands(row: Record<string, unknown>): Record<string, unknown> {
  return {
    ...row,
    us_aqi_category: band(row.us_aqi, usBands),
    european_aqi_category: band(row.european_aqi, europeanBands),
  };
}

export function createAirQualityTool(context: WeatherServerContext): Tool {
  return defineTool({
    name: 'get_air_quality',
    title: 'Air quality',
    description:
      'Air quality at a place (Open-Meteo CAMS, 11-40 km): US and European AQI, PM2.5, PM10, ozone, NO2, SO2, CO, ' +
      'dust, UV index. hours adds an hourly forecast. Local times.',
    input: () =>
      z.object({
        ...locationArguments(),
        hours: z.number().int().min(0).max(120).default(0).describe('From the current hour'),
      }),
    output: () => {
      const pollutants = seriesShape(pollutantFields);
      return z.object({
        location: locationOutput(),
        units: z.record(z.string(), z.string()),
        current: z.object({
          time: z.string().nullable(),
          ...pollutants,
          us_aqi_category: z.string().nullable(),
          european_aqi_category: z.string().nullable(),
        }),
        hourly: z
          .array(
            z.object({
              time: z.string(),
              ...pollutants,
              us_aqi_category: z.string().nullable(),
              european_aqi_category: z.string().nullable(),
            }),
          )
          .optional(),
        freshness: freshnessOutput(),
        notes: z.array(z.string()).optional(),
      });
    },
    jsonSchemas: toolJsonSchemas.get_air_quality,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    run: (args, call) =>
      withinCallTimeLimit(context.callTimeLimitMs, call.signal, async (signal) => {
        const location = await resolveLocation(context, args, signal);
        const params = { current: variablesOf(pollutantFields), ...hourlyParameters(pollutantFields, args.hours) };
        const cached = await fetchOpenMeteo(
          context,
          { base: context.airQualityUrl, path: '/v1/air-quality', kind: 'airQuality', params },
          location,
          signal,
        );
        const answer = cached.value;
        const data: Record<string, unknown> = {
          units: unitsOf(pollutantFields, answer.current_units),
          current: withBands(readCurrent(answer, pollutantFields)),
        };
        if (args.hours > 0) data.hourly = readSeries(answer, 'hourly', pollutantFields, args.hours).map(withBands);
        return weatherResult(data, location, cached, answer.timezone);
      }),
  });
}
