import { writeFileSync } from 'node:fs';
import { connectTestClient, type TestClient, testClientKinds } from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countToolListTokens, toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { thousandRows } from './__fixtures__/thousand-rows.ts';
import { createSqlServer } from './create-sql-server.ts';
import { queryViewHtml, queryViewUri } from './query-view.ts';
import type { SqlServerOptions } from './sql-server-options.ts';

let sample: SampleDatabase;
const clients: TestClient[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(() => {
  sample = createSampleDatabase();
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const close of closers.splice(0)) await close();
});

afterAll(() => sample.remove());

async function connect(
  kind: (typeof testClientKinds)[number],
  ui: boolean,
  options: Partial<SqlServerOptions> = {},
): Promise<TestClient> {
  const server = createSqlServer({ databases: sample.path, ...options });
  closers.push(() => server.close());
  const client = await connectTestClient({ server }, { client: kind, transport: 'memory', ui });
  clients.push(client);
  return client;
}

interface Listed {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

describe.each(testClientKinds)('the query view with the %s client', (kind) => {
  it('declares the view on query and lists query_page only for a client that renders views', async () => {
    const withUi = (await (await connect(kind, true)).listTools()) as Listed[];
    expect(withUi.find((tool) => tool.name === 'query')?._meta).toEqual({
      ui: { resourceUri: queryViewUri },
      'ui/resourceUri': queryViewUri,
    });
    expect(withUi.find((tool) => tool.name === 'query_page')?._meta).toEqual({ ui: { visibility: ['app'] } });
    const without = (await (await connect(kind, false)).listTools()).map((tool) => tool.name);
    expect(without).not.toContain('query_page');
    expect(without).toContain('query');
  });

  it('serves the view as an MCP App with an empty CSP', async () => {
    const client = await connect(kind, true);
    const sdk = client.sdk as {
      readResource(params: {
        uri: string;
      }): Promise<{ contents: { mimeType?: string; text?: string; _meta?: unknown }[] }>;
    };
    const [contents] = (await sdk.readResource({ uri: queryViewUri })).contents;
    expect(contents?.mimeType).toBe('text/html;profile=mcp-app');
    expect(contents?._meta).toEqual({
      ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] } },
    });
    expect(contents?.text).toBe(queryViewHtml());
    expect(client.protocolProblems()).toEqual([]);
  });

  it('pages through the same statement: rows 51–100 of a 1,000-row result, and sorted', async () => {
    const client = await connect(kind, true);
    const page = await client.callTool('query_page', { sql: thousandRows, offset: 50, limit: 50 });
    expect(page.isError).toBeUndefined();
    const data = page.structuredContent as { rows: number[][]; total_rows: number; offset: number; truncated: boolean };
    expect(data.rows.map((row) => row[0])).toEqual(Array.from({ length: 50 }, (_, index) => 51 + index));
    expect(data).toMatchObject({ offset: 50, total_rows: 1000, truncated: false });
    // The text stays complete on its own: the same data as JSON.
    expect(JSON.parse(page.content[0]?.text ?? '')).toEqual(page.structuredContent);
    const sorted = await client.callTool('query_page', {
      sql: thousandRows,
      limit: 3,
      sort_column: 1,
      sort_descending: true,
    });
    expect((sorted.structuredContent as { rows: number[][] }).rows).toEqual([
      [1000, 1_000_000],
      [999, 998_001],
      [998, 996_004],
    ]);
  });
});

describe('query_page', () => {
  it('holds to the server caps: rows past max_rows are not paged into', async () => {
    const client = await connect('v2-modern', true, { limits: { maxRows: 120 } });
    const page = await client.callTool('query_page', { sql: thousandRows, offset: 100, limit: 50 });
    expect(page.structuredContent).toMatchObject({ total_rows: 120, truncated: true, truncated_by: 'max_rows' });
    expect((page.structuredContent as { rows: unknown[] }).rows).toHaveLength(20);
    const beyond = await client.callTool('query_page', { sql: thousandRows, offset: 500 });
    expect(beyond.isError).toBe(true);
  });

  it.each([
    ['a write', 'DELETE FROM orders'],
    ['two statements', 'SELECT 1; DELETE FROM orders'],
    ['a pragma that writes', 'PRAGMA user_version = 7'],
  ])('refuses %s as query refuses it', async (_, sql) => {
    const client = await connect('v2-modern', true);
    const page = await client.callTool('query_page', { sql });
    const query = await client.callTool('query', { sql });
    expect(page.isError).toBe(true);
    expect(page.content[0]?.text).toBe(query.content[0]?.text);
  });

  it('is not callable by a client that renders no views', async () => {
    const client = await connect('v2-legacy', false);
    await expect(client.callTool('query_page', { sql: 'SELECT 1' })).rejects.toThrow(/Unknown tool/);
  });

  it('costs a model nothing: the budget counts what a model sees', async () => {
    const client = await connect('v1', true);
    const tools = (await client.listTools()) as Listed[];
    expect(tools.map((tool) => tool.name)).toContain('query_page');
    expect(countToolListTokens(tools).tools.map((tool) => tool.name)).not.toContain('query_page');
    expect(toolTokenOverruns('sql', tools)).toEqual([]);
  });
});

describe('vetted tools', () => {
  it('show their rows in the same view, served when ad-hoc SQL is off too', async () => {
    const tools = `${sample.directory}/view-tools.yaml`;
    writeFileSync(
      tools,
      'tools:\n  - name: all_orders\n    description: Every order.\n    statement: SELECT id FROM orders\n',
    );
    const client = await connect('v2-modern', true, { tools, adHoc: false });
    const listed = (await client.listTools()) as Listed[];
    expect(listed.map((tool) => tool.name)).not.toContain('query_page');
    expect(listed.find((tool) => tool.name === 'all_orders')?._meta).toEqual({
      ui: { resourceUri: queryViewUri },
      'ui/resourceUri': queryViewUri,
    });
    const sdk = client.sdk as { readResource(params: { uri: string }): Promise<{ contents: { text?: string }[] }> };
    expect((await sdk.readResource({ uri: queryViewUri })).contents[0]?.text).toBe(queryViewHtml());
  });
});

describe('the view document', () => {
  it('stays within 30 KB, self-contained, with no http(s) source or link', () => {
    const html = queryViewHtml();
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(30 * 1024);
    expect(html).not.toMatch(/\s(?:src|href|action|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<(?:link|iframe|object|embed|base)\b/i);
    expect(html).not.toMatch(/@import|url\(/i);
  });
});
