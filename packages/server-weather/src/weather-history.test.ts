/**
 * Past weather through get_forecast's `start_date`: dates the archive has go
 * to Open-Meteo's archive API, recent and coming ones to the forecast API;
 * the same place resolution, units, cache and limits either way.
 */
import { connectTestClient, type TestClient, type TestClientKind, testClientKinds } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeatherHarness, textOf, type WeatherHarness } from './__fixtures__/weather-harness.ts';

const dayMs = 86_400_000;
/** A date this many days from today (UTC), as YYYY-MM-DD. */
const daysFromToday = (days: number) => new Date(Date.now() + days * dayMs).toISOString().slice(0, 10);

let harness: WeatherHarness;

beforeAll(async () => {
  harness = await startWeatherHarness({ limits: { maxAttempts: 2 } });
});

afterAll(async () => {
  expect(harness.specViolations()).toEqual([]);
  await harness.close();
});

async function withClient(client: TestClientKind, use: (connection: TestClient) => Promise<void>): Promise<void> {
  const connection = await connectTestClient({ server: harness.server }, { client, transport: 'memory' });
  try {
    await use(connection);
    expect(connection.protocolProblems()).toEqual([]);
  } finally {
    await connection.close();
  }
}

describe('past dates from the archive', () => {
  it.each(testClientKinds)('%s client: days of 2000 come from /v1/archive, in the same shape as a forecast', (client) =>
    withClient(client, async (connection) => {
      const before = harness.upstream.count('/v1/archive');
      const result = await connection.callTool('get_forecast', {
        location: 'Berlin',
        start_date: '2000-01-01',
        days: 3,
        hours: 30,
      });
      expect(result.isError).toBeFalsy();
      expect(harness.upstream.count('/v1/archive') - before).toBeLessThanOrEqual(1);
      const content = result.structuredContent ?? {};
      expect(content.source).toBe('archive');
      expect(content.location).toMatchObject({ name: 'Berlin, Land Berlin, Germany', timezone: 'Europe/Berlin' });
      const daily = content.daily as Record<string, unknown>[];
      expect(daily.map((day) => day.date)).toEqual(['2000-01-01', '2000-01-02', '2000-01-03']);
      expect(daily[0]).toMatchObject({
        weather_code: 3,
        conditions: 'overcast',
        temperature_max: 2.9,
        temperature_min: -3.4,
        precipitation_probability_max: null,
        uv_index_max: null,
        sunrise: '2000-01-01T08:17:00+01:00',
      });
      expect(content.units).toMatchObject({ daily: { temperature_max: '°C', precipitation_sum: 'mm' } });
      expect(content.units).not.toHaveProperty('daily.uv_index_max');
      const hourly = content.hourly as Record<string, unknown>[];
      expect(hourly).toHaveLength(30);
      expect(hourly[0]).toMatchObject({ time: '2000-01-01T00:00:00+01:00', precipitation_probability: null });
      expect(hourly[29]?.time).toBe('2000-01-02T05:00:00+01:00');
      expect((content.notes as string[]).at(-1)).toBe(
        'Past weather from the Open-Meteo archive (reanalysis): it has no precipitation probability or UV index, so those are null.',
      );
    }),
  );

  it('asks the archive for its own variables only, with the dates, units and time zone', async () => {
    await harness.call('get_forecast', {
      latitude: 48.1372,
      longitude: 11.5756,
      start_date: '1955-07-10',
      days: 2,
      hours: 1,
      units: 'imperial',
    });
    const sent = harness.upstream.requests.at(-1);
    expect(sent?.path).toBe('/v1/archive');
    expect(Object.fromEntries(sent?.params ?? [])).toMatchInlineSnapshot(`
      {
        "daily": "weather_code,temperature_2m_max,temperature_2m_min,apparent_temperature_max,apparent_temperature_min,precipitation_sum,precipitation_hours,wind_speed_10m_max,wind_gusts_10m_max,wind_direction_10m_dominant,sunrise,sunset",
        "end_date": "1955-07-11",
        "hourly": "temperature_2m,apparent_temperature,relative_humidity_2m,precipitation,weather_code,cloud_cover,wind_speed_10m,wind_direction_10m,wind_gusts_10m",
        "latitude": "48.1372",
        "longitude": "11.5756",
        "precipitation_unit": "inch",
        "start_date": "1955-07-10",
        "temperature_unit": "fahrenheit",
        "timeformat": "unixtime",
        "timezone": "auto",
        "wind_speed_unit": "mph",
      }
    `);
  });

  it('answers the same past days again from the cache', async () => {
    const args = { latitude: 40.4168, longitude: -3.7038, start_date: '1999-12-30', days: 2 };
    const first = await harness.call('get_forecast', args);
    expect(first.structuredContent?.freshness).toMatchObject({ from_cache: false });
    const before = harness.upstream.count('/v1/archive');
    const second = await harness.call('get_forecast', args);
    expect(second.structuredContent?.freshness).toMatchObject({ from_cache: true });
    expect(harness.upstream.count('/v1/archive')).toBe(before);
    expect(second.structuredContent?.daily).toEqual(first.structuredContent?.daily);
  });

  it('states imperial units as the archive gives them', async () => {
    const result = await harness.call('get_forecast', {
      location: 'Berlin',
      start_date: '1990-01-01',
      days: 1,
      units: 'imperial',
    });
    expect(result.structuredContent?.units).toMatchObject({ daily: { temperature_max: '°F', wind_speed_max: 'mph' } });
    const daily = result.structuredContent?.daily as Record<string, unknown>[] | undefined;
    const day = daily?.[0];
    expect(day?.temperature_max).toBe(37.2);
  });
});

describe('recent and coming dates from the forecast API', () => {
  it('the last few days, which the archive has not got yet, come from /v1/forecast with the dates', async () => {
    const start = daysFromToday(-3);
    const result = await harness.call('get_forecast', {
      latitude: 52.52,
      longitude: 13.405,
      start_date: start,
      days: 2,
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.source).toBe('forecast');
    const sent = harness.upstream.requests.at(-1);
    expect(sent?.path).toBe('/v1/forecast');
    expect(sent?.params.get('start_date')).toBe(start);
    expect(sent?.params.get('end_date')).toBe(daysFromToday(-2));
    expect(sent?.params.has('forecast_days')).toBe(false);
    expect(sent?.params.get('daily')).toContain('precipitation_probability_max');
    expect(result.structuredContent?.daily).toHaveLength(2);
    expect(result.structuredContent).not.toHaveProperty('notes');
  });

  it('days ahead within 16 come from /v1/forecast', async () => {
    const result = await harness.call('get_forecast', {
      latitude: 52.52,
      longitude: 13.405,
      start_date: daysFromToday(3),
      days: 3,
      hours: 4,
    });
    expect(result.structuredContent?.source).toBe('forecast');
    expect(result.structuredContent?.hourly).toHaveLength(4);
    expect(harness.upstream.requests.at(-1)?.params.get('hourly')).toContain('precipitation_probability');
  });

  it('a call without start_date is the forecast from today, as before', async () => {
    const result = await harness.call('get_forecast', { latitude: 52.52, longitude: 13.405, days: 2 });
    expect(result.structuredContent?.source).toBe('forecast');
    expect(harness.upstream.requests.at(-1)?.params.get('forecast_days')).toBe('2');
  });
});

describe('dates that cannot be served are refused before any request', () => {
  it.each([
    ['not a date', '2001-02-30', 'start_date "2001-02-30" is not a date; give YYYY-MM-DD.'],
    ['in another format', '01/02/2001', 'start_date "01/02/2001" is not a date; give YYYY-MM-DD.'],
    ['before the archive', '1939-12-31', 'The archive starts on 1940-01-01; give a start_date from then on.'],
  ])('%s', async (_label, startDate, message) => {
    const before = harness.upstream.requests.length;
    const result = await harness.call('get_forecast', { location: 'Berlin', start_date: startDate });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
    expect(harness.upstream.requests.length).toBe(before);
  });

  it('more than 16 days ahead', async () => {
    const before = harness.upstream.requests.length;
    const result = await harness.call('get_forecast', { location: 'Berlin', start_date: daysFromToday(20), days: 2 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Forecasts reach 16 days ahead, to \d{4}-\d{2}-\d{2}; give an earlier start_date/);
    expect(harness.upstream.requests.length).toBe(before);
  });
});

describe('the archive under the same limits', () => {
  it('passes on the archive’s 400 reason', async () => {
    harness.upstream.script('/v1/archive', {
      status: 400,
      body: { error: true, reason: "Parameter 'start_date' is out of allowed range from 1940-01-01 to 2026-11-20" },
    });
    const result = await harness.call('get_forecast', { latitude: 1.5, longitude: 1.5, start_date: '1980-05-01' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Open-Meteo refused the request (HTTP 400): Parameter 'start_date' is out of allowed range from 1940-01-01 to 2026-11-20.",
    );
  });

  it('ends a call whose archive body trickles in forever at the call’s time limit', async () => {
    const limited = await startWeatherHarness({
      limits: { callTimeoutMs: 300, requestTimeoutMs: 600_000, bodyTimeoutMs: 600_000 },
    });
    try {
      limited.upstream.script('/v1/archive', { trickleMs: 20 }, { trickleMs: 20 }, { trickleMs: 20 });
      const result = await limited.call('get_forecast', { latitude: 2.5, longitude: 2.5, start_date: '1980-05-01' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'Open-Meteo did not answer within 300 ms, the time limit of a call; try again in a minute.',
      );
    } finally {
      await limited.close();
    }
  });

  it('is refused as the upstream’s fault when its answer has the wrong shape', async () => {
    harness.upstream.script('/v1/archive', { status: 200, body: { latitude: 'north' } });
    const result = await harness.call('get_forecast', { latitude: 3.5, longitude: 3.5, start_date: '1980-05-01' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Open-Meteo answered in a shape this server does not know/);
  });
});
