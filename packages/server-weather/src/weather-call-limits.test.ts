/**
 * The two limits that hold a call to what a client can wait for and an
 * upstream can bear: one time limit for the whole call, across tries and
 * body reading, and a cap on the connections kept per upstream origin. Each
 * through the official clients (SDK v1, v2 legacy and modern).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { connectTestClient, type TestClientKind, testClientKinds } from '@toolshed/mcp-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startWeatherUpstream, type WeatherUpstream } from './__fixtures__/weather-upstream.ts';
import { createWeatherServer } from './create-weather-server.ts';
import { type WeatherServerOptions, weatherServerOptions } from './weather-server-options.ts';

let upstream: WeatherUpstream | undefined;

afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function weatherServer(options: WeatherServerOptions) {
  upstream = await startWeatherUpstream();
  const { url } = upstream;
  const server = createWeatherServer({
    ...options,
    upstreams: { forecastUrl: url, geocodingUrl: url, airQualityUrl: url, nwsUrl: url },
    limits: { retryDelayMs: 5, ...options.limits },
  });
  return { server, upstream };
}

async function withClient<Result>(
  options: WeatherServerOptions,
  client: TestClientKind,
  use: (
    call: (
      name: string,
      args: Record<string, unknown>,
    ) => ReturnType<Awaited<ReturnType<typeof connectTestClient>>['callTool']>,
    upstream: WeatherUpstream,
  ) => Promise<Result>,
): Promise<Result> {
  const { server, upstream: fixture } = await weatherServer(options);
  const connection = await connectTestClient({ server }, { client, transport: 'memory' });
  try {
    const result = await use((name, args) => connection.callTool(name, args), fixture);
    expect(connection.protocolProblems()).toEqual([]);
    return result;
  } finally {
    await connection.close();
    await server.close();
  }
}

describe('the time limit of a whole call', () => {
  it('defaults to 45 s, well inside the 60 s the official clients wait', () => {
    const { limits } = weatherServerOptions.parse({});
    expect(limits.callTimeoutMs).toBe(45_000);
    expect(limits.callTimeoutMs).toBeLessThan(60_000);
  });

  it.each(testClientKinds)(
    '%s client: a body that trickles in forever, on every try, ends the call with an error at the limit',
    (client) =>
      // Each try's own limits are far away: only the call's limit can end this call.
      withClient(
        {
          limits: {
            callTimeoutMs: 400,
            requestTimeoutMs: 600_000,
            headersTimeoutMs: 600_000,
            bodyTimeoutMs: 600_000,
            maxAttempts: 5,
          },
        },
        client,
        async (call, fixture) => {
          fixture.script('/v1/forecast', ...Array.from({ length: 5 }, () => ({ trickleMs: 20 })));
          const result = await call('get_current_weather', { latitude: 40.25, longitude: -30.5 });
          expect(result.isError).toBe(true);
          expect(result.content[0]?.text).toBe(
            'Open-Meteo did not answer within 400 ms, the time limit of a call; try again in a minute.',
          );
          // The trickling request is let go, not left running behind the answer.
          // (On a busy machine the limit may pass before a request went out at all: then none is left either.)
          await expect.poll(() => fixture.aborted - fixture.count('/v1/forecast'), { timeout: 15_000 }).toBe(0);
          const after = await call('search_locations', { name: 'Denver' });
          expect(after.isError).toBeFalsy();
        },
      ),
  );

  it('spans every upstream request of a call: a name looked up, then a forecast that never ends', () =>
    withClient(
      { limits: { callTimeoutMs: 400, requestTimeoutMs: 600_000, headersTimeoutMs: 600_000, maxAttempts: 3 } },
      'v2-modern',
      async (call, fixture) => {
        fixture.script('/v1/forecast', { hang: true });
        const result = await call('get_forecast', { location: 'Denver' });
        expect(fixture.count('/v1/search')).toBe(1);
        expect(result.isError).toBe(true);
        expect(result.content[0]?.text).toBe(
          'Open-Meteo did not answer within 400 ms, the time limit of a call; try again in a minute.',
        );
      },
    ));

  it('serves the last answer, marked stale, when the limit runs out on a refresh', () =>
    withClient(
      { limits: { callTimeoutMs: 400, currentTtlSeconds: 1, requestTimeoutMs: 600_000, bodyTimeoutMs: 600_000 } },
      'v1',
      async (call, fixture) => {
        const point = { latitude: 48.8566, longitude: 2.3522 };
        const first = await call('get_current_weather', point);
        expect(first.isError).toBeFalsy();
        await sleep(1100);
        fixture.script('/v1/forecast', { trickleMs: 20 });
        const second = await call('get_current_weather', point);
        expect(second.isError).toBeFalsy();
        expect(second.structuredContent?.freshness).toMatchObject({
          from_cache: true,
          stale: true,
          stale_reason: 'The call took longer than 400 ms, its time limit.',
        });
        expect(second.structuredContent?.current).toEqual(first.structuredContent?.current);
      },
    ));
});

describe('the connection cap per upstream origin', () => {
  it('defaults to 6', () => {
    expect(weatherServerOptions.parse({}).limits.maxConnections).toBe(6);
  });

  it.each(testClientKinds)('%s client: 100 concurrent calls for 100 places open at most 6 connections', (client) =>
    withClient({}, client, async (call, fixture) => {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          call('get_current_weather', { latitude: 20 + index / 100, longitude: 10.5 }),
        ),
      );
      expect(results.filter((result) => result.isError)).toEqual([]);
      expect(fixture.count('/v1/forecast')).toBe(100);
      expect(fixture.connections).toBeGreaterThan(0);
      expect(fixture.connections).toBeLessThanOrEqual(6);
    }),
  );

  it('holds to a cap set lower', () =>
    withClient({ limits: { maxConnections: 2 } }, 'v2-legacy', async (call, fixture) => {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          call('get_forecast', { latitude: -20 - index / 100, longitude: 10.5, days: 2 }),
        ),
      );
      expect(results.filter((result) => result.isError)).toEqual([]);
      expect(fixture.connections).toBeLessThanOrEqual(2);
    }));
});
