import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
import { photo } from './__fixtures__/sample-images.ts';
import { createImageServer } from './create-image-server.ts';
import { processImageViewHtml, processImageViewUri } from './process-image-view.ts';

const chromiumInstalled = serviceGate(chromiumService, it);

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
  expect(viewHtmlProblems(processImageViewHtml())).toEqual([]);
});

describe.runIf(chromiumInstalled)('the before/after view in Chromium, with the official AppBridge as host', () => {
  let imageServer: ReturnType<typeof createImageServer>;
  let client: TestClient;
  let host: ViewHost;

  beforeAll(async () => {
    imageServer = server();
    client = await connectTestClient({ server: imageServer }, { client: 'v2-modern', transport: 'memory', ui: true });
    host = await startViewHost();
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await client?.close();
    await imageServer?.close();
  });

  it('shows the result from the tool result and the input from preview_source_image', async () => {
    const html = (await readViewResource(client, processImageViewUri))?.text;
    const toolInput = {
      path: picture,
      operations: [
        { op: 'adjust', grayscale: true },
        { op: 'rotate', angle: 90 },
      ],
    };
    const toolResult = await client.callTool('process_image', toolInput);
    expect(toolResult.isError).toBeUndefined();
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
    const events = await hostEvents();
    expect(events.find((event) => event.type === 'tools/call')?.params).toEqual({
      name: 'preview_source_image',
      arguments: { path: picture },
    });
    expect(events.some((event) => event.type === 'size-changed')).toBe(true);
    await page.screenshot({ path: viewScreenshotPath(import.meta.url, 'before-after-view.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});
