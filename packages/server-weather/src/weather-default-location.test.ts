/**
 * `--default-location`: a call that names no place is for the server's
 * default, and its answer says so; without a default such a call is an error
 * that says what to give. The input schemas are the same either way.
 */
import { connectTestClient, type TestClient, type TestClientKind, testClientKinds } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeatherUpstream, type WeatherUpstream } from './__fixtures__/weather-upstream.ts';
import { createWeatherServer } from './create-weather-server.ts';
import type { WeatherServerOptions } from './weather-server-options.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let upstream: WeatherUpstream;

beforeAll(async () => {
  upstream = await startWeatherUpstream();
});

afterAll(() => upstream.close());

async function withClient(
  options: WeatherServerOptions,
  client: TestClientKind,
  use: (connection: TestClient) => Promise<void>,
): Promise<void> {
  const { url } = upstream;
  const server = createWeatherServer({
    ...options,
    upstreams: { forecastUrl: url, geocodingUrl: url, airQualityUrl: url, nwsUrl: url },
  });
  const connection = await connectTestClient({ server }, { client, transport: 'memory' });
  try {
    await use(connection);
    expect(connection.protocolProblems()).toEqual([]);
  } finally {
    await connection.close();
    await server.close();
  }
}

const defaultLine = /^No place was given: this is for the server's default location, (.+)\.$/;

describe('a default location', () => {
  it.each(testClientKinds)('%s client: a call without a place uses it, and says so in a line and a field', (client) =>
    withClient({ defaultLocation: 'Denver' }, client, async (connection) => {
      const current = await connection.callTool('get_current_weather', {});
      expect(current.isError).toBeFalsy();
      expect(current.structuredContent?.location).toMatchObject({
        name: 'Denver, Colorado, United States',
        resolved_from: 'name',
        query: 'Denver',
        from_default: true,
      });
      expect(current.content.map((block) => block.text).filter((text) => defaultLine.test(text ?? ''))).toEqual([
        "No place was given: this is for the server's default location, Denver, Colorado, United States.",
      ]);
      const alerts = await connection.callTool('get_weather_alerts', {});
      expect(alerts.structuredContent).toMatchObject({ coverage: 'nws', location: { from_default: true } });
      const forecast = await connection.callTool('get_forecast', { days: 2 });
      expect(forecast.structuredContent?.daily).toHaveLength(2);
      const air = await connection.callTool('get_air_quality', {});
      expect(air.structuredContent?.location).toMatchObject({ from_default: true });
    }),
  );

  it('is not used when the call names a place, and the answer has no default line', () =>
    withClient({ defaultLocation: 'Denver' }, 'v2-modern', async (connection) => {
      const result = await connection.callTool('get_current_weather', { location: 'Berlin' });
      expect(result.structuredContent?.location).toMatchObject({ name: 'Berlin, Land Berlin, Germany' });
      expect(result.structuredContent?.location).not.toHaveProperty('from_default');
      expect(result.content).toHaveLength(1);
      const byPoint = await connection.callTool('get_current_weather', { latitude: 10.5, longitude: 10.5 });
      expect(byPoint.structuredContent?.location).not.toHaveProperty('from_default');
    }));

  it('may be coordinates, LATITUDE,LONGITUDE', () =>
    withClient({ defaultLocation: ' 52.52, 13.405 ' }, 'v2-legacy', async (connection) => {
      const result = await connection.callTool('get_current_weather', {});
      expect(result.structuredContent?.location).toMatchObject({
        name: null,
        latitude: 52.52,
        longitude: 13.405,
        resolved_from: 'coordinates',
        from_default: true,
      });
      expect(result.content[1]?.text).toBe(
        "No place was given: this is for the server's default location, 52.52, 13.405.",
      );
      expect(upstream.requests.at(-1)?.params.get('latitude')).toBe('52.52');
    }));

  it('says so when the default names no place it can find', () =>
    withClient({ defaultLocation: 'Nowhereville' }, 'v1', async (connection) => {
      const result = await connection.callTool('get_current_weather', {});
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(
        /^No place was given, and the server's default location could not be used: No place matching "Nowhereville" was found\..* Pass `location` or `latitude` and `longitude`\.$/,
      );
    }));

  it.each(testClientKinds)(
    '%s client: without a default, a call without a place is an error saying what to give',
    (client) =>
      withClient({}, client, async (connection) => {
        const result = await connection.callTool('get_forecast', {});
        expect(result.isError).toBe(true);
        expect(result.content[0]?.text).toBe(
          'Say where: a place name in `location`, or `latitude` and `longitude` (this server has no default location).',
        );
      }),
  );

  it('leaves the input schemas as they are: the place is optional in them either way', async () => {
    let withDefault: Awaited<ReturnType<TestClient['listTools']>> = [];
    let without: typeof withDefault = [];
    await withClient({ defaultLocation: 'Denver' }, 'v1', async (connection) => {
      withDefault = await connection.listTools();
    });
    await withClient({}, 'v1', async (connection) => {
      without = await connection.listTools();
    });
    expect(withDefault).toEqual(without);
    for (const tool of withDefault) {
      expect(tool.inputSchema.required ?? []).not.toContain('location');
      expect(tool.inputSchema).not.toHaveProperty('oneOf');
      expect(tool.inputSchema).not.toHaveProperty('anyOf');
    }
  });

  it('is refused at start when it is coordinates out of range', () => {
    expect(() => createWeatherServer({ defaultLocation: '95,10' })).toThrow(
      /defaultLocation: must be a place name or LATITUDE,LONGITUDE/,
    );
  });

  it('comes from TOOLSHED_WEATHER_DEFAULT_LOCATION for the bin, over stdio', async () => {
    const connection = await connectTestClient(
      {
        bin: [bin, '--forecast-url', upstream.url, '--geocoding-url', upstream.url],
        env: { ...process.env, TOOLSHED_WEATHER_DEFAULT_LOCATION: 'Berlin, Germany' },
      },
      { client: 'v1', transport: 'stdio' },
    );
    try {
      const result = await connection.callTool('get_current_weather', {});
      expect(result.structuredContent?.location).toMatchObject({
        name: 'Berlin, Land Berlin, Germany',
        from_default: true,
      });
      expect(connection.protocolProblems()).toEqual([]);
    } finally {
      await connection.close();
    }
  }, 60_000);
});
