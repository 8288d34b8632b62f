import { existsSync, rmSync } from 'node:fs';
import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PostgresRole,
  type PostgresServer,
  postgresService,
  startPostgresServer,
} from '../__fixtures__/postgres-server.ts';
import { createSqlServer } from '../create-sql-server.ts';

/**
 * Every way we know to talk a read-only PostgreSQL server into writing,
 * changing settings, keeping locks, signalling other sessions or reaching
 * server files, run through each role the server may be started with: a
 * SELECT-only reader, the owner of the tables, and (with
 * --allow-privileged-role) the superuser. A case passes when, seen from a
 * separate connection, every table, role, grant, setting, sequence and
 * large object is as it was, nothing of ours is running or holds a lock, a
 * bystander session is alive and heard no notification, and the server
 * still answers.
 */

type Call = { tool: string; args: Record<string, unknown> };
type Attack = [name: string, call: Call | string, outcome?: 'refused' | 'answered'];

const programTarget = '/tmp/toolshed-sql-attack-pwned';
const forever = 'SELECT count(*) FROM generate_series(1, 1e12::bigint) a';

const attacks: Attack[] = [
  // Writes and DDL.
  ['DELETE', 'DELETE FROM orders'],
  ['UPDATE', "UPDATE customers SET name = 'x'"],
  ['INSERT', "INSERT INTO customers VALUES (9, 'x', NULL, 'NZ')"],
  ['DROP TABLE', 'DROP TABLE orders'],
  ['TRUNCATE', 'TRUNCATE orders CASCADE'],
  ['CREATE TABLE AS', 'CREATE TABLE stolen AS SELECT * FROM customers'],
  ['ALTER TABLE', 'ALTER TABLE customers ADD COLUMN x int'],
  ['a data-modifying CTE', 'WITH gone AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM gone'],
  ['SELECT INTO', 'SELECT * INTO stolen FROM customers'],
  ['MERGE', 'MERGE INTO customers c USING (VALUES (1)) AS v(id) ON c.id = v.id WHEN MATCHED THEN DELETE'],
  ['GRANT', 'GRANT ALL ON customers TO PUBLIC'],
  ['REVOKE', 'REVOKE SELECT ON customers FROM app_reader'],
  ['CREATE ROLE', 'CREATE ROLE evil SUPERUSER LOGIN'],
  ['COMMENT', "COMMENT ON TABLE orders IS 'x'"],
  ['VACUUM', 'VACUUM orders'],
  ['ANALYZE', 'ANALYZE orders'],
  ['CLUSTER', 'CLUSTER orders USING orders_pkey'],
  ['REINDEX', 'REINDEX TABLE orders'],
  ['CHECKPOINT', 'CHECKPOINT'],
  // Transaction escapes.
  ['COMMIT then a write', 'COMMIT; DELETE FROM orders'],
  ['ROLLBACK, BEGIN, write, COMMIT', 'ROLLBACK; BEGIN; DELETE FROM orders; COMMIT'],
  ['END then DROP', 'END; DROP TABLE orders'],
  ['SET TRANSACTION READ WRITE', 'SET TRANSACTION READ WRITE'],
  ['read-write session default', 'ABORT; SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE'],
  ['COMMIT inside a CTE comment', 'SELECT 1 /* ; COMMIT */; DELETE FROM orders'],
  // Stacked statements hidden by comments, quotes, dollar quotes and Unicode.
  ['a semicolon in a string', "SELECT ';'; DELETE FROM orders"],
  ['a dollar-quoted semicolon', 'SELECT $$;$$; DELETE FROM orders'],
  ['a tagged dollar quote', 'SELECT $x$ $$ ; $x$; DELETE FROM orders'],
  ['a line comment', 'SELECT 1 -- comment\n; DELETE FROM orders'],
  ['an escape string', "SELECT E'\\''; DELETE FROM orders --'"],
  ['a Unicode escape string', "SELECT U&'\\0041'; DELETE FROM orders"],
  ['a fullwidth semicolon', 'SELECT 1；DELETE FROM orders'],
  ['a NUL character', 'SELECT 1\u0000; DELETE FROM orders'],
  ['nested comments', 'SELECT 1 /* /* */ ; DELETE FROM orders */; DELETE FROM orders'],
  // Settings.
  ['SET statement_timeout', 'SET statement_timeout = 0'],
  ['set_config', "SELECT set_config('statement_timeout', '0', false)"],
  ['set_config of role', "SELECT set_config('role', 'postgres', false)"],
  [
    'a quoted, upper-case set_config',
    `SELECT "set_config"('work_mem', '1GB', false), SET_CONFIG('work_mem', '2GB', false)`,
  ],
  ['ALTER ROLE SET', 'ALTER ROLE app_reader SET statement_timeout = 0'],
  ['ALTER SYSTEM', "ALTER SYSTEM SET work_mem = '1GB'"],
  ['RESET ALL', 'RESET ALL'],
  ['SET ROLE', 'SET ROLE postgres'],
  ['SET SESSION AUTHORIZATION', 'SET SESSION AUTHORIZATION postgres'],
  // Locks that outlive the call.
  ['a session advisory lock', 'SELECT pg_advisory_lock(42)'],
  ['a qualified advisory lock', 'SELECT pg_catalog.pg_try_advisory_lock(43)'],
  ['a transaction advisory lock', 'SELECT pg_advisory_xact_lock(44)'],
  ['LOCK TABLE', 'LOCK TABLE orders IN ACCESS EXCLUSIVE MODE'],
  ['FOR UPDATE', 'SELECT * FROM orders FOR UPDATE'],
  // Notifications.
  ['NOTIFY', "NOTIFY attack, 'x'"],
  ['pg_notify', "SELECT pg_notify('attack', 'x')"],
  ['LISTEN', 'LISTEN attack'],
  // Other sessions.
  [
    'terminating a bystander',
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bystander'",
  ],
  [
    'cancelling a bystander',
    "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'bystander'",
  ],
  // Server files and programs.
  ['COPY TO a file', "COPY customers TO '/tmp/toolshed-sql-attack-copy'"],
  ['COPY TO PROGRAM', `COPY (SELECT 1) TO PROGRAM 'touch ${programTarget}'`],
  ['COPY FROM PROGRAM', "COPY customers FROM PROGRAM 'echo 9'"],
  ['pg_read_file', "SELECT pg_read_file('/etc/passwd')"],
  ['pg_ls_dir', "SELECT pg_ls_dir('.')"],
  ['CREATE EXTENSION', 'CREATE EXTENSION IF NOT EXISTS dblink'],
  // Large objects.
  ['lo_import', "SELECT lo_import('/etc/passwd')"],
  ['lo_create', 'SELECT lo_create(0)'],
  ['lo_from_bytea', "SELECT lo_from_bytea(0, '\\x41')"],
  // Remote links.
  ['dblink', "SELECT * FROM dblink('dbname=app', 'DELETE FROM orders') AS t(x text)"],
  ['dblink_exec', "SELECT dblink_exec('dbname=app', 'DELETE FROM orders')"],
  // Sequences.
  ['nextval', "SELECT nextval('invoice_numbers')"],
  ['setval', "SELECT setval('orders_id_seq', 1)"],
  ['ALTER SEQUENCE', 'ALTER SEQUENCE invoice_numbers RESTART 100'],
  // Prepared statements, cursors and functions left behind.
  ['PREPARE', 'PREPARE p AS SELECT 1'],
  ['DECLARE WITH HOLD', 'DECLARE c CURSOR WITH HOLD FOR SELECT * FROM orders'],
  ['DO', 'DO $$ BEGIN DELETE FROM orders; END $$'],
  ['CREATE FUNCTION', "CREATE FUNCTION f() RETURNS int AS 'SELECT 1' LANGUAGE sql"],
  ['query_to_xml', "SELECT query_to_xml('DELETE FROM orders RETURNING 1', true, true, '')"],
  ['CALL', 'CALL anything()'],
  ['CREATE TEMP TABLE', 'CREATE TEMP TABLE t (x int)'],
  ['EXPLAIN ANALYZE of a write', 'EXPLAIN ANALYZE DELETE FROM orders'],
  ['txid_current', 'SELECT txid_current()'],
  ['pg_reload_conf', 'SELECT pg_reload_conf()'],
  // Runaways.
  ['an endless scan', forever],
  [
    'an endless recursive CTE',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r',
  ],
  ['pg_sleep', 'SELECT pg_sleep(100)'],
  // The other arguments as injection points.
  [
    'params holding SQL',
    { tool: 'query', args: { sql: 'SELECT $1::text', params: ["x'); DELETE FROM orders; --"] } },
    'answered',
  ],
  ['max_rows holding SQL', { tool: 'query', args: { sql: 'SELECT 1', max_rows: '1; DELETE FROM orders' } }],
  ['database holding SQL', { tool: 'query', args: { sql: 'SELECT 1', database: 'app; DROP TABLE orders' } }],
  ['a table name holding SQL', { tool: 'describe_table', args: { table: 'orders; DROP TABLE orders' } }],
  ['a quoted table name holding SQL', { tool: 'describe_table', args: { table: `orders' OR 1=1 --` } }],
  ['explain_query of a write', { tool: 'explain_query', args: { sql: 'DELETE FROM orders' } }],
  [
    'explain_query closing its own statement',
    { tool: 'explain_query', args: { sql: 'SELECT 1); DELETE FROM orders; --' } },
  ],
  ['explain_query of ANALYZE', { tool: 'explain_query', args: { sql: 'ANALYZE orders' } }],
];

/** Everything a call could change, from a superuser's separate connection, as one text. */
async function checksum(admin: pg.Client): Promise<string> {
  const { rows: relations } = await admin.query<{ name: string }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg\\_%' ORDER BY 1`,
  );
  const parts: unknown[] = [];
  for (const { name } of relations) {
    parts.push(
      name,
      (await admin.query(`SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) AS sum FROM ${name} t`)).rows,
    );
  }
  for (const sql of [
    `SELECT c.relname, c.relkind, c.relacl::text, c.relnamespace::regnamespace::text FROM pg_class c
      WHERE c.relnamespace::regnamespace::text NOT LIKE 'pg\\_temp%' AND c.relnamespace::regnamespace::text NOT LIKE 'pg\\_toast\\_temp%' ORDER BY 1, 4`,
    'SELECT rolname, rolsuper, rolcanlogin, rolpassword, rolvaliduntil::text FROM pg_authid ORDER BY 1',
    'SELECT roleid::regrole::text, member::regrole::text FROM pg_auth_members ORDER BY 1, 2',
    'SELECT nspname, nspacl::text FROM pg_namespace ORDER BY 1',
    'SELECT datname, datacl::text FROM pg_database ORDER BY 1',
    'SELECT setdatabase, setrole, setconfig::text FROM pg_db_role_setting ORDER BY 1, 2',
    'SELECT name, setting, applied FROM pg_file_settings ORDER BY 1, 2',
    'SELECT schemaname, sequencename, last_value FROM pg_sequences ORDER BY 1, 2',
    'SELECT count(*) FROM pg_largeobject_metadata',
    "SELECT proname FROM pg_proc WHERE pronamespace <> 'pg_catalog'::regnamespace AND pronamespace <> 'information_schema'::regnamespace ORDER BY 1",
    'SELECT extname FROM pg_extension ORDER BY 1',
    'SELECT objoid, description FROM pg_description WHERE objoid >= 16384 ORDER BY 1, 2',
    'SELECT count(*) FROM pg_prepared_xacts',
  ]) {
    parts.push((await admin.query(sql)).rows);
  }
  return JSON.stringify(parts);
}

const roles: [PostgresRole, boolean][] = [
  ['reader', false],
  ['owner', false],
  ['superuser', true],
];

describe.runIf(serviceGate(postgresService, it))('PostgreSQL attack suite', () => {
  let postgres: PostgresServer;
  let admin: pg.Client;
  let bystander: pg.Client;
  let bystanderPid: number;
  const notifications: string[] = [];
  let baseline: string;
  const clients = new Map<PostgresRole, { client: TestClient; close(): Promise<void> }>();

  beforeAll(async () => {
    postgres = await startPostgresServer();
    admin = await postgres.admin();
    bystander = await postgres.admin();
    await bystander.query("SET application_name = 'bystander'");
    await bystander.query('LISTEN attack');
    bystander.on('notification', (message) => notifications.push(message.payload ?? ''));
    bystanderPid = (await bystander.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    baseline = await checksum(admin);
    for (const [role, allowPrivilegedRole] of roles) {
      const server = createSqlServer({
        databases: { app: postgres.url(role) },
        allowPrivilegedRole,
        limits: { timeoutMs: 500 },
      });
      const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
      clients.set(role, {
        client,
        async close() {
          await client.close();
          await server.close();
        },
      });
    }
  }, 120_000);

  afterAll(async () => {
    for (const { close } of clients.values()) await close();
    await bystander?.end();
    await admin?.end();
    await postgres?.stop();
    rmSync(programTarget, { force: true });
  });

  it('has at least 40 cases', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(40);
  });

  describe.each(roles.map(([role]) => role))('as the %s', (role) => {
    it.each(attacks)('%s', async (_, attack, outcome = 'refused') => {
      const { client } = clients.get(role) as { client: TestClient };
      const call = typeof attack === 'string' ? { tool: 'query', args: { sql: attack } } : attack;
      const result = await client.callTool(call.tool, call.args);
      if (outcome === 'refused') expect(result.isError, JSON.stringify(result.content)).toBe(true);
      else expect(result.isError, JSON.stringify(result.content)).toBeUndefined();
      // Nothing of ours still running, and no lock held by anyone but the checking session.
      for (;;) {
        const { rows } = await admin.query(
          `SELECT count(*)::int AS active FROM pg_stat_activity
            WHERE application_name LIKE 'toolshed-sql%' AND state IS DISTINCT FROM 'idle' AND pid <> pg_backend_pid()`,
        );
        if (rows[0].active === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The server's own first connection (its role check) may still be finishing as the first case ends; a lock
      // a call left behind would never go, so the check waits for them to go rather than sampling once.
      await expect
        .poll(
          async () =>
            (
              await admin.query(
                `SELECT locktype, mode, a.application_name FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
                  WHERE l.pid IS DISTINCT FROM pg_backend_pid() AND l.locktype <> 'virtualxid'`,
              )
            ).rows,
          { timeout: 10_000, interval: 50 },
        )
        .toEqual([]);
      expect(await checksum(admin)).toBe(baseline);
      expect((await bystander.query('SELECT pg_backend_pid() AS pid')).rows[0].pid).toBe(bystanderPid);
      expect(notifications).toEqual([]);
      expect(existsSync(programTarget)).toBe(false);
      expect((await admin.query('SELECT 1 AS answer')).rows).toEqual([{ answer: 1 }]);
    });
  });
});
