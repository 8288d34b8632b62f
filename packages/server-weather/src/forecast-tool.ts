import { defineTool, type Tool, toolViewMeta } from '@toolshed/mcp-core';
import * as z from 'zod';
import { withinCallTimeLimit } from './call-time-limit.ts';
import { conditionFields } from './condition-fields.ts';
import { planDatedRequest } from './forecast-dates.ts';
import { forecastViewUri } from './forecast-view.ts';
import { freshnessOutput, locationArguments, locationOutput, unitsArgument } from './location-arguments.ts';
import {
  hourlyParameters,
  readSeries,
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

const dailyFields: readonly SeriesField[] = [
  { name: 'weather_code', variable: 'weather_code', kind: 'code' },
  { name: 'temperature_max', variable: 'temperature_2m_max' },
  { name: 'temperature_min', variable: 'temperature_2m_min' },
  { name: 'apparent_temperature_max', variable: 'apparent_temperature_max' },
  { name: 'apparent_temperature_min', variable: 'apparent_temperature_min' },
  { name: 'precipitation_sum', variable: 'precipitation_sum' },
  { name: 'precipitation_probability_max', variable: 'precipitation_probability_max', forecastOnly: true },
  { name: 'precipitation_hours', variable: 'precipitation_hours' },
  { name: 'wind_speed_max', variable: 'wind_speed_10m_max' },
  { name: 'wind_gusts_max', variable: 'wind_gusts_10m_max' },
  {
    name: 'wind_direction_dominant',
    variable: 'wind_direction_10m_dominant',
    description: 'Degrees the wind mostly comes from, 0 = north',
  },
  { name: 'uv_index_max', variable: 'uv_index_max', forecastOnly: true },
  { name: 'sunrise', variable: 'sunrise', kind: 'instant' },
  { name: 'sunset', variable: 'sunset', kind: 'instant' },
];

const hourlyFields: readonly SeriesField[] = [
  ...conditionFields,
  { name: 'precipitation_probability', variable: 'precipitation_probability', forecastOnly: true },
];

/** What the archive has of each block: reanalysis knows what happened, so it has no chances and no UV index. */
const archivedDailyFields = dailyFields.filter((field) => field.forecastOnly !== true);
const archivedHourlyFields = hourlyFields.filter((field) => field.forecastOnly !== true);

const archiveNote =
  'Past weather from the Open-Meteo archive (reanalysis): it has no precipitation probability or UV index, so those are null.';

const maxHours = 168;

export function createForecastTool(context: WeatherServerContext): Tool {
  return defineTool({
    name: 'get_forecast',
    title: 'Weather forecast and history',
    description:
      'Daily forecast at a place (Open-Meteo), today first: conditions, high/low, precipitation and its chance, ' +
      'wind, UV index, sunrise and sunset. hours adds hourly detail. start_date gives other days, past ones back to 1940. Local times.',
    input: () =>
      z.object({
        ...locationArguments(),
        days: z.number().int().min(1).max(16).default(7),
        hours: z.number().int().min(0).max(maxHours).default(0).describe('From the current hour, or start_date'),
        start_date: z.string().optional().describe('YYYY-MM-DD, local; default today'),
        units: unitsArgument(),
      }),
    output: () =>
      z.object({
        location: locationOutput(),
        units: z.object({
          daily: z.record(z.string(), z.string()),
          hourly: z.record(z.string(), z.string()).optional(),
        }),
        daily: z.array(z.object({ date: z.string().describe('Local date, YYYY-MM-DD'), ...seriesShape(dailyFields) })),
        hourly: z.array(z.object({ time: z.string(), ...seriesShape(hourlyFields) })).optional(),
        source: z
          .enum(['forecast', 'archive'])
          .describe('archive: past days from reanalysis, without precipitation probability or UV index'),
        freshness: freshnessOutput(),
        notes: z.array(z.string()).optional(),
      }),
    jsonSchemas: toolJsonSchemas.get_forecast,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    // Clients that render views show the result as a forecast card.
    meta: toolViewMeta({ resourceUri: forecastViewUri }),
    run: (args, call) =>
      withinCallTimeLimit(context.callTimeLimitMs, call.signal, async (signal) => {
        // Checked before the place is looked up: a date that cannot be served costs no request.
        const dated =
          args.start_date === undefined ? undefined : planDatedRequest(args.start_date, args.days, Date.now());
        const location = await resolveLocation(context, args, signal);
        const units = args.units ?? context.defaultUnits;
        const archived = dated?.source === 'archive';
        const daily = archived ? archivedDailyFields : dailyFields;
        const hourly = archived ? archivedHourlyFields : hourlyFields;
        const params: Record<string, string> = { daily: variablesOf(daily), ...unitParameters(units) };
        if (dated === undefined) {
          Object.assign(params, { forecast_days: String(args.days) }, hourlyParameters(hourly, args.hours));
        } else {
          Object.assign(params, { start_date: dated.startDate, end_date: dated.endDate });
          // Hourly rows of a dated request start at its first midnight; those past `hours` are dropped.
          if (args.hours > 0) params.hourly = variablesOf(hourly);
        }
        const cached = await fetchOpenMeteo(
          context,
          archived
            ? { base: context.archiveUrl, path: '/v1/archive', kind: 'forecast', params }
            : { base: context.forecastUrl, path: '/v1/forecast', kind: 'forecast', params },
          location,
          signal,
        );
        const answer = cached.value;
        const data: Record<string, unknown> = {
          units: { daily: unitsOf(dailyFields, answer.daily_units) },
          daily: readSeries(answer, 'daily', dailyFields, args.days),
        };
        if (args.hours > 0) {
          (data.units as Record<string, unknown>).hourly = unitsOf(hourlyFields, answer.hourly_units);
          data.hourly = readSeries(answer, 'hourly', hourlyFields, args.hours);
        }
        data.source = archived ? 'archive' : 'forecast';
        return weatherResult(data, location, cached, answer.timezone, archived ? [archiveNote] : []);
      }),
  });
}
