import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@toolshed/mcp-core';
import { connectTestClient, startTokenIssuer, type TokenIssuer, testClientKinds } from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSampleDatabase, type SampleDatabase } from '../__fixtures__/sample-database.ts';
import { everyType, everyValue } from '../__fixtures__/vetted-tool-values.ts';
import { createSqlServer, startSqlServer } from '../create-sql-server.ts';
import type { SqlServerOptions } from '../sql-server-options.ts';
import type { VettedToolsFile } from './vetted-tools-file.ts';

const example = new URL('../../examples/tools.yaml', import.meta.url).pathname;
const bin = new URL('../cli.ts', import.meta.url).pathname;
const resource = 'https://sql.example.test/mcp';

let sample: SampleDatabase;
let issuer: TokenIssuer;

beforeAll(async () => {
  sample = createSampleDatabase();
  issuer = await startTokenIssuer();
});

/** Every server a test started, closed after it with its query processes. */
const started: McpServer[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

afterAll(async () => {
  sample.remove();
  await issuer.close();
});

async function startServer(extra: Partial<SqlServerOptions> = {}): Promise<McpServer> {
  const server = await startSqlServer(options(extra));
  started.push(server);
  return server;
}

function options(extra: Partial<SqlServerOptions> = {}): SqlServerOptions {
  return { databases: { shop: sample.path }, tools: example, ...extra };
}

async function connect(extra: Partial<SqlServerOptions> = {}, client: (typeof testClientKinds)[number] = 'v2-modern') {
  const server = await startServer(extra);
  return connectTestClient({ server }, { client, transport: 'memory' });
}

function rowsOf(result: { structuredContent?: Record<string, unknown> }): unknown[][] {
  return (result.structuredContent?.rows ?? []) as unknown[][];
}

function textOf(result: { content: { text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

/** A tools file of one tool over the sample, for the cases that need their own statement. */
function oneTool(statement: string, parameters: VettedToolsFile['tools'][number]['parameters'] = []): VettedToolsFile {
  return { tools: [{ name: 'probe', description: 'A probe.', statement, parameters }] };
}

describe('vetted tools from the example file', () => {
  it.each(testClientKinds)('%s: serves each as a typed tool beside the built-in ones', async (kind) => {
    const client = await connect({}, kind);
    try {
      const tools = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'customers_in_country',
        'describe_table',
        'explain_query',
        'find_customers',
        'list_tables',
        'my_orders',
        'orders_between',
        'query',
      ]);
      const byName = new Map(tools.map((tool) => [tool.name, tool as Record<string, unknown>]));
      expect(byName.get('orders_between')?.inputSchema).toEqual({
        type: 'object',
        properties: {
          from: { type: 'string', format: 'date' },
          to: { type: 'string', format: 'date' },
          customers: { type: 'array', items: { type: 'integer' }, maxItems: 50, description: 'Customer ids' },
        },
        required: ['from', 'to'],
      });
      // The claim-bound parameter is not the model's to give.
      expect(byName.get('my_orders')?.inputSchema).toEqual({
        type: 'object',
        properties: { min_total: { type: 'number', minimum: 0, description: 'Smallest total', default: 0 } },
      });
      expect(byName.get('my_orders')?.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.get('my_orders')?.outputSchema).toEqual(byName.get('query')?.outputSchema);

      const found = await client.callTool('find_customers', { text: 'jö' });
      expect(found.isError).toBeFalsy();
      expect(found.structuredContent).toMatchObject({ rows: [[2, 'Björn', 'SE']], row_count: 1 });
      const orders = await client.callTool('orders_between', { from: '2026-01-01', to: '2026-01-31', customers: [2] });
      expect(orders.isError).toBeFalsy();
      for (const row of rowsOf(orders) as [number, number, number, string][]) {
        expect(row[1]).toBe(2);
        expect(row[3] >= '2026-01-01' && row[3] <= '2026-01-31').toBe(true);
      }
      const all = await client.callTool('orders_between', { from: '2026-01-01', to: '2026-01-31' });
      expect(rowsOf(all).length).toBeGreaterThan(rowsOf(orders).length);
      expect(client.protocolProblems()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a wrong argument is an error naming the parameter, what was expected and what came', async () => {
    const client = await connect();
    try {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        [
          'customers_in_country',
          { country: 'FR' },
          /- country: expected one of "NZ", "SE", "JP"; got "FR" \(a string\)/,
        ],
        ['customers_in_country', {}, /- country: expected one of "NZ", "SE", "JP"; got nothing/],
        [
          'orders_between',
          { from: '2026-02-30', to: '2026-03-01' },
          /- from: expected a date as YYYY-MM-DD; got "2026-02-30"/,
        ],
        [
          'orders_between',
          { from: '2026-01-01', to: '2026-03-01', customers: [1, '2 OR 1=1'] },
          /- customers\[1\]: expected an integer; got "2 OR 1=1" \(a string\)/,
        ],
        ['my_orders', { min_total: -1 }, /- min_total: expected a number of at least 0; got -1 \(a number\)/],
        ['my_orders', { min_total: '5' }, /- min_total: expected a number of at least 0; got "5" \(a string\)/],
        [
          'find_customers',
          { text: 'x'.repeat(101) },
          /- text: expected a string of at most 100 characters; got "x{50,}/,
        ],
      ];
      for (const [tool, args, message] of cases) {
        const result = await client.callTool(tool, args);
        expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
        expect(textOf(result)).toMatch(message);
      }
    } finally {
      await client.close();
    }
  });

  it('values with SQL in them are only ever values', async () => {
    const client = await connect();
    try {
      for (const text of ["' OR '1'='1", "%' OR 1=1 --", "'; DROP TABLE customers; --", '\\']) {
        const result = await client.callTool('find_customers', { text });
        expect(result.isError, text).toBeFalsy();
        expect(result.structuredContent?.row_count, text).toBe(0);
      }
      const customers = await client.callTool('query', { sql: 'SELECT count(*) FROM customers' });
      expect(customers.structuredContent?.rows).toEqual([[3]]);
    } finally {
      await client.close();
    }
  });

  it('a toolset serves only its tools, and --no-ad-hoc removes query and explain_query', async () => {
    for (const kind of testClientKinds) {
      const client = await connect({ toolset: 'support', adHoc: false }, kind);
      try {
        expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual([
          'describe_table',
          'find_customers',
          'list_tables',
          'my_orders',
        ]);
        const query = await client.callTool('query', { sql: 'SELECT 1' }).then(textOf, String);
        expect(query).toMatch(/Unknown tool: "query"/);
      } finally {
        await client.close();
      }
    }
    const client = await connect({ adHoc: false, schemaTools: false });
    try {
      expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual([
        'customers_in_country',
        'find_customers',
        'my_orders',
        'orders_between',
      ]);
    } finally {
      await client.close();
    }
  });

  it('the bin says which tools it serves, and --no-ad-hoc works as a flag and an environment variable', async () => {
    for (const [args, env] of [
      [['--no-ad-hoc'], {}],
      [[], { TOOLSHED_SQL_NO_AD_HOC: 'true' }],
    ] as const) {
      const client = await connectTestClient(
        {
          bin: [bin, '--db', `shop=${sample.path}`, '--tools', example, '--toolset', 'reporting', ...args],
          env: { ...process.env, ...env },
        },
        { client: 'v1', transport: 'stdio' },
      );
      try {
        expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual([
          'customers_in_country',
          'describe_table',
          'list_tables',
          'orders_between',
        ]);
      } finally {
        await client.close();
      }
    }
    const run = spawnSync(
      process.execPath,
      [bin, '--db', `shop=${sample.path}`, '--tools', example, '--no-ad-hoc', '--no-schema-tools'],
      { encoding: 'utf8', input: '' },
    );
    expect(run.stderr).toContain(
      'toolshed-sql: serving the tools customers_in_country, find_customers, my_orders, orders_between',
    );
    // Three bin starts with their clients: generous, as a guard against a hang rather than a speed bar.
  }, 60_000);
});

describe('the caller identity as a parameter', () => {
  async function overHttp(claims: Record<string, unknown> | undefined, client: (typeof testClientKinds)[number]) {
    const server = await startServer();
    return connectTestClient(
      { server },
      {
        client,
        transport: 'http',
        httpAuth: { jwt: { issuer: issuer.issuer }, resource },
        ...(claims === undefined ? {} : { bearerToken: await issuer.sign(resource, claims) }),
      },
    );
  }

  it.each(testClientKinds)(
    '%s: the rows are those of the customer the token names, whatever the model sends',
    async (kind) => {
      const client = await overHttp({ customer_id: 3 }, kind);
      try {
        const mine = await client.callTool('my_orders', { min_total: 150 });
        expect(mine.isError).toBeFalsy();
        const rows = mine.structuredContent?.rows as unknown[][];
        expect(rows.length).toBeGreaterThan(0);
        const ids = rows.map((row) => row[0] as number);
        const check = await client.callTool('query', {
          sql: `SELECT count(*) FROM orders WHERE id IN (${ids.join(',')}) AND customer_id <> 3`,
        });
        expect(check.structuredContent?.rows).toEqual([[0]]);
        // A forged argument is dropped: the token still decides.
        const forged = await client.callTool('my_orders', { min_total: 150, customer_id: 1 });
        expect(forged.structuredContent?.rows).toEqual(rows);
      } finally {
        await client.close();
      }
    },
  );

  it('fails closed when the claim is missing, of the wrong type, or the call is not authenticated', async () => {
    const token = await issuer.sign(resource, { tenant: 'x' });
    const missing = await overHttp({ tenant: 'x' }, 'v1');
    try {
      const result = await missing.callTool('my_orders', {});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`This tool needs the caller's "customer_id" claim, and the caller's token has none.`);
      expect(textOf(result)).not.toContain(token.slice(0, 20));
    } finally {
      await missing.close();
    }
    const wrongType = await overHttp({ customer_id: '3 OR 1=1' }, 'v1');
    try {
      const result = await wrongType.callTool('my_orders', {});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`The caller's "customer_id" claim is not what this tool takes for customer_id.`);
    } finally {
      await wrongType.close();
    }
    const local = await connect();
    try {
      const result = await local.callTool('my_orders', { customer_id: 1 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/needs the caller's "customer_id" claim, and this request was not authenticated/);
    } finally {
      await local.close();
    }
  });
});

describe('typed binding', () => {
  it('binds every type as its value, arrays as JSON text on SQLite', async () => {
    const tools: VettedToolsFile = oneTool(
      'SELECT :s, :i, :n, :b, :d, :t, :a, typeof(:i), typeof(:n), :i + 1 AS next',
      everyType,
    );
    const client = await connect({ tools });
    try {
      const result = await client.callTool('probe', everyValue);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent?.rows).toEqual([
        [everyValue.s, 41, 2.5, 1, everyValue.d, everyValue.t, JSON.stringify(everyValue.a), 'integer', 'real', 42],
      ]);
    } finally {
      await client.close();
    }
  });

  it('binds a parameter used twice, in any placeholder form', async () => {
    for (const statement of ['SELECT :x, :y, :x', 'SELECT $1, $2, $1']) {
      const client = await connect({
        tools: oneTool(statement, [
          { name: 'x', type: 'integer' },
          { name: 'y', type: 'string' },
        ]),
      });
      try {
        expect((await client.callTool('probe', { x: 7, y: 'why' })).structuredContent?.rows).toEqual([[7, 'why', 7]]);
      } finally {
        await client.close();
      }
    }
  });
});

describe('a tools file is checked at start', () => {
  const integer = [{ name: 'id', type: 'integer' as const }];
  it.each([
    [
      'a write',
      oneTool('DELETE FROM orders WHERE id = :id', integer),
      /tool "probe": the statement is refused: Only SELECT-style reads/,
    ],
    [
      'stacked statements',
      oneTool('SELECT 1 WHERE 1 = :id; DELETE FROM orders', integer),
      /tool "probe": the statement is refused: Send exactly one statement/,
    ],
    [
      'a write that returns rows',
      oneTool('INSERT INTO audit VALUES (:id, 1) RETURNING *', integer),
      /refused: Only SELECT-style/,
    ],
    ['a pragma', oneTool('PRAGMA query_only = 0'), /refused: Only SELECT-style/],
    ['an unknown table', oneTool('SELECT * FROM nowhere WHERE id = :id', integer), /refused: SQLite could not prepare/],
    ['a table name as a parameter', oneTool('SELECT * FROM :id', integer), /refused: SQLite could not prepare/],
    ['an undeclared name', oneTool('SELECT :nope'), /uses :nope, which is not a declared parameter/],
    ['an unused parameter', oneTool('SELECT 1', integer), /never uses the parameter\(s\) id/],
    ['mixed placeholders', oneTool('SELECT :id, ?', integer), /mixes placeholder forms/],
    [
      'a default of the wrong type',
      oneTool('SELECT :id', [{ name: 'id', type: 'integer', default: 'one' }]),
      /the default does not fit/,
    ],
    [
      'a claim with a default',
      oneTool('SELECT :id', [{ name: 'id', type: 'integer', from: 'claim.sub', default: 1 }]),
      /always required/,
    ],
    [
      'a bad pattern',
      oneTool('SELECT :id', [{ name: 'id', type: 'string', pattern: '(' }]),
      /not a valid regular expression/,
    ],
    [
      'a built-in name',
      { tools: [{ name: 'query', description: 'x', statement: 'SELECT 1', parameters: [] }] },
      /one of the server's own tools/,
    ],
    [
      'an unknown database',
      { tools: [{ name: 'x', description: 'x', database: 'hr', statement: 'SELECT 1', parameters: [] }] },
      /no database "hr"/,
    ],
    [
      'an unknown key',
      { tools: [{ name: 'x', description: 'x', statment: 'SELECT 1' }] },
      /unknown option "statment" at tools\.tools\.0\.statment; did you mean "statement"\?/,
    ],
    [
      'rows above the cap',
      { tools: [{ name: 'x', description: 'x', statement: 'SELECT 1', parameters: [], maxRows: 5000 }] },
      /above the server's cap of 1000/,
    ],
    ['an unknown toolset member', { ...oneTool('SELECT 1'), toolsets: { a: ['nope'] } }, /toolset "a" names "nope"/],
  ])('refuses %s, naming the tool and the reason', async (_, tools, message) => {
    await expect(startSqlServer(options({ tools: tools as VettedToolsFile }))).rejects.toThrow(message);
  });

  it('refuses an unknown toolset, and the bin exits with one line naming the file', async () => {
    await expect(startSqlServer(options({ toolset: 'sales' }))).rejects.toThrow(
      /has no toolset "sales"; it has "support", "reporting"/,
    );
    const file = join(sample.directory, 'bad-tools.json');
    writeFileSync(file, JSON.stringify(oneTool('UPDATE customers SET name = :n', [{ name: 'n', type: 'string' }])));
    const run = spawnSync(process.execPath, [bin, '--db', `shop=${sample.path}`, '--tools', file], {
      encoding: 'utf8',
      input: '',
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`tools file ${file}: tool "probe": the statement is refused: Only SELECT-style reads`);
  });

  it('createSqlServer checks in the background and a refused tool fails every call with the reason', async () => {
    const server = createSqlServer(options({ tools: oneTool('DELETE FROM orders') }));
    started.push(server);
    const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
    try {
      const result = await client.callTool('probe', {});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^This tool is not available: .*tool "probe": the statement is refused/);
    } finally {
      await client.close();
    }
  });
});
