import { describe, expect, it } from 'vitest';
import { QueryFailure } from '../query-failure.ts';
import { scanMysqlSql } from './mysql-sql-scan.ts';
import { AdmittedReadCache, admitMysqlRead } from './mysql-statement-gate.ts';

function refusal(sql: string): string | undefined {
  try {
    admitMysqlRead(sql, 10_000);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(QueryFailure);
    expect((error as QueryFailure).code).toBe('not_a_read');
    return (error as QueryFailure).message;
  }
}

describe('the MySQL/MariaDB statement gate', () => {
  it.each([
    'SELECT 1',
    'select * from orders where id = ?',
    'WITH recent AS (SELECT * FROM orders) SELECT * FROM recent',
    'WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT * FROM r',
    'SELECT a, ROW_NUMBER() OVER (PARTITION BY b ORDER BY c) FROM t',
    "SELECT GROUP_CONCAT(name ORDER BY name SEPARATOR ', ') FROM customers",
    'SELECT NOW() - INTERVAL 1 DAY',
    'SELECT name FROM customers UNION SELECT note FROM audit_log',
    "SELECT 'it''s', \"a \\\" quote\", `odd``name` FROM t",
    "SELECT '/*! not a comment in a string */'",
    'SELECT 1--1',
    'SELECT SLEEP(1)',
    'SELECT IS_FREE_LOCK(?)',
    'SHOW TABLES',
    'SHOW CREATE TABLE orders',
    'DESCRIBE orders',
    'EXPLAIN SELECT * FROM orders',
    'SELECT 1;',
    'SELECT 1; -- trailing comment',
  ])('admits %j', (sql) => {
    expect(refusal(sql)).toBeUndefined();
  });

  it.each([
    ['INSERT INTO t VALUES (1)', 'INSERT is not a read'],
    ['UPDATE t SET a = 1', 'UPDATE is not a read'],
    ['VALUES (1), (2)', 'as a SELECT'],
    ['DELETE FROM t', 'DELETE is not a read'],
    ['SELECT 1; SELECT 2', 'exactly one statement'],
    ['SELECT 1 /*! , SLEEP(100) */', '/*! … */'],
    ['SELECT 1 /*M! , SLEEP(100) */', '/*M! … */'],
    ['SELECT /*+ SET_VAR(max_statement_time=0) */ 1', '/*+ … */'],
    ['SELECT 1 /* unclosed', 'not closed'],
    ["SELECT 'unclosed", 'not closed'],
    ['SELECT * FROM t INTO OUTFILE "/tmp/x"', 'INTO'],
    ['SELECT 1 INTO @x', 'INTO'],
    ['SELECT @x := 1', 'Assignments'],
    ['SELECT * FROM t FOR UPDATE', 'FOR UPDATE'],
    ['SELECT * FROM t LOCK IN SHARE MODE', 'locking reads'],
    ["SELECT GET_LOCK('a', 0)", 'GET_LOCK() takes a named lock'],
    ["SELECT `release_lock`('a')", 'RELEASE_LOCK()'],
    ["SELECT LOAD_FILE('/etc/passwd')", 'LOAD_FILE()'],
    ["SELECT BENCHMARK(1000000, MD5('a'))", 'BENCHMARK()'],
    ['SELECT NEXTVAL(s)', 'NEXTVAL()'],
    ['SELECT NEXT VALUE FOR s', 'sequences'],
    ['SELECT SLEEP(11)', 'within the 10000 ms time limit'],
    ['SELECT SLEEP(a) FROM t', 'within the 10000 ms time limit'],
    ['HANDLER t OPEN', 'HANDLER'],
    ['LOCK TABLES t READ', 'LOCK TABLES'],
    ['KILL 5', 'KILL'],
    ['SET @a = 1', 'SET is not a read'],
    ['EXPLAIN ANALYZE SELECT 1', 'could not be checked'],
    ["SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS (x INT PATH '$')) AS j", 'could not be checked'],
    ['SELECT 1\u0000', 'NUL'],
  ])('refuses %j', (sql, reason) => {
    expect(refusal(sql)).toContain(reason);
  });

  it('sends the statement without its trailing semicolon', () => {
    expect(admitMysqlRead('SELECT 1 ; # done', 1000).statement).toBe('SELECT 1 ');
  });

  it('names the functions a statement calls, for the stored-function check', () => {
    expect(admitMysqlRead('SELECT UPPER(name), shop.visit(1), `bump`() FROM t', 1000).functions.sort()).toEqual([
      'bump',
      'upper',
      'visit',
    ]);
  });
});

describe('the gate’s cache of verdicts', () => {
  it('gives the same verdict for the same text, and refuses what the gate refuses every time', () => {
    const cache = new AdmittedReadCache(1000, 2);
    const first = cache.admit("SELECT 'a'");
    expect(cache.admit("SELECT 'a'")).toBe(first);
    cache.admit("SELECT 'b'");
    cache.admit("SELECT 'c'");
    expect(cache.admit("SELECT 'a'")).not.toBe(first);
    expect(() => cache.admit('DELETE FROM t')).toThrow(QueryFailure);
    expect(() => cache.admit('DELETE FROM t')).toThrow(QueryFailure);
  });

  it('admits a text of an admitted shape as itself, and checks any other text in full', () => {
    const cache = new AdmittedReadCache(10_000);
    expect(cache.admit('SELECT * FROM t WHERE n = 1')).toEqual({
      statement: 'SELECT * FROM t WHERE n = 1',
      functions: [],
    });
    expect(cache.admit('SELECT * FROM t WHERE n = 99999')).toEqual({
      statement: 'SELECT * FROM t WHERE n = 99999',
      functions: [],
    });
    expect(cache.admit('SELECT visit(2) FROM t').functions).toEqual(['visit']);
    expect(cache.admit('SELECT visit(3) FROM t').functions).toEqual(['visit']);
    expect(() => cache.admit('SELECT * FROM t WHERE n = 1 FOR UPDATE')).toThrow(/FOR UPDATE/);
    expect(() => cache.admit('SELECT * FROM t WHERE n = 1; DELETE FROM t')).toThrow(QueryFailure);
    expect(() => cache.admit('SELECT * FROM t WHERE n = 1 /*!50000 OR SLEEP(5) */')).toThrow(/executable|\/\*!/);
  });

  it('keeps a SLEEP by its text, so a longer one of the same shape is still refused', () => {
    const cache = new AdmittedReadCache(10_000);
    cache.admit('SELECT SLEEP(1)');
    cache.admit('SELECT SLEEP(1)');
    expect(() => cache.admit('SELECT SLEEP(100)')).toThrow(/SLEEP is allowed only/);
    expect(() => cache.admit('SELECT SLEEP(100) FROM t WHERE n = 1')).toThrow(/SLEEP is allowed only/);
  });
});

describe('the MySQL/MariaDB lexical scan', () => {
  it('reads strings, identifiers and comments as the server does', () => {
    const scan = scanMysqlSql("SELECT 'a\\'b -- no' AS `x``y`, 1--1 # end\n FROM t -- c\n");
    expect(scan.refusal).toBeUndefined();
    expect(scan.words).toEqual(['select', 'as', '1', '1', 'from', 't']);
    expect(scan.quotedIdentifiers).toEqual(['x`y']);
  });
});
