import { onFirstUse } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { CachedValue } from './response-cache.ts';
import { fetchUpstream, type WeatherServerContext } from './weather-server-context.ts';

/** A place as Open-Meteo's geocoding knows it; absent fields are null. */
export interface Place {
  id: number | null;
  name: string;
  latitude: number;
  longitude: number;
  elevation: number | null;
  feature_code: string | null;
  country_code: string | null;
  country: string | null;
  admin1: string | null;
  admin2: string | null;
  admin3: string | null;
  timezone: string | null;
  population: number | null;
}

/** Open-Meteo's geocoding answer; `results` is absent, not empty, when nothing matched. */
type GeocodingAnswerSchema = z.ZodType<{ results?: Place[] | undefined }>;

const geocodingAnswer = onFirstUse(buildGeocodingAnswer);

function buildGeocodingAnswer(): GeocodingAnswerSchema {
  const nullableString = z
    .string()
    .nullish()
    .transform((value) => value ?? null);
  const nullableNumber = z
    .number()
    .nullish()
    .transform((value) => value ?? null);
  return z.object({
    results: z
      .array(
        z.object({
          id: nullableNumber,
          name: z.string(),
          latitude: z.number(),
          longitude: z.number(),
          elevation: nullableNumber,
          feature_code: nullableString,
          country_code: nullableString,
          country: nullableString,
          admin1: nullableString,
          admin2: nullableString,
          admin3: nullableString,
          timezone: nullableString,
          population: nullableNumber,
        }),
      )
      .optional(),
  });
}

export interface PlaceSearch {
  name: string;
  count: number;
  countryCode?: string | undefined;
  language: string;
}

/** Places whose name matches, best first (Open-Meteo ranks by match and population). */
export async function searchPlaces(
  context: WeatherServerContext,
  search: PlaceSearch,
  signal?: AbortSignal,
): Promise<CachedValue<Place[]>> {
  const params: Record<string, string> = {
    name: search.name,
    count: String(search.count),
    language: search.language,
    format: 'json',
  };
  if (search.countryCode !== undefined) params.countryCode = search.countryCode.toUpperCase();
  const answer = await fetchUpstream(context, {
    upstream: 'Open-Meteo',
    base: context.geocodingUrl,
    path: '/v1/search',
    params,
    kind: 'geocoding',
    schema: geocodingAnswer(),
    signal,
  });
  return { ...answer, value: answer.value.results ?? [] };
}

/** "Springfield, Illinois, United States" */
export function placeLabel(place: Place): string {
  const parts = [place.name];
  for (const part of [place.admin1, place.country]) {
    if (part !== null && part !== '' && !parts.includes(part)) parts.push(part);
  }
  return parts.join(', ');
}
