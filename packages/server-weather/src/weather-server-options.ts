/** How a weather server is set up: where the upstreams are, who to name as contact, and its limits. */
export interface WeatherServerOptions {
  /** Open-Meteo forecast API. Default https://api.open-meteo.com */
  forecastUrl?: string;
  /** Open-Meteo geocoding API. Default https://geocoding-api.open-meteo.com */
  geocodingUrl?: string;
  /** Open-Meteo air-quality API. Default https://air-quality-api.open-meteo.com */
  airQualityUrl?: string;
  /** US National Weather Service API, for alerts. Default https://api.weather.gov */
  nwsUrl?: string;
  /**
   * How the upstreams can reach whoever runs this server (an email address or
   * a URL), sent in the User-Agent as NWS asks of every client.
   */
  contact?: string | undefined;
  /** An Open-Meteo API key for the commercial plans; sent as `apikey` to the Open-Meteo URLs. */
  openMeteoApiKey?: string | undefined;
  /** Units when a call does not choose: `metric` (°C, km/h, mm) or `imperial` (°F, mph, inch). Default metric. */
  units?: 'metric' | 'imperial';
  /** Milliseconds to open a connection. Default 5000. */
  connectTimeoutMs?: number;
  /** Milliseconds to wait for the response headers. Default 10000. */
  headersTimeoutMs?: number;
  /** Milliseconds the body may go quiet. Default 10000. */
  bodyTimeoutMs?: number;
  /** Milliseconds one try may take in all, connecting to the last byte. Default 20000. */
  requestTimeoutMs?: number;
  /** Tries per upstream request, the first included; 429, 5xx and network failures are retried. Default 3. */
  maxAttempts?: number;
  /** Base of the exponential backoff between tries, with full jitter. Default 250 ms. */
  retryDelayMs?: number;
  /** A Retry-After longer than this is not waited for; the call fails saying when to try again. Default 5000 ms. */
  maxRetryDelayMs?: number;
  /** Bytes an upstream response may have. Default 4194304 (4 MiB). */
  maxResponseBytes?: number;
  /** Connections kept open to each upstream host; requests beyond queue on them. Default 6. */
  maxConnections?: number;
  /** Seconds geocoding answers stay fresh. Default 86400. */
  geocodingTtlSeconds?: number;
  /** Seconds current conditions stay fresh. Default 300. */
  currentTtlSeconds?: number;
  /** Seconds forecasts stay fresh. Default 900. */
  forecastTtlSeconds?: number;
  /** Seconds air-quality answers stay fresh. Default 1800. */
  airQualityTtlSeconds?: number;
  /** Seconds alerts stay fresh. Default 60. */
  alertsTtlSeconds?: number;
  /** Seconds past freshness an answer is still served, marked stale, when the upstream fails. Default 21600 (6 h). */
  maxStaleSeconds?: number;
  /** Bytes of upstream answers the cache keeps. Default 67108864 (64 MiB). */
  cacheMaxBytes?: number;
}

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
