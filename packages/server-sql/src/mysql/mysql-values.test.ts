import { serviceGate } from '@toolshed/mcp-core/testing';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MariadbServer,
  mariadbService,
  openTestDatabase,
  queryRequest,
  queryRows,
  runRequest,
  startMariadbServer,
} from '../__fixtures__/mariadb-server.ts';
import { decimalValue } from './mysql-values.ts';

const valueTypes = `
CREATE TABLE shop.value_types (
  id INT PRIMARY KEY,
  small_big BIGINT, huge_big BIGINT, max_unsigned BIGINT UNSIGNED,
  money DECIMAL(10,2), wide DECIMAL(30,10),
  ratio DOUBLE, single FLOAT,
  moment DATETIME(6), instant TIMESTAMP NULL, day DATE, span TIME, vintage YEAR,
  document JSON,
  bytes BLOB, fixed BINARY(4), large BLOB,
  flags BIT(10), wide_flags BIT(64),
  size ENUM('small', 'large'), toppings SET('cheese', 'ham', 'olives'),
  nothing VARCHAR(10), emoji VARCHAR(20) CHARACTER SET utf8mb4,
  identifier UUID, address INET6
)`;

const valueRow = `
INSERT INTO shop.value_types VALUES (
  1,
  42, 9007199254740993, 18446744073709551615,
  25.50, 12345678901234567890.1234567890,
  1.5, 1.1,
  '2024-01-02 03:04:05.123456', '2024-01-02 03:04:05', '2024-02-29', '-838:59:59', 2024,
  '{"a": [1, 2], "b": null}',
  x'00ff', x'01020304', REPEAT('x', 5000),
  b'1010101010', b'1111111111111111111111111111111111111111111111111111111111111111',
  'large', 'cheese,olives',
  NULL, 'kia ora 🌏',
  '123e4567-e89b-12d3-a456-426614174000', '::1'
)`;

describe.runIf(serviceGate(mariadbService, it))('MariaDB values as JSON', () => {
  let server: MariadbServer;
  let root: mysql.Connection;

  beforeAll(async () => {
    server = await startMariadbServer();
    root = await server.rootConnection();
    await root.query("SET time_zone = '+00:00'");
    await root.query(valueTypes);
    await root.query(valueRow);
  }, 120_000);

  afterAll(async () => {
    await root?.end();
    await server?.stop();
  });

  describe('values', () => {
    let rows: unknown[][];
    let columns: { name: string; type: string }[];

    beforeAll(async () => {
      const { database } = openTestDatabase(server.url('reader'));
      const outcome = await runRequest(database, queryRequest('SELECT * FROM value_types'));
      await database.close();
      if (!outcome.ok) throw new Error(outcome.message);
      ({ rows, columns } = JSON.parse(outcome.json));
    });

    const value = (name: string) => rows[0]?.[columns.findIndex((column) => column.name === name)];
    const type = (name: string) => columns.find((column) => column.name === name)?.type;

    it.each([
      ['small_big', 42, 'BIGINT'],
      ['huge_big', '9007199254740993', 'BIGINT'],
      ['max_unsigned', '18446744073709551615', 'BIGINT UNSIGNED'],
      ['money', 25.5, 'DECIMAL'],
      ['wide', '12345678901234567890.1234567890', 'DECIMAL'],
      ['ratio', 1.5, 'DOUBLE'],
      ['single', 1.1, 'FLOAT'],
      ['moment', '2024-01-02T03:04:05.123456', 'DATETIME'],
      ['instant', '2024-01-02T03:04:05+00:00', 'TIMESTAMP'],
      ['day', '2024-02-29', 'DATE'],
      ['span', '-838:59:59', 'TIME'],
      ['vintage', 2024, 'YEAR'],
      ['document', { a: [1, 2], b: null }, 'JSON'],
      ['bytes', { type: 'blob', bytes: 2, base64: 'AP8=' }, 'BLOB'],
      ['fixed', { type: 'blob', bytes: 4, base64: 'AQIDBA==' }, 'BINARY'],
      ['large', { type: 'blob', bytes: 5000, base64: null }, 'BLOB'],
      ['flags', 682, 'BIT'],
      ['wide_flags', '18446744073709551615', 'BIT'],
      ['size', 'large', 'ENUM'],
      ['toppings', ['cheese', 'olives'], 'SET'],
      ['nothing', null, 'VARCHAR'],
      ['emoji', 'kia ora 🌏', 'VARCHAR'],
      ['identifier', '123e4567-e89b-12d3-a456-426614174000', 'UUID'],
      ['address', '::1', 'INET6'],
    ])('%s is %j (%s)', (name, expected, expectedType) => {
      expect(value(name)).toEqual(expected);
      expect(type(name)).toBe(expectedType);
    });

    it('binds params as values, booleans as 1 and 0', async () => {
      const { database } = openTestDatabase(server.url('reader'));
      expect(await queryRows(database, 'SELECT ?, ?, ?, ?', ["a'b", 7, true, null])).toEqual([["a'b", 7, 1, null]]);
      await database.close();
    });
  });
});

describe('DECIMAL digits', () => {
  it.each([
    ['0.1', 0.1],
    ['25.50', 25.5],
    ['-0.50', -0.5],
    ['007.000', 7],
    ['9007199254740993', '9007199254740993'],
    ['12345678901234567890.12', '12345678901234567890.12'],
    ['0.12345678901234567890', '0.12345678901234567890'],
  ])('%s is %j', (text, expected) => {
    expect(decimalValue(text)).toEqual(expected);
  });
});
