import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumBinary, launchChromium } from '../../../apps/host/src/__fixtures__/chromium-browser.ts';
import { bundleAppBridgeHost } from '../../server-sql/src/__fixtures__/bundle-app-bridge-host.ts';
import { createFilesystemServer } from './create-filesystem-server.ts';
import { editReviewViewUri } from './edit-review-view.ts';

const chromiumInstalled = serviceGate({ name: 'Chromium', binary: chromiumBinary, debianPackage: 'chromium' }, it);

/** The README's screenshot of the view: rewritten with TOOLSHED_UPDATE_SCREENSHOTS=1, else taken into a temporary directory. */
const screenshots =
  process.env.TOOLSHED_UPDATE_SCREENSHOTS === '1'
    ? new URL('../screenshots/', import.meta.url).pathname
    : join(tmpdir(), 'toolshed-view-screenshots');

type Browser = Awaited<ReturnType<typeof launchChromium>>;
type Page = Awaited<ReturnType<Browser['context']['newPage']>>;

interface HostEvent {
  type: string;
  params: Record<string, unknown>;
}

let directory: string;
let server: ReturnType<typeof createFilesystemServer>;
let client: TestClient;
let browser: Browser;
let site: Server;
let base: string;

describe.runIf(chromiumInstalled)('the edit review in Chromium, with the official AppBridge as host', () => {
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-edit-review-browser-'));
    server = createFilesystemServer({ directories: [directory] });
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
    rmSync(directory, { recursive: true, force: true });
  });

  async function mount(toolInput: Record<string, unknown>): Promise<{ page: Page; problems: string[] }> {
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
    const html = (await sdk.readResource({ uri: editReviewViewUri })).contents[0]?.text;
    const toolResult = await client.callTool('edit_file', toolInput);
    await page.evaluate(
      (input) => (globalThis as never as { mountView(input: unknown): Promise<void> }).mountView(input),
      {
        html,
        toolInput,
        toolResult,
      },
    );
    return { page, problems };
  }

  const events = (page: Page) =>
    page.evaluate(() => (globalThis as never as { hostEvents: HostEvent[] }).hostEvents) as Promise<HostEvent[]>;

  function viewFrame(page: Page) {
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    if (frame === undefined) throw new Error('the view frame is missing');
    return frame;
  }

  it('shows the dry run side by side and applies it with the reviewed digest', async () => {
    const path = join(directory, 'notes.txt');
    writeFileSync(path, 'alpha\nbeta\ngamma\n');
    const edits = [{ oldText: 'beta', newText: 'BETA <img src=x onerror=alert(1)>' }];
    const { page, problems } = await mount({ path, edits, dryRun: true });
    const frame = viewFrame(page);
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Not written yet: a dry run');
    expect(await frame.locator('td.del').allTextContents()).toEqual(['beta']);
    // The new text is shown as text: the file's words never become markup.
    expect(await frame.locator('td.add').allTextContents()).toEqual(['BETA <img src=x onerror=alert(1)>']);
    expect(await frame.locator('img').count()).toBe(0);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, 'edit-review-view.png'), fullPage: true });
    await frame.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Written');
    expect(readFileSync(path, 'utf8')).toBe('alpha\nBETA <img src=x onerror=alert(1)>\ngamma\n');
    const seen = await events(page);
    const call = seen.find((event) => event.type === 'tools/call');
    expect(call?.params).toMatchObject({ name: 'apply_reviewed_edit', arguments: { path, edits } });
    expect((call?.params.arguments as { digest?: string } | undefined)?.digest).toMatch(/^[0-9a-f]{64}$/);
    await expect
      .poll(async () => (await events(page)).some((event) => event.type === 'update-model-context'))
      .toBe(true);
    expect(seen.some((event) => event.type === 'size-changed')).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('refuses to apply when the file changed after the dry run', async () => {
    const path = join(directory, 'moving.txt');
    writeFileSync(path, 'one\ntwo\n');
    const { page, problems } = await mount({ path, edits: [{ oldText: 'two', newText: '2' }], dryRun: true });
    const frame = viewFrame(page);
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Not written yet: a dry run');
    writeFileSync(path, 'one\ntwo\nthree\n');
    await frame.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => frame.locator('#error').textContent()).toMatch(/changed since the dry run/);
    expect(await frame.locator('#status').textContent()).toBe('Not written');
    expect(readFileSync(path, 'utf8')).toBe('one\ntwo\nthree\n');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('offers no Apply for an edit already written', async () => {
    const path = join(directory, 'done.txt');
    writeFileSync(path, 'x\n');
    const { page } = await mount({ path, edits: [{ oldText: 'x', newText: 'y' }] });
    const frame = viewFrame(page);
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Written');
    expect(await frame.getByRole('button', { name: 'Apply' }).isHidden()).toBe(true);
    await page.close();
  });
});
