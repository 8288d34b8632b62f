import { describe, expect, it } from 'vitest';
import { statementShape } from './statement-shape.ts';

describe('statementShape', () => {
  it.each([
    ['SELECT * FROM t WHERE id = 17', 'SELECT * FROM t WHERE id = 0'],
    ['SELECT a,b FROM t WHERE (id=42) ORDER BY 2 LIMIT 10', 'SELECT a,b FROM t WHERE (id=0) ORDER BY 0 LIMIT 0'],
    ['SELECT * FROM t1 WHERE n >= 5\n', 'SELECT * FROM t1 WHERE n >= 0\n'],
  ])('writes the integer literals of %j as 0', (sql, shape) => {
    expect(statementShape(sql)).toBe(shape);
  });

  it.each([
    ['a digit in a name', 'SELECT c1 FROM t2', 'SELECT c1 FROM t2'],
    ['a float with an exponent', 'SELECT 1e5 FROM t', 'SELECT 1e5 FROM t'],
    ['a hexadecimal number', 'SELECT 0x1F FROM t', 'SELECT 0x1F FROM t'],
    ['a decimal', 'SELECT 1.5, .5, 5. FROM t', 'SELECT 1.5, .5, 5. FROM t'],
    ['a name that starts with digits (MySQL)', 'SELECT 1abc FROM t', 'SELECT 1abc FROM t'],
    ['a number with underscores (PostgreSQL 16)', 'SELECT 1_000 FROM t', 'SELECT 1_000 FROM t'],
  ])('leaves %s as it is', (_, sql, shape) => {
    expect(statementShape(sql)).toBe(shape);
  });

  it.each([
    ['a string', "SELECT * FROM t WHERE name = 'x'"],
    ['a quoted name', 'SELECT * FROM "t" WHERE n = 1'],
    ['a backtick name', 'SELECT * FROM `t` WHERE n = 1'],
    ['a line comment', 'SELECT 1 -- c'],
    ['a hash comment', 'SELECT 1 # c'],
    ['a block comment', 'SELECT /* c */ 1'],
    ['an executable comment', 'SELECT /*!50000 SLEEP(5) */ 1'],
    ['a second statement', 'SELECT 1; SELECT 2'],
    ['a parameter', 'SELECT * FROM t WHERE n = $1'],
    ['a placeholder', 'SELECT * FROM t WHERE n = ?'],
    ['a variable', 'SELECT @a'],
    ['an assignment', 'SELECT @a := 1'],
    ['a dollar quote', 'SELECT $$x$$'],
    ['a minus sign', 'SELECT -1'],
    ['a cast', 'SELECT 1::text'],
    ['a non-ASCII space before a digit', 'SELECT\u00a01'],
    ['a form feed', 'SELECT\f1'],
    ['a NUL character', 'SELECT 1\u0000'],
  ])('gives no shape to a text with %s', (_, sql) => {
    expect(statementShape(sql)).toBeUndefined();
  });
});
