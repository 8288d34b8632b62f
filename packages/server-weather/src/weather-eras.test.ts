import {
  binTestCases,
  connectTestClient,
  type TestClientKind,
  type TestTarget,
  type TestTransportKind,
  testClientKinds,
} from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeatherUpstream, type WeatherUpstream } from './__fixtures__/weather-upstream.ts';
import { createWeatherServer } from './create-weather-server.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;

// Each bin case starts a process and its SDK client; generous, as a guard against a hang rather than a speed bar.
const binCaseTimeoutMs = 60_000;

let upstream: WeatherUpstream;

beforeAll(async () => {
  upstream = await startWeatherUpstream();
});

afterAll(() => upstream.close());

const upstreamOptions = () => ({
  upstreams: {
    forecastUrl: upstream.url,
    geocodingUrl: upstream.url,
    airQualityUrl: upstream.url,
    nwsUrl: upstream.url,
  },
});

const upstreamFlags = () =>
  ['--forecast-url', '--geocoding-url', '--air-quality-url', '--nws-url'].flatMap((flag) => [flag, upstream.url]);

async function expectWeatherWorks(target: TestTarget, client: TestClientKind, transport: TestTransportKind) {
  const connection = await connectTestClient(target, { client, transport });
  try {
    expect((await connection.listTools()).map((tool) => tool.name)).toEqual([
      'get_air_quality',
      'get_current_weather',
      'get_forecast',
      'get_weather_alerts',
      'search_locations',
    ]);
    const forecast = await connection.callTool('get_forecast', { location: 'Denver', days: 3 });
    expect(forecast.isError).toBeFalsy();
    const daily = forecast.structuredContent?.daily as Record<string, unknown>[];
    expect(daily.map((day) => day.date)).toEqual(['2026-11-22', '2026-11-23', '2026-11-24']);
    expect(daily[1]).toMatchObject({ conditions: 'slight rain', precipitation_probability_max: 90 });
    const alerts = await connection.callTool('get_weather_alerts', { location: 'Denver' });
    expect(alerts.structuredContent).toMatchObject({ coverage: 'nws', count: 2 });
    const tooLong = await connection.callTool('get_forecast', { location: 'Denver', days: 17 });
    expect(tooLong.isError).toBe(true);
    expect(tooLong.content[0]?.text).toMatch(/days: Too big: expected number to be <=16/);
    expect(connection.protocolProblems()).toEqual([]);
  } finally {
    await connection.close();
  }
}

describe('toolshed-weather in both protocol eras', () => {
  it.each(binTestCases)(
    '%s client over %s to the bin',
    (client, transport) => expectWeatherWorks({ bin: [bin, ...upstreamFlags()] }, client, transport),
    binCaseTimeoutMs,
  );

  it.each(testClientKinds)('%s client in memory to createWeatherServer', async (client) => {
    const server = createWeatherServer(upstreamOptions());
    try {
      await expectWeatherWorks({ server }, client, 'memory');
    } finally {
      await server.close();
    }
  });
});
