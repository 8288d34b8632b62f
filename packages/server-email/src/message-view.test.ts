import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import {
  chromiumService,
  readViewResource,
  startViewHost,
  type ViewHost,
  viewHtmlProblems,
  viewScreenshotPath,
} from '@toolshed/view-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DovecotServer, dovecotService, startDovecot } from './__fixtures__/dovecot-server.ts';
import { type EmailHarness, startEmailHarness } from './__fixtures__/email-harness.ts';
import { htmlMessage } from './__fixtures__/sample-messages.ts';
import { messageViewHtml, messageViewUri } from './message-view.ts';

const chromiumInstalled = serviceGate(chromiumService, it);
const dovecotInstalled = serviceGate(dovecotService, it);

it('keeps the view within 30 KB, self-contained, with no http(s) source or link', () => {
  expect(viewHtmlProblems(messageViewHtml())).toEqual([]);
});

describe.runIf(chromiumInstalled && dovecotInstalled)('the message view, against Dovecot and in Chromium', () => {
  let dovecot: DovecotServer;
  let harness: EmailHarness;
  let client: TestClient;
  let host: ViewHost;

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
    host = await startViewHost();
  }, 60_000);

  afterAll(async () => {
    await host?.close();
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
    const view = await readViewResource(client, messageViewUri);
    expect(view?.mimeType).toBe('text/html;profile=mcp-app');
    const found = await client.callTool('search_messages', { subject: 'shipped' });
    const uid = (found.structuredContent as { messages: { uid: number }[] }).messages[0]?.uid;
    const toolInput = { uid };
    const toolResult = await client.callTool('read_message', toolInput);
    const { page, frame, problems, requests } = await host.open({
      html: view?.text,
      toolInput,
      toolResult,
      callTool: (name, args) => client.callTool(name, args),
    });
    await expect.poll(() => frame.locator('#subject').textContent()).toBe('Your order shipped');
    expect(await frame.locator('#from').textContent()).toContain('news@shop.example');
    expect(await frame.locator('#body').textContent()).toContain('It is on its way.');
    expect(await frame.locator('img').count()).toBe(0);
    expect(requests.filter((url) => url.includes('tracker'))).toEqual([]);
    await page.screenshot({ path: viewScreenshotPath(import.meta.url, 'message-view.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});
