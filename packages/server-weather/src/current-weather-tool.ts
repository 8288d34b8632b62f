import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { withinCallTimeLimit } from './call-time-limit.ts';
import { conditionFields } from './condition-fields.ts';
import { freshnessOutput, locationArguments, locationOutput, unitsArgument } from './location-arguments.ts';
import {
  readCurrent,
  type SeriesField,
  seriesShape,
  unitParameters,
  unitsOf,
  variablesOf,
} from './open-meteo-answer.ts';
import { resolveLocation } from './resolve-location.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { fetchOpenMeteo, weatherResult } from './weather-result.ts';
import type { WeatherServerContext } from './weather-server-context.ts';

const currentFields: readonly SeriesField[] = [
  ...conditionFields,
  { name: 'dew_point', variable: 'dew_point_2m' },
  { name: 'pressure_msl', variable: 'pressure_msl', description: 'Air pressure reduced to sea level' },
  { name: 'uv_index', variable: 'uv_index' },
  { name: 'is_day', variable: 'is_day', kind: 'flag' },
];

export function createCurrentWeatherTool(context: WeatherServerContext): Tool {
  return defineTool({
    name: 'get_current_weather',
    title: 'Current weather',
    description:
      'Current conditions at a place (Open-Meteo, every 15 min): temperature, feels-like, humidity, precipitation, ' +
      'conditions, clouds, pressure, wind, UV index, day or night. Local time.',
    input: () => z.object({ ...locationArguments(), units: unitsArgument() }),
    output: () =>
      z.object({
        location: locationOutput(),
        units: z.record(z.string(), z.string()).describe('Unit of each numeric field, e.g. temperature: "°C"'),
        current: z.object({
          time: z.string().nullable().describe('When these conditions were observed or modelled, local ISO 8601'),
          ...seriesShape(currentFields),
        }),
        freshness: freshnessOutput(),
        notes: z.array(z.string()).optional(),
      }),
    jsonSchemas: toolJsonSchemas.get_current_weather,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    run: (args, call) =>
      withinCallTimeLimit(context.callTimeLimitMs, call.signal, async (signal) => {
        const location = await resolveLocation(context, args, signal);
        const units = args.units ?? context.defaultUnits;
        const cached = await fetchOpenMeteo(
          context,
          {
            base: context.forecastUrl,
            path: '/v1/forecast',
            kind: 'current',
            params: { current: variablesOf(currentFields), ...unitParameters(units) },
          },
          location,
          signal,
        );
        const answer = cached.value;
        return weatherResult(
          { units: unitsOf(currentFields, answer.current_units), current: readCurrent(answer, currentFields) },
          location,
          cached,
          answer.timezone,
        );
      }),
  });
}
