import { spawn, spawnSync } from 'node:child_process';
import { connectTestClient, freeLoopbackPort, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type PostgresServer,
  postgresService,
  roleNames,
  rolePasswords,
  startPostgresServer,
} from '../__fixtures__/postgres-server.ts';
import { createSampleDatabase, type SampleDatabase } from '../__fixtures__/sample-database.ts';
import { createSqlServer, startSqlServer } from '../create-sql-server.ts';
import type { SqlServerOptions } from '../sql-server-options.ts';

const bin = new URL('../cli.ts', import.meta.url).pathname;

let postgres: PostgresServer;
let admin: pg.Client;

/** Our sessions on the server, seen from outside: everything `toolshed-sql` has open, and what runs there. */
async function ourSessions(): Promise<{ pid: number; state: string | null; query: string }[]> {
  const { rows } = await admin.query(
    "SELECT pid, state, query FROM pg_stat_activity WHERE application_name LIKE 'toolshed-sql%' AND pid <> pg_backend_pid()",
  );
  return rows;
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}

async function withServer<T>(
  options: SqlServerOptions,
  body: (client: TestClient) => Promise<T>,
  kind: 'v1' | 'v2-modern' = 'v2-modern',
): Promise<T> {
  const server = createSqlServer(options);
  const client = await connectTestClient({ server }, { client: kind, transport: 'memory' });
  try {
    return await body(client);
  } finally {
    await client.close();
    await server.close();
  }
}

describe.runIf(serviceGate(postgresService, it))('PostgreSQL', () => {
  beforeAll(async () => {
    postgres = await startPostgresServer();
    admin = await postgres.admin();
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await postgres?.stop();
  });

  describe.each([
    ['v1', 'memory'],
    ['v2-modern', 'memory'],
    ['v2-legacy', 'memory'],
    ['v2-modern', 'stdio'],
    ['v1', 'stdio'],
  ] as const)('the four tools, %s client over %s', (kind, transport) => {
    let client: TestClient;
    let server: ReturnType<typeof createSqlServer> | undefined;

    beforeAll(async () => {
      if (transport === 'memory') {
        server = createSqlServer({ databases: { app: postgres.url('reader') } });
        client = await connectTestClient({ server }, { client: kind, transport });
      } else {
        client = await connectTestClient(
          {
            bin: [bin, '--db', postgres.url('reader', { password: false })],
            env: { ...process.env, TOOLSHED_SQL_PASSWORD_APP: rolePasswords.reader },
          },
          { client: kind, transport },
        );
      }
    });

    afterAll(async () => {
      await client.close();
      await server?.close();
    });

    it('lists tables and views with their schema', async () => {
      const result = await client.callTool('list_tables', {});
      const { tables, ...listing } = result.structuredContent as { tables: { row_estimate: unknown }[] };
      expect(listing).toEqual({ database: 'app', total: 6, truncated: false });
      expect(tables.map(({ row_estimate: _estimate, ...table }) => table)).toEqual([
        { name: 'public.Odd "Name" Table', type: 'table', column_count: 2 },
        { name: 'public.big_spenders', type: 'view', column_count: 2 },
        { name: 'public.customers', type: 'table', column_count: 4 },
        { name: 'public.numbers', type: 'table', column_count: 2 },
        { name: 'public.orders', type: 'table', column_count: 4 },
        { name: 'reporting.daily', type: 'table', column_count: 2 },
      ]);
      // Row estimates are whatever autovacuum has made of them so far; postgres-schema-search.test.ts checks them.
      for (const { row_estimate } of tables) expect(row_estimate === null || Number.isInteger(row_estimate)).toBe(true);
      expect(client.protocolProblems()).toEqual([]);
    });

    it('describes a table: columns, keys, indexes, its CREATE statement', async () => {
      const result = await client.callTool('describe_table', { table: 'Orders' });
      expect(result.structuredContent).toMatchObject({
        name: 'public.orders',
        quoted: '"public"."orders"',
        type: 'table',
        primary_key: ['id'],
        foreign_keys: [
          { table: 'public.customers', columns: ['customer_id'], references: ['id'], on_delete: 'CASCADE' },
        ],
        indexes: [
          { name: 'orders_by_customer', unique: false, origin: 'CREATE INDEX', columns: ['customer_id', 'placed_at'] },
          { name: 'orders_pkey', unique: true, origin: 'PRIMARY KEY', columns: ['id'] },
        ],
      });
      const columns = result.structuredContent?.columns as { name: string; type: string; nullable: boolean }[];
      expect(columns.map((column) => [column.name, column.type, column.nullable])).toEqual([
        ['id', 'bigint', false],
        ['customer_id', 'integer', false],
        ['total', 'numeric(10,2)', false],
        ['placed_at', 'timestamp with time zone', false],
      ]);
      expect(result.structuredContent?.sql).toMatch(/^CREATE TABLE "public"\."orders" \(/);
      const view = await client.callTool('describe_table', { table: 'big_spenders' });
      expect(view.structuredContent).toMatchObject({ type: 'view', sql: expect.stringMatching(/^CREATE VIEW/) });
      const other = await client.callTool('describe_table', { table: 'reporting.daily' });
      expect(other.structuredContent).toMatchObject({ name: 'reporting.daily', primary_key: ['day'] });
    });

    it('answers an unknown table with the closest names', async () => {
      const result = await client.callTool('describe_table', { table: 'order' });
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/No table or view named "order"\. Did you mean "public\.orders"/);
    });

    it('queries with $1 params, cuts at max_rows and says so', async () => {
      const result = await client.callTool('query', {
        sql: 'SELECT id, total FROM orders WHERE customer_id = $1 ORDER BY id',
        params: [2],
        max_rows: 2,
      });
      expect(result.structuredContent).toMatchObject({
        columns: [
          { name: 'id', type: 'bigint' },
          { name: 'total', type: 'numeric' },
        ],
        rows: [
          [1, 7.25],
          [4, 28.25],
        ],
        row_count: 2,
        truncated: true,
        truncated_by: 'max_rows',
      });
      expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
      expect(client.protocolProblems()).toEqual([]);
    });

    it('explains a plan without running the query', async () => {
      const result = await client.callTool('explain_query', { sql: 'SELECT * FROM orders ORDER BY total' });
      expect(result.structuredContent).toMatchObject({
        full_scans: [expect.stringMatching(/^Seq Scan on orders/)],
        temp_b_trees: [expect.stringMatching(/^Sort/)],
      });
    });
  });

  it('reads every type as lossless JSON', async () => {
    await withServer({ databases: { app: postgres.url('reader') }, limits: { maxBlobBytes: 4 } }, async (client) => {
      const sql = `SELECT 42::int, 42::bigint, 9007199254740993::bigint, '-9223372036854775808'::bigint,
        12.50::numeric, 0.1::numeric, 12345678901234567890.123456789::numeric, 'NaN'::numeric,
        1.5::float8, 'Infinity'::float8, 'NaN'::float4, true, 'héllo 田中'::text,
        timestamptz '2024-05-01 10:00:00.123456+02', timestamp '2024-05-01 10:00:00', date '2024-05-01',
        interval '1 year 2 months 3 days 04:05:06', '7d444840-9dc0-11d1-b245-5ffdce74fad2'::uuid,
        '{"a": [1, 2.5, null], "b": "x"}'::json, '{"b": 1, "a": true}'::jsonb,
        ARRAY[1, 2, NULL]::int[], ARRAY['a', 'b,c', NULL]::text[], ARRAY[9007199254740993]::bigint[],
        ARRAY[[1, 2], [3, 4]]::int[], '\\x010203'::bytea, '\\x0102030405'::bytea, NULL::text, 1.5::money`;
      const result = await client.callTool('query', { sql });
      expect(result.isError).toBeUndefined();
      expect((result.structuredContent as { rows: unknown[][] }).rows[0]).toEqual([
        42,
        42,
        '9007199254740993',
        '-9223372036854775808',
        12.5,
        0.1,
        '12345678901234567890.123456789',
        'NaN',
        1.5,
        'Infinity',
        'NaN',
        true,
        'héllo 田中',
        '2024-05-01T08:00:00.123456+00:00',
        '2024-05-01T10:00:00',
        '2024-05-01',
        'P1Y2M3DT4H5M6S',
        '7d444840-9dc0-11d1-b245-5ffdce74fad2',
        { a: [1, 2.5, null], b: 'x' },
        { a: true, b: 1 },
        [1, 2, null],
        ['a', 'b,c', null],
        ['9007199254740993'],
        [
          [1, 2],
          [3, 4],
        ],
        { type: 'blob', bytes: 3, base64: 'AQID' },
        { type: 'blob', bytes: 5, base64: null },
        null,
        '$1.50',
      ]);
      const columns = result.structuredContent?.columns as { type: string }[];
      expect(columns.map((column) => column.type)).toEqual([
        'integer',
        'bigint',
        'bigint',
        'bigint',
        'numeric',
        'numeric',
        'numeric',
        'numeric',
        'double precision',
        'double precision',
        'real',
        'boolean',
        'text',
        'timestamp with time zone',
        'timestamp without time zone',
        'date',
        'interval',
        'uuid',
        'json',
        'jsonb',
        'integer[]',
        'text[]',
        'bigint[]',
        'integer[]',
        'bytea',
        'bytea',
        'text',
        'money',
      ]);
    });
  });

  it('keeps the offset of a timestamp in the session time zone of the database', async () => {
    await admin.query(`ALTER ROLE ${roleNames.reader} SET timezone = 'Asia/Kolkata'`);
    try {
      await withServer({ databases: { app: postgres.url('reader') } }, async (client) => {
        const result = await client.callTool('query', { sql: "SELECT timestamptz '2024-05-01 00:00:00+00'" });
        expect(result.structuredContent?.rows).toEqual([['2024-05-01T05:30:00+05:30']]);
      });
    } finally {
      await admin.query(`ALTER ROLE ${roleNames.reader} RESET timezone`);
    }
  });

  it('cuts a result at the byte cap and says so', async () => {
    await withServer(
      { databases: { app: postgres.url('reader') }, limits: { maxResultBytes: 2000 } },
      async (client) => {
        const result = await client.callTool('query', { sql: 'SELECT * FROM numbers ORDER BY n', max_rows: 1000 });
        expect(result.structuredContent).toMatchObject({ truncated: true, truncated_by: 'max_bytes' });
        expect(Buffer.byteLength(JSON.stringify(result.structuredContent?.rows))).toBeLessThanOrEqual(2000);
      },
    );
  });

  it('refuses params given by name, saying how PostgreSQL binds them', async () => {
    await withServer({ databases: { app: postgres.url('reader') } }, async (client) => {
      const result = await client.callTool('query', { sql: 'SELECT $1', params: { id: 1 } });
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/binds params by position/);
    });
  });

  it('serves SQLite and PostgreSQL side by side, the database argument picking one', async () => {
    const sample: SampleDatabase = createSampleDatabase();
    try {
      await withServer({ databases: { app: postgres.url('reader'), shop: sample.path } }, async (client) => {
        const tools = await client.listTools();
        const query = tools.find((tool) => tool.name === 'query');
        expect(JSON.stringify(query?.inputSchema)).toMatch(/\[\] for \? or \$1, \$2…/);
        const fromPostgres = await client.callTool('query', { database: 'app', sql: 'SELECT count(*) FROM orders' });
        expect(fromPostgres.structuredContent?.rows).toEqual([[250]]);
        const fromSqlite = await client.callTool('query', { database: 'shop', sql: 'SELECT count(*) FROM orders' });
        expect(fromSqlite.structuredContent?.rows).toEqual([[250]]);
      });
    } finally {
      sample.remove();
    }
  });

  describe('the role check', () => {
    it('refuses to start as a superuser, naming the privilege and the two statements that make a reader', async () => {
      const start = startSqlServer({ databases: { app: postgres.url('superuser') } });
      await expect(start).rejects.toThrow(/role "postgres" has superuser/);
      await expect(start).rejects.toThrow(/CREATE ROLE mcp_reader LOGIN PASSWORD '[^']*'; GRANT SELECT ON ALL TABLES/);
      await expect(start).rejects.toMatchObject({ code: 'config_invalid' });
    });

    it.each(['pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program', 'pg_signal_backend'])(
      'refuses a role that is a member of %s',
      async (role) => {
        await admin.query(`GRANT ${role} TO ${roleNames.owner}`);
        try {
          await expect(startSqlServer({ databases: { app: postgres.url('owner') } })).rejects.toThrow(
            new RegExp(`role "app_owner" has ${role}`),
          );
        } finally {
          await admin.query(`REVOKE ${role} FROM ${roleNames.owner}`);
        }
      },
    );

    it('accepts the owner of the tables, and a superuser with --allow-privileged-role, saying so', async () => {
      const owner = await startSqlServer({ databases: { app: postgres.url('owner') } });
      await owner.close();
      const warnings = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        const server = await startSqlServer({
          databases: { app: postgres.url('superuser') },
          allowPrivilegedRole: true,
        });
        await server.close();
        expect(warnings.mock.calls.map(([text]) => String(text)).join('')).toMatch(
          /serving through the role "postgres" \(superuser\) because --allow-privileged-role was given/,
        );
      } finally {
        warnings.mockRestore();
      }
    });

    it('refuses every call when the role is found privileged after start', async () => {
      await withServer({ databases: { app: postgres.url('superuser') } }, async (client) => {
        const result = await client.callTool('query', { sql: 'SELECT 1' });
        expect(result.isError).toBe(true);
        expect(result.content[0]?.text).toMatch(/role "postgres" has superuser/);
      });
    });

    it('exits 2 from the bin with the refusal on one line', () => {
      const run = spawnSync(process.execPath, [bin, '--db', postgres.url('superuser')], {
        encoding: 'utf8',
        input: '',
      });
      expect(run.status).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/superuser/);
      expect(run.stderr).not.toContain(rolePasswords.superuser);
      expect(run.stderr).not.toContain(encodeURIComponent(rolePasswords.superuser));
    });
  });

  describe('availability', () => {
    it('starts with a database that cannot be reached, warning once, and answers each call with an error', async () => {
      const port = await freeLoopbackPort();
      const warnings = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        const server = await startSqlServer({
          databases: {
            app: `postgres://${roleNames.reader}:${encodeURIComponent(rolePasswords.reader)}@127.0.0.1:${port}/app`,
          },
        });
        const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
        const result = await client.callTool('list_tables', {});
        expect(result.isError).toBe(true);
        expect(result.content[0]?.text).toMatch(/The database "app" cannot be reached: .*ECONNREFUSED/);
        await client.close();
        await server.close();
        expect(warnings.mock.calls.map(([text]) => String(text)).join('')).toMatch(/database "app" cannot be reached/);
      } finally {
        warnings.mockRestore();
      }
    });

    it('costs at most one failed call when the server ends its sessions (a restart)', async () => {
      await withServer({ databases: { app: postgres.url('reader') } }, async (client) => {
        expect((await client.callTool('query', { sql: 'SELECT 1' })).isError).toBeUndefined();
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'toolshed-sql'",
        );
        const first = await client.callTool('query', { sql: 'SELECT 1' });
        const second = await client.callTool('query', { sql: 'SELECT 1' });
        expect(second.isError).toBeUndefined();
        if (first.isError) expect(first.content[0]?.text).toMatch(/Try again/);
      });
    });

    it('ends every connection when the bin gets SIGTERM', async () => {
      const child = spawn(process.execPath, [bin, '--db', postgres.url('reader')], {
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      // The start-up role check leaves one connection in the pool.
      await waitFor(async () => (await ourSessions()).length > 0);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await waitFor(async () => (await ourSessions()).length === 0);
    });

    it('ends every connection when the server closes', async () => {
      const server = createSqlServer({ databases: { app: postgres.url('reader') } });
      const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
      await Promise.all([1, 2, 3].map(() => client.callTool('query', { sql: 'SELECT 1' })));
      expect((await ourSessions()).length).toBeGreaterThan(0);
      await client.close();
      await server.close();
      await waitFor(async () => (await ourSessions()).length === 0);
    });
  });

  describe('runaways are stopped on the server', () => {
    const forever = 'SELECT count(*) FROM generate_series(1, 1e12::bigint) a';

    it("stops a statement at the time limit with the server's statement_timeout, leaving nothing running", async () => {
      await withServer({ databases: { app: postgres.url('reader') }, limits: { timeoutMs: 300 } }, async (client) => {
        const result = await client.callTool('query', { sql: forever });
        expect(result.isError).toBe(true);
        expect(result.content[0]?.text).toMatch(/stopped after 300 ms, the time limit/);
        expect((await ourSessions()).filter((session) => session.state === 'active')).toEqual([]);
      });
    });

    it('cancels a cancelled call from a second connection: the statement stops on the server', async () => {
      await withServer(
        { databases: { app: postgres.url('reader') }, limits: { timeoutMs: 600_000 } },
        async (client) => {
          const controller = new AbortController();
          const call = client
            .callTool('query', { sql: forever }, { signal: controller.signal })
            .catch((error) => error);
          await waitFor(async () => (await ourSessions()).some((session) => session.query.includes('generate_series')));
          controller.abort();
          await call;
          await waitFor(async () => (await ourSessions()).every((session) => session.state !== 'active'));
          const { rows } = await admin.query(
            "SELECT count(*)::int AS locks FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE a.application_name = 'toolshed-sql' AND l.locktype <> 'virtualxid'",
          );
          expect(rows[0].locks).toBe(0);
          expect((await client.callTool('query', { sql: 'SELECT 1' })).structuredContent?.rows).toEqual([[1]]);
        },
        'v1',
      );
    });
  });

  describe('no password appears in any output', () => {
    const passwords = Object.values(rolePasswords).flatMap((password) => [password, encodeURIComponent(password)]);
    const leaks = (text: string) => passwords.filter((password) => text.includes(password));

    it('in --help, errors, descriptions, instructions, resources and the stderr of the bin', async () => {
      const outputs: string[] = [];
      const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
      outputs.push(help.stdout, help.stderr);
      expect(help.stdout).toMatch(/TOOLSHED_SQL_PASSWORD_<NAME>/);
      const port = await freeLoopbackPort();
      for (const url of [
        postgres.url('reader').replace(rolePasswords.reader.slice(0, 4), 'xx'),
        `postgres://app_reader:${encodeURIComponent(rolePasswords.reader)}@127.0.0.1:${port}/app`,
        `postgress://app_reader:${encodeURIComponent(rolePasswords.reader)}@127.0.0.1:${port}/app`,
        `app=postgres://app_reader:${encodeURIComponent(rolePasswords.owner)}@127.0.0.1:${postgres.port}/app`,
        postgres.url('superuser'),
      ]) {
        const run = spawnSync(process.execPath, [bin, '--db', url, '--max-rows', 'lots'], {
          encoding: 'utf8',
          input: '',
        });
        outputs.push(run.stdout, run.stderr);
      }
      const client = await connectTestClient(
        {
          bin: [
            bin,
            '--db',
            `app=postgres://app_reader:${encodeURIComponent(rolePasswords.owner)}@127.0.0.1:${postgres.port}/app`,
          ],
        },
        { client: 'v2-modern', transport: 'stdio' },
      );
      outputs.push(JSON.stringify(await client.listTools()));
      outputs.push(JSON.stringify(await client.callTool('query', { sql: 'SELECT 1' })));
      outputs.push(JSON.stringify(await client.callTool('list_tables', {})));
      outputs.push(JSON.stringify(client.recording));
      await client.close();
      const server = createSqlServer({
        databases: { app: postgres.url('reader'), wrong: postgres.url('owner').replace('app_owner', 'app_reader') },
      });
      const memory = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
      const sdk = memory.sdk as { readResource(params: unknown): Promise<unknown>; getInstructions(): unknown };
      outputs.push(JSON.stringify(await memory.listTools()));
      outputs.push(JSON.stringify(sdk.getInstructions()));
      outputs.push(JSON.stringify(await sdk.readResource({ uri: 'postgres://app/schema' })));
      outputs.push(JSON.stringify(await sdk.readResource({ uri: 'postgres://wrong/schema' }).catch(String)));
      outputs.push(JSON.stringify(await memory.callTool('query', { database: 'wrong', sql: 'SELECT 1' })));
      outputs.push(JSON.stringify(await memory.callTool('query', { database: 'app', sql: 'SELEC 1' })));
      await memory.close();
      await server.close();
      expect(outputs.join('\n')).toMatch(/password authentication failed/);
      expect(leaks(outputs.join('\n'))).toEqual([]);
    }, 120_000);
  });
});
