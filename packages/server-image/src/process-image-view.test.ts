import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, serviceGate, type TestClient, testClientKinds } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumBinary, launchChromium } from '../../../apps/host/src/__fixtures__/chromium-browser.ts';
import { toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
import { bundleAppBridgeHost } from '../../server-sql/src/__fixtures__/bundle-app-bridge-host.ts';
import { photo } from './__fixtures__/sample-images.ts';
import { createImageServer } from './create-image-server.ts';
import { processImageViewHtml, processImageViewUri } from './process-image-view.ts';

const chromiumInstalled = serviceGate({ name: 'Chromium', binary: chromiumBinary, debianPackage: 'chromium' }, it);

/** The README's screenshot of the view: rewritten with TOOLSHED_UPDATE_SCREENSHOTS=1, else taken into a temporary directory. */
const screenshots =
  process.env.TOOLSHED_UPDATE_SCREENSHOTS === '1'
    ? new URL('../screenshots/', import.meta.url).pathname
    : join(tmpdir(), 'toolshed-view-screenshots');

type Browser = Awaited<ReturnType<typeof launchChromium>>;

let directory: string;
let images: string;
let out: string;
let picture: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-image-view-'));
  images = join(directory, 'images');
  out = join(directory, 'out');
  mkdirSync(images);
  mkdirSync(out);
  picture = join(images, 'photo.jpg');
  await (await photo(2400, 1600)).jpeg().toFile(picture);
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

const server = () => createImageServer({ directories: [images], outputDirectory: out });

describe.each(testClientKinds)('the before/after view with the %s client', (kind) => {
  it('declares the view, lists preview_source_image only for views, and previews the input unwritten', async () => {
    const imageServer = server();
    const client = await connectTestClient({ server: imageServer }, { client: kind, transport: 'memory', ui: true });
    const plain = await connectTestClient({ server: imageServer }, { client: kind, transport: 'memory' });
    try {
      const tools = (await client.listTools()) as { name: string; _meta?: unknown }[];
      expect(tools.find((tool) => tool.name === 'process_image')?._meta).toEqual({
        ui: { resourceUri: processImageViewUri },
        'ui/resourceUri': processImageViewUri,
      });
      expect(tools.find((tool) => tool.name === 'preview_source_image')?._meta).toEqual({
        ui: { visibility: ['app'] },
      });
      expect((await plain.listTools()).map((tool) => tool.name)).not.toContain('preview_source_image');
      expect(toolTokenOverruns('image', await plain.listTools())).toEqual([]);
      const written = readdirSync(out).length;
      const preview = await client.callTool('preview_source_image', { path: picture });
      expect(preview.isError).toBeUndefined();
      expect(preview.structuredContent).toMatchObject({
        source: { width: 2400, height: 1600 },
        preview: { scaled: true },
        operations: [],
      });
      expect((preview.structuredContent as { file?: unknown }).file).toBeUndefined();
      expect(readdirSync(out)).toHaveLength(written);
      const refused = await client.callTool('preview_source_image', { path: '/etc/passwd' });
      expect(refused.isError).toBe(true);
      await expect(plain.callTool('preview_source_image', { path: picture })).rejects.toThrow(/Unknown tool/);
    } finally {
      await client.close();
      await plain.close();
      await imageServer.close();
    }
  });
});

it('keeps the view within 30 KB, self-contained, with no http(s) source or link', () => {
  const html = processImageViewHtml();
  expect(Buffer.byteLength(html)).toBeLessThanOrEqual(30 * 1024);
  expect(html).not.toMatch(/\s(?:src|href|action|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
  expect(html).not.toMatch(/<(?:link|iframe|object|embed|base)\b/i);
});

describe.runIf(chromiumInstalled)('the before/after view in Chromium, with the official AppBridge as host', () => {
  let imageServer: ReturnType<typeof createImageServer>;
  let client: TestClient;
  let browser: Browser;
  let site: Server;
  let base: string;

  beforeAll(async () => {
    imageServer = server();
    client = await connectTestClient({ server: imageServer }, { client: 'v2-modern', transport: 'memory', ui: true });
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
    await imageServer?.close();
  });

  it('shows the result from the tool result and the input from preview_source_image', async () => {
    const page = await browser.context.newPage();
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
    const html = (await sdk.readResource({ uri: processImageViewUri })).contents[0]?.text;
    const toolInput = {
      path: picture,
      operations: [
        { op: 'adjust', grayscale: true },
        { op: 'rotate', angle: 90 },
      ],
    };
    const toolResult = await client.callTool('process_image', toolInput);
    expect(toolResult.isError).toBeUndefined();
    await page.evaluate(
      (input) => (globalThis as never as { mountView(input: unknown): Promise<void> }).mountView(input),
      { html, toolInput, toolResult },
    );
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    if (frame === undefined) throw new Error('the view frame is missing');
    const loaded = (id: string) =>
      frame.evaluate((which) => {
        const image = (
          globalThis as never as { document: { getElementById(id: string): unknown } }
        ).document.getElementById(which) as { complete: boolean; naturalWidth: number };
        return image.complete ? image.naturalWidth : 0;
      }, id);
    await expect.poll(() => loaded('after')).toBeGreaterThan(0);
    await expect.poll(() => loaded('before')).toBeGreaterThan(0);
    // The result is rotated: portrait after, landscape before.
    const sizes = await frame.evaluate(() =>
      ['before', 'after'].map((id) => {
        const image = (
          globalThis as never as { document: { getElementById(id: string): unknown } }
        ).document.getElementById(id) as { naturalWidth: number; naturalHeight: number };
        return image.naturalWidth > image.naturalHeight ? 'landscape' : 'portrait';
      }),
    );
    expect(sizes).toEqual(['landscape', 'portrait']);
    expect(await frame.locator('#beforeLabel').textContent()).toBe('Before · 2400 × 1600 px, jpeg');
    expect(await frame.locator('#afterLabel').textContent()).toBe('After · 1600 × 2400 px, jpeg');
    const events = (await page.evaluate(
      () => (globalThis as never as { hostEvents: { type: string; params: Record<string, unknown> }[] }).hostEvents,
    )) as { type: string; params: Record<string, unknown> }[];
    expect(events.find((event) => event.type === 'tools/call')?.params).toEqual({
      name: 'preview_source_image',
      arguments: { path: picture },
    });
    expect(events.some((event) => event.type === 'size-changed')).toBe(true);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, 'before-after-view.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});
