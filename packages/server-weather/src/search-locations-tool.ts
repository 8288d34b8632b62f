import { defineTool, structuredResult, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { roundCoordinate } from './coordinates.ts';
import { searchPlaces } from './geocoding.ts';
import { freshnessOutput } from './location-arguments.ts';
import { freshnessOf } from './weather-result.ts';
import type { WeatherSources } from './weather-sources.ts';

export function createSearchLocationsTool(sources: WeatherSources): Tool {
  return defineTool({
    name: 'search_locations',
    title: 'Search places',
    description:
      'Finds places by name (cities, towns, villages, some landmarks and postal codes) with Open-Meteo geocoding, best match first: name, region levels, country, coordinates, time zone, elevation and population. ' +
      'Use it when a name is ambiguous or was not found by the weather tools, then pass the chosen latitude and longitude to them. ' +
      'Search one name, without region or country ("Springfield", not "Springfield, IL"); narrow with country_code.',
    input: z.object({
      name: z.string().trim().min(2).max(200).describe('Place name or postal code, at least 2 characters'),
      count: z.number().int().min(1).max(100).default(10).describe('Candidates to return (1-100)'),
      country_code: z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 code such as "US" or "DE"')
        .optional()
        .describe('Only places in this country: ISO 3166-1 alpha-2, e.g. "US", "DE"'),
      language: z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'a two-letter language code such as "en" or "de"')
        .default('en')
        .describe('Language of the names returned, two letters (default en)'),
    }),
    output: z.object({
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
      freshness: freshnessOutput,
      notes: z.array(z.string()).optional(),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(args, context) {
      const cached = await searchPlaces(
        sources,
        { name: args.name, count: args.count, countryCode: args.country_code, language: args.language.toLowerCase() },
        context.signal,
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
    },
  });
}
