import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PostgresServer,
  postgresService,
  roleNames,
  startPostgresServer,
} from '../__fixtures__/postgres-server.ts';
import { createSqlServer } from '../create-sql-server.ts';

/**
 * list_tables on PostgreSQL with the searches a big schema needs: names and
 * columns matched in the catalogs, pages, and the planner's row estimates
 * (a partitioned table summing its partitions').
 */

let postgres: PostgresServer;
let server: ReturnType<typeof createSqlServer>;
let client: TestClient;

interface Listing {
  tables: { name: string; type: string; column_count: number; row_estimate: number | null; columns?: string[] }[];
  total: number;
  truncated: boolean;
  next_offset?: number;
}

async function list(args: Record<string, unknown>): Promise<Listing> {
  const result = await client.callTool('list_tables', args);
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  return result.structuredContent as unknown as Listing;
}

const names = (listing: Listing) => listing.tables.map((table) => table.name);

describe.runIf(serviceGate(postgresService, it))('list_tables on PostgreSQL', () => {
  beforeAll(async () => {
    postgres = await startPostgresServer();
    const admin: pg.Client = await postgres.admin();
    try {
      await admin.query(`
        CREATE TABLE reporting.events (id bigint, occurred date NOT NULL, customer_id integer) PARTITION BY RANGE (occurred);
        CREATE TABLE reporting.events_2024 PARTITION OF reporting.events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
        CREATE TABLE reporting.events_2025 PARTITION OF reporting.events FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
        INSERT INTO reporting.events SELECT n, date '2024-06-01' + (n % 400), n % 3 FROM generate_series(1, 3000) AS n;
        CREATE TABLE hidden_from_reader (customer_id integer);
        GRANT SELECT ON reporting.events, reporting.events_2024, reporting.events_2025 TO ${roleNames.reader};
        ANALYZE;
      `);
    } finally {
      await admin.end();
    }
    server = createSqlServer({ databases: { app: postgres.url('reader') }, limits: { maxTables: 3 } });
    client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await postgres?.stop();
  });

  it('pages through what the role may read, in name order', async () => {
    const first = await list({});
    expect(names(first)).toEqual(['public.Odd "Name" Table', 'public.big_spenders', 'public.customers']);
    expect(first).toMatchObject({ total: 9, truncated: true, next_offset: 3 });
    const rest = [...names(await list({ offset: 3 })), ...names(await list({ offset: 6 }))];
    expect(rest).toEqual([
      'public.numbers',
      'public.orders',
      'reporting.daily',
      'reporting.events',
      'reporting.events_2024',
      'reporting.events_2025',
    ]);
    expect(rest).not.toContain('public.hidden_from_reader');
  });

  it.each([
    ['a substring of the table name, in any case', 'ORDER', ['public.orders']],
    ['a substring of the schema-qualified name', 'ting.d', ['reporting.daily']],
    ['a glob over the bare name', 'events_*', ['reporting.events_2024', 'reporting.events_2025']],
    [
      'a glob over the qualified name',
      'public.*s',
      ['public.big_spenders', 'public.customers', 'public.numbers', 'public.orders'],
    ],
    ['a quoted name in mixed case', 'odd "name"', ['public.Odd "Name" Table']],
    [
      'an underscore as itself, not a LIKE wildcard',
      '_',
      ['public.big_spenders', 'reporting.events_2024', 'reporting.events_2025'],
    ],
    ['a percent sign as itself', '%', []],
  ])('filters by name: %s', async (_, name, expected) => {
    const listing = await list({ name });
    expect(names(listing).slice(0, 3)).toEqual(expected.slice(0, 3));
    expect(listing.total).toBe(expected.length);
  });

  it('finds tables by column name across schemas, with the columns that match', async () => {
    const found = await list({ column: 'customer*' });
    expect(found.total).toBe(5);
    const all = [...found.tables, ...(await list({ column: 'customer*', offset: 3 })).tables];
    expect(all.map(({ name, columns }) => ({ name, columns }))).toEqual([
      { name: 'public.big_spenders', columns: ['customer_id'] },
      { name: 'public.orders', columns: ['customer_id'] },
      { name: 'reporting.events', columns: ['customer_id'] },
      { name: 'reporting.events_2024', columns: ['customer_id'] },
      { name: 'reporting.events_2025', columns: ['customer_id'] },
    ]);
    expect(names(await list({ name: 'public.*', column: 'ID' }))).toEqual([
      'public.big_spenders',
      'public.customers',
      'public.orders',
    ]);
  });

  it('gives the planner’s row estimates: a partitioned table sums its partitions, a view has none', async () => {
    const tables = new Map(
      [...(await list({ name: 'reporting.*' })).tables, ...(await list({ name: 'n*' })).tables].map((table) => [
        table.name,
        table,
      ]),
    );
    expect(tables.get('reporting.daily')?.row_estimate).toBe(2);
    expect(tables.get('public.numbers')?.row_estimate).toBe(10_000);
    const partitions = [tables.get('reporting.events_2024'), (await list({ name: 'events_2025' })).tables[0]];
    const byPartition = partitions.map((table) => table?.row_estimate ?? 0);
    expect(byPartition.reduce((sum, rows) => sum + rows, 0)).toBe(3000);
    expect((await list({ name: 'reporting.events' })).tables[0]).toMatchObject({ type: 'table', row_estimate: 3000 });
    expect((await list({ name: 'big_spenders' })).tables[0]).toMatchObject({ type: 'view', row_estimate: null });
  });
});
