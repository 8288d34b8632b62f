import { connectTestClient, serviceGate, type TestClient, testClientKinds } from '@toolshed/mcp-core/testing';
import {
  chromiumService,
  readViewResource,
  startViewHost,
  type ViewHost,
  viewHtmlProblems,
  viewScreenshotPath,
} from '@toolshed/view-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeatherUpstream, type WeatherUpstream } from './__fixtures__/weather-upstream.ts';
import { createWeatherServer } from './create-weather-server.ts';
import { forecastViewHtml, forecastViewUri } from './forecast-view.ts';

const chromiumInstalled = serviceGate(chromiumService, it);

let upstream: WeatherUpstream;

beforeAll(async () => {
  upstream = await startWeatherUpstream();
});

afterAll(() => upstream.close());

function weatherServer() {
  return createWeatherServer({
    contact: 'weather-tests@example.com',
    upstreams: {
      forecastUrl: upstream.url,
      archiveUrl: upstream.url,
      geocodingUrl: upstream.url,
      airQualityUrl: upstream.url,
      nwsUrl: upstream.url,
      meteoalarmUrl: upstream.url,
      environmentCanadaUrl: upstream.url,
    },
    limits: { retryDelayMs: 5 },
  });
}

describe.each(testClientKinds)('the forecast view with the %s client', (kind) => {
  it('is declared on get_forecast and served as an MCP App with an empty CSP; the text stays complete', async () => {
    const server = weatherServer();
    const client = await connectTestClient({ server }, { client: kind, transport: 'memory', ui: true });
    try {
      const tools = (await client.listTools()) as { name: string; _meta?: unknown }[];
      expect(tools.find((tool) => tool.name === 'get_forecast')?._meta).toEqual({
        ui: { resourceUri: forecastViewUri },
        'ui/resourceUri': forecastViewUri,
      });
      const view = await readViewResource(client, forecastViewUri);
      expect(view).toMatchObject({ mimeType: 'text/html;profile=mcp-app', text: forecastViewHtml() });
      expect(view?._meta).toEqual({
        ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] } },
      });
      const result = await client.callTool('get_forecast', { location: 'Denver', days: 3 });
      expect(JSON.parse(result.content[0]?.text ?? '{}')).toMatchObject({ daily: expect.any(Array) });
      expect(client.protocolProblems()).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

it('keeps the view within 30 KB, self-contained, with no http(s) source or link', () => {
  expect(viewHtmlProblems(forecastViewHtml())).toEqual([]);
});

describe.runIf(chromiumInstalled)('the forecast view in Chromium, with the official AppBridge as host', () => {
  let server: ReturnType<typeof createWeatherServer>;
  let client: TestClient;
  let host: ViewHost;

  beforeAll(async () => {
    server = weatherServer();
    client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory', ui: true });
    host = await startViewHost();
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await client?.close();
    await server?.close();
  });

  it('renders the card from the result, charts the hours and shows the alert banner', async () => {
    const html = (await readViewResource(client, forecastViewUri))?.text;
    const toolInput = { location: 'Denver', days: 3, hours: 8 };
    const toolResult = await client.callTool('get_forecast', toolInput);
    const {
      page,
      frame,
      problems,
      events: hostEvents,
    } = await host.open({
      html,
      toolInput,
      toolResult,
      callTool: (name, args) => client.callTool(name, args),
    });
    await expect.poll(() => frame.locator('.day').count()).toBe(3);
    expect(await frame.locator('#place').textContent()).toMatch(/Denver/);
    expect(await frame.locator('.day .c').nth(1).textContent()).toBe('slight rain');
    expect(await frame.locator('svg polyline').count()).toBe(1);
    await expect.poll(() => frame.locator('#alert').textContent()).toMatch(/^High Wind Warning \(Severe\)/);
    const events = await hostEvents();
    expect(events.find((event) => event.type === 'tools/call')?.params).toMatchObject({
      name: 'get_weather_alerts',
      arguments: { latitude: expect.any(Number), longitude: expect.any(Number) },
    });
    expect(events.some((event) => event.type === 'update-model-context')).toBe(true);
    expect(events.some((event) => event.type === 'size-changed')).toBe(true);
    await page.screenshot({ path: viewScreenshotPath(import.meta.url, 'forecast-view.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});
