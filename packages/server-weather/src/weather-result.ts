import { structuredResult, type ToolResult, textContent } from '@toolshed/mcp-core';
import { formatCoordinate } from './coordinates.ts';
import type { Freshness } from './location-arguments.ts';
import { type OpenMeteoAnswer, openMeteoAnswer } from './open-meteo-answer.ts';
import type { ResolvedLocation } from './resolve-location.ts';
import type { CachedValue } from './response-cache.ts';
import { type AnswerKind, fetchUpstream, type WeatherServerContext } from './weather-server-context.ts';

/** An Open-Meteo answer for a point, in its local time zone, times as instants. */
export function fetchOpenMeteo(
  context: WeatherServerContext,
  request: { base: URL; path: string; kind: AnswerKind; params: Record<string, string> },
  location: ResolvedLocation,
  signal: AbortSignal,
): Promise<CachedValue<OpenMeteoAnswer>> {
  return fetchUpstream(context, {
    upstream: 'Open-Meteo',
    base: request.base,
    path: request.path,
    kind: request.kind,
    schema: openMeteoAnswer(),
    params: {
      latitude: formatCoordinate(location.latitude),
      longitude: formatCoordinate(location.longitude),
      timezone: 'auto',
      timeformat: 'unixtime',
      ...request.params,
    },
    signal,
  });
}

export function freshnessOf(cached: CachedValue<unknown>): Freshness {
  const freshness: Freshness = {
    fetched_at: new Date(cached.fetchedAt).toISOString(),
    from_cache: cached.cacheHit,
    stale: cached.stale,
  };
  if (cached.stale && cached.error !== undefined) freshness.stale_reason = cached.error.message;
  return freshness;
}

/**
 * A weather tool's result: the data, where it is for, how fresh it is, and
 * notes the model should pass on (which place a name was taken to mean; that
 * the answer is stale and why).
 */
export function weatherResult(
  data: Record<string, unknown>,
  location: ResolvedLocation,
  cached: CachedValue<unknown>,
  timezone: string | null,
  extraNotes: readonly string[] = [],
  /** The result's text, when it is not the JSON of the result (alerts fence their third-party text). */
  textOf?: (result: Record<string, unknown>) => string,
): ToolResult {
  const notes = [...extraNotes];
  if (location.note !== undefined) notes.unshift(location.note);
  if (cached.stale) {
    const minutes = Math.round((Date.now() - cached.fetchedAt) / 60_000);
    notes.push(
      `The upstream failed just now (${cached.error?.message ?? 'unknown error'}); this is its last answer, from ${minutes} min ago.`,
    );
  }
  const result = {
    location: { ...location.output, timezone: location.output.timezone ?? timezone },
    ...data,
    freshness: freshnessOf(cached),
    ...(notes.length > 0 ? { notes } : {}),
  };
  return structuredResult(result, {
    ...(textOf === undefined ? {} : { text: textOf(result) }),
    ...(location.defaultLine === undefined ? {} : { content: [textContent(location.defaultLine)] }),
  });
}
