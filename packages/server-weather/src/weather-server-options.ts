import { limitOption } from '@toolshed/mcp-core';
import * as z from 'zod';
import { defaultLocationArguments } from './default-location.ts';

type Url = z.ZodDefault<z.ZodString>;
type Limit = z.ZodDefault<z.ZodNumber>;

// Shapes are spelt out as types because exported schemas need declared types under isolatedDeclarations.
type WeatherLimitsShape = {
  connectTimeoutMs: Limit;
  headersTimeoutMs: Limit;
  bodyTimeoutMs: Limit;
  requestTimeoutMs: Limit;
  callTimeoutMs: Limit;
  maxAttempts: Limit;
  retryDelayMs: Limit;
  maxRetryDelayMs: Limit;
  maxResponseBytes: Limit;
  maxConnections: Limit;
  geocodingTtlSeconds: Limit;
  currentTtlSeconds: Limit;
  forecastTtlSeconds: Limit;
  airQualityTtlSeconds: Limit;
  alertsTtlSeconds: Limit;
  maxStaleSeconds: Limit;
  cacheMaxBytes: Limit;
};

type WeatherUpstreamsShape = {
  forecastUrl: Url;
  archiveUrl: Url;
  geocodingUrl: Url;
  airQualityUrl: Url;
  nwsUrl: Url;
  meteoalarmUrl: Url;
  environmentCanadaUrl: Url;
};

type WeatherServerOptionsShape = {
  contact: z.ZodOptional<z.ZodString>;
  units: z.ZodDefault<z.ZodEnum<{ metric: 'metric'; imperial: 'imperial' }>>;
  defaultLocation: z.ZodOptional<z.ZodString>;
  openMeteoApiKey: z.ZodOptional<z.ZodString>;
  upstreams: z.ZodPrefault<z.ZodObject<WeatherUpstreamsShape, z.core.$strict>>;
  limits: z.ZodPrefault<z.ZodObject<WeatherLimitsShape, z.core.$strict>>;
};

/** A header value: printable ASCII, and no parentheses, which would end the User-Agent comment. */
const contactText = /^[ -'*-~]*$/;

function httpUrl(description: string, defaultValue: string): Url {
  return z
    .string()
    .refine((value) => /^https?:$/.test(URL.parse(value)?.protocol ?? ''), { error: 'must be an http(s) URL' })
    .default(defaultValue)
    .meta({ description, placeholder: 'URL' });
}

/**
 * The options of `createWeatherServer`, strict: an unknown or misspelt key is
 * refused with its path and the closest valid name. The bin's flags, their
 * environment twins, --help and the README's options table come from it.
 *
 * @example
 * const options = weatherServerOptions.parse({ contact: 'ops@example.com', units: 'imperial' });
 */
export const weatherServerOptions: z.ZodObject<WeatherServerOptionsShape, z.core.$strict> = z.strictObject({
  contact: z
    .string()
    .trim()
    .regex(contactText, { error: 'must be printable ASCII on one line, without parentheses: an email address or URL' })
    .optional()
    .meta({
      description: 'How the upstreams can reach you, sent in the User-Agent (NWS asks every client for one)',
      placeholder: 'EMAIL|URL',
    }),
  units: z.enum(['metric', 'imperial']).default('metric').meta({
    description: 'Units when a call does not choose: metric (°C, km/h, mm) or imperial (°F, mph, inch)',
  }),
  defaultLocation: z
    .string()
    .trim()
    .min(2)
    .max(200)
    .refine((value) => defaultLocationArguments(value) !== undefined, {
      error: 'must be a place name or LATITUDE,LONGITUDE within -90..90,-180..180',
    })
    .optional()
    .meta({
      description: 'Where calls that name no place are for: a place ("Berlin, Germany") or LATITUDE,LONGITUDE',
      placeholder: 'PLACE',
    }),
  openMeteoApiKey: z.string().optional().meta({
    description: 'An Open-Meteo API key for the commercial plans, sent as `apikey` to the Open-Meteo URLs',
    flag: false,
    env: 'OPEN_METEO_API_KEY',
  }),
  upstreams: z
    .strictObject({
      forecastUrl: httpUrl('Open-Meteo forecast API', 'https://api.open-meteo.com'),
      archiveUrl: httpUrl('Open-Meteo archive API (past weather from 1940)', 'https://archive-api.open-meteo.com'),
      geocodingUrl: httpUrl('Open-Meteo geocoding API', 'https://geocoding-api.open-meteo.com'),
      airQualityUrl: httpUrl('Open-Meteo air-quality API', 'https://air-quality-api.open-meteo.com'),
      nwsUrl: httpUrl('US National Weather Service API (alerts)', 'https://api.weather.gov'),
      meteoalarmUrl: httpUrl('MeteoAlarm feeds (alerts in Europe)', 'https://feeds.meteoalarm.org'),
      environmentCanadaUrl: httpUrl('Environment Canada weather site (alerts in Canada)', 'https://weather.gc.ca'),
    })
    .prefault({})
    .meta({ flagPrefix: '', description: 'Where the upstream APIs are' }),
  limits: z
    .strictObject({
      connectTimeoutMs: limitOption(5000, 'Milliseconds to open a connection'),
      headersTimeoutMs: limitOption(10_000, 'Milliseconds to wait for response headers'),
      bodyTimeoutMs: limitOption(10_000, 'Milliseconds a response body may go quiet'),
      requestTimeoutMs: limitOption(20_000, 'Milliseconds one try may take in all, connecting to the last byte'),
      callTimeoutMs: limitOption(
        45_000,
        'Milliseconds a whole call may take, every try, wait and body included (clients give up at 60 s)',
      ),
      maxAttempts: limitOption(
        3,
        'Tries per upstream request, the first included (429, 5xx and network failures are retried)',
      ),
      retryDelayMs: limitOption(250, 'Base of the jittered exponential backoff between tries, in milliseconds'),
      maxRetryDelayMs: limitOption(
        5000,
        'Longest wait between tries; a longer Retry-After fails the call saying when to try again',
      ),
      maxResponseBytes: limitOption(4_194_304, 'Bytes an upstream response may have'),
      maxConnections: limitOption(6, 'Keep-alive connections per upstream origin; more requests queue on them'),
      geocodingTtlSeconds: limitOption(86_400, 'Seconds place searches (and NWS point lookups) stay cached'),
      currentTtlSeconds: limitOption(300, 'Seconds current conditions stay cached'),
      forecastTtlSeconds: limitOption(900, 'Seconds forecasts stay cached'),
      airQualityTtlSeconds: limitOption(1800, 'Seconds air quality stays cached'),
      alertsTtlSeconds: limitOption(60, 'Seconds alerts stay cached'),
      maxStaleSeconds: limitOption(
        21_600,
        'Seconds past freshness an answer is still served, marked stale, when the upstream fails',
      ),
      cacheMaxBytes: limitOption(67_108_864, 'Bytes of upstream answers kept in memory'),
    })
    .prefault({})
    .meta({ flagPrefix: '', description: 'Time-outs, retries, connections and how long answers are cached' }),
});

/** How a weather server is set up: where the upstreams are, who to name as contact, and its limits. */
export type WeatherServerOptions = z.input<typeof weatherServerOptions>;

/** The limits with every default filled in. */
export type WeatherLimits = z.output<typeof weatherServerOptions>['limits'];
