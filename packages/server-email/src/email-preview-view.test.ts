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
import { createEmailServer } from './create-email-server.ts';
import { emailPreviewViewHtml, emailPreviewViewUri } from './email-preview-view.ts';

const chromiumInstalled = serviceGate(chromiumService, it);

let directory: string;
let outbox: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-email-view-'));
  outbox = join(directory, 'outbox');
  mkdirSync(outbox);
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

function emailServer() {
  return createEmailServer({
    from: 'Assistant <sender@example.com>',
    outboxDirectory: outbox,
    allowRecipients: ['example.com'],
    state: join(directory, `state-${Math.random().toString(36).slice(2)}.db`),
  });
}

const message = {
  to: ['Ana <ana@example.com>'],
  subject: 'Lunch',
  text: 'Noon?\n<img src="https://tracker.example.net/p.gif">',
};

describe.each(testClientKinds)('the email preview view with the %s client', (kind) => {
  it('is declared on preview_email and served as an MCP App with an empty CSP', async () => {
    const server = emailServer();
    const client = await connectTestClient({ server }, { client: kind, transport: 'memory', ui: true });
    try {
      const tools = (await client.listTools()) as { name: string; _meta?: unknown }[];
      expect(tools.find((tool) => tool.name === 'preview_email')?._meta).toEqual({
        ui: { resourceUri: emailPreviewViewUri },
        'ui/resourceUri': emailPreviewViewUri,
      });
      const view = await readViewResource(client, emailPreviewViewUri);
      expect(view).toMatchObject({ mimeType: 'text/html;profile=mcp-app', text: emailPreviewViewHtml() });
      expect(view?._meta).toEqual({
        ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] } },
      });
      expect(client.protocolProblems()).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

it('keeps the view within 30 KB, self-contained, with no http(s) source or link', () => {
  expect(viewHtmlProblems(emailPreviewViewHtml())).toEqual([]);
});

describe.runIf(chromiumInstalled)('the email preview view in Chromium, with the official AppBridge as host', () => {
  let server: ReturnType<typeof createEmailServer>;
  let client: TestClient;
  let host: ViewHost;
  /** How the user answers send_email's question, and what they were asked. */
  let answer: 'accept' | 'decline' = 'decline';
  const asked: string[] = [];

  beforeAll(async () => {
    server = emailServer();
    client = await connectTestClient(
      { server },
      {
        client: 'v2-legacy',
        transport: 'memory',
        ui: true,
        onElicit: (params) => {
          asked.push(String(params.message));
          return answer === 'accept' ? { action: 'accept', content: { confirmed: true } } : { action: 'decline' };
        },
      },
    );
    host = await startViewHost();
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await client?.close();
    await server?.close();
  });

  async function mount(toolInput: Record<string, unknown>) {
    const html = (await readViewResource(client, emailPreviewViewUri))?.text;
    const toolResult = await client.callTool('preview_email', toolInput);
    return host.open({ html, toolInput, toolResult, callTool: (name, args) => client.callTool(name, args) });
  }

  it('shows the message as text, and Send waits for the human: no sends nothing, yes sends', async () => {
    const { page, frame, problems } = await mount(message);
    await expect.poll(() => frame.locator('#subject').textContent()).toBe('Lunch');
    expect(await frame.locator('#to .who.ok').allTextContents()).toEqual(['Ana <ana@example.com>']);
    // The body is text: the tracking pixel in it is shown, never loaded.
    expect(await frame.locator('#body').textContent()).toContain('<img src="https://tracker.example.net/p.gif">');
    expect(await frame.locator('img').count()).toBe(0);
    await page.screenshot({ path: viewScreenshotPath(import.meta.url, 'email-preview-view.png'), fullPage: true });
    answer = 'decline';
    await frame.getByRole('button', { name: 'Send…' }).click();
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Not sent');
    expect(asked).toHaveLength(1);
    expect(readdirSync(outbox, { withFileTypes: true }).filter((entry) => entry.name.endsWith('.eml'))).toEqual([]);
    answer = 'accept';
    await frame.getByRole('button', { name: 'Send…' }).click();
    await expect.poll(() => frame.locator('#send').isHidden()).toBe(true);
    expect(asked).toHaveLength(2);
    expect(readdirSync(outbox).filter((name) => name.endsWith('.eml'))).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('marks a recipient outside the allowlist and offers no Send', async () => {
    const { page, frame } = await mount({ ...message, to: ['ana@example.com', 'eve@elsewhere.test'] });
    await expect.poll(() => frame.locator('#to .who.no').allTextContents()).toEqual(['eve@elsewhere.test']);
    expect(await frame.locator('#to .who.ok').allTextContents()).toEqual(['ana@example.com']);
    expect(await frame.locator('#blocked').textContent()).toMatch(/^Blocked \(allowlist\): eve@elsewhere.test/);
    expect(await frame.locator('#send').isHidden()).toBe(true);
    await page.close();
  });
});
