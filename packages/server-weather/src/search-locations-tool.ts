import { defineTool, structuredResult, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { withinCallTimeLimit } from './call-time-limit.ts';
import { roundCoordinate } from './coordinates.ts';
import { searchPlaces } from './geocoding.ts';
import { freshnessOutput } from './location-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { freshnessOf } from './weather-result.ts';
import type { WeatherServerContext } from './weather-server-context.ts';

export function createSearchLocationsTool(context: WeatherServerContext): Tool {
  return defineTool({
    name: 'search_locations',
    title: 'Search places',
    description:
      'Find places by name or postal code, best first, with region, country, coordinates, time zone and population. ' +
      'For a name that is ambiguous or not found; pass the chosen latitude and longitude to the weather tools.',
    input: () =>
      z.object({
        name: z.string().trim().min(2).max(200).describe('One name, no region: "Springfield", not "Springfield, IL"'),
        count: z.number().int().min(1).max(100).default(10),
        country_code: z
          .string()
          .regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 code such as "US" or "DE"')
          .optional()
          .describe('ISO 3166-1 alpha-2, e.g. "US"'),
        language: z
          .string()
          .regex(/^[A-Za-z]{2}$/, 'a two-letter language code such as "en" or "de"')
          .default('en')
          .describe('Of the names returned'),
      }),
    output: () =>
      z.object({
        query: z.string(),
        count: z.number().int(),
        locations: z.array(
          z.object({
            name: z.string(),
            admin1: z.string().nullable().describe('First-level region: state, province, Land'),
            admin2: z.string().nullable().describe('Second-level region: county, district'),
            country: z.string().nullable(),
            country_code: z.string().nullable(),
            latitude: z.number(),
            longitude: z.number(),
            timezone: z.string().nullable(),
            elevation_m: z.number().nullable(),
            population: z.number().nullable(),
            feature_code: z
              .string()
              .nullable()
              .describe('GeoNames feature code: PPLC capital, PPLA region seat, PPL place…'),
          }),
        ),
        freshness: freshnessOutput(),
        notes: z.array(z.string()).optional(),
      }),
    jsonSchemas: toolJsonSchemas.search_locations,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    run: (args, call) =>
      withinCallTimeLimit(context.callTimeLimitMs, call.signal, async (signal) => {
        const cached = await searchPlaces(
          context,
          { name: args.name, count: args.count, countryCode: args.country_code, language: args.language.toLowerCase() },
          signal,
        );
        const locations = cached.value.map((place) => ({
          name: place.name,
          admin1: place.admin1,
          admin2: place.admin2,
          country: place.country,
          country_code: place.country_code,
          latitude: roundCoordinate(place.latitude),
          longitude: roundCoordinate(place.longitude),
          timezone: place.timezone,
          elevation_m: place.elevation,
          population: place.population,
          feature_code: place.feature_code,
        }));
        const notes: string[] = [];
        if (locations.length === 0) {
          notes.push(
            `No place named "${args.name}"${args.country_code === undefined ? '' : ` in ${args.country_code.toUpperCase()}`} was found. ` +
              (args.name.includes(',')
                ? 'Search the name alone, without region or country after a comma.'
                : 'Try another spelling, the name in the local language, or a nearby larger town.'),
          );
        }
        return structuredResult({
          query: args.name,
          count: locations.length,
          locations,
          freshness: freshnessOf(cached),
          ...(notes.length > 0 ? { notes } : {}),
        });
      }),
  });
}
