import { beforeAll, describe, expect, it } from 'vitest';
import { AdmittedStatementCache, checkPostgresStatement, loadPostgresParser } from './postgres-statement-gate.ts';

// The gate alone, without a server: what it lets through and what it refuses. The layers behind it are
// tested without it in postgres-layers.test.ts.

beforeAll(() => loadPostgresParser());

const refusal = (sql: string) => {
  try {
    checkPostgresStatement(sql);
    return undefined;
  } catch (error) {
    return (error as { code: string; message: string }).code;
  }
};

describe('PostgreSQL statement gate', () => {
  it.each([
    'SELECT 1',
    'select id, name from customers where id = $1',
    'WITH recent AS (SELECT * FROM orders WHERE placed_at > now() - interval $$1 day$$) SELECT count(*) FROM recent',
    'VALUES (1, 2), (3, 4)',
    'TABLE customers',
    'SHOW search_path',
    'EXPLAIN SELECT * FROM orders',
    'EXPLAIN (COSTS false) SELECT 1',
    "SELECT 'DELETE FROM orders; DROP TABLE x' AS text",
    'SELECT $tag$; COMMIT; DROP TABLE orders; $tag$',
    'SELECT 1 -- ; DROP TABLE orders',
    'SELECT 1;',
    'SELECT current_setting($1)',
    'SELECT pg_backend_pid()',
    'SELECT lower(name) FROM customers',
  ])('lets %s through', (sql) => {
    expect(refusal(sql)).toBeUndefined();
  });

  it.each([
    ['a write', 'DELETE FROM orders'],
    ['DDL', 'DROP TABLE orders'],
    ['a transaction escape', 'COMMIT; DROP TABLE orders'],
    ['a second statement', 'SELECT 1; SELECT 2'],
    ['a statement hidden after a comment', 'SELECT 1 /* x */; DELETE FROM orders'],
    ['a data-modifying CTE', 'WITH gone AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM gone'],
    [
      'a nested data-modifying CTE',
      'SELECT * FROM (WITH x AS (UPDATE orders SET total = 0 RETURNING id) SELECT id FROM x) q',
    ],
    ['SELECT INTO', 'SELECT * INTO stolen FROM orders'],
    ['FOR UPDATE', 'SELECT * FROM orders FOR UPDATE'],
    ['EXPLAIN ANALYZE', 'EXPLAIN ANALYZE DELETE FROM orders'],
    ['EXPLAIN (ANALYZE) of a read', 'EXPLAIN (ANALYZE, BUFFERS) SELECT 1'],
    ['EXPLAIN of a write', 'EXPLAIN DELETE FROM orders'],
    ['SET', 'SET statement_timeout = 0'],
    ['set_config', "SELECT set_config('statement_timeout', '0', false)"],
    ['a qualified set_config', "SELECT pg_catalog.set_config('role', 'postgres', false)"],
    ['pg_notify', "SELECT pg_notify('channel', 'x')"],
    ['NOTIFY', 'NOTIFY channel'],
    ['LISTEN', 'LISTEN channel'],
    ['a session advisory lock', 'SELECT pg_advisory_lock(1)'],
    ['a try advisory lock', 'SELECT pg_try_advisory_lock(1)'],
    ['LOCK', 'LOCK TABLE orders'],
    ['pg_terminate_backend', 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity'],
    ['pg_cancel_backend', 'SELECT pg_cancel_backend(1)'],
    ['pg_read_file', "SELECT pg_read_file('/etc/passwd')"],
    ['pg_ls_dir', "SELECT * FROM pg_ls_dir('.')"],
    ['COPY TO PROGRAM', "COPY orders TO PROGRAM 'id'"],
    ['lo_import', "SELECT lo_import('/etc/passwd')"],
    ['lo_export', "SELECT lo_export(1, '/tmp/x')"],
    ['dblink', "SELECT * FROM dblink('host=x', 'DELETE FROM t') AS t(x int)"],
    ['nextval', "SELECT nextval('invoice_numbers')"],
    ['setval', "SELECT setval('invoice_numbers', 99)"],
    ['pg_sleep', 'SELECT pg_sleep(100)'],
    ['query_to_xml', "SELECT query_to_xml('SELECT pg_notify(''c'', ''x'')', true, true, '')"],
    ['ts_stat', "SELECT * FROM ts_stat('SELECT 1')"],
    ['PREPARE', 'PREPARE p AS SELECT 1'],
    ['DECLARE', 'DECLARE c CURSOR WITH HOLD FOR SELECT 1'],
    ['DO', "DO $$ BEGIN PERFORM pg_notify('c', 'x'); END $$"],
    ['CALL', 'CALL anything()'],
    ['CREATE TEMP TABLE', 'CREATE TEMP TABLE t (x int)'],
    ['RESET', 'RESET ALL'],
    ['VACUUM', 'VACUUM orders'],
    ['a refused function in a subquery', "SELECT (SELECT pg_notify('c', 'x'))"],
    ['a refused function in FROM', "SELECT * FROM pg_read_binary_file('/etc/passwd') AS f"],
    ['a NUL character', 'SELECT 1\u0000; DROP TABLE orders'],
    ['nothing', '-- only a comment'],
  ])('refuses %s', (_, sql) => {
    expect(refusal(sql)).toBe('not_a_read');
  });

  it("answers a syntax error with the parser's words", () => {
    expect(() => checkPostgresStatement('SELEC 1')).toThrow(/PostgreSQL could not parse the statement: syntax error/);
  });

  it('remembers what it let through, and checks a refused statement in full every time', () => {
    const cache = new AdmittedStatementCache(2);
    for (let round = 0; round < 2; round++) {
      cache.check('SELECT 1');
      expect(() => cache.check('DELETE FROM orders')).toThrow(/Only SELECT-style reads/);
      expect(() => cache.check('SELEC 1')).toThrow(/could not parse/);
    }
    // More texts than it keeps: the oldest are dropped and checked in full again when they come back.
    for (const sql of ['SELECT 2', 'SELECT 1', 'SELECT 3', 'SELECT 2']) cache.check(sql);
    expect(() => cache.check("SELECT pg_notify('c', 'x')")).toThrow(/acts outside the data/);
  });

  it('lets a text of an admitted shape through, and checks any other text in full', () => {
    const cache = new AdmittedStatementCache();
    cache.check('SELECT * FROM numbers WHERE n = 1');
    cache.check('SELECT * FROM numbers WHERE n = 99999');
    cache.check('SELECT abs(1) FROM numbers');
    expect(() => cache.check('SELECT pg_sleep(1) FROM numbers')).toThrow(/acts outside the data/);
    expect(() => cache.check('SELECT * FROM numbers WHERE n = 1; DELETE FROM numbers')).toThrow(
      /exactly one statement/,
    );
    expect(() => cache.check('SELECT * FROM numbers WHERE n = 1 FOR UPDATE')).toThrow(/locks rows/);
    cache.check('EXPLAIN SELECT * FROM numbers WHERE n = 1');
    expect(() => cache.check('EXPLAIN (ANALYZE) SELECT * FROM numbers WHERE n = 1')).toThrow(/EXPLAIN ANALYZE/);
  });
});
