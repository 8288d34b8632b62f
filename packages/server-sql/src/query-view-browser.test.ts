import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumBinary, launchChromium } from '../../../apps/host/src/__fixtures__/chromium-browser.ts';
import { bundleAppBridgeHost } from './__fixtures__/bundle-app-bridge-host.ts';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { thousandRows } from './__fixtures__/thousand-rows.ts';
import { createSqlServer } from './create-sql-server.ts';
import { queryViewUri } from './query-view.ts';

const chromiumInstalled = serviceGate({ name: 'Chromium', binary: chromiumBinary, debianPackage: 'chromium' }, it);

/** The README's screenshot of the view: rewritten with TOOLSHED_UPDATE_SCREENSHOTS=1, else taken into a temporary directory. */
const screenshots =
  process.env.TOOLSHED_UPDATE_SCREENSHOTS === '1'
    ? new URL('../screenshots/', import.meta.url).pathname
    : join(tmpdir(), 'toolshed-view-screenshots');

let sample: SampleDatabase;
let server: ReturnType<typeof createSqlServer>;
let client: TestClient;
let browser: { context: BrowserContext; close(): Promise<void> };
let site: Server;
let base: string;
/** Requests that reached the other origin a view must not reach. */
let probeHits = 0;

interface HostEvent {
  type: string;
  params: Record<string, unknown>;
}

describe.runIf(chromiumInstalled)('the query view in Chromium, with the official AppBridge as host', () => {
  beforeAll(async () => {
    sample = createSampleDatabase();
    const tools = join(sample.directory, 'tools.yaml');
    writeFileSync(
      tools,
      'tools:\n  - name: orders_by_id\n    description: Every order, by id.\n    statement: SELECT id, total FROM orders ORDER BY id\n',
    );
    server = createSqlServer({ databases: sample.path, tools });
    client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory', ui: true });
    const hostScript = await bundleAppBridgeHost();
    site = createServer((request, response) => {
      if (request.url === '/probe') {
        probeHits += 1;
        response.writeHead(200, { 'access-control-allow-origin': '*' }).end('reached');
        return;
      }
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
    sample?.remove();
  });

  /** Opens the host page, mounts the view with the real tool's input and result, and collects what goes wrong. */
  async function mount(
    toolInput: Record<string, unknown>,
    /** What a host that renames tools tells the view, as `<meta name="mcp-view-tool-names">`; the calls are routed back. */
    renamed?: { prefix: string },
    tool = 'query',
  ): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) {
        problems.push(`console: ${message.text()}`);
      }
    });
    await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) =>
      client.callTool(
        renamed === undefined ? params.name : params.name.replace(renamed.prefix, ''),
        params.arguments ?? {},
      ),
    );
    await page.goto(base);
    const sdk = client.sdk as { readResource(params: { uri: string }): Promise<{ contents: { text?: string }[] }> };
    let html = (await sdk.readResource({ uri: queryViewUri })).contents[0]?.text ?? '';
    if (renamed !== undefined) {
      const names = JSON.stringify({ query_page: `${renamed.prefix}query_page` }).replaceAll('"', '&quot;');
      html = html.replace('<head>', `<head><meta name="mcp-view-tool-names" content="${names}">`);
    }
    const toolResult = await client.callTool(tool, toolInput);
    await page.evaluate((input) => (window as never as { mountView(input: unknown): Promise<void> }).mountView(input), {
      html,
      toolInput,
      toolResult,
    });
    return { page, problems };
  }

  const events = (page: Page) =>
    page.evaluate(() => (window as never as { hostEvents: HostEvent[] }).hostEvents) as Promise<HostEvent[]>;

  function viewFrame(page: Page) {
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    if (frame === undefined) throw new Error('the view frame is missing');
    return frame;
  }

  it('renders the result, pages to rows 51–100 through query_page and tells the model and the host', async () => {
    const { page, problems } = await mount({ sql: thousandRows });
    const frame = viewFrame(page);
    const status = frame.locator('#status');
    await expect.poll(() => status.textContent()).toBe("Rows 1–50 of 100 (cut at the server's cap)");
    expect(await frame.locator('#rows tr').count()).toBe(50);
    // Rendered from the tool's result: its first row, and the chart of the numeric column.
    expect(await frame.locator('#rows tr').first().locator('td').allTextContents()).toEqual(['1', '1']);
    expect(await frame.locator('#chart rect').count()).toBe(50);
    await frame.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => status.textContent()).toBe('Rows 51–100 of 1000');
    const firstColumn = await frame.locator('#rows tr td:first-child').allTextContents();
    expect(firstColumn).toEqual(Array.from({ length: 50 }, (_, index) => String(51 + index)));
    const seen = await events(page);
    expect(seen.find((event) => event.type === 'tools/call')?.params).toEqual({
      name: 'query_page',
      arguments: { sql: thousandRows, offset: 50, limit: 50 },
    });
    await expect
      .poll(async () => (await events(page)).some((event) => event.type === 'update-model-context'))
      .toBe(true);
    const context = (await events(page)).find((event) => event.type === 'update-model-context')?.params;
    expect(context?.structuredContent).toEqual({ offset: 50, rows_shown: 50, total_rows: 1000 });
    expect(seen.some((event) => event.type === 'size-changed')).toBe(true);
    // The host's theme reached the view.
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(16, 20, 24)');
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, 'sql-query-view.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sorts by a column through query_page', async () => {
    const { page, problems } = await mount({ sql: thousandRows });
    const frame = viewFrame(page);
    const squareHeader = frame.locator('th button').nth(1);
    await squareHeader.click();
    await expect.poll(() => squareHeader.textContent()).toBe('square ▲');
    await squareHeader.click();
    await expect.poll(() => frame.locator('#rows tr td:first-child').first().textContent()).toBe('1000');
    const calls = (await events(page)).filter((event) => event.type === 'tools/call');
    expect(calls.at(-1)?.params).toEqual({
      name: 'query_page',
      arguments: { sql: thousandRows, offset: 0, limit: 50, sort_column: 1, sort_descending: true },
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('calls query_page by the name a host that renames tools gives it', async () => {
    const { page, problems } = await mount({ sql: thousandRows }, { prefix: 'sql_' });
    const frame = viewFrame(page);
    await expect.poll(() => frame.locator('#status').textContent()).toMatch(/^Rows 1–50/);
    await frame.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Rows 51–100 of 1000');
    const calls = (await events(page)).filter((event) => event.type === 'tools/call');
    expect(calls.map((event) => event.params.name)).toEqual(['sql_query_page']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("pages and sorts a vetted tool's rows in the view, with no statement to run again", async () => {
    const { page, problems } = await mount({}, undefined, 'orders_by_id');
    const frame = viewFrame(page);
    const status = frame.locator('#status');
    await expect.poll(() => status.textContent()).toBe("Rows 1–50 of 100 (cut at the server's cap)");
    await frame.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => status.textContent()).toBe("Rows 51–100 of 100 (cut at the server's cap)");
    expect(await frame.locator('#rows tr td:first-child').first().textContent()).toBe('51');
    await frame.locator('th button').nth(0).click();
    await frame.locator('th button').nth(0).click();
    await expect.poll(() => frame.locator('#rows tr td:first-child').first().textContent()).toBe('100');
    expect((await events(page)).filter((event) => event.type === 'tools/call')).toEqual([]);
    expect((await events(page)).some((event) => event.type === 'update-model-context')).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('cannot reach another origin: a fetch from the view is blocked by its CSP', async () => {
    const { page } = await mount({ sql: 'SELECT 1 AS one' });
    const frame = viewFrame(page);
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Rows 1–1 of 1');
    const outcome = await frame.evaluate(async (target) => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (event) => violations.push(event.violatedDirective));
      const fetched = await fetch(target).then(
        () => 'fetched',
        () => 'blocked',
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { fetched, violations };
    }, `${base}probe`);
    expect(outcome).toEqual({ fetched: 'blocked', violations: ['connect-src'] });
    expect(probeHits).toBe(0);
    await page.close();
  });
});
