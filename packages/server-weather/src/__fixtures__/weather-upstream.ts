/**
 * A local stand-in for Open-Meteo (forecast, archive, air quality, geocoding) and the
 * NWS API on 127.0.0.1, answering in their formats from the JSON fixtures
 * beside this file. It checks what real upstreams check (variable names,
 * coordinate ranges, NWS's 4-decimal rule with its 301), records every
 * request and connection, and can be scripted to fail: any status and body,
 * Retry-After, a connection that never answers, a reset, a slow body.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

type Json = Record<string, unknown>;

function fixture(name: string): Json {
  return JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8')) as Json;
}

const forecast = fixture('./open-meteo/forecast-berlin.json');
const archive = fixture('./open-meteo/archive-berlin.json');
const airQuality = fixture('./open-meteo/air-quality-berlin.json');
const places: Record<string, Json> = {
  berlin: fixture('./open-meteo/geocoding-berlin.json'),
  springfield: fixture('./open-meteo/geocoding-springfield.json'),
  denver: fixture('./open-meteo/geocoding-denver.json'),
  ottawa: fixture('./open-meteo/geocoding-ottawa.json'),
  paris: fixture('./open-meteo/geocoding-paris.json'),
  tokyo: fixture('./open-meteo/geocoding-tokyo.json'),
  konstanz: fixture('./open-meteo/geocoding-konstanz.json'),
};
const noPlaces = fixture('./open-meteo/geocoding-no-results.json');
const pointsDenver = fixture('./nws/points-denver.json');
const invalidPoint = fixture('./nws/invalid-point.json');
const alertsDenver = fixture('./nws/alerts-denver.json');
const alertsNone = fixture('./nws/alerts-none.json');
const feed = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');
const meteoalarmFeeds: Record<string, string> = {
  germany: feed('./meteoalarm/meteoalarm-legacy-atom-germany.xml'),
};
const meteoalarmEmpty = feed('./meteoalarm/meteoalarm-legacy-atom-empty.xml');
/** Countries with a MeteoAlarm feed other than Germany's answer with no warnings. */
const meteoalarmSlugs = new Set(['france', 'austria', 'united-kingdom', 'spain', 'italy', 'netherlands']);
const canadaOttawa = feed('./environment-canada/weather-ottawa.xml');
const canadaNoWarnings = feed('./environment-canada/weather-no-warnings.xml');

/** What a scripted answer does instead of the default one. */
export type FixtureStep =
  | { status: number; headers?: Record<string, string>; body?: string | Json | Buffer }
  | { hang: true }
  /** Headers, then the body a byte at a time, forever. */
  | { trickleMs: number }
  /** A 200 whose body streams `bytes` of JSON whitespace with no Content-Length. */
  | { streamBytes: number }
  | { reset: true }
  | { delayMs: number };

export interface RecordedRequest {
  route: string;
  path: string;
  params: URLSearchParams;
  userAgent: string | undefined;
  accept: string | undefined;
}

export interface WeatherUpstream {
  /** Base URL for every upstream option: http://127.0.0.1:PORT */
  url: string;
  requests: RecordedRequest[];
  /** TCP connections opened to this server. */
  readonly connections: number;
  /** Requests whose client went away before the answer was sent. */
  readonly aborted: number;
  /**
   * Requests made to a route: `/v1/forecast`, `/v1/archive`, `/v1/air-quality`, `/v1/search`, `/points`,
   * `/alerts/active`, `/feeds` (MeteoAlarm), `/rss/weather` (Environment Canada).
   */
  count(route: string): number;
  /** The next answers on a route, in order; after them the route answers normally again. */
  script(route: string, ...steps: FixtureStep[]): void;
  /** Resolves once a request has arrived on the route (counting from now). */
  nextRequest(route: string): Promise<RecordedRequest>;
  close(): Promise<void>;
}

function routeOf(path: string): string {
  if (path.startsWith('/points/')) return '/points';
  if (path.startsWith('/feeds/')) return '/feeds';
  if (path.startsWith('/rss/weather/')) return '/rss/weather';
  return path;
}

export async function startWeatherUpstream(): Promise<WeatherUpstream> {
  const requests: RecordedRequest[] = [];
  const scripts = new Map<string, FixtureStep[]>();
  const waiters: { route: string; resolve: (request: RecordedRequest) => void }[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let aborted = 0;

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const route = routeOf(url.pathname);
    const recorded: RecordedRequest = {
      route,
      path: url.pathname,
      params: url.searchParams,
      userAgent: request.headers['user-agent'],
      accept: request.headers.accept,
    };
    requests.push(recorded);
    for (const waiter of waiters.filter((candidate) => candidate.route === route)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(recorded);
    }
    response.on('close', () => {
      if (!response.writableFinished) aborted++;
    });
    void answer(request, response, url, route);
  });

  async function answer(request: IncomingMessage, response: ServerResponse, url: URL, route: string) {
    const steps = scripts.get(route);
    let step = steps?.shift();
    while (step !== undefined && 'delayMs' in step) {
      await new Promise((resolve) => setTimeout(resolve, step && 'delayMs' in step ? step.delayMs : 0));
      step = steps?.shift();
    }
    if (step !== undefined) {
      if ('hang' in step) return;
      if ('reset' in step) return request.socket.destroy();
      if ('trickleMs' in step) return trickle(response, step.trickleMs);
      if ('streamBytes' in step) return stream(response, step.streamBytes);
      const body =
        typeof step.body === 'string' || Buffer.isBuffer(step.body) ? step.body : JSON.stringify(step.body ?? {});
      response.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      return response.end(body);
    }
    const feedAnswer = xmlAnswer(url, route);
    if (feedAnswer !== undefined) {
      const [status, text] = feedAnswer;
      response.writeHead(status, { 'content-type': 'application/atom+xml; charset=utf-8' });
      return response.end(text);
    }
    const [status, body, headers] = defaultAnswer(url, route);
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  }

  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return connections;
    },
    get aborted() {
      return aborted;
    },
    count: (route) => requests.filter((request) => request.route === route).length,
    script(route, ...steps) {
      scripts.set(route, [...(scripts.get(route) ?? []), ...steps]);
    },
    nextRequest: (route) => new Promise((resolve) => waiters.push({ route, resolve })),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function trickle(response: ServerResponse, intervalMs: number): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"latitude":');
  const timer = setInterval(() => response.write(' '), intervalMs);
  response.on('close', () => clearInterval(timer));
}

function stream(response: ServerResponse, bytes: number): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(65_536, ' ');
  let sent = 0;
  const more = (): void => {
    while (sent < bytes && !response.destroyed) {
      sent += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', more);
    }
    if (!response.destroyed) response.end('{}');
  };
  more();
}

type Answer = [status: number, body: Json, headers?: Record<string, string>];

const isoInstant = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})/g;

/**
 * A recorded feed as if published ten minutes ago: every timestamp in it is
 * moved by the same amount, so what was current when recorded is current
 * now, and what had expired still has.
 */
function redated(text: string): string {
  const updated = /<updated>([^<]+)<\/updated>/.exec(text)?.[1];
  if (updated === undefined) return text;
  const shiftMs = Date.now() - 600_000 - Date.parse(updated);
  return text.replace(isoInstant, (instant) =>
    new Date(Date.parse(instant) + shiftMs).toISOString().replace('.000Z', 'Z'),
  );
}

/** MeteoAlarm's country feeds and Environment Canada's location feeds, in Atom; undefined for other routes. */
function xmlAnswer(url: URL, route: string): [status: number, text: string] | undefined {
  if (route === '/feeds') {
    const slug = /^\/feeds\/meteoalarm-legacy-atom-([a-z-]+)$/.exec(url.pathname)?.[1];
    const recorded =
      slug === undefined
        ? undefined
        : (meteoalarmFeeds[slug] ?? (meteoalarmSlugs.has(slug) ? meteoalarmEmpty : undefined));
    return recorded === undefined ? [404, '<html><body>Not Found</body></html>'] : [200, redated(recorded)];
  }
  if (route === '/rss/weather') {
    const point = /^\/rss\/weather\/(-?\d+(?:\.\d+)?)_(-?\d+(?:\.\d+)?)_e\.xml$/.exec(url.pathname);
    if (point === null) return [404, '<html><body>Not Found</body></html>'];
    const nearOttawa = Math.abs(Number(point[1]) - 45.4) < 0.5 && Math.abs(Number(point[2]) + 75.7) < 0.5;
    return [200, redated(nearOttawa ? canadaOttawa : canadaNoWarnings)];
  }
  return undefined;
}

/**
 * The recorded answers are Berlin's; points in Canada and in East Asia answer
 * with a zone of theirs, as Open-Meteo's zone lookup would. So do points in
 * the United States when nothing but the zone is asked for: an answer with
 * times keeps Berlin's zone there, as the recorded times are Berlin's.
 */
function timezoneAt(latitude: number, longitude: number, recorded: unknown, zoneOnly: boolean): unknown {
  if (latitude > 49 && latitude < 83 && longitude > -141 && longitude < -52) return 'America/Winnipeg';
  if (longitude > 120 && longitude < 150 && latitude > 20 && latitude < 50) return 'Asia/Tokyo';
  if (zoneOnly && longitude < -52 && longitude > -180) return 'America/Chicago';
  return recorded;
}

function defaultAnswer(url: URL, route: string): Answer {
  const params = url.searchParams;
  switch (route) {
    case '/v1/search': {
      const name = (params.get('name') ?? '').trim().toLowerCase();
      const found = places[name];
      if (found === undefined || name.length < 2) return [200, noPlaces];
      const country = params.get('countryCode');
      const results = (found.results as Json[])
        .filter((place) => country === null || place.country_code === country)
        .slice(0, Number(params.get('count') ?? 10));
      return [200, results.length === 0 ? noPlaces : { ...found, results }];
    }
    case '/v1/forecast':
      return openMeteoAnswer(forecast, params, ['current', 'hourly', 'daily']);
    case '/v1/air-quality':
      return openMeteoAnswer(airQuality, params, ['current', 'hourly']);
    case '/v1/archive':
      return archiveAnswer(params);
    case '/points':
      return pointsAnswer(url.pathname.slice('/points/'.length));
    case '/alerts/active': {
      const [latitude = Number.NaN, longitude = Number.NaN] = (params.get('point') ?? '').split(',').map(Number);
      const nearDenver = Math.abs(latitude - 39.74) < 0.5 && Math.abs(longitude + 104.98) < 0.5;
      return [200, nearDenver ? alertsDenver : alertsNone, { 'content-type': 'application/geo+json' }];
    }
    default:
      return [404, { error: true, reason: `No route ${url.pathname}` }];
  }
}

const openMeteoError = (reason: string): Answer => [400, { error: true, reason }];

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const dayMs = 86_400_000;

/** The dates of a request with `start_date` and `end_date`, as the days between, or Open-Meteo's 400. */
function requestedDays(params: URLSearchParams): { first: number; count: number } | Answer | undefined {
  const start = params.get('start_date');
  const end = params.get('end_date');
  if (start === null && end === null) return undefined;
  if (start === null || end === null || !isoDate.test(start) || !isoDate.test(end)) {
    return openMeteoError("Parameter 'start_date' and 'end_date' must both be set, as yyyy-mm-dd");
  }
  const first = Date.parse(start);
  const last = Date.parse(end);
  if (Number.isNaN(first) || Number.isNaN(last)) return openMeteoError(`Invalid date ${start} or ${end}`);
  if (last < first) return openMeteoError('End-date must be larger or equals than start-date');
  return { first, count: (last - first) / dayMs + 1 };
}

/**
 * The archive API (`/v1/archive`): the same format as the forecast, for any
 * dates from 1940 up to a few days ago, and only the variables reanalysis has
 * (no probabilities, no UV index, no `current`). Its values are the recorded
 * days', repeated over the dates asked for.
 */
function archiveAnswer(params: URLSearchParams): Answer {
  const days = requestedDays(params);
  if (days === undefined) return openMeteoError("Parameter 'start_date' is required");
  if (Array.isArray(days)) return days;
  const today = Date.parse(new Date().toISOString().slice(0, 10));
  const last = days.first + (days.count - 1) * dayMs;
  if (days.first < Date.parse('1940-01-01') || last > today) {
    const until = new Date(today).toISOString().slice(0, 10);
    return openMeteoError(`Parameter 'start_date' is out of allowed range from 1940-01-01 to ${until}`);
  }
  if (params.has('current')) return openMeteoError('Cannot initialize WeatherVariable for key current');
  return openMeteoAnswer(archive, params, ['hourly', 'daily']);
}

/**
 * A recorded block stretched over the requested days: times from the first
 * day's local midnight, values taken in turn from the recorded ones, and
 * instants (sunrise, sunset) moved to their day.
 */
function datedBlock(
  recorded: Record<string, unknown>,
  units: Record<string, string>,
  block: 'hourly' | 'daily',
  days: { first: number; count: number },
  offsetSeconds: number,
): Record<string, unknown> {
  const step = block === 'daily' ? 86_400 : 3600;
  const length = block === 'daily' ? days.count : days.count * 24;
  const start = days.first / 1000 - offsetSeconds;
  const recordedTimes = recorded.time as number[];
  const times = Array.from({ length }, (_, index) => start + index * step);
  const stretched: Record<string, unknown> = { time: times };
  for (const [variable, values] of Object.entries(recorded)) {
    if (variable === 'time') continue;
    const series = values as (number | null)[];
    stretched[variable] = times.map((time, index) => {
      const at = index % series.length;
      const value = series[at] ?? null;
      const moved = units[variable] === 'unixtime' && value !== null;
      return moved ? value - (recordedTimes[at] ?? 0) + time : value;
    });
  }
  return stretched;
}

function openMeteoAnswer(recorded: Json, params: URLSearchParams, blocks: readonly string[]): Answer {
  const latitude = Number(params.get('latitude'));
  const longitude = Number(params.get('longitude'));
  if (!params.has('latitude') || Number.isNaN(latitude) || latitude < -90 || latitude > 90) {
    return openMeteoError(`Latitude must be in range of -90 to 90°. Given: ${params.get('latitude')}.`);
  }
  if (!params.has('longitude') || Number.isNaN(longitude) || longitude < -180 || longitude > 180) {
    return openMeteoError(`Longitude must be in range of -180 to 180°. Given: ${params.get('longitude')}.`);
  }
  const imperial = {
    '°C': params.get('temperature_unit') === 'fahrenheit' ? (value: number) => [value * 1.8 + 32, '°F'] : undefined,
    'km/h': params.get('wind_speed_unit') === 'mph' ? (value: number) => [value / 1.609344, 'mph'] : undefined,
    mm: params.get('precipitation_unit') === 'inch' ? (value: number) => [value / 25.4, 'inch'] : undefined,
  } as Record<string, ((value: number) => [number, string]) | undefined>;
  const answer: Json = {
    latitude: Math.round(latitude * 100) / 100,
    longitude: Math.round(longitude * 100) / 100,
    generationtime_ms: recorded.generationtime_ms,
    utc_offset_seconds: recorded.utc_offset_seconds,
    timezone: timezoneAt(
      latitude,
      longitude,
      recorded.timezone,
      blocks.every((block) => !params.has(block)),
    ),
    timezone_abbreviation: recorded.timezone_abbreviation,
    elevation: recorded.elevation,
  };
  const days = requestedDays(params);
  if (Array.isArray(days)) return days;
  if (days !== undefined && (params.has('forecast_days') || params.has('forecast_hours'))) {
    return openMeteoError("Parameter 'start_date' and 'forecast_days' or 'forecast_hours' are mutually exclusive");
  }
  for (const block of blocks) {
    const wanted = params.get(block);
    if (wanted === null) continue;
    const units = recorded[`${block}_units`] as Record<string, string>;
    const values =
      days !== undefined && block !== 'current'
        ? datedBlock(
            recorded[block] as Record<string, unknown>,
            units,
            block as 'hourly' | 'daily',
            days,
            recorded.utc_offset_seconds as number,
          )
        : (recorded[block] as Record<string, unknown>);
    const length =
      days !== undefined
        ? (values.time as unknown[]).length
        : block === 'daily'
          ? Number(params.get('forecast_days') ?? 7)
          : block === 'hourly'
            ? Number(params.get('forecast_hours') ?? 168)
            : 0;
    const outValues: Json = block === 'current' ? { time: values.time, interval: values.interval } : {};
    const outUnits: Record<string, string> =
      block === 'current' ? { time: 'unixtime', interval: 'seconds' } : { time: 'unixtime' };
    if (block !== 'current') outValues.time = (values.time as number[]).slice(0, length);
    for (const variable of wanted.split(',')) {
      if (!(variable in values) || variable === 'time') {
        return openMeteoError(
          `Cannot initialize WeatherVariable from invalid String value ${variable} for key ${block}`,
        );
      }
      const unit = units[variable] ?? '';
      const convert = imperial[unit];
      const raw = block === 'current' ? values[variable] : (values[variable] as unknown[]).slice(0, length);
      const one = (value: unknown) =>
        typeof value === 'number' && convert !== undefined ? Math.round(convert(value)[0] * 10) / 10 : value;
      outValues[variable] = Array.isArray(raw) ? raw.map(one) : one(raw);
      outUnits[variable] = convert === undefined ? unit : (convert(0)[1] as string);
    }
    answer[`${block}_units`] = outUnits;
    answer[block] = outValues;
  }
  return [200, answer];
}

function pointsAnswer(point: string): Answer {
  const parts = point.split(',');
  const numbers = parts.map(Number);
  const [latitude = Number.NaN, longitude = Number.NaN] = numbers;
  if (parts.length !== 2 || numbers.some(Number.isNaN)) {
    return [404, { ...invalidPoint, detail: `Invalid point ${point}` }, { 'content-type': 'application/problem+json' }];
  }
  // NWS's rule: more than four decimals, or trailing zeros, are redirected to the canonical point.
  const canonical = numbers.map((value) => String(Math.round(value * 10_000) / 10_000)).join(',');
  if (canonical !== point) return [301, { location: canonical }, { location: `/points/${canonical}` }];
  // Canada south of Alaska is outside, as it is for NWS.
  const inCanada = latitude > 49 && longitude > -141;
  const inCoverage = latitude > 17 && latitude < 72 && longitude > -180 && longitude < -64 && !inCanada;
  if (!inCoverage) {
    return [
      404,
      { ...invalidPoint, detail: `Unable to provide data for requested point ${point}` },
      { 'content-type': 'application/problem+json' },
    ];
  }
  return [200, pointsDenver, { 'content-type': 'application/geo+json' }];
}
