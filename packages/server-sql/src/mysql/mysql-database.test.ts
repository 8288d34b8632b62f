import { LocalError, ToolError } from '@toolshed/mcp-core';
import { connectTestClient, freeLoopbackPort, serviceGate } from '@toolshed/mcp-core/testing';
import mysql2, { type PoolConnection } from 'mysql2';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accountActivity,
  type MariadbRole,
  type MariadbServer,
  mariadbService,
  openTestDatabase,
  queryRequest,
  queryRows,
  runRequest,
  startMariadbServer,
} from '../__fixtures__/mariadb-server.ts';
import { createSqlServer } from '../create-sql-server.ts';
import { StatementTimeLimit } from '../statement-time-limit.ts';
import { mysqlConnectionSettings } from './mysql-connection-options.ts';
import { guardedCall, openCallSession } from './mysql-guarded-call.ts';
import { MysqlStatementStopper } from './mysql-statement-stopper.ts';

describe.runIf(serviceGate(mariadbService, it))('MariaDB engine', () => {
  let server: MariadbServer;
  let root: mysql.Connection;

  beforeAll(async () => {
    server = await startMariadbServer();
    root = await server.rootConnection();
  }, 120_000);

  afterAll(async () => {
    await root?.end();
    await server?.stop();
  });

  // The server finishes its bookkeeping of a statement (the reset's reply on the wire) just after the client hears it.
  const expectNoActivity = () =>
    vi.waitFor(async () => expect(await accountActivity(server, root)).toEqual([]), { timeout: 5000 });

  describe('the tools’ shapes', () => {
    it('lists tables and views', async () => {
      const { database } = openTestDatabase(server.url('reader'));
      const outcome = await runRequest(database, { kind: 'list_tables', database: 'shop' });
      await database.close();
      expect(outcome.ok && JSON.parse(outcome.json).tables).toContainEqual({
        name: 'shop.big_orders',
        type: 'view',
        column_count: 3,
        row_estimate: null,
      });
    });

    it('describes a table with its keys, indexes and foreign keys', async () => {
      const { database } = openTestDatabase(server.url('reader'));
      const outcome = await runRequest(database, { kind: 'describe_table', database: 'shop', table: 'orders' });
      await database.close();
      const described = outcome.ok ? JSON.parse(outcome.json) : outcome;
      expect(described).toMatchObject({
        name: 'shop.orders',
        quoted: '`shop`.`orders`',
        type: 'table',
        primary_key: ['id'],
        foreign_keys: [
          {
            table: 'customers',
            columns: ['customer_id'],
            references: ['id'],
            on_update: 'RESTRICT',
            on_delete: 'CASCADE',
          },
        ],
      });
      expect(described.columns[2]).toEqual({
        name: 'total',
        quoted: '`total`',
        type: 'decimal(10,2)',
        nullable: false,
        default: null,
        primary_key_position: null,
        generated: false,
      });
    });

    it('takes a table by its qualified name too, and lists every visible schema without a database in the URL', async () => {
      const { database } = openTestDatabase(server.url('reader', { database: '' }));
      const described = await runRequest(database, { kind: 'describe_table', database: 'shop', table: 'shop.orders' });
      const listed = await runRequest(database, { kind: 'list_tables', database: 'shop' });
      await database.close();
      expect(described.ok && JSON.parse(described.json).name).toBe('shop.orders');
      expect(listed.ok && JSON.parse(listed.json).tables.map((table: { name: string }) => table.name)).toContain(
        'shop.customers',
      );
    });

    it('suggests the closest names for a table that does not exist', async () => {
      const { database } = openTestDatabase(server.url('reader'));
      const outcome = await runRequest(database, { kind: 'describe_table', database: 'shop', table: 'order' });
      await database.close();
      expect(outcome).toMatchObject({ ok: false, code: 'unknown_table' });
      expect(!outcome.ok && outcome.message).toContain('Did you mean');
      expect(!outcome.ok && outcome.message).toContain('"shop.orders"');
    });

    it('explains a plan with its full scans and sorts', async () => {
      const { database } = openTestDatabase(server.url('reader'));
      const outcome = await runRequest(database, {
        kind: 'explain',
        database: 'shop',
        sql: 'SELECT * FROM customers ORDER BY name',
      });
      await database.close();
      const plan = outcome.ok ? JSON.parse(outcome.json) : outcome;
      expect(plan.full_scans).toHaveLength(1);
      expect(plan.temp_b_trees).toHaveLength(1);
      expect(plan.plan[0]).toMatchObject({ id: 1, parent: 0 });
    });

    it('gives the schema as CREATE statements', async () => {
      const { database } = openTestDatabase(server.url('owner'));
      const outcome = await runRequest(database, { kind: 'schema_text', database: 'shop' });
      await database.close();
      const text = outcome.ok ? JSON.parse(outcome.json).text : '';
      expect(text).toContain('CREATE TABLE `orders`');
      expect(text).toContain('VIEW `big_orders`');
    });
  });

  describe('caps and time limits', () => {
    it('cuts rows at max_rows, says so, and leaves nothing running', async () => {
      const { database } = openTestDatabase(server.url('reader'));
      const outcome = await runRequest(
        database,
        queryRequest('SELECT a.n FROM numbers a, numbers b, numbers c', undefined, 5),
      );
      await database.close();
      expect(outcome.ok && JSON.parse(outcome.json)).toMatchObject({
        row_count: 5,
        truncated: true,
        truncated_by: 'max_rows',
      });
      await expectNoActivity();
    });

    it('cuts rows at the byte cap', async () => {
      const { database } = openTestDatabase(server.url('reader'));
      const outcome = await runRequest(database, {
        kind: 'query',
        database: 'shop',
        sql: "SELECT n, REPEAT('x', 100) FROM numbers",
        params: undefined,
        limits: { maxRows: 1000, maxBytes: 2000, maxBlobBytes: 10 },
      });
      await database.close();
      const result = outcome.ok ? JSON.parse(outcome.json) : outcome;
      expect(result).toMatchObject({ truncated: true, truncated_by: 'max_bytes' });
      expect(JSON.stringify(result.rows).length).toBeLessThanOrEqual(2000);
    });

    it('stops a runaway on the server at the time limit', async () => {
      const { database } = openTestDatabase(server.url('reader'), { limits: { timeoutMs: 300 } });
      const outcome = await runRequest(
        database,
        queryRequest('SELECT COUNT(*) FROM numbers a, numbers b, numbers c, numbers d'),
      );
      expect(outcome).toMatchObject({ ok: false, code: 'sql_error' });
      expect(!outcome.ok && outcome.message).toContain('300 ms, the time limit');
      await expectNoActivity();
      expect(await queryRows(database, 'SELECT 1')).toEqual([[1]]);
      await database.close();
    });

    it('stops the statement on the server when the call is cancelled', async () => {
      const { database } = openTestDatabase(server.url('reader'), { limits: { timeoutMs: 60_000 } });
      const controller = new AbortController();
      const running = runRequest(
        database,
        queryRequest('SELECT COUNT(*) FROM numbers a, numbers b, numbers c, numbers d'),
        { signal: controller.signal, progress: () => {} },
      );
      await vi.waitFor(async () => {
        const [threads] = await root.query(
          "SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ? AND INFO LIKE 'SELECT COUNT(*)%'",
          [server.accounts.reader.user],
        );
        expect(threads).toHaveLength(1);
      });
      controller.abort();
      expect(await running).toEqual({ ok: false, code: 'sql_error', message: 'The query was cancelled.' });
      await expectNoActivity();
      await database.close();
    });

    it('holds to the pool size with more calls in flight', async () => {
      const { database } = openTestDatabase(server.url('reader'), { limits: { maxConcurrentQueries: 2 } });
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, index) => queryRows(database, 'SELECT ? + 0, CONNECTION_ID()', [index])),
      );
      await database.close();
      expect(results.map((rows) => rows[0]?.[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(new Set(results.map((rows) => rows[0]?.[1])).size).toBeLessThanOrEqual(2);
    });
  });

  describe('sessions', () => {
    it('refuses calls to stored functions the account could call', async () => {
      const { database } = openTestDatabase(server.url('owner'));
      const outcome = await runRequest(database, queryRequest('SELECT take_lock(), UPPER(name) FROM customers'));
      await database.close();
      expect(outcome).toMatchObject({ ok: false, code: 'not_a_read' });
      expect(!outcome.ok && outcome.message).toContain('take_lock() is a stored function');
    });

    it('ends every connection on close', async () => {
      const { database } = openTestDatabase(server.url('reader'));
      await Promise.all([queryRows(database, 'SELECT 1'), queryRows(database, 'SELECT 2')]);
      await database.close();
      await vi.waitFor(async () => {
        const [connections] = await root.query('SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ?', [
          server.accounts.reader.user,
        ]);
        expect(connections).toEqual([]);
      });
      await expect(runRequest(database, queryRequest('SELECT 1'))).rejects.toBeInstanceOf(ToolError);
    });
  });

  describe('layers on their own, without the statement gate', () => {
    async function layerSession(role: MariadbRole, timeoutMs = 5000) {
      const { connection } = mysqlConnectionSettings({ name: 'shop', url: server.url(role) }, {});
      const pool = mysql2.createPool({ ...connection, connectionLimit: 1 });
      const stopper = new MysqlStatementStopper(connection);
      const settings = {
        flavor: 'mariadb' as const,
        timeLimit: new StatementTimeLimit(timeoutMs),
        stopper,
        call: { signal: new AbortController().signal, progress: () => {} },
      };
      const run = async (sql: string) => {
        const pooled = await new Promise<PoolConnection>((resolve, reject) =>
          pool.getConnection((error, got) => (error ? reject(error) : resolve(got))),
        );
        await openCallSession(pooled, settings);
        return guardedCall(pooled, settings, async (session) => JSON.stringify(await session.rows(sql)));
      };
      // As the engine runs calls: the session is set up once, then by the reset that ends each call.
      let setUp = false;
      const runAsEngine = async (sql: string, params: unknown[] = []) => {
        const pooled = await new Promise<PoolConnection>((resolve, reject) =>
          pool.getConnection((error, got) => (error ? reject(error) : resolve(got))),
        );
        if (!setUp) await openCallSession(pooled, settings);
        setUp = true;
        return guardedCall(pooled, settings, async (session) => JSON.stringify(await session.rows(sql, params)));
      };
      const close = async () => {
        await stopper.close();
        await new Promise<void>((resolve) => pool.end(() => resolve()));
      };
      return { run, runAsEngine, close };
    }

    it('the READ ONLY transaction refuses writes, a MyISAM table’s included', async () => {
      const { run, close } = await layerSession('owner');
      for (const sql of ["INSERT INTO audit_log (note) VALUES ('x')", 'DELETE FROM orders', 'SELECT log_visit()']) {
        const outcome = await run(sql);
        expect(outcome).toMatchObject({ ok: false, code: 'sql_error' });
        expect(!outcome.ok && outcome.message).toMatch(/READ ONLY transaction/i);
      }
      await close();
    });

    it('the reset leaves no lock, variable, temporary table or prepared statement to the next call', async () => {
      const { run, close } = await layerSession('owner');
      expect(await run("SELECT GET_LOCK('toolshed_lock', 0) AS taken, @planted := 5 AS planted")).toEqual({
        ok: true,
        json: '[{"taken":1,"planted":5}]',
      });
      expect(await run('CREATE TEMPORARY TABLE leftover (id INT)')).toMatchObject({ ok: false });
      expect(await run("SELECT IS_USED_LOCK('toolshed_lock') AS holder, @planted AS planted")).toEqual({
        ok: true,
        json: '[{"holder":null,"planted":null}]',
      });
      // Every call's statement is a server-side prepared statement; none outlives its call.
      const [[status]] = (await root.query("SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'")) as unknown as [
        { Value: string }[],
      ];
      expect(status?.Value).toBe('0');
      await close();
    });

    it('the reset that ends a call sets the next one up: what the call changed is gone, the limits are back', async () => {
      const { runAsEngine, close } = await layerSession('owner', 4000);
      const settings =
        'SELECT @@SESSION.tx_read_only AS read_only, @@SESSION.max_statement_time AS time_limit, ' +
        '@@SESSION.time_zone AS zone, @@SESSION.sql_mode AS mode, @planted AS planted';
      const pinned = await runAsEngine(settings);
      expect(pinned).toEqual({
        ok: true,
        json: '[{"read_only":"1","time_limit":4,"zone":"+00:00","mode":"STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION","planted":null}]',
      });
      expect(await runAsEngine("SET SESSION tx_read_only = 0, max_statement_time = 0, time_zone = '+05:00'")).toEqual({
        ok: true,
        json: '[]',
      });
      expect(await runAsEngine('SELECT @planted := 5 AS planted')).toMatchObject({ ok: true });
      expect(await runAsEngine(settings)).toEqual(pinned);
      expect(await runAsEngine("INSERT INTO audit_log (note) VALUES ('x')")).toMatchObject({
        ok: false,
        message: expect.stringMatching(/READ ONLY transaction/i),
      });
      await close();
    });

    it('answers a statement the server refuses with the server’s own words, and serves the next call', async () => {
      const { runAsEngine, close } = await layerSession('reader');
      for (const [sql, params, words] of [
        ['SELECT no_such_column FROM customers', [], /Unknown column 'no_such_column'/],
        ['SELECT * FROM no_such_table', [], /no_such_table' doesn't exist/],
        ['SELECT * FROM customers WHERE id = ? AND name = ?', [1], /Incorrect arguments/],
      ] as const) {
        const outcome = await runAsEngine(sql, [...params]);
        expect(outcome).toMatchObject({ ok: false, code: 'sql_error', message: expect.stringMatching(words) });
        expect(await runAsEngine('SELECT name FROM customers WHERE id = ?', [2])).toEqual({
          ok: true,
          json: '[{"name":"Bo"}]',
        });
      }
      const [[status]] = (await root.query("SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'")) as unknown as [
        { Value: string }[],
      ];
      expect(status?.Value).toBe('0');
      await close();
    });

    it('the server-side time limit stops a statement without the gate', async () => {
      const { run, close } = await layerSession('reader', 300);
      // Interrupted by max_statement_time, BENCHMARK and SLEEP end without an error: the clock says what happened.
      const outcome = await run('SELECT BENCHMARK(10000000000, MD5(1))');
      expect(outcome).toMatchObject({ ok: false, code: 'sql_error' });
      expect(!outcome.ok && outcome.message).toContain('time limit');
      await expectNoActivity();
      await close();
    });
  });

  describe('accounts and passwords', () => {
    it('refuses a superuser at start and on every call, naming the privilege and a reader recipe', async () => {
      const { database } = openTestDatabase(server.url('superuser'));
      const start = database.start?.();
      await expect(start).rejects.toBeInstanceOf(LocalError);
      const message = await start?.catch((error: Error) => error.message);
      expect(message).toContain('ALL PRIVILEGES');
      expect(message).toContain("CREATE USER 'mcp_reader'@'%'");
      expect(message).toContain("GRANT SELECT ON `shop`.* TO 'mcp_reader'@'%'");
      expect(message).not.toContain(server.accounts.superuser.password);
      expect(await runRequest(database, queryRequest('SELECT 1'))).toEqual({
        ok: false,
        code: 'database_unavailable',
        message,
      });
      await database.close();
    });

    it('serves a superuser with allowPrivilegedRole, and says so', async () => {
      const { database, warnings } = openTestDatabase(server.url('superuser'), { allowPrivilegedRole: true });
      await database.start?.();
      expect(warnings.join('\n')).toContain('--allow-privileged-role');
      expect(await queryRows(database, 'SELECT 1')).toEqual([[1]]);
      await database.close();
    });

    it('reads the grants of the account’s roles as its own', async () => {
      await root.query('CREATE ROLE file_role');
      await root.query('GRANT FILE ON *.* TO file_role');
      await root.query("CREATE USER role_user@'%' IDENTIFIED BY 'role-password'");
      await root.query("GRANT SELECT ON shop.* TO role_user@'%'");
      await root.query("GRANT file_role TO role_user@'%'");
      await root.query("SET DEFAULT ROLE file_role FOR role_user@'%'");
      const { database } = openTestDatabase(`mysql://role_user:role-password@127.0.0.1:${server.port}/shop`);
      await expect(database.start?.()).rejects.toThrow(/has FILE/);
      await database.close();
    });

    it('accepts the owner of the tables', async () => {
      const { database, warnings } = openTestDatabase(server.url('owner'));
      await database.start?.();
      expect(warnings).toEqual([]);
      await database.close();
    });

    it('takes the password from the environment over the URL’s', async () => {
      const url = server.url('reader', { withPassword: false }).replace('@', ':wrong-password@');
      const { database } = openTestDatabase(url, { password: server.accounts.reader.password });
      expect(await queryRows(database, 'SELECT 1')).toEqual([[1]]);
      await database.close();
    });

    it('never shows the password, when the server refuses it or cannot be reached', async () => {
      const password = server.accounts.reader.password;
      const wrong = openTestDatabase(server.url('reader'), { password: `${password}-wrong` });
      const port = await freeLoopbackPort();
      const unreachable = openTestDatabase(server.url('reader').replace(`:${server.port}/`, `:${port}/`));
      const texts: string[] = [];
      for (const { database, warnings } of [wrong, unreachable]) {
        await database.start?.();
        const error = await runRequest(database, queryRequest('SELECT 1')).catch((caught: Error) => caught);
        expect(error).toBeInstanceOf(ToolError);
        texts.push((error as Error).message, ...warnings);
        await database.close();
      }
      expect(texts.join('\n')).toContain('cannot be reached');
      expect(texts.join('\n')).not.toContain(password);
      expect(unreachable.warnings).toHaveLength(1);
    });

    it('costs no call when the database server restarts between calls', async () => {
      const { database } = openTestDatabase(server.url('reader'));
      await Promise.all([queryRows(database, 'SELECT 1'), queryRows(database, 'SELECT 2')]);
      await server.restart();
      expect(await queryRows(database, 'SELECT 1')).toEqual([[1]]);
      await database.close();
      root = await server.rootConnection();
    }, 60_000);
  });

  it('serves through the bin over stdio, with the password from the environment', async () => {
    const bin = new URL('../cli.ts', import.meta.url).pathname;
    const client = await connectTestClient(
      {
        bin: [bin, '--db', `shop=${server.url('reader', { withPassword: false })}`],
        env: { ...process.env, TOOLSHED_SQL_PASSWORD_SHOP: server.accounts.reader.password },
      },
      { client: 'v2-legacy', transport: 'stdio' },
    );
    const result = await client.callTool('query', { sql: 'SELECT COUNT(*) FROM customers' });
    expect(result.structuredContent).toMatchObject({ rows: [[3]] });
    const tools = JSON.stringify(await client.listTools());
    expect(tools).not.toContain(server.accounts.reader.password);
    expect(client.protocolProblems()).toEqual([]);
    await client.close();
  }, 60_000);

  describe.each(['v1', 'v2-modern'] as const)('through the tools with a %s client', (clientKind) => {
    it('lists, describes and queries', async () => {
      const sqlServer = createSqlServer({ databases: { shop: server.url('reader') } });
      const client = await connectTestClient({ server: sqlServer }, { client: clientKind, transport: 'memory' });
      const tables = await client.callTool('list_tables');
      expect(tables.structuredContent).toMatchObject({ database: 'shop' });
      const described = await client.callTool('describe_table', { table: 'customers' });
      expect(described.structuredContent).toMatchObject({ name: 'shop.customers', primary_key: ['id'] });
      const result = await client.callTool('query', {
        sql: 'SELECT name FROM customers WHERE country = ? ORDER BY id',
        params: ['NZ'],
      });
      expect(result.structuredContent).toMatchObject({ rows: [['Ana']], row_count: 1, truncated: false });
      const refused = await client.callTool('query', { sql: 'DELETE FROM orders' });
      expect(refused.isError).toBe(true);
      expect(client.protocolProblems()).toEqual([]);
      await client.close();
    });
  });
});
