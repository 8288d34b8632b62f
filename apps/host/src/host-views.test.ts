import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, testClientKinds } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLines } from './__fixtures__/audit-lines.ts';
import { parseHostConfig } from './config/load-config.ts';
import { createHost, type Host } from './create-host.ts';

const sqlBin = new URL('../../../packages/server-sql/src/cli.ts', import.meta.url).pathname;
const viewUri = 'ui://toolshed-sql/query';
const thousandRows =
  'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i, i * i AS square FROM n';

let directory: string;
let database: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-host-views-'));
  database = join(directory, 'shop.db');
  const db = new Database(database);
  db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items (name) VALUES ('apple');");
  db.close();
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

function hostWith(servers: Record<string, unknown>, toolshed: Record<string, unknown> = {}): Host {
  return createHost(
    parseHostConfig(
      JSON.stringify({
        toolshed: { audit: { path: join(directory, 'audit.jsonl') }, ...toolshed },
        mcpServers: servers,
      }),
      join(directory, 'toolshed.json'),
    ),
    { log: () => {} },
  );
}

interface Listed {
  name: string;
  _meta?: Record<string, unknown>;
}

type ResourceSdk = {
  readResource(params: { uri: string }): Promise<{ contents: { mimeType?: string; text?: string }[] }>;
};

/** The view's tool names as the host tells them, from the tag it adds to the view. */
function toolNamesIn(html: string): Record<string, string> {
  const content = /<meta name="mcp-view-tool-names" content="([^"]*)">/.exec(html)?.[1] ?? '{}';
  return JSON.parse(content.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&amp;', '&'));
}

describe.each([
  ['mounted in process', () => ({ '@toolshed/server-sql': { databases: database } })],
  ['as a child process', () => ({ sql: { command: process.execPath, args: [sqlBin, '--db', database] } })],
])('the SQL view through the host, its server %s', (_, servers) => {
  let host: Host;

  beforeAll(async () => {
    host = hostWith(servers());
    await host.start();
  }, 30_000);

  afterAll(() => host.close());

  it.each(testClientKinds)('%s client that renders views: sees the view and pages through it', async (kind) => {
    const client = await connectTestClient({ server: host.server }, { client: kind, transport: 'memory', ui: true });
    try {
      const tools = (await client.listTools()) as Listed[];
      const query = tools.find((tool) => tool.name === 'sql_query');
      expect(query?._meta).toMatchObject({ ui: { resourceUri: viewUri }, 'ui/resourceUri': viewUri });
      expect(tools.find((tool) => tool.name === 'sql_query_page')?._meta).toEqual({ ui: { visibility: ['app'] } });
      const [view] = (await (client.sdk as ResourceSdk).readResource({ uri: viewUri })).contents;
      expect(view?.mimeType).toBe('text/html;profile=mcp-app');
      // The view calls query_page, the name its server gave; the host tells it the name it has here.
      expect(toolNamesIn(view?.text ?? '')).toMatchObject({ query: 'sql_query', query_page: 'sql_query_page' });
      const page = await client.callTool('sql_query_page', { sql: thousandRows, offset: 50, limit: 50 });
      expect(page.isError).toBeUndefined();
      const rows = (page.structuredContent as { rows: number[][] }).rows.map((row) => row[0]);
      expect(rows).toEqual(Array.from({ length: 50 }, (_, index) => 51 + index));
      // Audited as a call from the model is.
      expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
        tool: 'sql_query_page',
        outcome: 'ok',
      });
      expect(client.protocolProblems()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it.each(testClientKinds)(
    '%s client that renders no views: sees neither query_page nor a call to it',
    async (kind) => {
      const client = await connectTestClient({ server: host.server }, { client: kind, transport: 'memory' });
      try {
        const names = (await client.listTools()).map((tool) => tool.name);
        expect(names).toContain('sql_query');
        expect(names).not.toContain('sql_query_page');
        await expect(client.callTool('sql_query_page', { sql: 'SELECT 1' })).rejects.toThrow(/Unknown tool/);
        // The tool with the view answers in full text all the same.
        const result = await client.callTool('sql_query', { sql: 'SELECT name FROM items' });
        expect(JSON.parse(result.content[0]?.text ?? '{}')).toMatchObject({ rows: [['apple']] });
      } finally {
        await client.close();
      }
    },
  );
});

describe('the search tool list', () => {
  let host: Host;

  beforeAll(async () => {
    host = hostWith({ '@toolshed/server-sql': { databases: database } }, { toolList: 'search' });
    await host.start();
  });

  afterAll(() => host.close());

  it('never finds nor calls a tool only views may call', async () => {
    const client = await connectTestClient(
      { server: host.server },
      { client: 'v2-modern', transport: 'memory', ui: true },
    );
    try {
      const found = await client.callTool('find_tools', { query: 'a page of a query result for its view', limit: 20 });
      const names = (found.structuredContent as { tools: { name: string }[] }).tools.map((tool) => tool.name);
      expect(names).toContain('sql_query');
      expect(names).not.toContain('sql_query_page');
      const called = await client.callTool('call_tool', { name: 'sql_query_page', arguments: { sql: 'SELECT 1' } });
      expect(called.isError).toBe(true);
      expect(called.content[0]?.text).toMatch(/There is no tool named sql_query_page/);
    } finally {
      await client.close();
    }
  });
});

describe('the edit review through the host', () => {
  let host: Host;
  let workspace: string;

  beforeAll(async () => {
    workspace = mkdtempSync(join(directory, 'workspace-'));
    host = hostWith({ '@toolshed/server-filesystem': { directories: [workspace] } });
    await host.start();
  });

  afterAll(() => host.close());

  it.each(['decline', 'accept'] as const)(
    "a view's Apply still waits for the human, who answers %s",
    async (answer) => {
      const asked: string[] = [];
      let applying = false;
      const client = await connectTestClient(
        { server: host.server },
        {
          client: 'v2-modern',
          transport: 'memory',
          ui: true,
          onElicit: (params) => {
            asked.push(String(params.message));
            return applying && answer === 'decline'
              ? { action: 'decline' }
              : { action: 'accept', content: { confirmed: true } };
          },
        },
      );
      try {
        const path = join(workspace, `${answer}.txt`);
        writeFileSync(path, 'one\ntwo\n');
        const edits = [{ oldText: 'two', newText: '2' }];
        // The host asks for the dry run too: edit_file is destructive, whatever its arguments say.
        const dry = await client.callTool('filesystem_edit_file', { path, edits, dryRun: true });
        const { digest } = dry.structuredContent as { digest: string };
        const asksBefore = asked.length;
        applying = true;
        const applied = await client.callTool('filesystem_apply_reviewed_edit', { path, edits, digest });
        expect(asked.length).toBe(asksBefore + 1);
        expect(readFileSync(path, 'utf8')).toBe(answer === 'accept' ? 'one\n2\n' : 'one\ntwo\n');
        expect(applied.isError === true).toBe(answer === 'decline');
        expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
          tool: 'filesystem_apply_reviewed_edit',
        });
      } finally {
        await client.close();
      }
    },
  );
});
