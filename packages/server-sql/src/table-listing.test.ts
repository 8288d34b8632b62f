import { connectTestClient, type TestClient } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { createSqlServer } from './create-sql-server.ts';

/** list_tables on SQLite: name and column searches, pages, and row estimates from ANALYZE. */

let sample: SampleDatabase;
let analysed: SampleDatabase;
let server: ReturnType<typeof createSqlServer>;
let client: TestClient;

beforeAll(async () => {
  sample = createSampleDatabase();
  analysed = createSampleDatabase('analysed.db');
  const db = new Database(analysed.path);
  db.exec('ANALYZE');
  db.close();
  server = createSqlServer({
    databases: { shop: sample.path, analysed: analysed.path },
    limits: { maxTables: 4 },
  });
  client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
});

afterAll(async () => {
  await client.close();
  await server.close();
  sample.remove();
  analysed.remove();
});

async function list(args: Record<string, unknown>) {
  const result = await client.callTool('list_tables', { database: 'shop', ...args });
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  return result.structuredContent as {
    tables: { name: string; columns?: string[]; row_estimate: number | null }[];
    total: number;
    truncated: boolean;
    next_offset?: number;
    hint?: string;
  };
}

const names = (listed: { tables: { name: string }[] }) => listed.tables.map((table) => table.name);

describe('list_tables on SQLite', () => {
  it('pages through every table at the cap, and says how to get the rest', async () => {
    const first = await list({});
    expect(names(first)).toEqual(['audit', 'big_spenders', 'customers', 'measurements']);
    expect(first).toMatchObject({ total: 6, truncated: true, next_offset: 4 });
    expect(first.hint).toMatch(/2 more match; call again with offset 4/);
    const second = await list({ offset: first.next_offset });
    expect(names(second)).toEqual(['odd "name" table', 'orders']);
    expect(second).toMatchObject({ total: 6, truncated: false });
    expect(second).not.toHaveProperty('next_offset');
    expect(names(await list({ offset: 50 }))).toEqual([]);
  });

  it.each([
    ['a substring, in any case', 'ORDER', ['orders']],
    ['a substring in the middle', 'ust', ['customers']],
    ['a glob over the whole name', '*s', ['big_spenders', 'customers', 'measurements', 'orders']],
    ['a glob with ?', 'audi?', ['audit']],
    ['a glob that must match from the start', 'rders*', []],
    ['LIKE wildcards as plain characters', '%', []],
    ['an underscore as itself', 'big_', ['big_spenders']],
    ['a quote in the name', '"name"', ['odd "name" table']],
  ])('filters by name: %s', async (_, name, expected) => {
    const listed = await list({ name });
    expect(names(listed)).toEqual(expected);
    expect(listed.total).toBe(expected.length);
  });

  it('finds tables by column name, with the columns that match', async () => {
    const listed = await list({ column: 'ID' });
    expect(listed.tables.map(({ name, columns }) => ({ name, columns }))).toEqual([
      { name: 'customers', columns: ['id'] },
      { name: 'measurements', columns: ['id'] },
      { name: 'orders', columns: ['id', 'customer_id'] },
    ]);
    const glob = await list({ column: '*_at' });
    expect(glob.tables.map(({ name, columns }) => ({ name, columns }))).toEqual([
      { name: 'orders', columns: ['placed_at'] },
    ]);
  });

  it('combines a name and a column search', async () => {
    expect(names(await list({ name: 'c*', column: 'email' }))).toEqual(['customers']);
    expect(names(await list({ name: 'orders', column: 'email' }))).toEqual([]);
  });

  it('gives row estimates where ANALYZE has run, and none for views', async () => {
    const result = await client.callTool('list_tables', { database: 'analysed', name: 'o*' });
    expect((result.structuredContent as { tables: unknown[] }).tables).toEqual([
      { name: 'odd "name" table', type: 'table', column_count: 2, row_estimate: 1 },
      { name: 'orders', type: 'table', column_count: 5, row_estimate: 250 },
    ]);
    const view = await client.callTool('list_tables', { database: 'analysed', name: 'big_spenders' });
    expect((view.structuredContent as { tables: unknown[] }).tables).toEqual([
      { name: 'big_spenders', type: 'view', column_count: 2, row_estimate: null },
    ]);
  });

  it.each([
    ['an empty name', { name: '' }, /name: must not be empty/],
    ['a name past 256 characters', { name: 'x'.repeat(257) }, /name: at most 256 characters/],
    ['a negative offset', { offset: -1 }, /offset: must be 0 or more/],
    ['a fractional offset', { offset: 1.5 }, /offset: /],
  ])('refuses %s with a clear error', async (_, args, message) => {
    const result = await client.callTool('list_tables', { database: 'shop', ...args });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(message);
  });
});
