import {
  binTestCases,
  connectTestClient,
  type TestClientKind,
  type TestTarget,
  type TestTransportKind,
  testClientKinds,
} from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { createSqlServer } from './create-sql-server.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;

// Each bin case starts a process and its SDK client; generous, as a guard against a hang rather than a speed bar.
const binCaseTimeoutMs = 60_000;

let sample: SampleDatabase;

beforeAll(() => {
  sample = createSampleDatabase();
});

afterAll(() => sample.remove());

async function expectSqlWorks(target: TestTarget, client: TestClientKind, transport: TestTransportKind) {
  const connection = await connectTestClient(target, { client, transport });
  try {
    expect((await connection.listTools()).map((tool) => tool.name).sort()).toEqual([
      'describe_table',
      'explain_query',
      'list_tables',
      'query',
    ]);
    const tables = await connection.callTool('list_tables');
    expect(tables.structuredContent).toMatchObject({ database: 'shop' });
    const spenders = await connection.callTool('query', {
      sql: 'SELECT c.name, count(*) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.country = ? GROUP BY c.id',
      params: ['SE'],
    });
    expect(spenders.isError).toBeFalsy();
    expect(spenders.structuredContent).toMatchObject({ rows: [['Björn', 84]], row_count: 1, truncated: false });
    const noSql = await connection.callTool('query', { max_rows: 5 });
    expect(noSql.isError).toBe(true);
    expect(noSql.content[0]?.text).toMatch(/Invalid arguments for tool "query":\n- sql: /);
    expect(connection.protocolProblems()).toEqual([]);
  } finally {
    await connection.close();
  }
}

describe('toolshed-sql in both protocol eras', () => {
  it.each(binTestCases)(
    '%s client over %s to the bin',
    (client, transport) => expectSqlWorks({ bin: [bin, '--db', `shop=${sample.path}`] }, client, transport),
    binCaseTimeoutMs,
  );

  it.each(testClientKinds)('%s client in memory to createSqlServer', async (client) => {
    const server = createSqlServer({ databases: { shop: sample.path } });
    try {
      await expectSqlWorks({ server }, client, 'memory');
    } finally {
      await server.close();
    }
  });
});
