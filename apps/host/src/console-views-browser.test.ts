import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, serviceGate } from '@toolshed/mcp-core/testing';
import { chromiumService, launchChromium } from '@toolshed/view-testing';
import Database from 'better-sqlite3';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLines } from './__fixtures__/audit-lines.ts';
import { postFromPage } from './__fixtures__/post-from-page.ts';
import { parseHostConfig } from './config/load-config.ts';
import { type ConsoleServerHandle, serveConsole } from './console/console-server.ts';
import { createTokenStore } from './console/console-token-store.ts';
import { fieldId } from './console/schema-form.ts';
import { createHost, type Host } from './create-host.ts';

const chromiumInstalled = serviceGate(chromiumService, it);

/** A statement whose result has 1,000 rows: i from 1 to 1000 and its square. */
const thousandRows =
  'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i, i * i AS square FROM n';

let directory: string;
let outbox: string;

/** The little of a view's window the tests use, acting as the view. */
interface ViewWindow {
  parent: { postMessage(message: unknown, targetOrigin: string): void };
  addEventListener(type: 'message', listener: (event: { data: { id?: unknown } | null }) => void): void;
}

/** The view frame of a console page, once its document has loaded from the view listener. */
async function viewFrame(page: Page): Promise<Frame> {
  await page.locator('iframe.view-frame').waitFor({ timeout: 10_000 });
  await expect
    .poll(() => page.frames().find((frame) => frame.url().includes('/views/')) !== undefined, { timeout: 10_000 })
    .toBe(true);
  return page.frames().find((frame) => frame.url().includes('/views/')) as Frame;
}

describe.runIf(chromiumInstalled)("views in the console, with the console's own host, in Chromium", () => {
  let host: Host;
  let console_: ConsoleServerHandle;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let token: string;
  /** Another origin a view must not reach. */
  let probe: Server;
  let probeUrl: string;
  let probeHits = 0;
  /** Page errors, console errors and Content Security Policy reports, from the console and its frames. */
  const problems: string[] = [];

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-console-views-'));
    outbox = join(directory, 'outbox');
    mkdirSync(outbox);
    const database = join(directory, 'shop.db');
    const db = new Database(database);
    db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items (name) VALUES ('apple');");
    db.close();
    host = createHost(
      parseHostConfig(
        JSON.stringify({
          toolshed: { audit: { path: join(directory, 'audit.jsonl') } },
          mcpServers: {
            '@toolshed/server-sql': { databases: database },
            // The same server again, its query asking first: a waiting call whose tool has a view.
            archive: {
              package: '@toolshed/server-sql',
              options: { databases: database },
              approval: { require: ['query'] },
            },
            // The host asks in the console; the email server's own question would go to a client that cannot answer.
            '@toolshed/server-email': { outboxDirectory: outbox, skipConfirmation: true },
          },
        }),
        join(directory, 'toolshed.json'),
      ),
      { log: () => {} },
    );
    await host.start();
    const tokens = createTokenStore(host.store);
    token = (await tokens.create('alice', 'views')).secret;
    console_ = await serveConsole({ host, tokens });
    probe = createServer((_request, response) => {
      probeHits += 1;
      response.writeHead(200, { 'access-control-allow-origin': '*' }).end('reached');
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/probe`;
    browser = await launchChromium();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // The console has no icon: its 404 is no problem of a view's.
      if (message.location().url.endsWith('/favicon.ico')) return;
      if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) {
        problems.push(`console: ${message.text()}`);
      }
    });
    await page.goto(`${console_.url}login`);
    await page.getByLabel('Token').fill(token);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${console_.url}servers`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await console_?.close();
    await host?.close();
    await new Promise((resolve) => probe?.close(resolve));
    rmSync(directory, { recursive: true, force: true });
  });

  it("renders a query's try-it result in the SQL view and pages to rows 51–100 through the proxied app-only call", async () => {
    await page.goto(`${console_.url}try/sql_query`);
    await page.locator(`#${fieldId('/sql')}`).fill(thousandRows);
    await page.locator(`#${fieldId('/max_rows')}`).fill('1000');
    await page.getByRole('button', { name: 'Call sql_query' }).click();
    await page.waitForURL(/\/calls\//);
    const frame = await viewFrame(page);
    // The view is served from another port with its own policy, and framed with no same-origin.
    const consoleOrigin = new URL(console_.url).origin;
    expect(new URL(frame.url()).origin).not.toBe(consoleOrigin);
    expect(await page.locator('iframe.view-frame').getAttribute('sandbox')).toBe('allow-scripts');
    // The console's policy stays strict, framing the view listener only; the view's names the console as its framer.
    const viewOrigin = new URL(frame.url()).origin;
    const consolePolicy = (await page.request.get(page.url())).headers()['content-security-policy'] ?? '';
    expect(consolePolicy).toMatch(/script-src 'self';/);
    expect(consolePolicy).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(consolePolicy).toMatch(new RegExp(`frame-src ${viewOrigin}$`));
    const viewPolicy = (await page.request.get(frame.url())).headers()['content-security-policy'] ?? '';
    expect(viewPolicy).toMatch(/connect-src 'none'/);
    expect(viewPolicy).toMatch(new RegExp(`frame-ancestors ${consoleOrigin}$`));
    const status = frame.locator('#status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('Rows 1–50 of 1000');
    expect(await frame.locator('#rows tr').first().locator('td').allTextContents()).toEqual(['1', '1']);
    await frame.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('Rows 51–100 of 1000');
    const firstColumn = await frame.locator('#rows tr td:first-child').allTextContents();
    expect(firstColumn).toEqual(Array.from({ length: 50 }, (_, index) => String(51 + index)));
    // The page call went through the host as alice's own, and is in the audit like a model's call.
    expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
      tool: 'sql_query_page',
      caller: expect.stringContaining('alice'),
      outcome: 'ok',
    });
    // The frame has grown to the view's height, from its size notifications.
    await expect
      .poll(async () => (await page.locator('iframe.view-frame').boundingBox())?.height ?? 0)
      .toBeGreaterThan(300);
    if (process.env.TOOLSHED_UPDATE_SCREENSHOTS === '1') {
      await page.screenshot({
        path: new URL('../docs/console-view.png', import.meta.url).pathname,
        fullPage: true,
      });
    }
    expect(problems).toEqual([]);
  });

  it('blocks a fetch from the view to another origin', async () => {
    const frame = await viewFrame(page);
    const outcome = await frame.evaluate(
      (target) =>
        fetch(target).then(
          () => 'fetched',
          () => 'blocked',
        ),
      probeUrl,
    );
    expect(outcome).toBe('blocked');
    expect(probeHits).toBe(0);
    expect(problems.some((problem) => /connect-src/.test(problem))).toBe(true);
    problems.length = 0;
  });

  it("refuses a view's call of another server's tool, and a call without the session's form token", async () => {
    const frame = await viewFrame(page);
    const answer = await frame.evaluate(
      () =>
        new Promise((resolve) => {
          const view = globalThis as unknown as ViewWindow;
          view.addEventListener('message', (event) => {
            if (event.data?.id === 'other-server') resolve(event.data);
          });
          view.parent.postMessage(
            { jsonrpc: '2.0', id: 'other-server', method: 'tools/call', params: { name: 'email_send_email' } },
            '*',
          );
        }),
    );
    expect(answer).toMatchObject({ error: { message: expect.stringMatching(/only the tools of its own server/) } });
    const mount = (await page.locator('[data-view-mount]').getAttribute('data-view-mount')) ?? '';
    const forged = await page.evaluate(
      async (mount) =>
        (
          await fetch(`/views/${mount}/call`, {
            method: 'POST',
            body: new URLSearchParams({ name: 'sql_query_page', arguments: '{}' }),
          })
        ).status,
      mount,
    );
    expect(forged).toBe(403);
    // The browser reports both refusals as failed loads: expected here, so not counted against the next cases.
    problems.length = 0;
  });

  it('shows ui/message in the view log and opens a link only on a click', async () => {
    const frame = await viewFrame(page);
    await frame.evaluate(() => {
      const view = globalThis as unknown as ViewWindow;
      view.parent.postMessage(
        {
          jsonrpc: '2.0',
          id: 'message',
          method: 'ui/message',
          params: { role: 'user', content: [{ type: 'text', text: 'Show me <b>the</b> next page' }] },
        },
        '*',
      );
      view.parent.postMessage(
        { jsonrpc: '2.0', id: 'link', method: 'ui/open-link', params: { url: 'https://example.invalid/report' } },
        '*',
      );
    });
    const log = page.getByRole('log', { name: 'Messages from the view of sql_query' });
    await expect.poll(() => log.textContent()).toMatch(/Message from the view: Show me <b>the<\/b> next page/);
    await expect.poll(() => log.textContent()).toMatch(/asks to open https:\/\/example\.invalid\/report/);
    expect(await log.locator('b').count()).toBe(0);
    // What the page opens is recorded in its place: nothing before the click, the link after.
    await page.evaluate(() => {
      const opener = globalThis as unknown as { open(url: string): null; openedUrls: string[] };
      opener.openedUrls = [];
      opener.open = (url: string) => {
        opener.openedUrls.push(url);
        return null;
      };
    });
    const openedUrls = () => page.evaluate(() => (globalThis as unknown as { openedUrls: string[] }).openedUrls);
    expect(await openedUrls()).toEqual([]);
    // From the keyboard, as a user who tabbed to it: what counts is the user's own action on the console's button.
    await log.getByRole('button', { name: 'Open link' }).press('Enter');
    await expect.poll(openedUrls).toEqual(['https://example.invalid/report']);
  });

  it("the email view's Send waits for the human: the click is not the yes", async () => {
    await page.goto(`${console_.url}try/email_preview_email`);
    await postFromPage(page, '/try/email_preview_email', {
      csrf: (await page.locator('header form input[name="csrf"]').getAttribute('value')) ?? '',
      '/to#json': '["outbox@toolshed.invalid"]',
      '/subject': 'Quarterly figures',
      '/text': 'Attached in spirit.',
      _run: '1',
    });
    await page.waitForURL(/\/calls\//);
    const frame = await viewFrame(page);
    await frame.getByRole('button', { name: 'Send…' }).click();
    await expect
      .poll(async () => (await host.approvals.pending()).map((pending) => pending.tool))
      .toEqual(['email_send_email']);
    expect(readdirSync(outbox)).toEqual([]);
    expect(await frame.locator('#status').textContent()).toBe('Waiting for your confirmation…');
    // The human decides on the approvals page, in another tab: the approval card and its buttons.
    const approvals = await browser.context.newPage();
    await approvals.goto(`${console_.url}approvals`);
    const card = approvals.locator('article.approval', { hasText: 'email_send_email' });
    await card.waitFor({ timeout: 10_000 });
    expect(await card.textContent()).toMatch(/Quarterly figures/);
    await approvals.getByRole('button', { name: 'Approve email_send_email' }).click();
    await approvals.waitForURL(/done=approve/);
    await approvals.close();
    await expect.poll(() => frame.locator('#status').textContent(), { timeout: 10_000 }).not.toMatch(/Waiting/);
    expect(await frame.locator('#error').textContent()).toBe('');
    expect(readdirSync(outbox)).toHaveLength(1);
    expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
      tool: 'email_send_email',
      approval: 'approved',
      outcome: 'ok',
    });
    expect(problems).toEqual([]);
  });

  it('shows the view of a waiting call on its approval card, with the arguments as its input', async () => {
    const client = await connectTestClient({ server: host.server }, { client: 'v2-modern', transport: 'memory' });
    try {
      await page.goto(`${console_.url}approvals`);
      const call = client.callTool('archive_query', { sql: 'SELECT name FROM items' });
      const card = page.locator('article.approval', { hasText: 'archive_query' });
      await card.waitFor({ timeout: 10_000 });
      const frame = await viewFrame(page);
      // The call has not run: the view has its input and waits for a result.
      await expect.poll(() => frame.locator('#status').textContent()).toBe('Waiting for the result…');
      if (process.env.TOOLSHED_UPDATE_SCREENSHOTS === '1') {
        await page.screenshot({
          path: new URL('../docs/console-approval-view.png', import.meta.url).pathname,
          fullPage: true,
        });
      }
      await page.getByRole('button', { name: 'Approve archive_query' }).click();
      await page.waitForURL(/done=approve/);
      expect(JSON.parse((await call).content[0]?.text ?? '{}')).toMatchObject({ rows: [['apple']] });
      expect(problems).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
