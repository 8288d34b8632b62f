import {
  connectTestClient,
  type RealService,
  serviceGate,
  startTokenIssuer,
  type TestClient,
  type TestClientKind,
  testClientKinds,
} from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mariadbService, startMariadbServer } from '../__fixtures__/mariadb-server.ts';
import { postgresService, startPostgresServer } from '../__fixtures__/postgres-server.ts';
import { everyType, everyValue } from '../__fixtures__/vetted-tool-values.ts';
import { startSqlServer } from '../create-sql-server.ts';
import type { SqlServerOptions } from '../sql-server-options.ts';
import type { VettedToolsFile } from './vetted-tools-file.ts';

/**
 * Vetted tools on real PostgreSQL and MariaDB servers, through the official
 * clients: typed binding of every type, arrays, injection through every
 * parameter type, claim binding, statements the gate refuses at start, and
 * the ad-hoc tools removed in both protocol eras.
 */

interface EngineCase {
  name: string;
  service: RealService;
  /** Starts the server; returns the reader's URL and how to stop it. */
  start(): Promise<{ url: string; stop(): Promise<void> }>;
  /** Echoes every type back: `:s, :i, :n, :b, :d, :t, :a` (the array as the engine takes a list). */
  echo: string;
  echoed: (row: unknown[]) => void;
  /** Customers whose id is in `:ids` (integers), and whose name is in `:names` (strings). */
  byIds: string;
  byNames: string;
  /** Statements its gate refuses, each with one `:id` integer parameter. */
  refused: [what: string, statement: string][];
}

const engines: EngineCase[] = [
  {
    name: 'PostgreSQL',
    service: postgresService,
    async start() {
      const server = await startPostgresServer();
      return { url: server.url('reader'), stop: () => server.stop() };
    },
    echo: 'SELECT :s::text, :i::int + 1, :n::float8, :b::boolean, :d::date, :t::timestamptz, :a::text[]',
    echoed(row) {
      expect(row.slice(0, 5)).toEqual([everyValue.s, 42, 2.5, true, '2026-11-25']);
      expect(new Date(row[5] as string).toISOString()).toBe('2026-11-25T01:30:00.000Z');
      expect(row[6]).toEqual(everyValue.a);
    },
    byIds: 'SELECT id FROM customers WHERE id = ANY(:ids) ORDER BY id',
    byNames: 'SELECT id FROM customers WHERE name = ANY(:names) ORDER BY id',
    refused: [
      ['a write', 'DELETE FROM orders WHERE id = :id'],
      ['stacked statements', 'SELECT :id::int; DELETE FROM orders'],
      [
        'a data-modifying CTE',
        'WITH gone AS (DELETE FROM orders WHERE id = :id RETURNING *) SELECT count(*) FROM gone',
      ],
      ['a lock', 'SELECT * FROM orders WHERE id = :id FOR UPDATE'],
      ['a table name as a parameter', 'SELECT * FROM :id'],
    ],
  },
  {
    name: 'MariaDB',
    service: mariadbService,
    async start() {
      const server = await startMariadbServer();
      return { url: server.url('reader'), stop: () => server.stop() };
    },
    echo: 'SELECT :s, :i + 1, :n, :b, CAST(:d AS DATE), CAST(:t AS DATETIME), :a',
    echoed(row) {
      expect(row.slice(0, 4)).toEqual([everyValue.s, 42, 2.5, 1]);
      expect(row[4]).toBe('2026-11-25');
      expect(row[5]).toMatch(/^2026-11-25T01:30:00/);
      expect(JSON.parse(row[6] as string)).toEqual(everyValue.a);
    },
    byIds: 'SELECT id FROM customers WHERE JSON_CONTAINS(:ids, CAST(id AS CHAR)) ORDER BY id',
    byNames: 'SELECT id FROM customers WHERE JSON_CONTAINS(:names, JSON_QUOTE(name)) ORDER BY id',
    refused: [
      ['a write', 'DELETE FROM orders WHERE id = :id'],
      ['stacked statements', 'SELECT :id; DELETE FROM orders'],
      ['a file write', "SELECT * FROM orders WHERE id = :id INTO OUTFILE '/tmp/toolshed-vetted'"],
      ['an executable comment', 'SELECT /*! SLEEP(10), */ id FROM orders WHERE id = :id'],
      ['a lock', "SELECT GET_LOCK('vetted', :id)"],
    ],
  },
];

function textOf(result: { content: { text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

function rowsOf(result: { structuredContent?: Record<string, unknown> }): unknown[][] {
  return (result.structuredContent?.rows ?? []) as unknown[][];
}

const resource = 'https://sql.example.test/mcp';

describe.each(engines)('vetted tools on $name', (engine) => {
  describe.runIf(serviceGate(engine.service, it))('through the official clients', () => {
    let started: Awaited<ReturnType<EngineCase['start']>>;
    const tools: VettedToolsFile = {
      tools: [
        { name: 'echo', description: 'Echoes every type.', statement: engine.echo, parameters: everyType },
        {
          name: 'by_ids',
          description: 'Customers by id.',
          statement: engine.byIds,
          parameters: [{ name: 'ids', type: 'array', items: 'integer', maxItems: 10 }],
        },
        {
          name: 'by_names',
          description: 'Customers by name.',
          statement: engine.byNames,
          parameters: [{ name: 'names', type: 'array', items: 'string' }],
        },
        {
          name: 'named',
          description: 'Customers with one name.',
          statement: 'SELECT id FROM customers WHERE name = :name',
          parameters: [{ name: 'name', type: 'string' }],
        },
        {
          name: 'my_orders',
          description: "The signed-in customer's orders.",
          statement: 'SELECT id, customer_id FROM orders WHERE customer_id = :customer ORDER BY id',
          parameters: [{ name: 'customer', type: 'integer', from: 'claim.customer_id' }],
        },
      ],
    };
    const options = (extra: Partial<SqlServerOptions> = {}): SqlServerOptions => ({
      databases: { shop: started.url },
      tools,
      ...extra,
    });
    async function withClient(
      run: (client: TestClient) => Promise<void>,
      extra: Partial<SqlServerOptions> = {},
      kind: TestClientKind = 'v2-modern',
    ) {
      const server = await startSqlServer(options(extra));
      const client = await connectTestClient({ server }, { client: kind, transport: 'memory' });
      try {
        await run(client);
      } finally {
        await client.close();
        await server.close();
      }
    }

    beforeAll(async () => {
      started = await engine.start();
    }, 120_000);

    afterAll(async () => {
      await started?.stop();
    });

    it('binds every type as its value', async () => {
      await withClient(async (client) => {
        const result = await client.callTool('echo', everyValue);
        expect(result.isError, textOf(result)).toBeFalsy();
        engine.echoed(rowsOf(result)[0] as unknown[]);
      });
    });

    it('binds arrays as one list value, whatever the items hold', async () => {
      await withClient(async (client) => {
        expect(rowsOf(await client.callTool('by_ids', { ids: [1, 3] }))).toEqual([[1], [3]]);
        expect(rowsOf(await client.callTool('by_ids', { ids: [] }))).toEqual([]);
        const names = await client.callTool('by_names', { names: ['Björn', 'Bo', "x' OR '1'='1", 'a"}', '{NULL}'] });
        expect(names.isError, textOf(names)).toBeFalsy();
        expect(rowsOf(names).length).toBe(1);
      });
    });

    it('takes values with SQL in them only as values, and refuses values of the wrong type', async () => {
      await withClient(async (client) => {
        for (const name of ["' OR '1'='1", "x'; DELETE FROM orders; --", '\\', "\\' OR 1=1 -- "]) {
          const result = await client.callTool('named', { name });
          expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
          expect(rowsOf(result), name).toEqual([]);
        }
        const cases: [string, Record<string, unknown>, RegExp][] = [
          ['by_ids', { ids: ['1) OR (1=1'] }, /- ids\[0\]: expected an integer; got "1\) OR \(1=1" \(a string\)/],
          ['by_ids', { ids: '1,2' }, /- ids: expected an array of integers \(at most 10\); got "1,2" \(a string\)/],
          ['by_ids', { ids: Array.from({ length: 11 }, (_, index) => index) }, /- ids: expected an array of integers/],
          ['echo', { ...everyValue, i: '41 OR 1=1' }, /- i: expected an integer; got "41 OR 1=1"/],
          ['echo', { ...everyValue, n: '2.5' }, /- n: expected a number; got "2.5" \(a string\)/],
          ['echo', { ...everyValue, b: 'true' }, /- b: expected true or false; got "true"/],
          ['echo', { ...everyValue, d: "2026-11-25' OR '1'='1" }, /- d: expected a date as YYYY-MM-DD/],
          ['echo', { ...everyValue, t: 'now()' }, /- t: expected a timestamp as ISO 8601/],
        ];
        for (const [tool, args, message] of cases) {
          const result = await client.callTool(tool, args);
          expect(result.isError, tool).toBe(true);
          expect(textOf(result)).toMatch(message);
        }
      });
    });

    it('fills a claim-bound parameter from the verified token only', async () => {
      const issuer = await startTokenIssuer();
      try {
        const server = await startSqlServer(options());
        const client = await connectTestClient(
          { server },
          {
            client: 'v2-modern',
            transport: 'http',
            httpAuth: { jwt: { issuer: issuer.issuer }, resource },
            bearerToken: await issuer.sign(resource, { customer_id: 2 }),
          },
        );
        try {
          const mine = await client.callTool('my_orders', { customer: 1 });
          expect(mine.isError, textOf(mine)).toBeFalsy();
          expect(rowsOf(mine).length).toBeGreaterThan(0);
          expect(rowsOf(mine).every((row) => row[1] === 2)).toBe(true);
        } finally {
          await client.close();
          await server.close();
        }
      } finally {
        await issuer.close();
      }
    });

    it.each(testClientKinds)('%s: --no-ad-hoc leaves only the vetted and schema tools', async (kind) => {
      await withClient(
        async (client) => {
          expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual([
            'by_ids',
            'by_names',
            'describe_table',
            'echo',
            'list_tables',
            'my_orders',
            'named',
          ]);
          expect(client.protocolProblems()).toEqual([]);
        },
        { adHoc: false },
        kind,
      );
    });

    it.each(engine.refused)('refuses %s at start, naming the tool', async (_, statement) => {
      const refused: VettedToolsFile = {
        tools: [
          {
            name: 'bad',
            description: 'A bad one.',
            statement,
            parameters: [{ name: 'id', type: 'integer' }],
          },
        ],
      };
      await expect(startSqlServer(options({ tools: refused }))).rejects.toThrow(
        /the tools option: tool "bad": the statement is refused: /,
      );
    });
  });
});
