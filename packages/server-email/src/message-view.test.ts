import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumBinary, launchChromium } from '../../../apps/host/src/__fixtures__/chromium-browser.ts';
import { bundleAppBridgeHost } from '../../server-sql/src/__fixtures__/bundle-app-bridge-host.ts';
import { type DovecotServer, dovecotService, startDovecot } from './__fixtures__/dovecot-server.ts';
import { type EmailHarness, startEmailHarness } from './__fixtures__/email-harness.ts';
import { htmlMessage } from './__fixtures__/sample-messages.ts';
import { messageViewHtml, messageViewUri } from './message-view.ts';

const chromiumInstalled = serviceGate({ name: 'Chromium', binary: chromiumBinary, debianPackage: 'chromium' }, it);
const dovecotInstalled = serviceGate(dovecotService, it);

/** The README's screenshot of the view: rewritten with TOOLSHED_UPDATE_SCREENSHOTS=1, else taken into a temporary directory. */
const screenshots =
  process.env.TOOLSHED_UPDATE_SCREENSHOTS === '1'
    ? new URL('../screenshots/', import.meta.url).pathname
    : join(tmpdir(), 'toolshed-view-screenshots');

type Browser = Awaited<ReturnType<typeof launchChromium>>;

it('keeps the view within 30 KB, self-contained, with no http(s) source or link', () => {
  const html = messageViewHtml();
  expect(Buffer.byteLength(html)).toBeLessThanOrEqual(30 * 1024);
  expect(html).not.toMatch(/\s(?:src|href|action|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
  expect(html).not.toMatch(/<(?:link|iframe|object|embed|base)\b/i);
});

describe.runIf(chromiumInstalled && dovecotInstalled)('the message view, against Dovecot and in Chromium', () => {
  let dovecot: DovecotServer;
  let harness: EmailHarness;
  let client: TestClient;
  let browser: Browser;
  let site: Server;
  let base: string;

  beforeAll(async () => {
    dovecot = await startDovecot();
    dovecot.deliver('INBOX', [
      htmlMessage({
        subject: 'Your order shipped',
        html: '<p>It is on its way.</p><img src="https://tracker.shop.example/open.gif" width="1" height="1">',
      }),
    ]);
    harness = await startEmailHarness({
      smtp: false,
      server: () => ({
        imap: {
          host: '127.0.0.1',
          port: dovecot.imapsPort,
          user: dovecot.user,
          password: dovecot.password,
          ca: dovecot.ca,
        },
      }),
    });
    client = await connectTestClient(
      { server: harness.server },
      { client: 'v2-modern', transport: 'memory', ui: true },
    );
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
    await harness?.close();
    await dovecot?.stop();
  });

  it('is declared on read_message and shows the message with its body as text, loading nothing', async () => {
    const tools = (await client.listTools()) as { name: string; _meta?: unknown }[];
    expect(tools.find((tool) => tool.name === 'read_message')?._meta).toEqual({
      ui: { resourceUri: messageViewUri },
      'ui/resourceUri': messageViewUri,
    });
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (line) => {
      if (line.type() === 'error' || /Content.Security.Policy/i.test(line.text())) problems.push(line.text());
    });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(base);
    const sdk = client.sdk as {
      readResource(params: { uri: string }): Promise<{ contents: { mimeType?: string; text?: string }[] }>;
    };
    const [view] = (await sdk.readResource({ uri: messageViewUri })).contents;
    expect(view?.mimeType).toBe('text/html;profile=mcp-app');
    const found = await client.callTool('search_messages', { subject: 'shipped' });
    const uid = (found.structuredContent as { messages: { uid: number }[] }).messages[0]?.uid;
    const toolInput = { uid };
    const toolResult = await client.callTool('read_message', toolInput);
    await page.evaluate(
      (input) => (globalThis as never as { mountView(input: unknown): Promise<void> }).mountView(input),
      { html: view?.text, toolInput, toolResult },
    );
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    if (frame === undefined) throw new Error('the view frame is missing');
    await expect.poll(() => frame.locator('#subject').textContent()).toBe('Your order shipped');
    expect(await frame.locator('#from').textContent()).toContain('news@shop.example');
    expect(await frame.locator('#body').textContent()).toContain('It is on its way.');
    expect(await frame.locator('img').count()).toBe(0);
    expect(requests.filter((url) => url.includes('tracker'))).toEqual([]);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, 'message-view.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});
