import type * as z from 'zod';
import { describeTimeLimit, isTimeLimitReason } from './call-time-limit.ts';
import type { LocationArguments } from './resolve-location.ts';
import type { CachedValue, ResponseCache } from './response-cache.ts';
import type { UpstreamClient } from './upstream-client.ts';
import { UpstreamError } from './upstream-error.ts';
import { parseXmlFeed } from './xml-feed.ts';

export type UnitSystem = 'metric' | 'imperial';

/** Kinds of answer, each with its own time to live. */
export type AnswerKind = 'geocoding' | 'current' | 'forecast' | 'airQuality' | 'alerts' | 'points';

/** Everything the tools share within one server: the client, the cache, the upstreams and defaults. */
export interface WeatherServerContext {
  client: UpstreamClient;
  cache: ResponseCache;
  forecastUrl: URL;
  archiveUrl: URL;
  geocodingUrl: URL;
  airQualityUrl: URL;
  nwsUrl: URL;
  meteoalarmUrl: URL;
  environmentCanadaUrl: URL;
  openMeteoApiKey: string | undefined;
  ttlMs: Readonly<Record<AnswerKind, number>>;
  defaultUnits: UnitSystem;
  /** Where calls that name no place are for, when the server has a default location. */
  defaultLocation: LocationArguments | undefined;
  /** Milliseconds a whole call may take (see call-time-limit.ts). */
  callTimeLimitMs: number;
}

/** The upstreams by the names their messages use. */
export type UpstreamName = 'Open-Meteo' | 'NWS' | 'MeteoAlarm' | 'Environment Canada';

const acceptedTypes: Readonly<Record<UpstreamName, string>> = {
  'Open-Meteo': 'application/json',
  NWS: 'application/geo+json',
  MeteoAlarm: 'application/atom+xml, application/xml',
  'Environment Canada': 'application/atom+xml, application/xml',
};

export interface UpstreamQuery<Schema extends z.ZodType> {
  upstream: UpstreamName;
  /** `json` (the default), or `xml`: an Atom or CAP feed, checked against `schema` as fast-xml-parser's tree. */
  format?: 'json' | 'xml';
  base: URL;
  path: string;
  params?: Readonly<Record<string, string>>;
  kind: AnswerKind;
  /** The shape the answer must have; anything else is an upstream failure, not a crash. */
  schema: Schema;
  signal?: AbortSignal | undefined;
  /** Turns chosen upstream failures into answers worth caching (NWS's "not my area"). */
  recover?: (error: UpstreamError) => z.output<Schema> | undefined;
}

/** A URL under a configured base, which may itself have a path (a proxy's prefix). */
export function upstreamUrl(base: URL, path: string, params: Readonly<Record<string, string>> = {}): URL {
  const url = new URL(path.replace(/^\//, ''), base.href.endsWith('/') ? base : `${base.href}/`);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

/**
 * One upstream answer through the cache: fetched (with retries) when missing
 * or expired, checked against its schema, and kept for its kind's time to live.
 */
export async function fetchUpstream<Schema extends z.ZodType>(
  context: WeatherServerContext,
  query: UpstreamQuery<Schema>,
): Promise<CachedValue<z.output<Schema>>> {
  const params = { ...query.params };
  if (query.upstream === 'Open-Meteo' && context.openMeteoApiKey !== undefined) {
    params.apikey = context.openMeteoApiKey;
  }
  const url = upstreamUrl(query.base, query.path, params);
  try {
    return await cachedUpstream(context, query, url);
  } catch (error) {
    if (query.signal?.aborted !== true || !isTimeLimitReason(error)) throw error;
    throw new UpstreamError(
      query.upstream,
      'timeout',
      `${query.upstream} did not answer within ${describeTimeLimit(context.callTimeLimitMs)}, the time limit of a call; try again in a minute.`,
      { attempts: 1 },
    );
  }
}

function cachedUpstream<Schema extends z.ZodType>(
  context: WeatherServerContext,
  query: UpstreamQuery<Schema>,
  url: URL,
): Promise<CachedValue<z.output<Schema>>> {
  const accept = acceptedTypes[query.upstream];
  const xml = query.format === 'xml';
  return context.cache.get(
    url.href,
    context.ttlMs[query.kind],
    async (signal) => {
      try {
        const response = await context.client.get({
          upstream: query.upstream,
          url,
          accept,
          signal,
          format: xml ? 'text' : 'json',
        });
        const body = xml ? await parseXmlFeed(response.body as string) : response.body;
        if (body === undefined) {
          throw new UpstreamError(
            query.upstream,
            'malformed',
            `${query.upstream} sent a response that is not a feed this server reads (not well-formed XML); try again later.`,
            { attempts: 1 },
          );
        }
        const parsed = query.schema.safeParse(body);
        if (!parsed.success) {
          throw new UpstreamError(
            query.upstream,
            'malformed',
            `${query.upstream} answered in a shape this server does not know (${parsed.error.issues[0]?.path.join('.') || 'body'}: ${parsed.error.issues[0]?.message}); try again later.`,
            { attempts: 1 },
          );
        }
        return { value: parsed.data, bytes: response.bytes };
      } catch (error) {
        const recovered = error instanceof UpstreamError ? query.recover?.(error) : undefined;
        if (recovered === undefined) throw error;
        return { value: recovered, bytes: 256 };
      }
    },
    query.signal,
  );
}
