import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { recordMessages, spawnHttpServer } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let sample: SampleDatabase;

beforeAll(() => {
  sample = createSampleDatabase();
});

afterAll(() => sample.remove());

describe('toolshed-sql bin', () => {
  it.each([
    [[], /--db is required: pass --db \[NAME=\]PATH\|URL or set TOOLSHED_SQL_DB/],
    [['--db', '/nonexistent/file.db'], /database file \/nonexistent\/file.db cannot be read/],
    [['--db', '/etc/hostname'], /is not a SQLite database file/],
    [['--db', 'x.db', '--max-rows', 'lots'], /--max-rows/],
  ])('exits 2 with one line for %j', (args, message) => {
    const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input: '' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });

  it('serves stdio to the official SDK client, with flags from the environment', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin],
      env: { ...process.env, TOOLSHED_SQL_DB: `shop=${sample.path}`, TOOLSHED_SQL_MAX_ROWS: '5' } as Record<
        string,
        string
      >,
      stderr: 'pipe',
    });
    const recording = recordMessages(transport);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(recording.transport);
    const result = await client.callTool({ name: 'query', arguments: { sql: 'SELECT id FROM orders', max_rows: 5 } });
    expect(result.structuredContent).toMatchObject({ row_count: 5, truncated: true });
    const tooMany = await client.callTool({ name: 'query', arguments: { sql: 'SELECT 1', max_rows: 6 } });
    expect(tooMany.isError).toBe(true);
    expect(recording.specViolations()).toEqual([]);
    await client.close();
  });

  it('serves Streamable HTTP with --http', async () => {
    const server = await spawnHttpServer([bin, '--db', sample.path, '--http', '127.0.0.1:0']);
    try {
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const result = await client.callTool({ name: 'list_tables', arguments: {} });
      expect(result.structuredContent).toMatchObject({ database: 'shop' });
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
