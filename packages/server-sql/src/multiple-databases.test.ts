import { Client } from '@modelcontextprotocol/client';
import { connectInMemory } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { createSqlServer } from './create-sql-server.ts';

let shop: SampleDatabase;
let archive: SampleDatabase;
let server: ReturnType<typeof createSqlServer>;
const client = new Client({ name: 'test', version: '1' });

beforeAll(async () => {
  shop = createSampleDatabase();
  archive = createSampleDatabase('archive.db');
  server = createSqlServer({ databases: { shop: shop.path, archive: archive.path } });
  await connectInMemory(server, client);
});

afterAll(async () => {
  await client.close();
  await server.close();
  shop.remove();
  archive.remove();
});

it('requires a database argument naming one of several (SDK v2 client)', async () => {
  const { tools } = await client.listTools();
  const query = tools.find((tool) => tool.name === 'query');
  expect(query?.inputSchema.required).toEqual(['database', 'sql']);
  expect(query?.inputSchema.properties?.database).toMatchObject({ enum: ['shop', 'archive'] });
  const missing = await client.callTool({ name: 'query', arguments: { sql: 'SELECT 1' } });
  expect(missing.isError).toBe(true);
  const answered = await client.callTool({
    name: 'query',
    arguments: { database: 'archive', sql: 'SELECT count(*) FROM orders' },
  });
  expect(answered.structuredContent).toMatchObject({ rows: [[250]] });
  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.uri).sort()).toEqual([
    'sqlite://archive/schema',
    'sqlite://shop/schema',
    'ui://toolshed-sql/query',
  ]);
});
