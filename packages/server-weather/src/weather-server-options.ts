import * as z from 'zod';

type Url = z.ZodOptional<z.ZodString>;
type Limit = z.ZodOptional<z.ZodNumber>;

/** What each option accepts; its documentation shows on the options type inferred from it. */
type WeatherServerOptionsShape = {
  /** Open-Meteo forecast API. Default https://api.open-meteo.com */
  forecastUrl: Url;
  /** Open-Meteo geocoding API. Default https://geocoding-api.open-meteo.com */
  geocodingUrl: Url;
  /** Open-Meteo air-quality API. Default https://air-quality-api.open-meteo.com */
  airQualityUrl: Url;
  /** US National Weather Service API, for alerts. Default https://api.weather.gov */
  nwsUrl: Url;
  /**
   * How the upstreams can reach whoever runs this server (an email address or
   * a URL), sent in the User-Agent as NWS asks of every client.
   */
  contact: z.ZodOptional<z.ZodString>;
  /** An Open-Meteo API key for the commercial plans; sent as `apikey` to the Open-Meteo URLs. */
  openMeteoApiKey: z.ZodOptional<z.ZodString>;
  /** Units when a call does not choose: `metric` (°C, km/h, mm) or `imperial` (°F, mph, inch). Default metric. */
  units: z.ZodOptional<z.ZodEnum<{ metric: 'metric'; imperial: 'imperial' }>>;
  /** Milliseconds to open a connection. Default 5000. */
  connectTimeoutMs: Limit;
  /** Milliseconds to wait for the response headers. Default 10000. */
  headersTimeoutMs: Limit;
  /** Milliseconds the body may go quiet. Default 10000. */
  bodyTimeoutMs: Limit;
  /** Milliseconds one try may take in all, connecting to the last byte. Default 20000. */
  requestTimeoutMs: Limit;
  /** Tries per upstream request, the first included; 429, 5xx and network failures are retried. Default 3. */
  maxAttempts: Limit;
  /** Base of the exponential backoff between tries, with full jitter. Default 250 ms. */
  retryDelayMs: Limit;
  /** A Retry-After longer than this is not waited for; the call fails saying when to try again. Default 5000 ms. */
  maxRetryDelayMs: Limit;
  /** Bytes an upstream response may have. Default 4194304 (4 MiB). */
  maxResponseBytes: Limit;
  /** Connections kept open to each upstream host; requests beyond queue on them. Default 6. */
  maxConnections: Limit;
  /** Seconds geocoding answers stay fresh. Default 86400. */
  geocodingTtlSeconds: Limit;
  /** Seconds current conditions stay fresh. Default 300. */
  currentTtlSeconds: Limit;
  /** Seconds forecasts stay fresh. Default 900. */
  forecastTtlSeconds: Limit;
  /** Seconds air-quality answers stay fresh. Default 1800. */
  airQualityTtlSeconds: Limit;
  /** Seconds alerts stay fresh. Default 60. */
  alertsTtlSeconds: Limit;
  /** Seconds past freshness an answer is still served, marked stale, when the upstream fails. Default 21600 (6 h). */
  maxStaleSeconds: Limit;
  /** Bytes of upstream answers the cache keeps. Default 67108864 (64 MiB). */
  cacheMaxBytes: Limit;
};

// URLs, the contact and the limits are checked when the server is created, with messages that name the option.
const url = (): Url => z.string().optional();
const limit = (): Limit => z.number().optional();

/**
 * The options of `createWeatherServer`, strict: an unknown or misspelt key is
 * refused with its path and the closest valid name.
 *
 * @example
 * const options = weatherServerOptions.parse({ contact: 'ops@example.com', units: 'imperial' });
 */
export const weatherServerOptions: z.ZodObject<WeatherServerOptionsShape, z.core.$strict> = z.strictObject({
  forecastUrl: url(),
  geocodingUrl: url(),
  airQualityUrl: url(),
  nwsUrl: url(),
  contact: z.string().optional(),
  openMeteoApiKey: z.string().optional(),
  units: z.enum(['metric', 'imperial']).optional(),
  connectTimeoutMs: limit(),
  headersTimeoutMs: limit(),
  bodyTimeoutMs: limit(),
  requestTimeoutMs: limit(),
  maxAttempts: limit(),
  retryDelayMs: limit(),
  maxRetryDelayMs: limit(),
  maxResponseBytes: limit(),
  maxConnections: limit(),
  geocodingTtlSeconds: limit(),
  currentTtlSeconds: limit(),
  forecastTtlSeconds: limit(),
  airQualityTtlSeconds: limit(),
  alertsTtlSeconds: limit(),
  maxStaleSeconds: limit(),
  cacheMaxBytes: limit(),
});

/** How a weather server is set up: where the upstreams are, who to name as contact, and its limits. */
export type WeatherServerOptions = z.input<typeof weatherServerOptions>;

/** The limits with every default filled in. */
export interface ResolvedWeatherLimits {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  requestTimeoutMs: number;
  maxAttempts: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  maxResponseBytes: number;
  maxConnections: number;
  geocodingTtlSeconds: number;
  currentTtlSeconds: number;
  forecastTtlSeconds: number;
  airQualityTtlSeconds: number;
  alertsTtlSeconds: number;
  maxStaleSeconds: number;
  cacheMaxBytes: number;
}

export const defaultWeatherLimits: ResolvedWeatherLimits = {
  connectTimeoutMs: 5000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  requestTimeoutMs: 20_000,
  maxAttempts: 3,
  retryDelayMs: 250,
  maxRetryDelayMs: 5000,
  maxResponseBytes: 4_194_304,
  maxConnections: 6,
  geocodingTtlSeconds: 86_400,
  currentTtlSeconds: 300,
  forecastTtlSeconds: 900,
  airQualityTtlSeconds: 1800,
  alertsTtlSeconds: 60,
  maxStaleSeconds: 21_600,
  cacheMaxBytes: 67_108_864,
};

export const defaultUpstreamUrls = {
  forecastUrl: 'https://api.open-meteo.com',
  geocodingUrl: 'https://geocoding-api.open-meteo.com',
  airQualityUrl: 'https://air-quality-api.open-meteo.com',
  nwsUrl: 'https://api.weather.gov',
} as const;
