import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accountActivity,
  type MariadbRole,
  type MariadbServer,
  mariadbService,
  serverFingerprint,
  startMariadbServer,
  tablesWritable,
} from '../__fixtures__/mariadb-server.ts';
import { createSqlServer } from '../create-sql-server.ts';

/**
 * Attacks on read-only MariaDB access, each run through the MCP tools under a
 * SELECT-only account, the owner of the tables, and a superuser served with
 * allowPrivilegedRole. A case passes when, seen from a separate connection,
 * every table, account, grant, global variable, sequence, routine and file is
 * as it was, nothing of the accounts is still running, in a transaction or
 * holding a lock, a bystander session is untouched, and the server answers.
 */

interface AttackContext {
  server: MariadbServer;
  bystanderId: number;
}

interface Attack {
  name: string;
  tool?: 'query' | 'explain_query' | 'describe_table' | 'list_tables';
  args(context: AttackContext): Record<string, unknown>;
  /** `refused`: an isError result (the default); `either`: a harmless success is fine too. */
  outcome?: 'refused' | 'either' | 'answered';
}

const sql = (text: string) => () => ({ sql: text });

const attacks: Attack[] = [
  // Writes and schema changes.
  { name: 'INSERT', args: sql("INSERT INTO customers (name) VALUES ('mallory')") },
  { name: 'UPDATE', args: sql("UPDATE customers SET name = 'mallory'") },
  { name: 'DELETE', args: sql('DELETE FROM orders') },
  { name: 'REPLACE', args: sql("REPLACE INTO customers (id, name) VALUES (1, 'mallory')") },
  { name: 'DROP TABLE', args: sql('DROP TABLE orders') },
  { name: 'CREATE TABLE', args: sql('CREATE TABLE evil (id INT)') },
  {
    name: 'CREATE TEMPORARY TABLE (allowed in READ ONLY transactions)',
    args: sql('CREATE TEMPORARY TABLE evil (id INT)'),
  },
  { name: 'TRUNCATE a MyISAM table', args: sql('TRUNCATE TABLE audit_log') },
  { name: 'data-modifying WITH', args: sql('WITH doomed AS (SELECT id FROM orders) DELETE FROM orders') },
  { name: 'a stored function that writes a MyISAM table', args: sql('SELECT log_visit()') },
  { name: 'a stored function that advances a sequence', args: sql('SELECT bump_invoice()') },
  // Transaction escapes.
  { name: 'COMMIT then DROP', args: sql('COMMIT; DROP TABLE orders') },
  { name: 'ROLLBACK then INSERT', args: sql("ROLLBACK; INSERT INTO customers (name) VALUES ('mallory')") },
  { name: 'SET TRANSACTION READ WRITE', args: sql('SET TRANSACTION READ WRITE') },
  { name: 'START TRANSACTION READ WRITE', args: sql('START TRANSACTION READ WRITE') },
  { name: 'XA START', args: sql("XA START 'escape'") },
  // Stacked statements, hidden.
  { name: 'stacked statements', args: sql('SELECT 1; DELETE FROM orders') },
  { name: 'executable comment', args: sql('SELECT 1 /*! ; DELETE FROM orders */') },
  { name: 'versioned executable comment', args: sql('SELECT 1 /*!50000 , SLEEP(30) */') },
  { name: 'MariaDB-only executable comment', args: sql('SELECT 1 /*M! ; DROP TABLE orders */') },
  { name: 'optimizer hint comment', args: sql('SELECT /*+ SET_VAR(max_statement_time=0) */ 1') },
  // Read as the server reads it, this is one string: the gate must agree and run it as the harmless read it is.
  { name: 'backslash-escaped quote', args: sql("SELECT '\\'; DELETE FROM orders; -- '"), outcome: 'answered' },
  { name: 'line comment before a second statement', args: sql('SELECT 1 -- a comment\n; DELETE FROM orders') },
  { name: 'hash comment before a second statement', args: sql('SELECT 1 # a comment\n; DELETE FROM orders') },
  { name: '1--1 is not a comment', args: sql('SELECT 1--1; DROP TABLE orders') },
  { name: 'Greek question mark as a semicolon', args: sql('SELECT 1\u037e DELETE FROM orders') },
  { name: 'full-width semicolon', args: sql('SELECT 1\uff1b DELETE FROM orders') },
  { name: 'NUL byte', args: sql('SELECT 1\u0000; DELETE FROM orders') },
  // Settings.
  { name: 'SET GLOBAL', args: sql('SET GLOBAL max_connections = 1') },
  { name: 'SET SESSION sql_mode', args: sql("SET SESSION sql_mode = 'ANSI_QUOTES'") },
  {
    name: 'SET STATEMENT to lift the time limit',
    args: sql('SET STATEMENT max_statement_time = 0 FOR SELECT SLEEP(30)'),
  },
  { name: 'user variable assignment', args: sql('SELECT @planted := 1') },
  { name: 'SELECT INTO a variable', args: sql('SELECT 1 INTO @planted') },
  // Locks that outlive the call.
  { name: 'GET_LOCK', args: sql("SELECT GET_LOCK('toolshed_lock', 0)") },
  { name: 'GET_LOCK quoted as an identifier', args: sql("SELECT `get_lock`('toolshed_lock', 0)") },
  { name: 'GET_LOCK inside a stored function', args: sql('SELECT take_lock()') },
  { name: 'a stored function with its definer’s rights that sets a global', args: sql('SELECT tune_server()') },
  { name: 'a stored function called by a quoted name', args: sql('SELECT `tune_server`()') },
  { name: 'a stored function called by a qualified name', args: sql('SELECT shop.tune_server()') },
  { name: 'LOCK TABLES', args: sql('LOCK TABLES orders WRITE') },
  { name: 'FOR UPDATE', args: sql('SELECT * FROM orders FOR UPDATE') },
  { name: 'LOCK IN SHARE MODE', args: sql('SELECT * FROM orders LOCK IN SHARE MODE') },
  { name: 'HANDLER', args: sql('HANDLER orders OPEN') },
  // Other sessions.
  { name: 'KILL another session', args: ({ bystanderId }) => ({ sql: `KILL ${bystanderId}` }) },
  { name: 'KILL QUERY of another session', args: ({ bystanderId }) => ({ sql: `KILL QUERY ${bystanderId}` }) },
  { name: 'SHUTDOWN', args: sql('SHUTDOWN') },
  // Server files.
  {
    name: 'INTO OUTFILE',
    args: ({ server }) => ({ sql: `SELECT * FROM customers INTO OUTFILE '${server.fileDirectory}/out.txt'` }),
  },
  {
    name: 'INTO DUMPFILE',
    args: ({ server }) => ({ sql: `SELECT 'x' INTO DUMPFILE '${server.fileDirectory}/dump.bin'` }),
  },
  { name: 'LOAD_FILE', args: sql("SELECT LOAD_FILE('/etc/passwd')") },
  { name: 'LOAD DATA INFILE', args: sql("LOAD DATA INFILE '/etc/passwd' INTO TABLE audit_log") },
  { name: 'LOAD DATA LOCAL INFILE', args: sql("LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE audit_log") },
  // Sequences.
  { name: 'NEXTVAL', args: sql('SELECT NEXTVAL(invoice_numbers)') },
  { name: 'NEXT VALUE FOR', args: sql('SELECT NEXT VALUE FOR invoice_numbers') },
  { name: 'SETVAL', args: sql('SELECT SETVAL(invoice_numbers, 5000)') },
  // Prepared statements and cursors left behind.
  { name: 'PREPARE', args: sql("PREPARE planted FROM 'DELETE FROM orders'") },
  { name: 'EXECUTE a planted statement', args: sql('EXECUTE planted') },
  { name: 'CALL', args: sql('CALL mysql.nothing()') },
  { name: 'DO', args: sql('DO SLEEP(30)') },
  // Runaways.
  { name: 'SLEEP past the time limit', args: sql('SELECT SLEEP(30)') },
  { name: 'BENCHMARK', args: sql("SELECT BENCHMARK(1000000000, MD5('x'))") },
  { name: 'a cross join of 10^12 rows', args: sql('SELECT COUNT(*) FROM numbers a, numbers b, numbers c, numbers d') },
  {
    name: 'an endless recursive WITH',
    args: sql('WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT COUNT(*) FROM r'),
    // max_recursive_iterations (1000 by default) may end it first; the time limit stops it otherwise.
    outcome: 'either',
  },
  // The other arguments as injection points.
  {
    name: 'params carrying SQL',
    args: () => ({ sql: 'SELECT name FROM customers WHERE name = ?', params: ["x'; DROP TABLE orders; -- "] }),
    outcome: 'answered',
  },
  {
    name: 'named params are not spliced',
    args: () => ({ sql: 'SELECT :name', params: { name: '1; DROP TABLE orders' } }),
  },
  { name: 'max_rows carrying SQL', args: () => ({ sql: 'SELECT 1', max_rows: '1; DROP TABLE orders' }) },
  { name: 'database carrying SQL', args: () => ({ sql: 'SELECT 1', database: 'shop; DROP TABLE orders' }) },
  {
    name: 'describe_table name carrying SQL',
    tool: 'describe_table',
    args: () => ({ table: 'orders`; DROP TABLE orders; -- ' }),
  },
  { name: 'explain_query of a DELETE', tool: 'explain_query', args: sql('DELETE FROM orders') },
  { name: 'EXPLAIN ANALYZE runs the statement', args: sql('EXPLAIN ANALYZE DELETE FROM orders') },
  { name: 'ANALYZE statement', args: sql('ANALYZE DELETE FROM orders') },
];

const roles: { role: MariadbRole; allowPrivilegedRole: boolean }[] = [
  { role: 'reader', allowPrivilegedRole: false },
  { role: 'owner', allowPrivilegedRole: false },
  { role: 'superuser', allowPrivilegedRole: true },
];

describe.runIf(serviceGate(mariadbService, it))('MariaDB attacks', () => {
  let server: MariadbServer;
  let root: mysql.Connection;
  let bystander: mysql.Connection;
  let context: AttackContext;
  let fingerprint: string;

  beforeAll(async () => {
    server = await startMariadbServer();
    root = await server.rootConnection();
    bystander = await server.rootConnection();
    await bystander.query('SET @marker = 42');
    context = { server, bystanderId: bystander.threadId };
    fingerprint = await serverFingerprint(server, root);
  }, 120_000);

  afterAll(async () => {
    await bystander?.end();
    await root?.end();
    await server?.stop();
  });

  it('has at least 30 attacks', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(30);
  });

  describe('the main attacks through a 2025-era client, as the reader', () => {
    let client: TestClient;
    const main = [
      'stacked statements',
      'executable comment',
      'INTO OUTFILE',
      'GET_LOCK',
      'SET GLOBAL',
      'a stored function that writes a MyISAM table',
      'a cross join of 10^12 rows',
      'params carrying SQL',
    ];

    beforeAll(async () => {
      const sqlServer = createSqlServer({ databases: { shop: server.url('reader') }, limits: { timeoutMs: 1000 } });
      client = await connectTestClient({ server: sqlServer }, { client: 'v1', transport: 'memory' });
    });

    afterAll(async () => {
      await client?.close();
    });

    it.each(attacks.filter((attack) => main.includes(attack.name)))('$name', async (attack) => {
      const result = await client.callTool(attack.tool ?? 'query', attack.args(context));
      expect(result.isError ?? false).toBe((attack.outcome ?? 'refused') === 'refused');
      await vi.waitFor(async () => expect(await accountActivity(server, root)).toEqual([]), { timeout: 10_000 });
      expect(await serverFingerprint(server, root)).toBe(fingerprint);
      expect(client.protocolProblems()).toEqual([]);
    });
  });

  describe.each(roles)('as the $role', ({ role, allowPrivilegedRole }) => {
    let client: TestClient;

    beforeAll(async () => {
      const sqlServer = createSqlServer({
        databases: { shop: server.url(role) },
        limits: { timeoutMs: 1000 },
        allowPrivilegedRole,
      });
      client = await connectTestClient({ server: sqlServer }, { client: 'v2-modern', transport: 'memory' });
    });

    afterAll(async () => {
      await client?.close();
    });

    it.each(attacks)('$name', async (attack) => {
      const result = await client.callTool(attack.tool ?? 'query', attack.args(context));
      const text = result.content.map((part) => part.text ?? '').join('\n');
      if ((attack.outcome ?? 'refused') === 'refused') expect(result.isError, text).toBe(true);
      if (attack.outcome === 'answered') expect(result.isError, text).toBeFalsy();
      await vi.waitFor(async () => expect(await accountActivity(server, root)).toEqual([]), { timeout: 10_000 });
      await tablesWritable(root);
      expect(await serverFingerprint(server, root)).toBe(fingerprint);
      expect((await bystander.query('SELECT @marker AS marker'))[0]).toEqual([{ marker: 42 }]);
      expect(client.protocolProblems()).toEqual([]);
    });

    it('still answers reads after every attack', async () => {
      const result = await client.callTool('query', { sql: 'SELECT COUNT(*) AS n FROM orders' });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent?.rows).toEqual([[3]]);
    });
  });
});
