import { spawnSync } from 'node:child_process';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { recordMessages, spawnHttpServer } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeatherUpstream, type WeatherUpstream } from './__fixtures__/weather-upstream.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let upstream: WeatherUpstream;

beforeAll(async () => {
  upstream = await startWeatherUpstream();
});

afterAll(() => upstream.close());

describe('toolshed-weather bin', () => {
  it.each([
    [['--units', 'kelvin'], /--units: Invalid option: expected one of "metric"\|"imperial"/],
    [['--forecast-url', 'ftp://example.com'], /--forecast-url: must be an http\(s\) URL/],
    [['--max-attempts', '0'], /--max-attempts: must be a whole number of at least 1/],
    [['--contact', 'me (at) example.com'], /--contact: must be printable ASCII on one line, without parentheses/],
    [['--max-attempt', '2'], /Unknown option '--max-attempt' \(did you mean --max-attempts\?/],
  ])('exits 2 with one line for %j', (args, message) => {
    const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input: '' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });

  it('serves stdio to the official SDK client, upstreams and contact from the environment', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, '--units', 'imperial'],
      env: {
        ...process.env,
        TOOLSHED_WEATHER_FORECAST_URL: upstream.url,
        TOOLSHED_WEATHER_GEOCODING_URL: upstream.url,
        TOOLSHED_WEATHER_AIR_QUALITY_URL: upstream.url,
        TOOLSHED_WEATHER_NWS_URL: upstream.url,
        TOOLSHED_WEATHER_CONTACT: 'ops@example.com',
        OPEN_METEO_API_KEY: 'key-123',
      } as Record<string, string>,
      stderr: 'pipe',
    });
    const recording = recordMessages(transport);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(recording.transport);
    const result = await client.callTool({ name: 'get_current_weather', arguments: { location: 'Denver' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ units: { temperature: '°F' } });
    const forecast = upstream.requests.find((request) => request.route === '/v1/forecast');
    expect(forecast?.params.get('apikey')).toBe('key-123');
    expect(forecast?.userAgent).toMatch(/; ops@example\.com\)$/);
    const alerts = await client.callTool({ name: 'get_weather_alerts', arguments: { location: 'Denver' } });
    expect(alerts.structuredContent).toMatchObject({ coverage: 'nws', count: 2 });
    expect(upstream.requests.find((request) => request.route === '/points')?.params.has('apikey')).toBe(false);
    expect(recording.specViolations()).toEqual([]);
    await client.close();
  });

  it('serves Streamable HTTP with --http to the v2 SDK client', async () => {
    const server = await spawnHttpServer([
      bin,
      '--http',
      '127.0.0.1:0',
      '--nws-url',
      upstream.url,
      '--forecast-url',
      upstream.url,
    ]);
    try {
      const client = new ClientV2({ name: 'test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const result = await client.callTool({
        name: 'get_weather_alerts',
        arguments: { latitude: 35.6895, longitude: 139.6917 },
      });
      expect(result.structuredContent).toMatchObject({ coverage: 'none', count: 0 });
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
