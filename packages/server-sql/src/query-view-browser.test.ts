import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import {
  chromiumService,
  readViewResource,
  startViewHost,
  type ViewHost,
  viewScreenshotPath,
} from '@toolshed/view-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { thousandRows } from './__fixtures__/thousand-rows.ts';
import { createSqlServer } from './create-sql-server.ts';
import { queryViewUri } from './query-view.ts';

const chromiumInstalled = serviceGate(chromiumService, it);

let sample: SampleDatabase;
let server: ReturnType<typeof createSqlServer>;
let client: TestClient;
let host: ViewHost;

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
    host = await startViewHost();
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await client?.close();
    await server?.close();
    sample?.remove();
  });

  /** Opens the host page and mounts the view with the real tool's input and result. */
  async function mount(
    toolInput: Record<string, unknown>,
    /** What a host that renames tools tells the view, as `<meta name="mcp-view-tool-names">`; the calls are routed back. */
    renamed?: { prefix: string },
    tool = 'query',
  ) {
    let html = (await readViewResource(client, queryViewUri))?.text ?? '';
    if (renamed !== undefined) {
      const names = JSON.stringify({ query_page: `${renamed.prefix}query_page` }).replaceAll('"', '&quot;');
      html = html.replace('<head>', `<head><meta name="mcp-view-tool-names" content="${names}">`);
    }
    const toolResult = await client.callTool(tool, toolInput);
    return host.open({
      html,
      toolInput,
      toolResult,
      callTool: (name, args) => client.callTool(renamed === undefined ? name : name.replace(renamed.prefix, ''), args),
    });
  }

  it('renders the result, pages to rows 51–100 through query_page and tells the model and the host', async () => {
    const { page, frame, problems, events } = await mount({ sql: thousandRows });
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
    const seen = await events();
    expect(seen.find((event) => event.type === 'tools/call')?.params).toEqual({
      name: 'query_page',
      arguments: { sql: thousandRows, offset: 50, limit: 50 },
    });
    await expect.poll(async () => (await events()).some((event) => event.type === 'update-model-context')).toBe(true);
    const context = (await events()).find((event) => event.type === 'update-model-context')?.params;
    expect(context?.structuredContent).toEqual({ offset: 50, rows_shown: 50, total_rows: 1000 });
    expect(seen.some((event) => event.type === 'size-changed')).toBe(true);
    // The host's theme reached the view.
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(16, 20, 24)');
    await page.screenshot({ path: viewScreenshotPath(import.meta.url, 'sql-query-view.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sorts by a column through query_page', async () => {
    const { page, frame, problems, events } = await mount({ sql: thousandRows });
    const squareHeader = frame.locator('th button').nth(1);
    await squareHeader.click();
    await expect.poll(() => squareHeader.textContent()).toBe('square ▲');
    await squareHeader.click();
    await expect.poll(() => frame.locator('#rows tr td:first-child').first().textContent()).toBe('1000');
    const calls = (await events()).filter((event) => event.type === 'tools/call');
    expect(calls.at(-1)?.params).toEqual({
      name: 'query_page',
      arguments: { sql: thousandRows, offset: 0, limit: 50, sort_column: 1, sort_descending: true },
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('calls query_page by the name a host that renames tools gives it', async () => {
    const { page, frame, problems, events } = await mount({ sql: thousandRows }, { prefix: 'sql_' });
    await expect.poll(() => frame.locator('#status').textContent()).toMatch(/^Rows 1–50/);
    await frame.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Rows 51–100 of 1000');
    const calls = (await events()).filter((event) => event.type === 'tools/call');
    expect(calls.map((event) => event.params.name)).toEqual(['sql_query_page']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("pages and sorts a vetted tool's rows in the view, with no statement to run again", async () => {
    const { page, frame, problems, events } = await mount({}, undefined, 'orders_by_id');
    const status = frame.locator('#status');
    await expect.poll(() => status.textContent()).toBe("Rows 1–50 of 100 (cut at the server's cap)");
    await frame.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => status.textContent()).toBe("Rows 51–100 of 100 (cut at the server's cap)");
    expect(await frame.locator('#rows tr td:first-child').first().textContent()).toBe('51');
    await frame.locator('th button').nth(0).click();
    await frame.locator('th button').nth(0).click();
    await expect.poll(() => frame.locator('#rows tr td:first-child').first().textContent()).toBe('100');
    expect((await events()).filter((event) => event.type === 'tools/call')).toEqual([]);
    expect((await events()).some((event) => event.type === 'update-model-context')).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows markup a database holds as text, in the table and in the chart', async () => {
    const hostile = '<img src=x onerror="document.title=1"><b>bold</b>';
    const { page, frame, problems } = await mount({
      sql: `SELECT '${hostile}' AS "<i>name</i>", 7 AS "<script>alert(1)</script>"`,
    });
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Rows 1–1 of 1');
    expect(await frame.locator('#rows td').first().textContent()).toBe(hostile);
    expect(await frame.locator('#rows img, #rows b, #chart script, th i').count()).toBe(0);
    expect(await frame.locator('#chart text').textContent()).toBe('<script>alert(1)</script> (max 7)');
    expect(await frame.evaluate(() => document.title)).toBe('Query result');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('cannot reach another origin: a fetch from the view is blocked by its CSP', async () => {
    const { page, frame } = await mount({ sql: 'SELECT 1 AS one' });
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
    }, `${host.base}probe`);
    expect(outcome).toEqual({ fetched: 'blocked', violations: ['connect-src'] });
    expect(host.probeHits()).toBe(0);
    await page.close();
  });
});
