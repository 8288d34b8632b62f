import { connectTestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countToolTokens, toolTokenBudget, toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { createSqlServer } from './create-sql-server.ts';
import type { SqlServerOptions } from './sql-server-options.ts';

// Every tool definition is sent to the model on every turn; the budgets are in scripts/tool-tokens.ts.

let shop: SampleDatabase;
let archive: SampleDatabase;

beforeAll(() => {
  shop = createSampleDatabase();
  archive = createSampleDatabase('archive.db');
});

afterAll(() => {
  shop.remove();
  archive.remove();
});

it.each<[string, () => SqlServerOptions]>([
  ['one database', () => ({ databases: shop.path })],
  ['two databases', () => ({ databases: { shop: shop.path, archive: archive.path } })],
  [
    'SQLite and PostgreSQL together',
    () => ({
      databases: {
        shop: shop.path,
        app: 'postgres://reader@127.0.0.1:1/app',
      },
    }),
  ],
])('keeps its tool list within its token budget with %s', async (_, options) => {
  const server = createSqlServer(options());
  const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
  try {
    expect(toolTokenOverruns('sql', await client.listTools())).toEqual([]);
  } finally {
    await client.close();
    await server.close();
  }
});

it('keeps export_query, listed only with an export directory, within the budget of one tool', async () => {
  const server = createSqlServer({
    databases: { shop: shop.path, app: 'postgres://reader@127.0.0.1:1/app' },
    exportDirectory: shop.directory,
  });
  const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
  try {
    const exportTool = (await client.listTools()).find((tool) => tool.name === 'export_query');
    expect(exportTool).toBeDefined();
    expect(countToolTokens(exportTool as Parameters<typeof countToolTokens>[0])).toBeLessThanOrEqual(toolTokenBudget);
  } finally {
    await client.close();
    await server.close();
  }
});

it('names each tool over its own budget, and the list over the server’s, biggest first', () => {
  const tool = (name: string, words: number) => ({
    name,
    description: 'word '.repeat(words),
    inputSchema: { type: 'object' },
  });
  expect(toolTokenOverruns('sql', [tool('small', 10), tool('large', 450)])).toEqual([
    expect.stringMatching(/^large: 4\d\d tokens, over the 400 a tool may cost$/),
    expect.stringMatching(/^sql: 4\d\d tokens, over its budget of 400 \(large 4\d\d, small \d\d\)$/),
  ]);
  expect(toolTokenOverruns('sql', [tool('small', 10)])).toEqual([]);
});
