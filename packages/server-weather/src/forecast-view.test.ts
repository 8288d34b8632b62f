import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, serviceGate, type TestClient, testClientKinds } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumBinary, launchChromium } from '../../../apps/host/src/__fixtures__/chromium-browser.ts';
import { bundleAppBridgeHost } from '../../server-sql/src/__fixtures__/bundle-app-bridge-host.ts';
import { startWeatherUpstream, type WeatherUpstream } from './__fixtures__/weather-upstream.ts';
import { createWeatherServer } from './create-weather-server.ts';
import { forecastViewHtml, forecastViewUri } from './forecast-view.ts';

const chromiumInstalled = serviceGate({ name: 'Chromium', binary: chromiumBinary, debianPackage: 'chromium' }, it);

/** The README's screenshot of the view: rewritten with TOOLSHED_UPDATE_SCREENSHOTS=1, else taken into a temporary directory. */
const screenshots =
  process.env.TOOLSHED_UPDATE_SCREENSHOTS === '1'
    ? new URL('../screenshots/', import.meta.url).pathname
    : join(tmpdir(), 'toolshed-view-screenshots');

type Browser = Awaited<ReturnType<typeof launchChromium>>;
type Page = Awaited<ReturnType<Browser['context']['newPage']>>;

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
      const sdk = client.sdk as {
        readResource(params: {
          uri: string;
        }): Promise<{ contents: { mimeType?: string; text?: string; _meta?: unknown }[] }>;
      };
      const [view] = (await sdk.readResource({ uri: forecastViewUri })).contents;
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
  const html = forecastViewHtml();
  expect(Buffer.byteLength(html)).toBeLessThanOrEqual(30 * 1024);
  expect(html).not.toMatch(/\s(?:src|href|action|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
  expect(html).not.toMatch(/<(?:link|iframe|object|embed|base)\b/i);
});

describe.runIf(chromiumInstalled)('the forecast view in Chromium, with the official AppBridge as host', () => {
  let server: ReturnType<typeof createWeatherServer>;
  let client: TestClient;
  let browser: Browser;
  let site: Server;
  let base: string;

  beforeAll(async () => {
    server = weatherServer();
    client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory', ui: true });
    const hostScript = await bundleAppBridgeHost();
    site = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html><body><script>${hostScript}</script></body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await client?.close();
    await server?.close();
  });

  it('renders the card from the result, charts the hours and shows the alert banner', async () => {
    const page: Page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) {
        problems.push(`console: ${message.text()}`);
      }
    });
    await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) =>
      client.callTool(params.name, params.arguments ?? {}),
    );
    await page.goto(base);
    const sdk = client.sdk as { readResource(params: { uri: string }): Promise<{ contents: { text?: string }[] }> };
    const html = (await sdk.readResource({ uri: forecastViewUri })).contents[0]?.text;
    const toolInput = { location: 'Denver', days: 3, hours: 8 };
    const toolResult = await client.callTool('get_forecast', toolInput);
    await page.evaluate(
      (input) => (globalThis as never as { mountView(input: unknown): Promise<void> }).mountView(input),
      { html, toolInput, toolResult },
    );
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    if (frame === undefined) throw new Error('the view frame is missing');
    await expect.poll(() => frame.locator('.day').count()).toBe(3);
    expect(await frame.locator('#place').textContent()).toMatch(/Denver/);
    expect(await frame.locator('.day .c').nth(1).textContent()).toBe('slight rain');
    expect(await frame.locator('svg polyline').count()).toBe(1);
    await expect.poll(() => frame.locator('#alert').textContent()).toMatch(/^High Wind Warning \(Severe\)/);
    const events = (await page.evaluate(
      () => (globalThis as never as { hostEvents: { type: string; params: Record<string, unknown> }[] }).hostEvents,
    )) as { type: string; params: Record<string, unknown> }[];
    expect(events.find((event) => event.type === 'tools/call')?.params).toMatchObject({
      name: 'get_weather_alerts',
      arguments: { latitude: expect.any(Number), longitude: expect.any(Number) },
    });
    expect(events.some((event) => event.type === 'update-model-context')).toBe(true);
    expect(events.some((event) => event.type === 'size-changed')).toBe(true);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, 'forecast-view.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});
