import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MariadbServer, mariadbService, startMariadbServer } from '../__fixtures__/mariadb-server.ts';
import { createSqlServer } from '../create-sql-server.ts';

/** list_tables on MariaDB: names and columns matched in information_schema, pages, and TABLE_ROWS estimates. */

let mariadb: MariadbServer;
let server: ReturnType<typeof createSqlServer>;
let client: TestClient;

interface Listing {
  tables: {
    name: string;
    type: string;
    column_count: number | null;
    row_estimate: number | null;
    columns?: string[];
  }[];
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

describe.runIf(serviceGate(mariadbService, it))('list_tables on MariaDB', () => {
  beforeAll(async () => {
    mariadb = await startMariadbServer();
    const root = await mariadb.rootConnection();
    try {
      await root.query('ANALYZE TABLE shop.numbers, shop.customers, shop.orders');
    } finally {
      await root.end();
    }
    server = createSqlServer({ databases: { shop: mariadb.url('reader') }, limits: { maxTables: 2 } });
    client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await mariadb?.stop();
  });

  it('pages through the tables and views in name order', async () => {
    const pages: string[] = [];
    let offset: number | undefined = 0;
    let total = 0;
    while (offset !== undefined) {
      const page = await list({ offset });
      pages.push(...names(page));
      total = page.total;
      offset = page.next_offset;
    }
    expect(pages).toEqual([
      'shop.audit_log',
      'shop.big_orders',
      'shop.customers',
      'shop.invoice_numbers',
      'shop.numbers',
      'shop.orders',
    ]);
    expect(total).toBe(6);
  });

  it.each([
    ['a substring in any case', 'ORDER', ['shop.big_orders', 'shop.orders']],
    ['a glob over the qualified name', 'shop.c*', ['shop.customers']],
    ['a glob over the bare name', '*numbers', ['shop.invoice_numbers', 'shop.numbers']],
    ['an underscore as itself', '_', ['shop.audit_log', 'shop.big_orders', 'shop.invoice_numbers']],
    ['a percent sign as itself', '%', []],
  ])('filters by name: %s', async (_, name, expected) => {
    const listing = await list({ name });
    expect(names(listing)).toEqual(expected.slice(0, 2));
    expect(listing.total).toBe(expected.length);
  });

  it('finds tables by column name, with the columns that match', async () => {
    const listing = await list({ column: 'Customer*' });
    expect(listing.tables.map(({ name, columns }) => ({ name, columns }))).toEqual([
      { name: 'shop.big_orders', columns: ['customer_id'] },
      { name: 'shop.orders', columns: ['customer_id'] },
    ]);
    expect(listing.total).toBe(2);
    expect(names(await list({ name: 'c*', column: 'email' }))).toEqual(['shop.customers']);
  });

  it('gives TABLE_ROWS as the row estimate: exact for MyISAM, sampled for InnoDB, none for views', async () => {
    const [auditLog, bigOrders] = (await list({ name: '*_*' })).tables;
    expect(auditLog).toMatchObject({ name: 'shop.audit_log', type: 'table', column_count: 2, row_estimate: 1 });
    expect(bigOrders).toMatchObject({ name: 'shop.big_orders', type: 'view', column_count: 3, row_estimate: null });
    const numbers = (await list({ name: 'numbers' })).tables.find((table) => table.name === 'shop.numbers');
    expect(numbers?.row_estimate).toBeGreaterThan(0);
  });
});
