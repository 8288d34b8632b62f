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
