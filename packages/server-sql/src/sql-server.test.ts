import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInMemory } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { createSqlServer } from './create-sql-server.ts';

let sample: SampleDatabase;
let client: Client;
let server: ReturnType<typeof createSqlServer>;
let violations: () => unknown[];

beforeAll(async () => {
  sample = createSampleDatabase();
  server = createSqlServer({ databases: sample.path });
  client = new Client({ name: 'test', version: '1' });
  const { recording } = await connectInMemory(server, client);
  violations = () => recording.specViolations();
});

afterAll(async () => {
  await client.close();
  await server.close();
  sample.remove();
});

async function call(name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
}

describe('query', () => {
  it('returns columns with declared types, rows as arrays, and the count', async () => {
    const result = await call('query', { sql: 'SELECT id, name, country FROM customers ORDER BY id' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      columns: [
        { name: 'id', type: 'INTEGER' },
        { name: 'name', type: 'TEXT' },
        { name: 'country', type: 'TEXT' },
      ],
      rows: [
        [1, 'Aroha', 'NZ'],
        [2, 'Björn', 'SE'],
        [3, '田中', 'JP'],
      ],
      row_count: 3,
      truncated: false,
    });
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
    expect(violations()).toEqual([]);
  });
});

function structured(result: { structuredContent?: Record<string, unknown> }) {
  return result.structuredContent as Record<string, unknown> & { rows: unknown[][] };
}

describe('query: parameters, values and caps', () => {
  it.each([
    ['positional ?', 'SELECT name FROM customers WHERE id = ?', [2], 'Björn'],
    ['named :id', 'SELECT name FROM customers WHERE id = :id', { id: 1 }, 'Aroha'],
    ['named @id', 'SELECT name FROM customers WHERE id = @id', { id: 2 }, 'Björn'],
    ['named $id', 'SELECT name FROM customers WHERE id = $id', { id: 3 }, '田中'],
    ['boolean as 0/1', 'SELECT ? + ?', [true, false], 1],
    ['null', "SELECT coalesce(?, 'none')", [null], 'none'],
  ])('binds %s', async (_form, sql, params, expected) => {
    const result = await call('query', { sql, params });
    expect(structured(result).rows).toEqual([[expected]]);
  });

  it("turns SQL and binding errors into isError results in SQLite's words", async () => {
    const noColumn = await call('query', { sql: 'SELECT nope FROM customers' });
    expect(noColumn.isError).toBe(true);
    expect(noColumn.content[0]?.text).toMatch(/no such column: nope/);
    const tooFew = await call('query', { sql: 'SELECT ? + ?', params: [1] });
    expect(tooFew.isError).toBe(true);
    expect(tooFew.content[0]?.text).toMatch(/Too few parameter values/);
    const badArgument = await call('query', { sql: 'SELECT 1', max_rows: 0 });
    expect(badArgument.isError).toBe(true);
    expect(badArgument.content[0]?.text).toMatch(/max_rows/);
  });

  it('sends integers beyond 2^53 as strings, BLOBs as base64 with their length, infinities as text, NULL as null', async () => {
    const result = await call('query', { sql: 'SELECT id, big, ratio, payload, note FROM measurements ORDER BY id' });
    expect(structured(result).rows).toEqual([
      [1, '9007199254740993', 'Infinity', { type: 'blob', bytes: 3, base64: 'AQID' }, 'small blob'],
      [2, '-9223372036854775808', '-Infinity', { type: 'blob', bytes: 10_000, base64: null }, 'large blob'],
      [3, 42, 0.5, null, null],
    ]);
  });

  it('cuts at max_rows, fetching one extra row to know, and says how to get the rest', async () => {
    const cut = structured(await call('query', { sql: 'SELECT id FROM orders ORDER BY id', max_rows: 10 }));
    expect(cut).toMatchObject({ row_count: 10, truncated: true, truncated_by: 'max_rows' });
    expect(cut.rows.at(-1)).toEqual([10]);
    expect(cut.hint).toMatch(/LIMIT\/OFFSET/);
    const exact = structured(await call('query', { sql: 'SELECT id FROM orders', max_rows: 250 }));
    expect(exact).toMatchObject({ row_count: 250, truncated: false });
    expect(exact.truncated_by).toBeUndefined();
  });
});

describe('schema tools', () => {
  it('lists tables and views with column counts, and no row estimates in a file never analysed', async () => {
    const listed = structured(await call('list_tables', {}));
    expect(listed).toEqual({
      database: 'shop',
      tables: [
        { name: 'audit', type: 'table', column_count: 2, row_estimate: null },
        { name: 'big_spenders', type: 'view', column_count: 2, row_estimate: null },
        { name: 'customers', type: 'table', column_count: 4, row_estimate: null },
        { name: 'measurements', type: 'table', column_count: 5, row_estimate: null },
        { name: 'odd "name" table', type: 'table', column_count: 2, row_estimate: null },
        { name: 'orders', type: 'table', column_count: 5, row_estimate: null },
      ],
      total: 6,
      truncated: false,
    });
    expect(violations()).toEqual([]);
  });

  it('describes columns, keys and indexes, with quoted names', async () => {
    const orders = structured(await call('describe_table', { table: 'Orders' }));
    expect(orders).toMatchObject({
      name: 'orders',
      quoted: '"orders"',
      type: 'table',
      primary_key: ['id'],
      foreign_keys: [{ table: 'customers', columns: ['customer_id'], references: ['id'], on_delete: 'CASCADE' }],
      indexes: [
        { name: 'orders_by_customer', unique: false, origin: 'CREATE INDEX', columns: ['customer_id', 'placed_at'] },
      ],
    });
    expect((orders.columns as { name: string }[]).map((column) => column.name)).toEqual([
      'id',
      'customer_id',
      'total',
      'placed_at',
      'total_cents',
    ]);
    expect((orders.columns as unknown[])[4]).toMatchObject({ type: 'INTEGER', generated: true });
    const customers = structured(await call('describe_table', { table: 'customers' }));
    expect((customers.columns as unknown[])[3]).toMatchObject({ name: 'country', default: "'NZ'", nullable: true });
    expect(customers.indexes).toMatchObject([{ unique: true, origin: 'UNIQUE constraint', columns: ['email'] }]);
    const odd = structured(await call('describe_table', { table: 'odd "name" table' }));
    expect(odd.quoted).toBe('"odd ""name"" table"');
    expect((odd.columns as { quoted: string }[]).map((column) => column.quoted)).toEqual(['"select"', '"x;y"']);
  });

  it('answers an unknown table with the closest names', async () => {
    const result = await call('describe_table', { table: 'order' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/No table or view named "order"\. Did you mean "orders"/);
  });

  it('explains a plan without running the query, and refuses to explain a write', async () => {
    const indexed = structured(await call('explain_query', { sql: 'SELECT * FROM orders WHERE customer_id = 1' }));
    expect(indexed.tree).toMatch(/USING INDEX orders_by_customer/);
    expect(indexed.full_scans).toEqual([]);
    const sorted = structured(await call('explain_query', { sql: 'SELECT * FROM orders ORDER BY total' }));
    expect(sorted.full_scans).toEqual(['SCAN orders']);
    expect(sorted.temp_b_trees).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
    const write = await call('explain_query', { sql: 'DELETE FROM orders' });
    expect(write.isError).toBe(true);
    expect(write.content[0]?.text).toMatch(/Only SELECT-style reads/);
  });

  it('offers the schema as a resource', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({ uri: 'sqlite://shop/schema', mimeType: 'application/sql' }),
      expect.objectContaining({ uri: 'ui://toolshed-sql/query', mimeType: 'text/html;profile=mcp-app' }),
    ]);
    const { contents } = await client.readResource({ uri: 'sqlite://shop/schema' });
    expect(contents[0]).toMatchObject({ uri: 'sqlite://shop/schema', mimeType: 'application/sql' });
    expect((contents[0] as { text: string }).text).toMatch(/CREATE TABLE customers \(/);
    expect(violations()).toEqual([]);
  });
});
